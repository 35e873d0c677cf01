// Over 300 lines: the stand-in's whole state and its invariants (messages, threads, interactions, tokens) in one class.
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
import { GeneratedGuilds, type GeneratedGuildsOptions } from "./generatedGuilds.js";
import { LazyMap } from "./lazyMap.js";
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
  /** `callback`: the callback route; `http`: the body of the reply to an interactions-endpoint POST. */
  via: "callback" | "http";
}

/** How an interaction reached the bot. */
export interface InteractionDelivery {
  transport: "gateway" | "http";
  /** Gateway: the session and its shard; `queued`: it waited for a RESUME. */
  sessionId?: string;
  shard?: [number, number];
  queued?: boolean;
  /** HTTP: the endpoint that served it (round-robin over the configured ones). */
  endpoint?: string;
  /** HTTP: the status the endpoint answered (0 while waiting; -1: no answer before the deadline or a network error). */
  status?: number;
  /** HTTP: why the endpoint's reply was not taken as the first response (e.g. a 401, 50035). */
  error?: string;
  /** HTTP: when the endpoint answered. */
  answeredAt?: number;
}

/** Which kind of interaction the stand-in sent. */
export type InteractionKind = "slash" | "autocomplete" | "button" | "modal" | "message";

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
  /** How it reached the bot (null until delivered). */
  delivery: InteractionDelivery | null;
  /** Only a user install authorizes it (`authorizing_integration_owners` without "0"): at most 5 follow-ups. */
  userInstallOnly: boolean;
  /** Discord makes its responses ephemeral (external apps forbidden to the invoker there). */
  forcedEphemeral: boolean;
  /** Requests on it that Discord refused (status >= 400), whatever the request log keeps. */
  errors: RestRequestRecord[];
  /** HTTP: the exact request sent (for `replayInteractionDelivery`). */
  signedRequest: { body: string; timestamp: string; signature: string } | null;
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
  /** The event's data, or a function making it (called only when some session receives it). */
  d: unknown;
  /** Intent bit a session needs to receive it; null: delivered whatever the intents. */
  intent: number | null;
  /** The guild the event belongs to (its shard receives it); null: DMs and the like, shard 0. */
  guildId: string | null;
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

/** What `GET|PATCH /applications/@me` show and change beyond the world. */
export interface ApplicationSettings {
  /** The public key in hex (`verify_key`). */
  verifyKey: string;
  /** The interactions endpoint URL (null: interactions go over the gateway). */
  endpointUrl(): string | null;
  /** Saves an endpoint URL after Discord's checks. @throws Error with Discord's sentence when they fail. */
  saveEndpointUrl(url: string | null): Promise<void>;
}

/** What the state is built from. */
export interface StateOptions extends WorldSeed {
  /**
   * The generator that made `applicationId`, when the stand-in chose it: every id the stand-in
   * issues must come from one generator, or two started in the same millisecond repeat an id.
   */
  nextId?: SnowflakeGenerator;
  botToken: string;
  responseDeadlineMs: number;
  tokenLifetimeMs: number;
  /** Thousands of realistic servers beside the hand-built ones (built when read). */
  generatedGuilds?: GeneratedGuildsOptions | undefined;
}

/**
 * Everything the local Discord knows: the world (server, roles, members, channels), messages,
 * threads, registered commands and interactions. REST routes and the gateway both read and write
 * it; it tells listeners about dispatches and about activity on an interaction.
 */
