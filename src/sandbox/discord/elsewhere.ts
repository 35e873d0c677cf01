import {
  ChannelType,
  OverwriteType,
  PermissionFlagsBits,
  type APIDMChannel,
  type APIGroupDMChannel,
  type APIRole,
  type APITextChannel,
  type APIUser,
  type ChannelFlags,
} from "discord-api-types/v10";
import type { SnowflakeGenerator } from "./snowflake.js";
import type { GuildRecord, MemberRecord, WorldSeed } from "./world.js";
import { human, role } from "./worldBuilders.js";

/** The places where RepoScout can only be reached through a user install. */
export interface Elsewhere {
  /** A server the app is not installed to: its bot is no member. */
  guild: GuildRecord;
  /** The server's owner, who is not in the main server. */
  stranger: APIUser;
  /** #lobby: external apps allowed (@everyone holds Use External Apps, as a new server's default). */
  lobby: APITextChannel;
  /** #no-apps: @everyone is denied Use External Apps; Discord makes app responses ephemeral there. */
  noApps: APITextChannel;
  /** A group DM of member, admin and owner (interaction context 2). */
  groupDm: APIGroupDMChannel;
  /** A DM between member and admin, not with the bot (interaction context 2). */
  userDm: APIDMChannel;
}

/**
 * Builds the places of the world the bot is not in (DISCORD-FACTS, "Installation contexts"): a
 * server where the member and the admin of the main server are members but the bot is not, with
 * one channel that forbids external apps; a group DM; a DM between two users. Only commands whose
 * `integration_types` include user install (1) reach the app there.
 */
export function createElsewhere(
  seed: WorldSeed,
  nextId: SnowflakeGenerator,
  cast: { owner: APIUser; admin: APIUser; member: APIUser },
  now: string,
): Elsewhere {
  const guildId = nextId();
  const stranger = human(nextId(), "sam.stranger", "Sam");
  const roles = new Map<string, APIRole>([
    [guildId, role({ id: guildId, name: "@everyone", permissions: seed.everyonePermissions, position: 0 })],
  ]);
  const members = new Map<string, MemberRecord>(
    [stranger, cast.member, cast.admin].map((user) => [
      user.id,
      { user, roleIds: [], joinedAt: now, nick: null },
    ]),
  );
  const channel = (name: string, position: number, topic: string): APITextChannel => ({
    id: nextId(),
    type: ChannelType.GuildText,
    guild_id: guildId,
    name,
    position,
    parent_id: null,
    permission_overwrites: [],
    topic,
    nsfw: false,
    rate_limit_per_user: 0,
    last_message_id: null,
    last_pin_timestamp: null,
    default_thread_rate_limit_per_user: 0,
    flags: 0 as ChannelFlags,
  });
  const lobby = channel("lobby", 0, "Say hello");
  const noApps = channel("no-apps", 1, "External apps may only answer privately here");
  noApps.permission_overwrites = [
    {
      id: guildId,
      type: OverwriteType.Role,
      allow: "0",
      deny: PermissionFlagsBits.UseExternalApps.toString(),
    },
  ];
  const groupDm: APIGroupDMChannel = {
    id: nextId(),
    type: ChannelType.GroupDM,
    name: "repo friends",
    icon: null,
    owner_id: cast.member.id,
    last_message_id: null,
    flags: 0 as ChannelFlags,
    recipients: [cast.member, cast.admin, cast.owner],
  };
  const userDm: APIDMChannel = {
    id: nextId(),
    type: ChannelType.DM,
    name: null,
    last_message_id: null,
    flags: 0 as ChannelFlags,
    recipients: [cast.member, cast.admin],
  };
  return {
    guild: {
      id: guildId,
      name: "Elsewhere",
      ownerId: stranger.id,
      roles,
      members,
      preferredLocale: seed.locale,
      emojis: [],
      botMember: false,
      channelIds: [lobby.id, noApps.id],
      memberCount: members.size,
      features: [],
    },
    stranger,
    lobby,
    noApps,
    groupDm,
    userDm,
  };
}
