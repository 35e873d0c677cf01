import {
  ChannelType,
  type APIAllowedMentions,
  type APIApplicationCommand,
  type APIApplicationCommandOptionChoice,
  type APIChannel,
  type APIDMChannel,
  type APIInteraction,
  type APIInteractionGuildMember,
  type APIMessage,
  type APIModalInteractionResponseCallbackData,
  type APIThreadChannel,
  type APIUser,
  type InteractionResponseType,
  type InteractionType,
  type ChannelFlags,
  type GuildMemberFlags,
} from "discord-api-types/v10";
import { channelPermissions, DM_APP_PERMISSIONS } from "./permissions.js";
import { restErrors } from "./restErrors.js";
import { createSnowflakeGenerator, type SnowflakeGenerator } from "./snowflake.js";
import { createWorld, type GuildRecord, type World, type WorldSeed } from "./world.js";

/** A file that arrived as `files[n]` in a multipart request. */
export interface UploadedFile {
  /** The n of `files[n]` (what an attachment's `id` refers to in the payload). */
  index: number;
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** How a message was written. */
export type WriteVia = "callback" | "webhook" | "channel" | "seed";

/** One create or edit of a message, as the bot sent it. */
export interface MessageWrite {
  at: number;
  via: WriteVia;
  /** The JSON body (or `payload_json`) of the request, or the callback's `data`. */
  body: unknown;
  /** Names and sizes of the files uploaded with this write. */
  files: Array<{ filename: string; size: number }>;
}

/** A message the stand-in holds. `api` is what Discord would answer for it. */
export interface StoredMessage {
  id: string;
  channelId: string;
  guildId: string | null;
  api: APIMessage;
  ephemeral: boolean;
  /** A deferred response's "is thinking..." placeholder, not yet replaced. */
  loading: boolean;
  deleted: boolean;
  /** The interaction whose token wrote it (response, follow-up), if any. */
  interactionId: string | null;
  /** Bytes of each attachment, by attachment id. */
  files: Map<string, { bytes: Buffer; contentType: string }>;
  /** `allowed_mentions` of the latest write, as sent (undefined: none sent). */
  allowedMentions: APIAllowedMentions | undefined;
  writes: MessageWrite[];
  createdAt: number;
  editedAt: number | null;
}

/** A callback the stand-in accepted. */
export interface CallbackRecord {
  type: InteractionResponseType;
  data: unknown;
  at: number;
  withResponse: boolean;
}

/** Which kind of interaction the stand-in sent. */
export type InteractionKind = "slash" | "autocomplete" | "button" | "modal";

/** An interaction the stand-in dispatched, and what the bot did with it. */
export interface InteractionState {
  id: string;
  token: string;
  kind: InteractionKind;
  type: InteractionType;
  payload: APIInteraction;
  channelId: string;
  guildId: string | null;
  userId: string;
  /** The message a component was on (buttons, and modals opened from one). */
  sourceMessageId: string | null;
  /** The `/name sub` shown as `interaction.name` on response messages. */
  commandName: string | null;
  dispatchedAt: number;
  deadlineAt: number;
  expiresAt: number;
  /** The first (and only accepted) response. */
  response: { type: InteractionResponseType; at: number } | null;
  callbacks: CallbackRecord[];
  originalMessageId: string | null;
  deferredEphemeral: boolean;
  followupIds: string[];
  /** Follow-up that replaced a deferred response's placeholder (it is then the original). */
  followupReplacedOriginal: boolean;
  originalEdits: number;
  modal: APIModalInteractionResponseCallbackData | null;
  choices: APIApplicationCommandOptionChoice[] | null;
  lastActivityAt: number;
}

/** Extra facts about a thread beyond its channel object. */
export interface ThreadRecord {
  id: string;
  /** The message in the parent it was started from (same id as the thread), or null. */
  starterMessageId: string | null;
  createdAt: number;
  createdBy: string;
}

/** A gateway dispatch the state asks the gateway to deliver. */
export interface DispatchRequest {
  t: string;
  d: unknown;
  /** Intent bit a session needs to receive it; null: delivered whatever the intents. */
  intent: number | null;
}

/** One REST request the stand-in answered, for tests to assert on. */
export interface RestRequestRecord {
  at: number;
  method: string;
  /** The path after `/api/v10`, percent-decoded (e.g. `/webhooks/1/tok/messages/@original`). */
  path: string;
  /** The route template, e.g. `/channels/:channel_id/messages` (`null` when no route matched). */
  route: string | null;
  query: Record<string, string>;
  status: number;
  /** The JSON body, or the parsed `payload_json` of a multipart body (undefined: none). */
  body: unknown;
  files: Array<{ field: string; filename: string; contentType: string; size: number }>;
  /** The JSON the stand-in answered (undefined for 204). */
  response: unknown;
  /** `bot`: a valid `Bot` token; `invalid`: a wrong one; `none`: no Authorization header. */
  auth: "bot" | "invalid" | "none";
  /** The interaction this request acted on, when known. */
  interactionId: string | null;
}

/** What the state is built from. */
export interface StateOptions extends WorldSeed {
  botToken: string;
  responseDeadlineMs: number;
  tokenLifetimeMs: number;
}

/**
 * Everything the local Discord knows: the world (server, roles, members, channels), messages,
 * threads, registered commands and interactions. REST routes and the gateway both read and write
 * it; it tells listeners about dispatches and about activity on an interaction.
 */
export class DiscordState {
  readonly nextId: SnowflakeGenerator = createSnowflakeGenerator();
  readonly options: StateOptions;
  readonly world: World;
  readonly bot: APIUser;
  readonly guild: GuildRecord;
  readonly users = new Map<string, APIUser>();
  readonly channels = new Map<string, APIChannel>();
  readonly messages = new Map<string, StoredMessage>();
  /** Message ids per channel, oldest first. */
  readonly channelMessageIds = new Map<string, string[]>();
  readonly threads = new Map<string, ThreadRecord>();
  readonly interactions = new Map<string, InteractionState>();
  readonly interactionsByToken = new Map<string, InteractionState>();
  readonly globalCommands: APIApplicationCommand[] = [];
  readonly guildCommands = new Map<string, APIApplicationCommand[]>();
  /** Every REST request answered, oldest first. */
  readonly requests: RestRequestRecord[] = [];
  /** The stand-in's own origin (`http://127.0.0.1:PORT`), for attachment URLs. */
  origin = "";
  /** The gateway's URL (`ws://127.0.0.1:PORT/gateway`), given out by `GET /gateway/bot`. */
  gatewayUrl = "";
  /** Identifies left in the current 24-hour window (Discord's `session_start_limit`). */
  readonly sessionStarts = { total: 1000, used: 0, resetAt: Date.now() + 86_400_000 };
  private readonly dispatchListeners = new Set<(request: DispatchRequest) => void>();
  private readonly activityListeners = new Set<(interactionId: string) => void>();