export class DiscordState {
  /** The one source of the ids the stand-in issues (guild, users, channels, messages...). */
  readonly nextId: SnowflakeGenerator;
  readonly options: StateOptions;
  readonly world: World;
  readonly bot: APIUser;
  /** The main server (the default of every helper). */
  readonly guild: GuildRecord;
  /** Every server: the main one, `elsewhere` (bot not a member), and generated ones when read. */
  readonly guilds = new LazyMap<string, GuildRecord>();
  readonly users = new LazyMap<string, APIUser>();
  readonly channels = new LazyMap<string, APIChannel>();
  /** The generated servers, if any. */
  readonly generated: GeneratedGuilds | null;
  /**
   * The installation contexts the app supports (its settings' "Installation Contexts"; 0 guild,
   * 1 user): `integration_types` of a command defaults to them.
   */
  appIntegrationTypes: number[] = [0, 1];
  /** Context menu commands allowed per type and scope (DISCORD-FACTS: 15 since 2026-03-03). */
  contextMenuLimit = 15;
  /** Users who installed the app to their account (a user install). */
  readonly userInstalls = new Set<string>();
  /** Private channels the bot is not part of (a group DM, a DM between two users). */
  readonly foreignChannels = new Set<string>();
  /** The DM channel with the bot, by user id. */
  private readonly dmChannels = new Map<string, string>();
  readonly messages = new Map<string, StoredMessage>();
  /** Message ids per channel, oldest first. */
  readonly channelMessageIds = new Map<string, string[]>();
  readonly threads = new Map<string, ThreadRecord>();
  readonly interactions = new Map<string, InteractionState>();
  readonly interactionsByToken = new Map<string, InteractionState>();
  readonly globalCommands: APIApplicationCommand[] = [];
  readonly guildCommands = new Map<string, APIApplicationCommand[]>();
  /**
   * Every REST request answered, oldest first (`requestLog: "full"`); with `"counts"` only those
   * refused on an interaction are kept, on the interaction, and `requestCounts` tallies the rest.
   */
  readonly requests: RestRequestRecord[] = [];
  /** `full`: every request in `requests`; `counts`: only counts by method, route and status. */
  requestLog: "full" | "counts" = "full";
  /** Requests by `METHOD route status` (both modes). */
  readonly requestCounts = new Map<string, number>();
  /**
   * At most this many interactions are held (oldest forgotten first, with the messages they
   * wrote); a forgotten interaction's token is unknown (10015, 10062), as after its 15 minutes.
   */
  maxInteractions = Number.POSITIVE_INFINITY;
  /** The application's key and interactions endpoint (set by the stand-in when it starts). */
  application: ApplicationSettings = {
    verifyKey: "0".repeat(64),
    endpointUrl: () => null,
    saveEndpointUrl: () => Promise.reject(new Error("interactions over HTTP are not set up")),
  };
  /** The stand-in's own origin (`http://127.0.0.1:PORT`), for attachment URLs. */
  origin = "";
  /** The gateway's URL (`ws://127.0.0.1:PORT/gateway`), given out by `GET /gateway/bot`. */
  gatewayUrl = "";
  /** Identifies left in the current 24-hour window (Discord's `session_start_limit`). */
  readonly sessionStarts = { total: 1000, used: 0, resetAt: Date.now() + 86_400_000 };
  /**
   * What `GET /gateway/bot` recommends: `shards` (null: one per 1,000 guilds, as Discord
   * computes it) and `max_concurrency` (the gateway enforces it).
   */
  readonly gatewaySettings: { recommendedShards: number | null; maxConcurrency: number } = {
    recommendedShards: null,
    maxConcurrency: 1,
  };
  private readonly dispatchListeners = new Set<(request: DispatchRequest) => void>();
  private readonly activityListeners = new Set<(interactionId: string) => void>();
  /** Listeners of one interaction's activity (waits of its handle): a touch wakes only them. */
  private readonly interactionListeners = new Map<string, Set<() => void>>();

