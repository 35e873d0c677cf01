import {
  Client,
  Events,
  GatewayDispatchEvents,
  GatewayIntentBits,
  Options,
  type APIInteraction,
  type GatewayMessageCreateDispatchData,
  type GatewayMessageDeleteDispatchData,
  type GatewayMessageUpdateDispatchData,
} from "discord.js";
import type { Logger } from "../../logger.js";
import type { Dispatcher } from "undici";

/** The shards of this process (SPEC section 5): both undefined, every shard Discord recommends. */
export interface ShardSelection {
  ids: number[] | undefined;
  count: number | undefined;
}

/**
 * discord.js's `shards` and `shardCount` for a selection: the ids named (out of `count`), every id
 * below `count`, or "auto" (the count `GET /gateway/bot` recommends, all in this process).
 */
export function shardOptions(shards: ShardSelection): { shards: number[] | "auto"; shardCount?: number } {
  if (shards.count === undefined) return { shards: "auto" };
  const ids = shards.ids ?? Array.from({ length: shards.count }, (_, id) => id);
  return { shards: ids, shardCount: shards.count };
}

/**
 * Every cache discord.js lets a bot limit, at 0: the core reads raw payloads and never looks at a
 * discord.js structure, so none of them is ever read. Users and members matter most: discord.js
 * adds the asker of every interaction to them, and without a limit they grow with every person
 * who ever asked (about 2.4 KB each, never swept). The guild, channel and role caches cannot be
 * limited (discord.js says so) and need not be: without the Guilds intent nothing fills them.
 */
export const GATEWAY_CACHE_LIMITS = {
  ApplicationCommandManager: 0,
  ApplicationEmojiManager: 0,
  AutoModerationRuleManager: 0,
  BaseGuildEmojiManager: 0,
  DMMessageManager: 0,
  EntitlementManager: 0,
  GuildBanManager: 0,
  GuildEmojiManager: 0,
  GuildForumThreadManager: 0,
  GuildInviteManager: 0,
  GuildMemberManager: 0,
  GuildMessageManager: 0,
  GuildScheduledEventManager: 0,
  GuildStickerManager: 0,
  GuildTextThreadManager: 0,
  MessageManager: 0,
  PresenceManager: 0,
  ReactionManager: 0,
  ReactionUserManager: 0,
  StageInstanceManager: 0,
  ThreadManager: 0,
  ThreadMemberManager: 0,
  UserManager: 0,
  VoiceStateManager: 0,
} as const;

/**
 * Turns off discord.js's own handling of INTERACTION_CREATE on `client`. After the raw event above,
 * discord.js builds an Interaction of the payload (its User, GuildMember, channel and options
 * resolver; a Message for a message command) only to emit `Events.InteractionCreate`, which nothing
 * here listens to. That work ran on every interaction's path: the core's handler returns at its
 * first await, discord.js builds the structure, and only then does the answer go on. It was also
 * garbage in every burst. The action is discord.js's internal `client.actions.InteractionCreate`;
 * if a later discord.js has none, this says so once and changes nothing (the answers are the same,
 * only slower).
 */
function buildNoInteractionStructures(client: Client, logger: Logger): void {
  const actions = (client as unknown as { actions?: Record<string, { handle?: unknown } | undefined> })
    .actions;
  const action = actions?.["InteractionCreate"];
  if (typeof action?.handle !== "function") {
    logger.warn(
      "discord.js has no InteractionCreate action to turn off: it builds interaction objects nobody reads",
    );
    return;
  }
  action.handle = () => ({});
}

/** Where the message events go when the client asks for them (automatic previews, SPEC section 7). */
export interface MessageEvents {
  created(message: GatewayMessageCreateDispatchData): void;
  updated(message: GatewayMessageUpdateDispatchData): void;
  deleted(message: GatewayMessageDeleteDispatchData): void;
}

/**
 * What each close code Discord will not resume means to an operator (DISCORD-FACTS "Gateway close
 * codes"), naming the setting to look at. discord.js does not reconnect after these: a process
 * that stays up after one serves nothing while its `/healthz` says it is alive.
 */
const FATAL_CLOSES: Readonly<Record<number, string>> = {
  4004: "authentication failed: Discord refused DISCORD_TOKEN (it is wrong, or was reset in the developer portal: set the current one)",
  4010: "invalid shard: a shard id of DISCORD_SHARDS is not valid for DISCORD_SHARD_COUNT",
  4011: "sharding required: the bot is in too many servers for one shard; set DISCORD_SHARD_COUNT (or leave DISCORD_SHARDS and DISCORD_SHARD_COUNT unset: Discord's recommended count)",
  4012: "invalid API version: this discord.js asks for a gateway version Discord no longer serves; update RepoScout",
  4013: "invalid intents: the intents the bot asks for are not valid",
  4014: "disallowed intents: the bot asks for a privileged intent the developer portal does not grant (Bot > Privileged Gateway Intents: enable it, or unset DISCORD_MESSAGE_CONTENT)",
};

/** The meaning of a gateway close code Discord will not resume, or undefined for one it will. */
export function fatalCloseMeaning(code: number): string | undefined {
  return FATAL_CLOSES[code];
}