  constructor(options: StateOptions) {
    this.options = options;
    this.world = createWorld(options, this.nextId);
    this.bot = this.world.bot;
    this.guild = this.world.guild;
    for (const user of [this.bot, ...Object.values(this.world.users)]) this.users.set(user.id, user);
    const { category, text, noThreads, thread, dm } = this.world.channels;
    for (const channel of [category, text, noThreads, thread, dm]) this.channels.set(channel.id, channel);
    this.threads.set(thread.id, {
      id: thread.id,
      starterMessageId: thread.id,
      createdAt: Date.parse(this.world.threadStarter.at),
      createdBy: this.world.threadStarter.authorId,
    });
  }

  /** The application's id (equal to the bot user's id). */
  get applicationId(): string {
    return this.options.applicationId;
  }

  /** Registers a listener for gateway dispatches; returns a function that removes it. */
  onDispatch(listener: (request: DispatchRequest) => void): () => void {
    this.dispatchListeners.add(listener);
    return () => this.dispatchListeners.delete(listener);
  }

  /** Registers a listener for activity on interactions; returns a function that removes it. */
  onActivity(listener: (interactionId: string) => void): () => void {
    this.activityListeners.add(listener);
    return () => this.activityListeners.delete(listener);
  }

  /** Asks the gateway to deliver an event to the sessions that may receive it. */
  dispatch(t: string, d: unknown, intent: number | null): void {
    for (const listener of this.dispatchListeners) listener({ t, d, intent });
  }

  /** Notes that something happened on an interaction (a callback, an edit, a thread message). */
  touch(interactionId: string | null | undefined): void {
    if (!interactionId) return;
    const interaction = this.interactions.get(interactionId);
    if (interaction) interaction.lastActivityAt = Date.now();
    for (const listener of this.activityListeners) listener(interactionId);
  }

