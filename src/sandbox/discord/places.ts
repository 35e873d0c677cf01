import type { APIChannel, APIUser } from "discord-api-types/v10";
import type { InteractionContextOptions, PlaceName } from "./interactionPayloads.js";
import type { JsonObject } from "./json.js";
import type { DiscordState } from "./state.js";

/**
 * The partial channel an interaction carries: the fields Discord lists for partial channels
 * (guild channels: with the invoker's `permissions`; threads: with `thread_metadata`; private
 * channels: their recipients), built directly rather than cloned from the stored channel.
 */
export function partialChannel(state: DiscordState, channel: APIChannel, userId: string): JsonObject {
  const source = channel as APIChannel & Record<string, unknown>;
  if (state.guildIdOf(channel) === null) {
    const partial: JsonObject = { id: channel.id, type: channel.type, flags: source.flags ?? 0 };
    for (const key of ["name", "icon", "owner_id", "last_message_id", "recipients"]) {
      if (source[key] !== undefined) partial[key] = source[key];
    }
    return partial;
  }
  const partial: JsonObject = {
    id: channel.id,
    type: channel.type,
    guild_id: source.guild_id,
    name: source.name ?? null,
    parent_id: source.parent_id ?? null,
    position: source.position ?? 0,
    flags: source.flags ?? 0,
    last_message_id: source.last_message_id ?? null,
    permissions: state.permissionsIn(channel.id, userId).toString(),
  };
  for (const key of ["topic", "nsfw", "rate_limit_per_user", "last_pin_timestamp", "thread_metadata"]) {
    if (source[key] !== undefined) partial[key] = structuredClone(source[key]);
  }
  return partial;
}

/**
 * The invoker: a name of the cast or a user id. Without one, `member`; in a generated server,
 * which `member` is not in, its second member (the first owns it).
 */
export function resolveUser(
  state: DiscordState,
  user: InteractionContextOptions["user"],
  channel?: APIChannel,
): APIUser {
  const cast = state.world.users;
  if (user === undefined && channel && state.generated) {
    const part = state.generated.decode(state.guildIdOf(channel) ?? "");
    const fallback = part ? state.generated.ids(part.index).memberIds[1] : undefined;
    if (fallback) return state.users.get(fallback)!;
  }
  if (user === undefined || user === "member") return cast.member;
  if (user === "admin") return cast.admin;
  if (user === "owner") return cast.owner;
  if (user === "stranger") return cast.stranger;
  const found = state.users.get(user);
  if (!found) throw new Error(`unknown user ${user}`);
  return found;
}

const PLACES: readonly PlaceName[] = [
  "text",
  "noThreads",
  "thread",
  "dm",
  "codeLinks",
  "lobby",
  "noApps",
  "groupDm",
  "userDm",
];

/** A channel by place name or id (`dm`: the given user's DM with the bot, made on first use). */
export function resolveChannel(
  state: DiscordState,
  channel: InteractionContextOptions["channel"],
  user: APIUser | null,
): APIChannel {
  const name = channel ?? "text";
  if (name === "dm") {
    if (!user) throw new Error("a DM needs its user");
    return state.dmChannelWith(user);
  }
  if ((PLACES as readonly string[]).includes(name))
    return state.world.channels[name as Exclude<PlaceName, "dm">];
  const found = state.channels.get(name);
  if (!found) throw new Error(`unknown channel ${name}`);
  return found;
}

/** Who invokes and where: a DM needs its user first; a generated server's default invoker needs the place. */
export function invokerAndPlace(
  state: DiscordState,
  request: InteractionContextOptions,
): { user: APIUser; channel: APIChannel } {
  if (request.channel === "dm") {
    const user = resolveUser(state, request.user);
    return { user, channel: resolveChannel(state, "dm", user) };
  }
  const channel = resolveChannel(state, request.channel, null);
  return { user: resolveUser(state, request.user, channel), channel };
}
