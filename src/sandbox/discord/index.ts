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
import { GatewayServer, type GatewaySessionInfo } from "./gateway.js";
import { createInteractionHandle, type InteractionHandle } from "./interactionHandle.js";
import { buildInteraction, type InteractionRequest } from "./interactionPayloads.js";
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

export type { InteractionHandle, InteractionRecord, WaitOptions } from "./interactionHandle.js";
export type {
  AutocompleteInteraction,
  ButtonInteraction,
  InteractionContextOptions,
  InteractionRequest,
  ModalSubmitInteraction,
  OptionInput,
  SlashInteraction,
} from "./interactionPayloads.js";
export type { RateLimitInjection } from "./rateLimits.js";
export type { CallbackRecord, MessageWrite, RestRequestRecord } from "./state.js";
export type { AttachmentView, MessageView, ThreadView } from "./views.js";
export type { GatewaySessionInfo } from "./gateway.js";
export { LIMITS } from "./validation.js";

/** Options of `startDiscordStandIn`. */
export interface DiscordStandInOptions {
  /** Port to listen on (default 0: any free port). */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Time to give the first response to an interaction (default 3,000 ms, as Discord). */
  responseDeadlineMs?: number;
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
  guildId: string;
  /** Ids of the stand-in's places: #general (threads allowed), #no-threads, a thread in #general, the DM with `member`, their category. */
  channels: { text: string; noThreads: string; thread: string; dm: string; category: string };
  /** The cast: the bot, a plain member (default invoker), an admin (Manage Server), the owner. */
  users: { bot: APIUser; member: APIUser; admin: APIUser; owner: APIUser };
  roles: { everyone: string; bot: string; admin: string };
  /** Dispatches an interaction to the connected bot. @throws when no bot is connected or a user could not send it. */
  interact(request: InteractionRequest): Promise<InteractionHandle>;
  /** The handle of an interaction dispatched earlier. */
  interaction(id: string): InteractionHandle | undefined;
  /** Registers commands as `PUT .../commands` would (global, or in `guildId`). @throws on invalid definitions. */
  registerCommands(definitions: readonly unknown[], options?: { guildId?: string }): APIApplicationCommand[];
  /** Registered commands (global, or of `guildId`). */
  commands(options?: { guildId?: string }): APIApplicationCommand[];
  /** Every REST request answered so far, oldest first (live array). */
  readonly requests: readonly RestRequestRecord[];
  /** Messages of a channel, oldest first, deleted ones left out. */
  messagesIn(channelId: string, options?: { includeEphemeral?: boolean }): MessageView[];
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
  /** Resolves once a bot session is identified and connected. */
  waitForGatewaySession(options?: { timeoutMs?: number }): Promise<void>;
  /**
   * Sets the overwrite of the bot's role on a channel (allow / deny bits), as a server admin
   * would, and sends CHANNEL_UPDATE so discord.js's cache agrees.
   */
  setBotChannelPermissions(channelId: string, overwrite: { allow?: bigint; deny?: bigint }): void;
  /** Stops the HTTP server and the gateway. */
  close(): Promise<void>;
}

/**
 * Starts a local Discord that the real discord.js client can use: REST under `/api/v10`
 * (interactions, webhooks, channels, threads, commands) and a gateway, over one server with one
 * guild. See README.md in this folder for how to point discord.js at it.
 */
export async function startDiscordStandIn(options: DiscordStandInOptions = {}): Promise<DiscordStandIn> {
  const botToken =
    options.botToken ??
    `${randomBytes(18).toString("base64url")}.${randomBytes(4).toString("base64url")}.${randomBytes(27).toString("base64url")}`;
  const state = new DiscordState({
    botToken,
    applicationId: options.applicationId ?? createSnowflakeGenerator()(),
    botUsername: options.botUsername ?? "RepoScout",
    guildName: options.guildName ?? "RepoScout Sandbox",
    botPermissions: options.botPermissions ?? DEFAULT_BOT_PERMISSIONS,
    everyonePermissions: options.everyonePermissions ?? DEFAULT_EVERYONE_PERMISSIONS,
    locale: options.locale ?? "en-US",
    responseDeadlineMs: options.responseDeadlineMs ?? 3000,
    tokenLifetimeMs: options.tokenLifetimeMs ?? 15 * 60 * 1000,
  });
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
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  state.origin = origin;
  state.gatewayUrl = `ws://${host}:${port}/gateway`;
  const handles = new Map<string, InteractionHandle>();
  const { world } = state;

  return {
    apiUrl: `${origin}/api`,
    gatewayUrl: state.gatewayUrl,
    origin,
    botToken,
    applicationId: state.applicationId,
    botUserId: state.bot.id,
    guildId: state.guild.id,
    channels: {
      text: world.channels.text.id,
      noThreads: world.channels.noThreads.id,
      thread: world.channels.thread.id,
      dm: world.channels.dm.id,
      category: world.channels.category.id,
    },
    users: { bot: state.bot, ...world.users },
    roles: world.roles,
    async interact(request) {
      if (gateway.readySessionCount() === 0) throw new Error("no bot is connected to the stand-in's gateway");
      const built = buildInteraction(state, request);
      const now = Date.now();
      const interaction = {
        ...built.state,
        dispatchedAt: now,
        deadlineAt: now + (request.responseDeadlineMs ?? state.options.responseDeadlineMs),
        expiresAt: now + state.options.tokenLifetimeMs,
        lastActivityAt: now,
      };
      state.interactions.set(interaction.id, interaction);
      state.interactionsByToken.set(interaction.token, interaction);
      const handle = createInteractionHandle(state, interaction);
      handles.set(interaction.id, handle);
      state.dispatch("INTERACTION_CREATE", built.payload, null);
      return handle;
    },
    interaction: (id) => handles.get(id),
    registerCommands: (definitions, scope = {}) =>
      overwriteCommands(state, scope.guildId ?? null, definitions),
    commands: (scope = {}) => cloneJson(state.commandsFor(scope.guildId ?? null)),
    requests: state.requests,
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
      const others = (channel.permission_overwrites ?? []).filter((entry) => entry.id !== world.roles.bot);
      channel.permission_overwrites = [
        ...others,
        {
          id: world.roles.bot,
          type: OverwriteType.Role,
          allow: (overwrite.allow ?? 0n).toString(),
          deny: (overwrite.deny ?? 0n).toString(),
        },
      ];
      state.dispatch("CHANNEL_UPDATE", cloneJson(channel), GatewayIntentBits.Guilds);
    },
    async close() {
      await gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
