// Over 300 lines: the generators of realistic servers (channels, roles, members, overwrites) are one table of sizes and builders.
import {
  ChannelType,
  OverwriteType,
  PermissionFlagsBits,
  type APIChannel,
  type APIEmoji,
  type APIGuildCategoryChannel,
  type APIGuildVoiceChannel,
  type APIRole,
  type APITextChannel,
  type APIUser,
  type ChannelFlags,
} from "discord-api-types/v10";
import { LazyMap } from "./lazyMap.js";
import { DISCORD_EPOCH } from "./snowflake.js";
import type { GuildRecord, MemberRecord } from "./world.js";
import { human, role } from "./worldBuilders.js";

/** How many servers to generate, and how big each is (defaults: a realistic community server). */
export interface GeneratedGuildsOptions {
  /** Number of servers the bot is in beside the hand-built ones. */
  count: number;
  /** Channels per server, categories and voice channels included (default 30, at most 1,000). */
  channels?: number;
  /** Roles per server, @everyone and the bot's role included (default 20, at most 250). */
  roles?: number;
  /** Custom emojis per server (default 20, at most 1,000). */
  emojis?: number;
  /** Members per server, the owner included (default 50, at most 1,000; built when looked up). */
  members?: number;
}

/** Ids of one generated server's parts, computed without building anything. */
export interface GeneratedGuildIds {
  index: number;
  guildId: string;
  /** Text channels first (where interactions happen), then categories and voice channels. */
  textChannelIds: string[];
  channelIds: string[];
  roleIds: string[];
  /** Member user ids; the first one owns the server. */
  memberIds: string[];
}

/** The worker id in the generated ids, so that they never meet the ids of the live generator. */
const WORKER = 2n;
/** Generated servers were "created" one millisecond apart from the first second of 2019. */
const BASE_MS = BigInt(Date.UTC(2019, 0, 1) - DISCORD_EPOCH);
/** Increment ranges (12 bits) of one server's millisecond: its parts share its timestamp. */
const CHANNEL_BASE = 1;
const ROLE_BASE = 1024;
const EMOJI_BASE = 2048;
const USER_BASE = 3072;
const MAX_PART = 1000;

const ROLE_NAMES = [
  "Moderators",
  "Maintainers",
  "Contributors",
  "Reviewers",
  "Helpers",
  "Regulars",
  "Announcements",
  "Events",
  "Beta testers",
  "Streamers",
  "Artists",
  "Bots",
  "Muted",
  "Verified",
  "Newcomers",
  "Veterans",
  "Sponsors",
  "Translators",
];
const CHANNEL_NAMES = [
  "general",
  "help",
  "showcase",
  "releases",
  "random",
  "dev-chat",
  "code-review",
  "off-topic",
  "questions",
  "feedback",
];
const LOCALES = ["en-US", "en-US", "en-US", "en-GB", "de", "fr", "es-ES", "pt-BR", "ja", "pl"];

function bounded(
  value: number | undefined,
  fallback: number,
  min: number,
  max: number,
  what: string,
): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < min || chosen > max) {
    throw new Error(`generated guilds: ${what} must be a whole number from ${min} to ${max}`);
  }
  return chosen;
}

/**
 * Thousands of realistic servers that cost nothing until something reads them. Every id is
 * computed from the server's index (timestamp = 2019-01-01 + index ms, worker 2, the part in the
 * increment), so a channel, member or role id tells which server it belongs to; parts are built
 * when looked up, and a GUILD_CREATE is built, sent and dropped. `(guild_id >> 22) % n` spreads
 * consecutive servers evenly over any shard count, as real ids do.
 */
export class GeneratedGuilds {
  readonly count: number;
  readonly channelsPerGuild: number;
  readonly rolesPerGuild: number;
  readonly emojisPerGuild: number;
  readonly membersPerGuild: number;
  private readonly bot: APIUser;
  private readonly botPermissions: bigint;
  private readonly everyonePermissions: bigint;
  private readonly joinedAt: string;

  constructor(
    options: GeneratedGuildsOptions,
    context: { bot: APIUser; botPermissions: bigint; everyonePermissions: bigint },
  ) {
    this.count = bounded(options.count, 0, 0, 1_000_000, "count");
    this.channelsPerGuild = bounded(options.channels, 30, 1, MAX_PART, "channels");
    this.rolesPerGuild = bounded(options.roles, 20, 2, 250, "roles");
    this.emojisPerGuild = bounded(options.emojis, 20, 0, MAX_PART, "emojis");
    this.membersPerGuild = bounded(options.members, 50, 1, MAX_PART, "members");
    this.bot = context.bot;
    this.botPermissions = context.botPermissions;
    this.everyonePermissions = context.everyonePermissions;
    this.joinedAt = new Date(Date.UTC(2024, 0, 1)).toISOString();
  }

