import {
  ChannelType,
  OverwriteType,
  PermissionFlagsBits,
  type APIDMChannel,
  type APIGuildCategoryChannel,
  type APIRole,
  type APITextChannel,
  type APIThreadChannel,
  type APIUser,
  type ChannelFlags,
  type RoleFlags,
  type UserFlags,
} from "discord-api-types/v10";
import type { SnowflakeGenerator } from "./snowflake.js";

/** A member of the stand-in's server. */
export interface MemberRecord {
  user: APIUser;
  roleIds: string[];
  joinedAt: string;
  nick: string | null;
}

/** The stand-in's one server. */
export interface GuildRecord {
  id: string;
  name: string;
  ownerId: string;
  roles: Map<string, APIRole>;
  members: Map<string, MemberRecord>;
  preferredLocale: string;
}

/** What the world is built from. */
export interface WorldSeed {
  applicationId: string;
  botUsername: string;
  guildName: string;
  botPermissions: bigint;
  everyonePermissions: bigint;
  locale: string;
}

/** The fixed cast and places of the stand-in, with their ids for tests. */
export interface World {
  bot: APIUser;
  guild: GuildRecord;
  users: { owner: APIUser; admin: APIUser; member: APIUser };
  roles: { everyone: string; bot: string; admin: string };
  channels: {
    category: APIGuildCategoryChannel;
    text: APITextChannel;
    noThreads: APITextChannel;
    thread: APIThreadChannel;
    dm: APIDMChannel;
  };
  /** The message in `text` that started `thread` (a thread's id equals its starter's id). */
  threadStarter: { id: string; authorId: string; content: string; at: string };
}

function human(id: string, username: string, globalName: string): APIUser {
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

function role(input: {
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

/**
 * Builds the stand-in's world: a server owned by one person, with an admin (Manage Server) and
 * a plain member, the bot with its managed role, a category holding #general (threads allowed)
 * and #no-threads (the bot's role may not create or post in threads), an active public thread
 * in #general started from a message, and a DM channel with the member.
 */
export function createWorld(seed: WorldSeed, nextId: SnowflakeGenerator): World {
  const guildId = nextId();
  const now = new Date().toISOString();
  const bot: APIUser = {
    id: seed.applicationId,
    username: seed.botUsername,
    // Bots keep four-digit discriminators; derive one from the id so it is stable per id.
    discriminator: String(1000 + Number(BigInt(seed.applicationId) % 9000n)),
    global_name: null,
    avatar: null,
    bot: true,
    public_flags: 0 as UserFlags,
    flags: 0 as UserFlags,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: null,
  };
  const owner = human(nextId(), "olive.owner", "Olive");
  const admin = human(nextId(), "ada.admin", "Ada");
  const member = human(nextId(), "mel.member", "Mel");
  const botRoleId = nextId();
  const adminRoleId = nextId();
  const roles = new Map<string, APIRole>([
    [guildId, role({ id: guildId, name: "@everyone", permissions: seed.everyonePermissions, position: 0 })],
    [
      botRoleId,
      role({
        id: botRoleId,
        name: seed.botUsername,
        permissions: seed.botPermissions,
        position: 2,
        managed: true,
        botId: bot.id,
      }),
    ],
    [
      adminRoleId,
      role({
        id: adminRoleId,
        name: "Admins",
        permissions: PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageMessages,
        position: 1,
        color: 0x3498db,
      }),
    ],
  ]);
  const members = new Map<
    string,
    { user: APIUser; roleIds: string[]; joinedAt: string; nick: string | null }
  >([
    [owner.id, { user: owner, roleIds: [], joinedAt: now, nick: null }],
    [admin.id, { user: admin, roleIds: [adminRoleId], joinedAt: now, nick: null }],
    [member.id, { user: member, roleIds: [], joinedAt: now, nick: null }],
    [bot.id, { user: bot, roleIds: [botRoleId], joinedAt: now, nick: null }],
  ]);
  const categoryId = nextId();
  const category: APIGuildCategoryChannel = {
    id: categoryId,
    type: ChannelType.GuildCategory,
    guild_id: guildId,
    name: "Text Channels",
    position: 0,
    parent_id: null,
    permission_overwrites: [],
    flags: 0 as ChannelFlags,
  };
  const textChannel = (id: string, name: string, position: number, topic: string): APITextChannel => ({
    id,
    type: ChannelType.GuildText,
    guild_id: guildId,
    name,
    position,
    parent_id: categoryId,
    permission_overwrites: [],
    topic,
    nsfw: false,
    rate_limit_per_user: 0,
    last_message_id: null,
    last_pin_timestamp: null,
    default_thread_rate_limit_per_user: 0,
    flags: 0 as ChannelFlags,
  });
  const text = textChannel(nextId(), "general", 0, "Ask RepoScout about repositories");
  const noThreads = textChannel(nextId(), "no-threads", 1, "RepoScout may not start threads here");
  const threadDenied =
    PermissionFlagsBits.CreatePublicThreads |
    PermissionFlagsBits.CreatePrivateThreads |
    PermissionFlagsBits.SendMessagesInThreads;
  noThreads.permission_overwrites = [
    { id: botRoleId, type: OverwriteType.Role, allow: "0", deny: threadDenied.toString() },
  ];
  const starterId = nextId();
  const thread: APIThreadChannel = {
    id: starterId,
    type: ChannelType.PublicThread,
    guild_id: guildId,
    parent_id: text.id,
    owner_id: owner.id,
    name: "release planning",
    last_message_id: null,
    rate_limit_per_user: 0,
    message_count: 0,
    member_count: 1,
    total_message_sent: 0,
    flags: 0 as ChannelFlags,
    thread_metadata: {
      archived: false,
      auto_archive_duration: 10080,
      archive_timestamp: now,
      locked: false,
      create_timestamp: now,
    },
  };
  const dm: APIDMChannel = {
    id: nextId(),
    type: ChannelType.DM,
    name: null,
    last_message_id: null,
    flags: 0 as ChannelFlags,
    recipients: [member],
  };
  return {
    bot,
    guild: {
      id: guildId,
      name: seed.guildName,
      ownerId: owner.id,
      roles,
      members,
      preferredLocale: seed.locale,
    },
    users: { owner, admin, member },
    roles: { everyone: guildId, bot: botRoleId, admin: adminRoleId },
    channels: { category, text, noThreads, thread, dm },
    threadStarter: {
      id: starterId,
      authorId: owner.id,
      content: "Let's plan the next release here.",
      at: now,
    },
  };
}