/**
 * The errors @discordjs/ws rejects a login with when Discord closes the first connection for good
 * (its WebSocketShard's close handling), by the close code: during start, the login fails with one
 * of these before discord.js reports the shard's close.
 */
const LOGIN_CLOSE_ERRORS: Readonly<Record<string, number>> = {
  "Authentication failed": 4004,
  "Invalid shard": 4010,
  "Sharding is required": 4011,
  "Used an invalid API version": 4012,
  "Used invalid intents": 4013,
  "Used disallowed intents": 4014,
};

/** The close behind a failed login (see LOGIN_CLOSE_ERRORS), with its meaning, or undefined. */
export function fatalCloseOfLoginError(error: unknown): { code: number; meaning: string } | undefined {
  const code = error instanceof Error ? LOGIN_CLOSE_ERRORS[error.message] : undefined;
  const meaning = code === undefined ? undefined : fatalCloseMeaning(code);
  return code === undefined || meaning === undefined ? undefined : { code, meaning };
}

/** A shard closed for good: the code and what it means (see {@link fatalCloseMeaning}). */
export interface FatalClose {
  shardId: number;
  code: number;
  meaning: string;
}

/**
 * The discord.js client of the gateway transport. It asks for no intent at all: interactions reach
 * every bot whatever its intents (DISCORD-FACTS), and everything the bot needs of a server or a
 * channel comes in the interaction itself (`app_permissions`, the partial channel, the member). So
 * Discord sends no GUILD_CREATE, and memory does not grow with the number of servers (with the
 * Guilds intent, discord.js kept about 59 MB per 1,000 realistic servers). Each INTERACTION_CREATE's
 * raw payload goes to `onInteraction`, whatever discord.js makes of it.
 *
 * With `messages` (`DISCORD_MESSAGE_CONTENT=true`) it asks for Guild Messages and the privileged
 * Message Content, and hands each raw MESSAGE_CREATE, MESSAGE_UPDATE and MESSAGE_DELETE to them.
 * Still no Guilds intent: discord.js finds no channel of a message in its (empty) caches, so it
 * keeps none of them, and memory per server stays as without the intents.
 */
export function createGatewayClient(options: {
  apiUrl: string;
  shards: ShardSelection;
  logger: Logger;
  onInteraction: (interaction: APIInteraction, shardId: number) => void;
  /** A shard closed with a code Discord will not resume (logged here at fatal first). */
  onFatalClose?: (close: FatalClose) => void;
  /** Ask for the message intents and hand their events here (SPEC section 7). */
  messages?: MessageEvents | undefined;
  /** The dispatcher of the client's REST (default undici's global one, as discord.js's). */
  agent?: Dispatcher;
}): Client {
  const { logger, messages } = options;
  const client = new Client({
    intents: messages ? [GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent] : [],
    ...shardOptions(options.shards),
    makeCache: Options.cacheWithLimits(GATEWAY_CACHE_LIMITS),
    // Nothing is cached, so there is nothing to sweep.
    sweepers: {},
    rest: { api: options.apiUrl, ...(options.agent ? { agent: options.agent } : {}) },
    allowedMentions: { parse: [] },
  });
  client.ws.on(GatewayDispatchEvents.InteractionCreate, (interaction: APIInteraction, shardId: number) =>
    options.onInteraction(interaction, shardId),
  );
  buildNoInteractionStructures(client, logger);
  if (messages) {
    client.ws.on(GatewayDispatchEvents.MessageCreate, (message: GatewayMessageCreateDispatchData) =>
      messages.created(message),
    );
    client.ws.on(GatewayDispatchEvents.MessageUpdate, (message: GatewayMessageUpdateDispatchData) =>
      messages.updated(message),
    );
    client.ws.on(GatewayDispatchEvents.MessageDelete, (message: GatewayMessageDeleteDispatchData) =>
      messages.deleted(message),
    );
  }
  client.on(Events.Error, (error) => logger.error({ err: error }, "discord client error"));
  client.on(Events.Warn, (message) => logger.warn({ discord: message }, "discord client warning"));
  client.on(Events.ShardReady, (shardId) => {
    // READY lists the shard's servers (ids only, "unavailable" without the Guilds intent), and
    // discord.js builds a Guild object with its dozen managers for each: about 15 MB per 1,000
    // servers that nothing reads. The guild cache cannot be limited, so it is emptied once READY is
    // handled; without the intent, no event adds to it again until the next READY.
    client.guilds.cache.clear();
    logger.info({ shardId }, "gateway shard ready");
  });
  // discord.js emits this only for the closes it will not reconnect after (the others reconnect
  // and resume on their own).
  client.on(Events.ShardDisconnect, (event, shardId) => {
    const meaning = fatalCloseMeaning(event.code);
    if (meaning === undefined) {
      logger.warn({ shardId, code: event.code }, "gateway disconnected");
      return;
    }
    logger.fatal({ shardId, code: event.code }, `gateway closed with ${event.code}, ${meaning}`);
    options.onFatalClose?.({ shardId, code: event.code, meaning });
  });
  client.on(Events.ShardResume, (shardId) => logger.info({ shardId }, "gateway resumed"));
  return client;
}
