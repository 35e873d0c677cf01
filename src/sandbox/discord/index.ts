// Over 300 lines: the stand-in's public face: its options, its handle's methods and their documentation; the work is in the modules it imports.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  GatewayIntentBits,
  OverwriteType,
  type APIApplicationCommand,
  type APIUser,
} from "discord-api-types/v10";
import { overwriteCommands } from "./commands.js";
import {
  deleteAsPerson,
  editAsPerson,
  postAsPerson,
  seedDemoMessages,
  type DemoLinksOptions,
} from "./demoMessages.js";
import { dispatchInteraction } from "./dispatchInteraction.js";
import { GatewayServer, type GatewaySessionInfo } from "./gateway.js";
import type { GeneratedGuildIds, GeneratedGuildsOptions } from "./generatedGuilds.js";
import { createInteractionHandle, type InteractionHandle } from "./interactionHandle.js";
import {
  HttpInteractions,
  type EndpointAnswer,
  type EndpointRequest,
  type EndpointStats,
} from "./httpInteractions.js";
import type { InteractionContextOptions, InteractionRequest } from "./interactionPayloads.js";
import { invokerAndPlace } from "./places.js";
import { InteractionSigner } from "./interactionSigner.js";
import { cloneJson } from "./json.js";
import { DEFAULT_BOT_PERMISSIONS, DEFAULT_EVERYONE_PERMISSIONS } from "./permissions.js";
import { RateLimiter, type RateLimitInjection, type RateLimitOptions } from "./rateLimits.js";
import { applicationRoutes } from "./routes/applicationRoutes.js";
import { channelRoutes } from "./routes/channelRoutes.js";
import { gatewayRoutes } from "./routes/gatewayRoutes.js";
import { interactionRoutes } from "./routes/interactionRoutes.js";
import { userRoutes } from "./routes/userRoutes.js";
import { webhookRoutes } from "./routes/webhookRoutes.js";
import { createRestHandler } from "./server.js";
import { createSnowflakeGenerator } from "./snowflake.js";
import { DiscordState, type RestRequestRecord } from "./state.js";
import { messageView, threadView, type MessageView, type ThreadView } from "./views.js";

export type {
  FirstResponse,
  InteractionHandle,
  InteractionRecord,
  WaitOptions,
} from "./interactionHandle.js";
export type {
  AutocompleteInteraction,
  ButtonInteraction,
  InteractionContextOptions,
  InteractionRequest,
  MessageCommandInteraction,
  ModalSubmitInteraction,
  OptionInput,
  PlaceName,
  SlashInteraction,
} from "./interactionPayloads.js";
export type { RateLimitInjection } from "./rateLimits.js";
export type { CallbackRecord, InteractionDelivery, MessageWrite, RestRequestRecord } from "./state.js";
export type { EndpointAnswer, EndpointRequest, EndpointStats } from "./httpInteractions.js";
export { EndpointVerificationError } from "./httpInteractions.js";
export { demoLinkMessages, type DemoLinksOptions } from "./demoMessages.js";
export type { AttachmentView, MessageView, ThreadView } from "./views.js";
export type { GatewayDelivery, GatewaySessionInfo } from "./gateway.js";
export type { GeneratedGuildIds, GeneratedGuildsOptions } from "./generatedGuilds.js";
export { shardOf } from "./gateway.js";
export { LIMITS } from "./validation.js";