  constructor(options: StateOptions) {
    this.nextId = options.nextId ?? createSnowflakeGenerator();
    this.options = options;
    this.world = createWorld(options, this.nextId);
    this.bot = this.world.bot;
    this.guild = this.world.guild;
    this.guilds.set(this.guild.id, this.guild);
    this.guilds.set(this.world.elsewhere.id, this.world.elsewhere);
    for (const user of [this.bot, ...Object.values(this.world.users)]) this.users.set(user.id, user);
    for (const channel of Object.values(this.world.channels)) this.channels.set(channel.id, channel);
    this.foreignChannels.add(this.world.channels.groupDm.id);
    this.foreignChannels.add(this.world.channels.userDm.id);
    this.dmChannels.set(this.world.users.member.id, this.world.channels.dm.id);
    const generated =
      options.generatedGuilds && options.generatedGuilds.count > 0
        ? new GeneratedGuilds(options.generatedGuilds, {
            bot: this.bot,
            botPermissions: options.botPermissions,
            everyonePermissions: options.everyonePermissions,
          })
        : null;
    this.generated = generated;
    if (generated) {
      this.guilds.setFactory((id) => {
        const part = generated.decode(id);
        return part && part.increment === 0 ? generated.guild(part.index) : undefined;
      });
      this.channels.setFactory((id) => generated.channel(id));
      this.users.setFactory((id) => generated.user(id));
    }
    const { thread } = this.world.channels;
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

  /**
   * Asks the gateway to deliver an event to the sessions that may receive it: those of the
   * guild's shard (shard 0 for events without a guild), and none for a guild the bot is not in.
   * `d` may be a function, so that no payload is built when no session listens.
   */
  dispatch(t: string, d: unknown, intent: number | null, guildId: string | null): void {
    if (guildId !== null && this.guilds.get(guildId)?.botMember !== true) return;
    for (const listener of this.dispatchListeners) listener({ t, d, intent, guildId });
  }

  /** Registers a listener for activity on one interaction; returns a function that removes it. */
  onInteractionActivity(interactionId: string, listener: () => void): () => void {
    let listeners = this.interactionListeners.get(interactionId);
    if (!listeners) {
      listeners = new Set();
      this.interactionListeners.set(interactionId, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.interactionListeners.delete(interactionId);
    };
  }

  /** Notes that something happened on an interaction (a callback, an edit, a thread message). */
  touch(interactionId: string | null | undefined): void {
    if (!interactionId) return;
    const interaction = this.interactions.get(interactionId);
    if (interaction) interaction.lastActivityAt = Date.now();
    for (const listener of this.activityListeners) listener(interactionId);
    const listeners = this.interactionListeners.get(interactionId);
    if (listeners) for (const listener of [...listeners]) listener();
  }

  /** Records an answered request: in the log or the counts, and on its interaction when refused. */
  logRequest(record: RestRequestRecord): void {
    const key = `${record.method} ${record.route ?? record.path} ${record.status}`;
    this.requestCounts.set(key, (this.requestCounts.get(key) ?? 0) + 1);
    if (this.requestLog === "full") this.requests.push(record);
    if (record.status >= 400 && record.interactionId)
      this.interactions.get(record.interactionId)?.errors.push(record);
  }

  /** Holds a new interaction, forgetting the oldest past `maxInteractions`. */
  addInteraction(interaction: InteractionState): void {
    this.interactions.set(interaction.id, interaction);
    this.interactionsByToken.set(interaction.token, interaction);
    while (this.interactions.size > this.maxInteractions) {
      const oldest = this.interactions.values().next().value as InteractionState;
      this.forgetInteraction(oldest);
    }
  }

  /** Drops an interaction and the messages its token wrote. */
  forgetInteraction(interaction: InteractionState): void {
    this.interactions.delete(interaction.id);
    this.interactionsByToken.delete(interaction.token);
    this.interactionListeners.delete(interaction.id);
    for (const id of [interaction.originalMessageId, ...interaction.followupIds]) {
      const message = id ? this.messages.get(id) : undefined;
      if (!message || message.interactionId !== interaction.id) continue;
      this.messages.delete(message.id);
      const ids = this.channelMessageIds.get(message.channelId);
      const index = ids ? ids.indexOf(message.id) : -1;
      if (ids && index >= 0) ids.splice(index, 1);
    }
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

  /** The guild record of a channel, or null for private channels. */
  guildOfChannel(channel: APIChannel): GuildRecord | null {
    const guildId = this.guildIdOf(channel);
    return guildId === null ? null : (this.guilds.get(guildId) ?? null);
  }

  /** The guilds the bot is a member of (the app is installed to them), by id. */
  *botGuildIds(): Generator<string> {
    for (const guild of this.guilds.values()) {
      if (guild.botMember && !this.generated?.decode(guild.id)) yield guild.id;
    }
    if (this.generated) yield* this.generated.guildIds();
  }

  /** How many guilds the bot is in. */
  botGuildCount(): number {
    let count = this.generated?.count ?? 0;
    for (const guild of this.guilds.values())
      if (guild.botMember && !this.generated?.decode(guild.id)) count++;
    return count;
  }

  /**
   * A guild as it is now, without keeping a generated one that was never read (GUILD_CREATE of
   * thousands of generated servers must not fill the stand-in's memory).
   */
  peekGuild(id: string): GuildRecord | undefined {
    if (this.guilds.holds(id) || !this.generated) return this.guilds.get(id);
    const part = this.generated.decode(id);
    return part && part.increment === 0 ? this.generated.guild(part.index) : undefined;
  }

  /** A channel as it is now, without keeping a generated one that was never read. */
  peekChannel(id: string): APIChannel | undefined {
    if (this.channels.holds(id) || !this.generated) return this.channels.get(id);
    return this.generated.channel(id);
  }

  /** True when the bot can reach a channel: it is in its guild, or it is one of the DM's ends. */
  botCanReach(channel: APIChannel): boolean {
    const guild = this.guildOfChannel(channel);
    if (guild) return guild.botMember;
    return !this.foreignChannels.has(channel.id);
  }

  /**
   * A user's permissions in a channel, by Discord's algorithm; threads take their parent's
   * overwrites. In a DM, the fixed set an app has there.
   */
  permissionsIn(channelId: string, userId: string): bigint {
    const channel = this.requireChannel(channelId);
    const guild = this.guildOfChannel(channel);
    if (guild === null) return userId === this.bot.id && !this.botCanReach(channel) ? 0n : DM_APP_PERMISSIONS;
    const member = guild.members.get(userId);
    if (!member) return 0n;
    const source =
      this.isThread(channel) && channel.parent_id ? this.channels.get(channel.parent_id) : channel;
    const overwrites =
      source && "permission_overwrites" in source ? (source.permission_overwrites ?? []) : [];
    return channelPermissions(guild, { userId, roleIds: member.roleIds }, overwrites);
  }

  /** The bot's permissions in a channel. */
  botPermissionsIn(channelId: string): bigint {
    return this.permissionsIn(channelId, this.bot.id);
  }

  /** A guild member as an interaction carries it (with `permissions` in that channel). */
  interactionMember(userId: string, channelId: string, permissions?: bigint): APIInteractionGuildMember {
    const guild = this.guildOfChannel(this.requireChannel(channelId));
    const member = guild?.members.get(userId);
    if (!member) throw new Error(`user ${userId} is not a member of the server of channel ${channelId}`);
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
    const known = this.dmChannels.get(user.id);
    const existing = known ? this.channels.get(known) : undefined;
    if (existing?.type === ChannelType.DM) return existing;
    const channel: APIDMChannel = {
      id: this.nextId(),
      type: ChannelType.DM,
      name: null,
      last_message_id: null,
      flags: 0 as ChannelFlags,
      recipients: [user],
    };
    this.channels.set(channel.id, channel);
    this.dmChannels.set(user.id, channel.id);
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