  /** A channel by id, or 404 Unknown Channel. */
  requireChannel(id: string): APIChannel {
    const channel = this.channels.get(id);
    if (!channel) throw restErrors.unknownChannel();
    return channel;
  }

  /** True for public, private and announcement threads. */
  isThread(channel: APIChannel): channel is APIThreadChannel {
    return (
      channel.type === ChannelType.PublicThread ||
      channel.type === ChannelType.PrivateThread ||
      channel.type === ChannelType.AnnouncementThread
    );
  }

  /** The guild id of a channel, or null for DMs. */
  guildIdOf(channel: APIChannel): string | null {
    return "guild_id" in channel && channel.guild_id ? channel.guild_id : null;
  }

  /**
   * A user's permissions in a channel, by Discord's algorithm; threads take their parent's
   * overwrites. In a DM, the fixed set an app has there.
   */
  permissionsIn(channelId: string, userId: string): bigint {
    const channel = this.requireChannel(channelId);
    if (this.guildIdOf(channel) === null) return DM_APP_PERMISSIONS;
    const member = this.guild.members.get(userId);
    if (!member) return 0n;
    const source =
      this.isThread(channel) && channel.parent_id ? this.channels.get(channel.parent_id) : channel;
    const overwrites =
      source && "permission_overwrites" in source ? (source.permission_overwrites ?? []) : [];
    return channelPermissions(this.guild, { userId, roleIds: member.roleIds }, overwrites);
  }

  /** The bot's permissions in a channel. */
  botPermissionsIn(channelId: string): bigint {
    return this.permissionsIn(channelId, this.bot.id);
  }

  /** A guild member as an interaction carries it (with `permissions` in that channel). */
  interactionMember(userId: string, channelId: string, permissions?: bigint): APIInteractionGuildMember {
    const member = this.guild.members.get(userId);
    if (!member) throw new Error(`user ${userId} is not a member of the stand-in's server`);
    return {
      user: member.user,
      roles: [...member.roleIds],
      nick: member.nick,
      avatar: null,
      banner: null,
      joined_at: member.joinedAt,
      premium_since: null,
      deaf: false,
      mute: false,
      flags: 0 as GuildMemberFlags,
      pending: false,
      communication_disabled_until: null,
      permissions: (permissions ?? this.permissionsIn(channelId, userId)).toString(),
    };
  }

  /** The DM channel between the bot and a user, made on first use as Discord does. */
  dmChannelWith(user: APIUser): APIDMChannel {
    for (const channel of this.channels.values()) {
      if (
        channel.type === ChannelType.DM &&
        channel.recipients?.some((recipient) => recipient.id === user.id)
      ) {
        return channel;
      }
    }
    const channel: APIDMChannel = {
      id: this.nextId(),
      type: ChannelType.DM,
      name: null,
      last_message_id: null,
      flags: 0 as ChannelFlags,
      recipients: [user],
    };
    this.channels.set(channel.id, channel);
    return channel;
  }

  /** Stores a new message at the end of its channel. */
  addMessage(message: StoredMessage): void {
    this.messages.set(message.id, message);
    const ids = this.channelMessageIds.get(message.channelId) ?? [];
    ids.push(message.id);
    this.channelMessageIds.set(message.channelId, ids);
  }

  /** Messages of a channel, oldest first, deleted ones left out. */
  messagesOf(channelId: string): StoredMessage[] {
    return (this.channelMessageIds.get(channelId) ?? [])
      .map((id) => this.messages.get(id))
      .filter((message): message is StoredMessage => message !== undefined && !message.deleted);
  }

  /** The interaction a thread belongs to: the one whose token wrote its starter message. */
  interactionOfThread(threadId: string): string | null {
    const record = this.threads.get(threadId);
    if (!record?.starterMessageId) return null;
    return this.messages.get(record.starterMessageId)?.interactionId ?? null;
  }

  /** The interaction a channel's activity belongs to, when the channel is such a thread. */
  interactionOfChannel(channelId: string): string | null {
    return this.threads.has(channelId) ? this.interactionOfThread(channelId) : null;
  }

  /** Commands registered for a scope: global, or one guild. */
  commandsFor(guildId: string | null): APIApplicationCommand[] {
    if (guildId === null) return this.globalCommands;
    let list = this.guildCommands.get(guildId);
    if (!list) {
      list = [];
      this.guildCommands.set(guildId, list);
    }
    return list;
  }
}
