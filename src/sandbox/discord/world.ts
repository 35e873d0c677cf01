import {
  ChannelType,
  OverwriteType,
  PermissionFlagsBits,
  type APIDMChannel,
  type APIEmoji,
  type APIGroupDMChannel,
  type APIGuildCategoryChannel,
  type APIRole,
  type APITextChannel,
  type APIThreadChannel,
  type APIUser,
  type ChannelFlags,
  type UserFlags,
} from "discord-api-types/v10";
import { createElsewhere } from "./elsewhere.js";
import { human, role } from "./worldBuilders.js";
import type { SnowflakeGenerator } from "./snowflake.js";

/** A member of the stand-in's server. */
export interface MemberRecord {
  user: APIUser;
  roleIds: string[];
  joinedAt: string;
  nick: string | null;
}

/** A server of the stand-in's world. */
export interface GuildRecord {
  id: string;
  name: string;
  ownerId: string;
  roles: Map<string, APIRole>;
  /** Members by user id (a lazy map for generated servers: members are built when looked up). */
  members: Map<string, MemberRecord>;
  preferredLocale: string;
  /** Custom emojis. */
  emojis: APIEmoji[];
  /** The app is installed to the server (its bot is a member); false: only user installs reach it. */
  botMember: boolean;
  /** Ids of its channels (threads excluded), in order. */
  channelIds: string[];
  /** How many members Discord counts (`member_count`). */
  memberCount: number;
  features: string[];
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
  /** The server the app is not installed to (the bot is no member); only user installs reach it. */
  elsewhere: GuildRecord;
  /** The cast; `stranger` owns `elsewhere` and is not in the main server. */
  users: { owner: APIUser; admin: APIUser; member: APIUser; stranger: APIUser };
  roles: { everyone: string; bot: string; admin: string };
  channels: {
    category: APIGuildCategoryChannel;
    text: APITextChannel;
    noThreads: APITextChannel;
    thread: APIThreadChannel;
    dm: APIDMChannel;
    /** #code-links in the main server: a history of messages holding GitHub permalinks. */
    codeLinks: APITextChannel;
    /** #lobby of `elsewhere` (external apps allowed). */
    lobby: APITextChannel;
    /** #no-apps of `elsewhere`: @everyone is denied Use External Apps, so responses turn ephemeral. */
    noApps: APITextChannel;
    /** A group DM of member, admin and owner (the bot cannot be in one). */
    groupDm: APIGroupDMChannel;
    /** A DM between member and admin (not with the bot). */
    userDm: APIDMChannel;
  };
  /** The message in `text` that started `thread` (a thread's id equals its starter's id). */
  threadStarter: { id: string; authorId: string; content: string; at: string };
}

/**
 * Builds the stand-in's world: a server owned by one person, with an admin (Manage Server) and
 * a plain member, the bot with its managed role, a category holding #general (threads allowed)
 * and #no-threads (the bot's role may not create or post in threads), an active public thread
 * in #general started from a message, a DM channel with the member, and #code-links (a history of
 * permalinks is seeded there by the state). Beside it: a server the bot is not in, with a channel
 * forbidding external apps, a group DM and a DM between two users (see `elsewhere.ts`).
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
  const codeLinks = textChannel(nextId(), "code-links", 2, "Links to code worth a look");
  const emojis: APIEmoji[] = ["octocat", "shipit"].map((name) => ({
    id: nextId(),
    name,
    roles: [],
    require_colons: true,
    managed: false,
    animated: false,
    available: true,
  }));
  const elsewhere = createElsewhere(seed, nextId, { owner, admin, member }, now);
  return {
    bot,
    guild: {
      id: guildId,
      name: seed.guildName,
      ownerId: owner.id,
      roles,
      members,
      preferredLocale: seed.locale,
      emojis,
      botMember: true,
      channelIds: [category.id, text.id, noThreads.id, codeLinks.id],
      memberCount: members.size,
      features: [],
    },
    elsewhere: elsewhere.guild,
    users: { owner, admin, member, stranger: elsewhere.stranger },
    roles: { everyone: guildId, bot: botRoleId, admin: adminRoleId },
    channels: {
      category,
      text,
      noThreads,
      thread,
      dm,
      codeLinks,
      lobby: elsewhere.lobby,
      noApps: elsewhere.noApps,
      groupDm: elsewhere.groupDm,
      userDm: elsewhere.userDm,
    },
    threadStarter: {
      id: starterId,
      authorId: owner.id,
      content: "Let's plan the next release here.",
      at: now,
    },
  };
}