  /** The last server whose id digits were computed (GUILD_CREATE asks for ~100 ids of one server). */
  private digits = { index: -1, head: "", tail: 0 };

  /** The id of part `increment` of server `index` (increment 0: the server itself). */
  private idOf(index: number, increment: number): string {
    if (this.digits.index !== index) {
      const base = (((BASE_MS + BigInt(index)) << 22n) | (WORKER << 17n)).toString();
      this.digits = { index, head: base.slice(0, -5), tail: Number(base.slice(-5)) };
    }
    // The parts differ from the server id in the last 12 bits only: add in the last 5 digits,
    // falling back to BigInt when the addition carries past them.
    const { head, tail } = this.digits;
    if (tail + increment < 100_000) return head + String(tail + increment).padStart(5, "0");
    return ((((BASE_MS + BigInt(index)) << 22n) | (WORKER << 17n)) + BigInt(increment)).toString();
  }

  /** The server id of index `index`. */
  guildId(index: number): string {
    return this.idOf(index, 0);
  }

  /** Which server and which part an id names, or null when it is no generated id. */
  decode(id: string): { index: number; increment: number } | null {
    if (!/^\d{1,20}$/.test(id)) return null;
    const value = BigInt(id);
    if (((value >> 17n) & 0x1fn) !== WORKER || ((value >> 12n) & 0x1fn) !== 0n) return null;
    const index = Number((value >> 22n) - BASE_MS);
    if (index < 0 || index >= this.count) return null;
    return { index, increment: Number(value & 0xfffn) };
  }

  /** The ids of server `index`'s channels, in order. */
  channelIds(index: number): string[] {
    const ids: string[] = [];
    for (let k = 0; k < this.channelsPerGuild; k++) ids.push(this.idOf(index, CHANNEL_BASE + k));
    return ids;
  }

  /** The ids of one server's parts. */
  ids(index: number): GeneratedGuildIds {
    const channelIds = this.channelIds(index);
    return {
      index,
      guildId: this.guildId(index),
      textChannelIds: channelIds.filter((_, k) => this.channelKind(k) === "text"),
      channelIds,
      roleIds: Array.from({ length: this.rolesPerGuild }, (_, k) =>
        k === 0 ? this.guildId(index) : this.idOf(index, ROLE_BASE + k),
      ),
      memberIds: Array.from({ length: this.membersPerGuild }, (_, k) => this.idOf(index, USER_BASE + k)),
    };
  }

  /** Every generated server id, in index order. */
  *guildIds(): Generator<string> {
    for (let index = 0; index < this.count; index++) yield this.guildId(index);
  }

  /** Builds the record of server `index` (roles and emojis; members come when looked up). */
  guild(index: number): GuildRecord {
    const guildId = this.guildId(index);
    const roles = new Map<string, APIRole>();
    roles.set(
      guildId,
      role({ id: guildId, name: "@everyone", permissions: this.everyonePermissions, position: 0 }),
    );
    const botRoleId = this.idOf(index, ROLE_BASE + 1);
    roles.set(
      botRoleId,
      role({
        id: botRoleId,
        name: this.bot.username,
        permissions: this.botPermissions,
        position: 1,
        managed: true,
        botId: this.bot.id,
      }),
    );
    for (let k = 2; k < this.rolesPerGuild; k++) {
      const id = this.idOf(index, ROLE_BASE + k);
      const moderator = k === 2;
      roles.set(
        id,
        role({
          id,
          name: ROLE_NAMES[(k - 2) % ROLE_NAMES.length]!,
          permissions: moderator
            ? PermissionFlagsBits.ManageGuild |
              PermissionFlagsBits.ManageMessages |
              PermissionFlagsBits.KickMembers
            : 0n,
          position: k,
          color: (index * 7919 + k * 104_729) & 0xffffff,
        }),
      );
    }
    const emojis: APIEmoji[] = Array.from({ length: this.emojisPerGuild }, (_, k) => ({
      id: this.idOf(index, EMOJI_BASE + k),
      name: `emoji_${k}`,
      roles: [],
      require_colons: true,
      managed: false,
      animated: k % 5 === 0,
      available: true,
    }));
    const members = new LazyMap<string, MemberRecord>();
    members.set(this.bot.id, { user: this.bot, roleIds: [botRoleId], joinedAt: this.joinedAt, nick: null });
    members.setFactory((userId) => this.member(index, userId));
    return {
      id: guildId,
      name: `Generated ${index + 1}`,
      ownerId: this.idOf(index, USER_BASE),
      roles,
      members,
      preferredLocale: LOCALES[index % LOCALES.length]!,
      emojis,
      botMember: true,
      channelIds: this.channelIds(index),
      memberCount: this.membersPerGuild + 1,
      features: index % 3 === 0 ? ["COMMUNITY", "NEWS"] : [],
    };
  }