/** Options of `startDiscordStandIn`. */
export interface DiscordStandInOptions {
  /** Port to listen on (default 0: any free port). */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Time to give the first response to an interaction (default 3,000 ms, as Discord). */
  responseDeadlineMs?: number;
  /**
   * How far Discord's clock is from this machine's, ms (default 0; negative: the bot's machine runs
   * ahead of Discord). Discord makes its snowflakes (interaction ids among them) and signs its HTTP
   * requests' timestamps on its own clock; what it times (the 3 s, rate-limit windows) are spans.
   */
  clockOffsetMs?: number;
  /** Lifetime of an interaction token (default 15 minutes, as Discord). */
  tokenLifetimeMs?: number;
  /** The bot token the stand-in accepts (default: a random one). */
  botToken?: string;
  /** The application (and bot user) id (default: a fresh snowflake). */
  applicationId?: string;
  /** The bot's username (default `RepoScout`). */
  botUsername?: string;
  /** The server's name (default `RepoScout Sandbox`). */
  guildName?: string;
  /** Permissions of the bot's managed role (default: what RepoScout's invite asks for). */
  botPermissions?: bigint;
  /** Permissions of @everyone (default: a new server's defaults). */
  everyonePermissions?: bigint;
  /** `heartbeat_interval` sent in HELLO (default 41,250 ms). */
  heartbeatIntervalMs?: number;
  /** Privileged intents the application may use (default none: IDENTIFY with them closes 4014). */
  privilegedIntents?: number;
  /**
   * Size of each route's rate-limit bucket (default 50 requests per 1,000 ms; Discord's real
   * buckets are smaller, e.g. 5 per 5 s for messages, which would slow tests down).
   */
  rateLimit?: RateLimitOptions;
  /** The server's preferred locale (default `en-US`). */
  locale?: string;
  /**
   * Thousands of realistic servers the bot is in beside the hand-built ones (e.g. `{ count: 5000 }`:
   * 30 channels, 20 roles, 20 emojis, 50 members each by default). Built when read, streamed as
   * GUILD_CREATE at IDENTIFY; see `generatedGuild(index)` for their ids.
   */
  generatedGuilds?: GeneratedGuildsOptions;
  /** `shards` that `GET /gateway/bot` recommends (default: one per 1,000 guilds, at least 1). */
  recommendedShards?: number;
  /** `session_start_limit.max_concurrency` (default 1, as for bots in fewer than 150,000 guilds). */
  maxConcurrency?: number;
  /**
   * The IDENTIFY window: one IDENTIFY per bucket `shard_id % max_concurrency` per window, past it
   * INVALID_SESSION (default 5,000 ms, as Discord; 0 turns the limit off for raw-client tests).
   */
  identifyWindowMs?: number;
  /** Guilds a session may hold before IDENTIFY closes with 4011 (default 2,500, as Discord). */
  maxGuildsPerShard?: number;
  /** How long a disconnected session stays resumable (default 180,000 ms). */
  resumeTimeoutMs?: number;
  /**
   * Interactions endpoint URL(s): interactions are POSTed there (round-robin over several, as a
   * load balancer would) instead of INTERACTION_CREATE on the gateway. Taken as already saved:
   * no checks are sent at start, since the bot usually starts after the stand-in (it needs
   * `publicKey`); `setInteractionsEndpoint` sends Discord's checks.
   */
  interactionsEndpoint?: string | readonly string[];
  /** The application's Ed25519 private seed, 64 hex digits (default: a fresh key pair each start). */
  interactionsKeySeed?: string;
  /**
   * Who installed the app to their account (a user install): cast names or user ids (default
   * all four: `member`, `admin`, `owner`, `stranger`). See `setUserInstall`.
   */
  userInstalls?: readonly string[];
  /** The installation contexts the app supports, 0 guild and 1 user (default both); commands default to them. */
  integrationTypes?: readonly number[];
  /** User commands and message commands allowed per scope, each (default 15, DISCORD-FACTS "Message commands"). */
  contextMenuCommandLimit?: number;
  /** The permalinks of the seeded message history (#code-links and one message in each other place). */
  demoLinks?: DemoLinksOptions;
  /**
   * `full` (default): every REST request is kept in `requests`, with copies of its body and
   * answer; `counts`: only `requestCounts()` and the refused requests of each interaction (in its
   * record's `errors`), so that a long burst does not grow memory with every request.
   */
  requestLog?: "full" | "counts";
  /**
   * Interactions held at most (default: all). Past it the oldest is forgotten with the messages its
   * token wrote; its token then answers as an expired one. For load runs: memory stays bounded.
   */
  maxInteractions?: number;
}

