import type { APIRole, APIUser, RoleFlags, UserFlags } from "discord-api-types/v10";

/** A human user as Discord describes one (no avatar, new-style username). */
export function human(id: string, username: string, globalName: string): APIUser {
  return {
    id,
    username,
    discriminator: "0",
    global_name: globalName,
    avatar: null,
    public_flags: 0 as UserFlags,
    flags: 0 as UserFlags,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: null,
  };
}

/** A role as Discord describes one. */
export function role(input: {
  id: string;
  name: string;
  permissions: bigint;
  position: number;
  managed?: boolean;
  botId?: string;
  color?: number;
}): APIRole {
  const color = input.color ?? 0;
  return {
    id: input.id,
    name: input.name,
    color,
    colors: { primary_color: color, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: input.position,
    permissions: input.permissions.toString(),
    managed: input.managed ?? false,
    mentionable: false,
    flags: 0 as RoleFlags,
    ...(input.botId ? { tags: { bot_id: input.botId } } : {}),
  };
}