  /** The user of a generated member id, or undefined. */
  user(id: string): APIUser | undefined {
    const part = this.decode(id);
    if (!part || part.increment < USER_BASE || part.increment - USER_BASE >= this.membersPerGuild)
      return undefined;
    const k = part.increment - USER_BASE;
    return human(id, `g${part.index}.user${k}`, `User ${k} of ${part.index + 1}`);
  }

  private member(index: number, userId: string): MemberRecord | undefined {
    const part = this.decode(userId);
    const user = this.user(userId);
    if (!part || part.index !== index || !user) return undefined;
    const k = part.increment - USER_BASE;
    // A few roles each, as members of real servers hold; one member in ten moderates.
    const pool = this.rolesPerGuild - 3;
    const positions =
      pool > 0 ? [...new Set([3 + (k % pool), 3 + ((k * 3 + 1) % pool), 3 + ((k * 7 + 2) % pool)])] : [];
    if (k % 10 === 1 && this.rolesPerGuild > 2) positions.unshift(2);
    const roleIds = positions.map((position) => this.idOf(index, ROLE_BASE + position));
    return { user, roleIds, joinedAt: this.joinedAt, nick: k % 5 === 0 ? `nick ${k}` : null };
  }

  /** What part `k` of a server's channels is: a category every 10, two voice channels per 10. */
  private channelKind(k: number): "category" | "voice" | "text" {
    const slot = k % 10;
    if (slot === 0) return "category";
    return slot >= 8 ? "voice" : "text";
  }

  /** The channel of a generated channel id, or undefined. */
  channel(id: string): APIChannel | undefined {
    const part = this.decode(id);
    if (!part || part.increment < CHANNEL_BASE || part.increment - CHANNEL_BASE >= this.channelsPerGuild)
      return undefined;
    return this.channelAt(part.index, part.increment - CHANNEL_BASE);
  }

  /** Channel `k` of server `index`. */
  channelAt(index: number, k: number): APIChannel {
    const guildId = this.guildId(index);
    const id = this.idOf(index, CHANNEL_BASE + k);
    const kind = this.channelKind(k);
    const parentId = kind === "category" ? null : this.idOf(index, CHANNEL_BASE + k - (k % 10));
    const flags = 0 as ChannelFlags;
    if (kind === "category") {
      const category: APIGuildCategoryChannel = {
        id,
        type: ChannelType.GuildCategory,
        guild_id: guildId,
        name: `Category ${k / 10 + 1}`,
        position: k / 10,
        parent_id: null,
        permission_overwrites: [],
        flags,
      };
      return category;
    }
    if (kind === "voice") {
      const voice: APIGuildVoiceChannel = {
        id,
        type: ChannelType.GuildVoice,
        guild_id: guildId,
        name: `Voice ${k}`,
        position: k,
        parent_id: parentId,
        permission_overwrites: [],
        nsfw: false,
        rate_limit_per_user: 0,
        last_message_id: null,
        bitrate: 64_000,
        user_limit: 0,
        rtc_region: null,
        flags,
      };
      return voice;
    }
    const text: APITextChannel = {
      id,
      type: ChannelType.GuildText,
      guild_id: guildId,
      name: `${CHANNEL_NAMES[k % CHANNEL_NAMES.length]}-${k}`,
      position: k,
      parent_id: parentId,
      // Every third text channel is read-only for @everyone but open to a role: real servers
      // carry overwrites like this, and they weigh in every payload that holds the channel.
      permission_overwrites:
        k % 3 === 0 && this.rolesPerGuild > 3
          ? [
              {
                id: guildId,
                type: OverwriteType.Role,
                allow: "0",
                deny: PermissionFlagsBits.SendMessages.toString(),
              },
              {
                id: this.idOf(index, ROLE_BASE + 3),
                type: OverwriteType.Role,
                allow: PermissionFlagsBits.SendMessages.toString(),
                deny: "0",
              },
            ]
          : [],
      topic: `Talk about ${CHANNEL_NAMES[k % CHANNEL_NAMES.length]} here. Be kind; read the rules first.`,
      nsfw: false,
      rate_limit_per_user: k % 4 === 0 ? 5 : 0,
      last_message_id: null,
      last_pin_timestamp: null,
      default_thread_rate_limit_per_user: 0,
      flags,
    };
    return text;
  }

  /** Every channel of server `index`, in order, built fresh. */
  channels(index: number): APIChannel[] {
    return Array.from({ length: this.channelsPerGuild }, (_, k) => this.channelAt(index, k));
  }
}