/** The running stand-in. */
export interface DiscordStandIn {
  /** What discord.js's `rest.api` option takes (`http://127.0.0.1:PORT/api`; it appends `/v10`). */
  apiUrl: string;
  /** The gateway URL `GET /gateway/bot` hands out (`ws://127.0.0.1:PORT/gateway`). */
  gatewayUrl: string;
  /** `http://127.0.0.1:PORT`; attachment URLs point here. */
  origin: string;
  botToken: string;
  applicationId: string;
  botUserId: string;
  /** The main server (the default of every helper). */
  guildId: string;
  /** The server's name, as members see it. */
  guildName: string;
  /** The hand-built servers: `main` (= `guildId`) and `elsewhere`, where the bot is not a member. */
  guilds: { main: string; elsewhere: string };
  /**
   * Ids of the stand-in's places: in the main server #general (threads allowed), #no-threads, a
   * thread in #general, #code-links (permalink history) and their category; the DM with `member`;
   * in `elsewhere` #lobby and #no-apps (external apps forbidden); a group DM and a DM between
   * member and admin (the bot is in neither).
   */
  channels: {
    text: string;
    noThreads: string;
    thread: string;
    dm: string;
    category: string;
    codeLinks: string;
    lobby: string;
    noApps: string;
    groupDm: string;
    userDm: string;
  };
  /**
   * The cast: the bot, a plain member (default invoker), an admin (Manage Server), the owner, and
   * `stranger`, who owns `elsewhere` and is not in the main server.
   */
  users: { bot: APIUser; member: APIUser; admin: APIUser; owner: APIUser; stranger: APIUser };
  roles: { everyone: string; bot: string; admin: string };
  /**
   * Ids of the seeded messages by name: the #code-links history (`oneLink`, `singleLine`,
   * `columnAnchor`, `slashBranch`, `severalLinks`, `wholeFile`, `tag`, `privateRepo`, `otherHost`,
   * `noLink`, or the names of `demoLinks.messages`), and `lobby`, `noApps`, `groupDm`, `dm`.
   */
  demoMessages: Readonly<Record<string, string>>;
  /** Installs the app to a user's account, or removes it (cast name or user id). */
  setUserInstall(user: string, installed: boolean): void;
  /** The application's Ed25519 public key in hex, as the developer portal shows it (`DISCORD_PUBLIC_KEY`). */
  publicKey: string;
  /**
   * Sets the interactions endpoint URL(s) (null: back to the gateway). Sends Discord's checks to
   * each first (a valid PING must get 200 `{"type":1}` as JSON; PINGs signed by another key or
   * with a changed body must get 401) unless `verify: false`; nothing changes when one fails.
   * @throws EndpointVerificationError "The specified interactions endpoint url could not be verified: <url> <why>".
   */
  setInteractionsEndpoint(
    urls: string | readonly string[] | null,
    options?: { verify?: boolean },
  ): Promise<void>;
  /** Sends Discord's checks to an endpoint (default: each configured one). @throws EndpointVerificationError */
  verifyInteractionsEndpoint(url?: string): Promise<void>;
  /** The configured endpoints and their delivery counts. */
  interactionsEndpoints(): { urls: string[]; stats: Record<string, EndpointStats> };
  /**
   * Sends one raw request to an endpoint: a PING by default, signed or badly signed, with any
   * timestamp, header set or body (for tests of the bot's checks: stale timestamp, missing header,
   * body that is not JSON).
   */
  sendToInteractionsEndpoint(request?: EndpointRequest): Promise<EndpointAnswer>;
  /** Sends again the exact signed request of an interaction delivered over HTTP (a replay). */
  replayInteractionDelivery(
    interaction: string | { id: string },
    options?: { url?: string },
  ): Promise<EndpointAnswer>;
  /** Dispatches an interaction to the bot (endpoint or gateway). @throws when no bot can receive it or a user could not send it. */
  interact(request: InteractionRequest): Promise<InteractionHandle>;
  /** The handle of an interaction dispatched earlier. */
  interaction(id: string): InteractionHandle | undefined;
  /** Registers commands as `PUT .../commands` would (global, or in `guildId`). @throws on invalid definitions. */
  registerCommands(definitions: readonly unknown[], options?: { guildId?: string }): APIApplicationCommand[];
  /** Registered commands (global, or of `guildId`). */
  commands(options?: { guildId?: string }): APIApplicationCommand[];
  /** Every REST request answered so far, oldest first (live array; empty with `requestLog: "counts"`). */
  readonly requests: readonly RestRequestRecord[];
  /** REST requests by `METHOD route status` (e.g. `POST /interactions/:interaction_id/:interaction_token/callback 204`). */
  requestCounts(): Record<string, number>;
  /** Messages of a channel, oldest first, deleted ones left out. */
  messagesIn(channelId: string, options?: { includeEphemeral?: boolean }): MessageView[];
  /**
   * Posts a message as a person would in the client (`user`: a cast name or id, default `member`;
   * `channel`: a place name or id, default #general): something for a message menu to be used on.
   */
  postAsUser(input: {
    content: string;
    user?: string;
    channel?: InteractionContextOptions["channel"];
    /** Flags the client sets (`MessageFlags.SuppressEmbeds`: sent with its embeds removed). */
    flags?: number;
    /**
     * Who writes it: `person` (default, the user), `webhook` (a webhook of the channel: author
     * is the webhook, `bot: true`, and `webhook_id` is set), or `bot` (another app's bot user).
     */
    from?: "person" | "webhook" | "bot";
  }): MessageView;
  /**
   * Edits a message as its author would in the client (new `content`, or `flags` such as
   * `SUPPRESS_EMBEDS` when they remove its embeds): MESSAGE_UPDATE. @throws when it is gone.
   */
  editAsUser(messageId: string, change: { content?: string; flags?: number }): MessageView;
  /** Deletes a message as its author would in the client: MESSAGE_DELETE. @throws when unknown. */
  deleteAsUser(messageId: string): void;
  /** One message by id (deleted ones too), or undefined. */
  message(id: string): MessageView | undefined;
  /** Every thread, oldest first, with the messages posted in it. */
  readonly threads: ThreadView[];
  /** Makes the next matching requests answer 429 (see `RateLimitInjection`). */
  injectRateLimit(injection: RateLimitInjection): void;
  /** Sends an opcode to connected clients: 7 RECONNECT, 9 INVALID_SESSION (`d`: resumable), 1 HEARTBEAT... */
  sendGatewayOp(op: number, d?: unknown): void;
  /** Closes gateway connections with a close code (default 4000: the client resumes). */
  closeGatewayConnections(code?: number): void;
  gatewaySessions(): GatewaySessionInfo[];
  /** The ids of generated server `index` (channels, roles, members), without building it. @throws when out of range. */
  generatedGuild(index: number): GeneratedGuildIds;
  /** Resolves once a bot session is identified and connected. */
  waitForGatewaySession(options?: { timeoutMs?: number }): Promise<void>;
  /**
   * Sets the overwrite of the bot's role on a channel (allow / deny bits), as a server admin
   * would, and sends CHANNEL_UPDATE so discord.js's cache agrees.
   */
  setBotChannelPermissions(channelId: string, overwrite: { allow?: bigint; deny?: bigint }): void;
  /**
   * The TCP connections open to this Discord now, REST and gateway (what a host sees of its
   * clients; a test's view, not one of Discord's routes).
   */
  openConnections(): Promise<number>;
  /** Stops the HTTP server and the gateway. */
  close(): Promise<void>;
}

