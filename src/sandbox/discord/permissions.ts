import { PermissionFlagsBits, type APIOverwrite, type APIRole } from "discord-api-types/v10";

/** Every permission bit Discord defines, what an owner or Administrator holds. */
export const ALL_PERMISSIONS: bigint = Object.values(PermissionFlagsBits).reduce((all, bit) => all | bit, 0n);

const P = PermissionFlagsBits;

/** What a new server's @everyone role may do (Discord's defaults for a community-less server). */
export const DEFAULT_EVERYONE_PERMISSIONS: bigint =
  P.CreateInstantInvite |
  P.AddReactions |
  P.Stream |
  P.ViewChannel |
  P.SendMessages |
  P.EmbedLinks |
  P.AttachFiles |
  P.ReadMessageHistory |
  P.MentionEveryone |
  P.UseExternalEmojis |
  P.Connect |
  P.Speak |
  P.UseVAD |
  P.ChangeNickname |
  P.UseApplicationCommands |
  P.RequestToSpeak |
  P.CreatePublicThreads |
  P.CreatePrivateThreads |
  P.UseExternalStickers |
  P.SendMessagesInThreads |
  P.UseEmbeddedActivities |
  P.SendVoiceMessages |
  P.SendPolls |
  P.UseExternalApps;

/** What the bot's managed role holds when it is invited with RepoScout's install link. */
export const DEFAULT_BOT_PERMISSIONS: bigint =
  P.ViewChannel |
  P.SendMessages |
  P.SendMessagesInThreads |
  P.CreatePublicThreads |
  P.EmbedLinks |
  P.AttachFiles |
  P.ReadMessageHistory |
  P.UseExternalEmojis |
  P.AddReactions;

/**
 * What an app may do in a DM with a user (`app_permissions` of a DM interaction): no thread,
 * no moderation permission exists there.
 */
export const DM_APP_PERMISSIONS: bigint =
  P.AddReactions |
  P.ViewChannel |
  P.SendMessages |
  P.EmbedLinks |
  P.AttachFiles |
  P.ReadMessageHistory |
  P.MentionEveryone |
  P.UseExternalEmojis |
  P.UseApplicationCommands |
  P.UseExternalStickers |
  P.SendVoiceMessages |
  P.SendPolls |
  P.UseExternalApps;

/** The member side of a permission computation. */
export interface PermissionSubject {
  userId: string;
  roleIds: readonly string[];
}

/** The guild side of a permission computation. */
export interface PermissionGuild {
  id: string;
  ownerId: string;
  roles: ReadonlyMap<string, APIRole>;
}

/**
 * A member's server-wide permissions, by Discord's documented algorithm: the owner holds all;
 * otherwise @everyone's bits OR the member's roles' bits, and Administrator implies all.
 */
export function basePermissions(guild: PermissionGuild, member: PermissionSubject): bigint {
  if (member.userId === guild.ownerId) return ALL_PERMISSIONS;
  let permissions = BigInt(guild.roles.get(guild.id)?.permissions ?? "0");
  for (const roleId of member.roleIds) {
    const role = guild.roles.get(roleId);
    if (role) permissions |= BigInt(role.permissions);
  }
  if ((permissions & P.Administrator) !== 0n) return ALL_PERMISSIONS;
  return permissions;
}

/**
 * A member's permissions in a channel: base permissions, then the @everyone overwrite, the
 * member's role overwrites together, then the member's own overwrite (Discord's order). Without
 * View Channel nothing else applies; without Send Messages the send-dependent bits fall away.
 */
export function channelPermissions(
  guild: PermissionGuild,
  member: PermissionSubject,
  overwrites: readonly APIOverwrite[],
): bigint {
  const base = basePermissions(guild, member);
  if (base === ALL_PERMISSIONS) return ALL_PERMISSIONS;
  let permissions = base;
  const everyone = overwrites.find((overwrite) => overwrite.id === guild.id);
  if (everyone) permissions = (permissions & ~BigInt(everyone.deny)) | BigInt(everyone.allow);
  let allow = 0n;
  let deny = 0n;
  for (const overwrite of overwrites) {
    if (overwrite.type === 0 && overwrite.id !== guild.id && member.roleIds.includes(overwrite.id)) {
      allow |= BigInt(overwrite.allow);
      deny |= BigInt(overwrite.deny);
    }
  }
  permissions = (permissions & ~deny) | allow;
  const own = overwrites.find((overwrite) => overwrite.type === 1 && overwrite.id === member.userId);
  if (own) permissions = (permissions & ~BigInt(own.deny)) | BigInt(own.allow);
  if ((permissions & P.ViewChannel) === 0n) return 0n;
  if ((permissions & P.SendMessages) === 0n) {
    permissions &= ~(P.MentionEveryone | P.SendTTSMessages | P.AttachFiles | P.EmbedLinks);
  }
  return permissions;
}

/** True when every bit of `required` is in `held`. */
export function hasPermissions(held: bigint, required: bigint): boolean {
  return (held & required) === required;
}