/** Connections the REST and gateway socket queues before they are accepted (see where it listens). */
const LISTEN_BACKLOG = 65_535;

/**
 * Starts a local Discord that the real discord.js client can use: REST under `/api/v10`
 * (interactions, webhooks, channels, threads, commands), a sharded gateway, and interactions
 * over HTTP to endpoints it signs for, over a world of servers (the main one, one the bot is not
 * in, thousands generated on demand) and private channels. See README.md in this folder.
 */
export async function startDiscordStandIn(options: DiscordStandInOptions = {}): Promise<DiscordStandIn> {
  const botToken =
    options.botToken ??
    `${randomBytes(18).toString("base64url")}.${randomBytes(4).toString("base64url")}.${randomBytes(27).toString("base64url")}`;
  const offset = options.clockOffsetMs ?? 0;
  const discordNow = (): number => Date.now() + offset;
  const nextId = createSnowflakeGenerator(discordNow);
  const state = new DiscordState({
    nextId,
    botToken,
    applicationId: options.applicationId ?? nextId(),
    botUsername: options.botUsername ?? "RepoScout",
    guildName: options.guildName ?? "RepoScout Sandbox",
    botPermissions: options.botPermissions ?? DEFAULT_BOT_PERMISSIONS,
    everyonePermissions: options.everyonePermissions ?? DEFAULT_EVERYONE_PERMISSIONS,
    locale: options.locale ?? "en-US",
    responseDeadlineMs: options.responseDeadlineMs ?? 3000,
    tokenLifetimeMs: options.tokenLifetimeMs ?? 15 * 60 * 1000,
    generatedGuilds: options.generatedGuilds,
  });
  const maxConcurrency = options.maxConcurrency ?? 1;
  if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1)
    throw new Error("maxConcurrency must be 1 or more");
  state.gatewaySettings.maxConcurrency = maxConcurrency;
  state.gatewaySettings.recommendedShards = options.recommendedShards ?? null;
  state.appIntegrationTypes = [...(options.integrationTypes ?? [0, 1])];
  state.requestLog = options.requestLog ?? "full";
  state.maxInteractions = options.maxInteractions ?? Number.POSITIVE_INFINITY;
  state.contextMenuLimit = options.contextMenuCommandLimit ?? 15;
  const userId = (user: string): string => {
    const cast: Record<string, APIUser> = state.world.users;
    const id = cast[user]?.id ?? user;
    if (!state.users.has(id)) throw new Error(`unknown user ${user}`);
    return id;
  };
  for (const user of options.userInstalls ?? ["member", "admin", "owner", "stranger"]) {
    state.userInstalls.add(userId(user));
  }
  const demoMessages = seedDemoMessages(state, options.demoLinks);
  const signer = new InteractionSigner(options.interactionsKeySeed);
  const http = new HttpInteractions(state, signer, discordNow);
  state.application = {
    verifyKey: signer.publicKeyHex,
    endpointUrl: () => http.urls()[0] ?? null,
    saveEndpointUrl: (url) => http.set(url),
  };
  if (options.interactionsEndpoint !== undefined)
    await http.set(options.interactionsEndpoint, { verify: false });
  const rateLimiter = new RateLimiter(options.rateLimit ?? { limit: 50, windowMs: 1000 });
  const routes = [
    ...gatewayRoutes,
    ...userRoutes,
    ...applicationRoutes,
    ...interactionRoutes,
    ...webhookRoutes,
    ...channelRoutes,
  ];
  const gateway = new GatewayServer(state, {
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
    privilegedIntents: options.privilegedIntents ?? 0,
    maxConcurrency,
    identifyWindowMs: options.identifyWindowMs ?? 5000,
    maxGuildsPerShard: options.maxGuildsPerShard ?? 2500,
    resumeTimeoutMs: options.resumeTimeoutMs ?? 180_000,
    replayLimit: 1000,
  });
  const server = createServer(createRestHandler(state, routes, rateLimiter));
  server.on("upgrade", (request, socket, head) => {
    const path = new URL(request.url ?? "/", "http://stand-in.invalid").pathname;
    if (path === "/gateway" || path.startsWith("/gateway/")) gateway.handleUpgrade(request, socket, head);
    else socket.destroy();
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // Discord's edge takes a burst of new connections at once; Node's default backlog (511) made
    // a bot that opens more (its REST pool under a burst) wait for TCP's SYN retransmissions, 1 s
    // then 3 s, which Discord never makes it do. The kernel caps it at net.core.somaxconn.
    server.listen({ port: options.port ?? 0, host, backlog: LISTEN_BACKLOG }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  state.origin = origin;
  state.gatewayUrl = `ws://${host}:${port}/gateway`;
  const { world } = state;
  /** The authors of messages not written by a person: made when first needed. */
  const otherAuthors: { webhook?: string; bot?: APIUser } = {};

  return {
    apiUrl: `${origin}/api`,
    gatewayUrl: state.gatewayUrl,
    origin,
    botToken,
    applicationId: state.applicationId,
    botUserId: state.bot.id,
    guildId: state.guild.id,
    guildName: state.guild.name,
    guilds: { main: state.guild.id, elsewhere: world.elsewhere.id },
    channels: {
      text: world.channels.text.id,
      noThreads: world.channels.noThreads.id,
      thread: world.channels.thread.id,
      dm: world.channels.dm.id,
      category: world.channels.category.id,
      codeLinks: world.channels.codeLinks.id,
      lobby: world.channels.lobby.id,
      noApps: world.channels.noApps.id,
      groupDm: world.channels.groupDm.id,
      userDm: world.channels.userDm.id,
    },
    users: { bot: state.bot, ...world.users },
    roles: world.roles,
    demoMessages,
    postAsUser(input) {
      const { user, channel } = invokerAndPlace(state, {
        user: input.user ?? "member",
        ...(input.channel !== undefined ? { channel: input.channel } : {}),
      });
      const from = input.from ?? "person";
      const webhookId = from === "webhook" ? (otherAuthors.webhook ??= state.nextId()) : undefined;
      const author: APIUser =
        from === "webhook"
          ? {
              id: webhookId!,
              username: "Release Notes",
              discriminator: "0000",
              avatar: null,
              global_name: null,
              bot: true,
            }
          : from === "bot"
            ? (otherAuthors.bot ??= otherBot(state))
            : user;
      return messageView(
        state,
        postAsPerson(state, {
          channelId: channel.id,
          author,
          content: input.content,
          ...(input.flags !== undefined ? { flags: input.flags } : {}),
          ...(webhookId ? { webhookId } : {}),
        }),
      );
    },
    editAsUser(messageId, change) {
      const stored = state.messages.get(messageId);
      if (!stored) throw new Error(`unknown message ${messageId}`);
      return messageView(state, editAsPerson(state, stored, change));
    },
    deleteAsUser(messageId) {
      const stored = state.messages.get(messageId);
      if (!stored) throw new Error(`unknown message ${messageId}`);
      deleteAsPerson(state, stored);
    },
    setUserInstall(user, installed) {
      if (installed) state.userInstalls.add(userId(user));
      else state.userInstalls.delete(userId(user));
    },
    publicKey: signer.publicKeyHex,
    setInteractionsEndpoint: (urls, settings = {}) => http.set(urls, settings),
    async verifyInteractionsEndpoint(url) {
      for (const target of url ? [url] : http.urls()) await http.verify(target);
    },
    interactionsEndpoints: () => ({ urls: http.urls(), stats: http.endpointStats() }),
    sendToInteractionsEndpoint: (request) => http.send(request),
    replayInteractionDelivery(target, settings = {}) {
      const id = typeof target === "string" ? target : target.id;
      const interaction = state.interactions.get(id);
      if (!interaction) return Promise.reject(new Error(`unknown interaction ${id}`));
      return http.replay(interaction, settings.url);
    },
    async interact(request) {
      return createInteractionHandle(state, dispatchInteraction(state, { gateway, http }, request));
    },
    interaction: (id) => {
      const interaction = state.interactions.get(id);
      return interaction ? createInteractionHandle(state, interaction) : undefined;
    },
    registerCommands: (definitions, scope = {}) =>
      overwriteCommands(state, scope.guildId ?? null, definitions),
    commands: (scope = {}) => cloneJson(state.commandsFor(scope.guildId ?? null)),
    requests: state.requests,
    requestCounts: () => Object.fromEntries(state.requestCounts),
    messagesIn: (channelId, filter = {}) =>
      state
        .messagesOf(channelId)
        .filter((message) => filter.includeEphemeral !== false || !message.ephemeral)
        .map((message) => messageView(state, message)),
    message: (id) => {
      const stored = state.messages.get(id);
      return stored ? messageView(state, stored) : undefined;
    },
    get threads() {
      return [...state.threads.keys()]
        .map((id) => threadView(state, id))
        .filter((thread): thread is ThreadView => thread !== null)
        .sort((a, b) => a.createdAt - b.createdAt);
    },
    injectRateLimit: (injection) => rateLimiter.inject(injection),
    sendGatewayOp: (op, d) => gateway.sendOp(op, d),
    closeGatewayConnections: (code = 4000) => gateway.closeConnections(code),
    gatewaySessions: () => gateway.sessionInfo(),
    generatedGuild(index) {
      if (!state.generated || !Number.isInteger(index) || index < 0 || index >= state.generated.count) {
        throw new Error(`no generated guild ${index} (there are ${state.generated?.count ?? 0})`);
      }
      return state.generated.ids(index);
    },
    async waitForGatewaySession({ timeoutMs = 10_000 } = {}) {
      const started = Date.now();
      while (gateway.readySessionCount() === 0) {
        if (Date.now() - started > timeoutMs) throw new Error(`no bot connected within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    setBotChannelPermissions(channelId, overwrite) {
      const channel = state.requireChannel(channelId);
      if (!("permission_overwrites" in channel) || state.isThread(channel)) {
        throw new Error(`channel ${channelId} has no permission overwrites (a DM or a thread)`);
      }
      const botRole = state.guildOfChannel(channel)?.members.get(state.bot.id)?.roleIds[0];
      if (!botRole) throw new Error(`the bot is not a member of the server of channel ${channelId}`);
      const others = (channel.permission_overwrites ?? []).filter((entry) => entry.id !== botRole);
      channel.permission_overwrites = [
        ...others,
        {
          id: botRole,
          type: OverwriteType.Role,
          allow: (overwrite.allow ?? 0n).toString(),
          deny: (overwrite.deny ?? 0n).toString(),
        },
      ];
      state.dispatch(
        "CHANNEL_UPDATE",
        () => cloneJson(channel),
        GatewayIntentBits.Guilds,
        state.guildIdOf(channel),
      );
    },
    openConnections: () =>
      new Promise<number>((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
    async close() {
      http.close();
      await gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Another app's bot user: what it posts is a bot's message. */
function otherBot(state: DiscordState): APIUser {
  const user: APIUser = {
    id: state.nextId(),
    username: "OtherBot",
    discriminator: "0000",
    avatar: null,
    global_name: null,
    bot: true,
  };
  state.users.set(user.id, user);
  return user;
}
