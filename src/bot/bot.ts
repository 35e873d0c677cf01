// Over 300 lines: the bot's start and stop for both transports, in the order that matters (operator server, warm-up, endpoint or gateway login, readiness; then drain, stores, exit): the order reads best in one place.
import { setTimeout as sleep } from "node:timers/promises";
import { Events, REST, Routes, Status } from "discord.js";
import type { Logger } from "../logger.js";
import type { BotMetrics, MetricsSources } from "../metrics/botMetrics.js";
import type { CommandModule } from "./commandModule.js";
import { createInteractionCore, type InteractionCore } from "./core/interactionCore.js";
import { createCallbackRoute } from "./core/callbackRoute.js";
import { createDiscordClock } from "./core/discordClock.js";
import { createDiscordConnections, createInteractionsRest } from "./core/discordConnections.js";
import { restResponder, type DiscordRest } from "./core/responder.js";
import {
  createGatewayClient,
  fatalCloseOfLoginError,
  type FatalClose,
  type ShardSelection,
} from "./gateway/gatewayClient.js";
import { createBotHttpServer, type BotHttpServer } from "./http/httpServer.js";
import { createLinkPreviews, type LinkPreviews } from "./linkPreviews.js";
import { createInteractionsEndpoint } from "./http/interactionsEndpoint.js";
import { createMemoryReplayGuard, type ReplayGuard } from "./http/replayGuard.js";
import { createSignatureVerifier, signatureBackend } from "./http/signature.js";
import type { Services } from "./services.js";
import { warmUp, WARM_UP_ROUNDS } from "./warmUp.js";
import { withFields } from "../withFields.js";

/** How long a stop waits for Discord to take the "restarting" edits of unfinished interactions. */
const ABANDON_MS = 1_000;

/** How interactions reach this process (SPEC section 5). */
export type Transport = "gateway" | "http";

export interface Bot {
  transport: Transport;
  core: InteractionCore;
  /**
   * The base URL of the HTTP server once started, else null: in HTTP mode the public one
   * (`/interactions`), in gateway mode the one with `/healthz`, `/readyz` and `/metrics`.
   */
  readonly httpUrl: string | null;
  /** The base URL that serves `/metrics` (with `/healthz` and `/readyz`), else null. */
  readonly metricsUrl: string | null;
  /** Connects (gateway) or listens (HTTP); resolves once interactions can arrive. */
  start(): Promise<void>;
  /**
   * Stops taking interactions, waits for those in flight (up to `drainMs`), then closes the
   * gateway connection or the HTTP server. Stores are the caller's to close afterwards.
   */
  stop(drainMs?: number): Promise<void>;
}

export interface BotOptions {
  token: string;
  apiUrl: string;
  /** The application's public key: interactions come over HTTP (no gateway connection). */
  publicKey?: string | undefined;
  /**
   * The HTTP server's port: required in HTTP mode (0: any free port); in gateway mode, `/healthz`,
   * `/readyz` and `/metrics` when `metricsPort` is not given.
   */
  httpPort?: number | undefined;
  /**
   * METRICS_PORT: `/metrics`, `/healthz` and `/readyz` on a server of their own (0: any free port),
   * never on the public `/interactions` port. Absent in HTTP mode: `/healthz` and `/readyz` stay on
   * `httpPort` and `/metrics` (the default token's budget) is not served at all.
   */
  metricsPort?: number | undefined;
  httpHost?: string;
  /** Gateway mode: the shards of this process. */
  shards?: ShardSelection;
  commands: ReadonlyMap<string, CommandModule>;
  services: Services;
  logger: Logger;
  deferAfterMs?: number;
  /** The bound on work in flight (see the core's MAX_ACTIVE and MAX_QUEUED). */
  admission?: { maxActive?: number; maxQueued?: number; maxPerUser?: number; maxPerServer?: number };
  /** Where the bot counts what it does (`GET /metrics`); absent: no metrics route. */
  metrics?: BotMetrics & { setSources(sources: MetricsSources): void };
  /** What the metrics' gauges read beside the shards (the default token's budget). */
  metricsSources?: MetricsSources;
  /** Whether the stores answer, for `GET /readyz` (absent: not checked). */
  storesAnswer?: () => Promise<boolean>;
  /** Whether GITHUB_API_URL and GITHUB_GRAPHQL_URL lead to GitHub, for `GET /readyz` (absent: not checked). */
  githubAnswers?: () => Promise<boolean>;
  /** HTTP mode: where requests already taken are remembered (default: this process's memory). */
  replayGuard?: ReplayGuard;
  /**
   * Gateway mode: a shard closed with a code Discord will not resume (4004, 4010-4014), after
   * start. The bot serves nothing more on that shard: the entry point stops the process non-zero.
   */
  onFatalClose?: (close: FatalClose) => void;
  /**
   * Rounds of sample questions answered before the bot says it is ready (see warmUp.ts); default
   * {@link WARM_UP_ROUNDS}, 0: none.
   */
  warmUpRounds?: number;
}

/** The sentence for a token Discord refuses at start (`TokenInvalid`: 401 on `GET /gateway/bot`). */
export const REFUSED_DISCORD_TOKEN =
  "Discord refused DISCORD_TOKEN (401 Unauthorized): it is wrong, or was reset in the developer portal (Bot > Reset Token); set the current one";

/**
 * Creates the bot: the interaction core and its transport. With a public key, Discord POSTs
 * interactions to `/interactions` and no gateway connection is opened; without, a discord.js
 * client runs the gateway shards of this process and hands their raw interactions to the core.
 */
export function createBot(options: BotOptions): Bot {
  const { logger } = options;
  // One reading of Discord's time for the core, the callbacks and the endpoint (./core/discordClock.ts).
  const clock = createDiscordClock({ logger });
  const core = createInteractionCore({
    commands: options.commands,
    services: options.services,
    logger,
    clock,
    ...(options.deferAfterMs !== undefined ? { deferAfterMs: options.deferAfterMs } : {}),
    ...options.admission,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const { rest: interactionsRest, close: closeInteractionsRest } = createInteractionsRest({
    apiUrl: options.apiUrl,
  });
  const callbacks = createCallbackRoute({
    apiUrl: options.apiUrl,
    fallback: interactionsRest,
    now: clock.now,
  });
  /** The bot's own REST's connections (threads, messages, its user, the gateway's address). */
  const botConnections = createDiscordConnections();
  const transport: Transport = options.publicKey ? "http" : "gateway";
  const client =
    transport === "gateway"
      ? createGatewayClient({
          apiUrl: options.apiUrl,
          agent: botConnections.agent,
          shards: options.shards ?? { ids: undefined, count: undefined },
          logger,
          onInteraction: (interaction) => void core.handle(interaction, restResponder(rest, interaction)),
          onFatalClose: (close) => {
            if (starting) starting.fail(close);
            else options.onFatalClose?.(close);
          },
          // The message intents only when the operator turned them on (SPEC section 7).
          messages: options.services.config.discord.messageContent
            ? {
                created: (message) => previews().messageCreated(message),
                updated: (message) => previews().messageUpdated(message),
                deleted: (message) => previews().messageDeleted(message),
              }
            : undefined,
        })
      : null;
  const rest: DiscordRest = {
    bot:
      client?.rest ?? new REST({ api: options.apiUrl, agent: botConnections.agent }).setToken(options.token),
    interactions: interactionsRest,
    callbacks,
  };
  let linkPreviews: LinkPreviews | undefined;
  /** Made on the first message: the client (and its REST) exists by then. */
  const previews = (): LinkPreviews =>
    (linkPreviews ??= createLinkPreviews({ services: options.services, rest: rest.bot, logger }));
  for (const restClient of [rest.bot, rest.interactions]) {
    restClient.on("rateLimited", (info) => {
      options.metrics?.discordRateLimited.inc({ global: String(info.global) });
      logger.warn(
        { route: info.route, retryAfter: info.retryAfter, global: info.global },
        "discord rate limit",
      );
    });
  }
  let serving = false;
  /** While `start` waits for READY: a fatal close ends the wait (it would never come). */
  let starting: { fail(close: FatalClose): void } | null = null;
  const shards = (): Array<{ id: number; ready: boolean; pingMs: number }> =>
    client
      ? client.ws.shards.map((shard) => ({
          id: shard.id,
          ready: shard.status === Status.Ready,
          pingMs: shard.ping,
        }))
      : [];
  options.metrics?.setSources(
    Object.assign({}, options.metricsSources, { shards, clockAheadMs: clock.aheadMs }),
  );
  /**
   * `GET /readyz`: the gateway's shards ready (or the HTTP endpoint serving), the stores answering,
   * and the GitHub URLs leading to GitHub.
   */
  const readiness = async (): Promise<Record<string, boolean>> => {
    const checks: Record<string, boolean> = {};
    if (client)
      checks.gateway = client.isReady() && shards().length > 0 && shards().every((shard) => shard.ready);
    else checks.interactions = serving;
    if (options.storesAnswer) checks.stores = await options.storesAnswer();
    if (options.githubAnswers) checks.github = await options.githubAnswers();
    return checks;
  };
  const interactions = options.publicKey
    ? createInteractionsEndpoint({
        verify: createSignatureVerifier(options.publicKey),
        core,
        rest,
        replayGuard: options.replayGuard ?? createMemoryReplayGuard(),
        logger,
        clock,
        ...(options.metrics ? { metrics: options.metrics } : {}),
      })
    : undefined;
  const operations = {
    logger,
    readiness,
    ...(options.metrics ? { metrics: options.metrics.registry } : {}),
  };
  // HTTP mode: the public port takes Discord's requests; what an operator reads lives on METRICS_PORT
  // (or, without it, health and readiness beside /interactions and no metrics). Gateway mode: one
  // server for the operator, on METRICS_PORT or else HTTP_PORT (SPEC section 5).
  const metricsPort = transport === "http" ? options.metricsPort : (options.metricsPort ?? options.httpPort);
  const server: BotHttpServer | null =
    transport === "http"
      ? createBotHttpServer({
          logger,
          ...(interactions ? { interactions } : {}),
          ...(options.metricsPort === undefined ? { readiness } : { health: false }),
        })
      : null;
  const metricsServer: BotHttpServer | null =
    metricsPort !== undefined ? createBotHttpServer(operations) : null;

  return {
    transport,
    core,
    // The bot itself, made once: the rule is for what each interaction makes (eslint.config.js).
    // eslint-disable-next-line no-restricted-syntax
    get httpUrl() {
      return (server ?? metricsServer)?.url ?? null;
    },
    // eslint-disable-next-line no-restricted-syntax
    get metricsUrl() {
      return metricsServer?.url ?? null;
    },
    async start() {
      if (!client) {
        // HTTP mode calls Discord only to answer: one read of the bot's own user checks
        // DISCORD_TOKEN now, so a wrong one stops the start instead of failing every answer.
        await rest.bot.get(Routes.user()).catch((error: unknown) => {
          if ((error as { status?: unknown }).status === 401)
            throw new Error(REFUSED_DISCORD_TOKEN, { cause: error });
          logger.warn({ err: error }, "could not check DISCORD_TOKEN with Discord at start");
        });
      }
      if (metricsServer) {
        const port = await metricsServer.listen(metricsPort ?? 0, options.httpHost);
        logger.info({ port }, "metrics, health and readiness listening");
      }
      // Before the interactions endpoint listens and before the gateway's IDENTIFY: `/readyz` says
      // ready, and Discord sends interactions, only once the answer path is compiled.
      const rounds = options.warmUpRounds ?? WARM_UP_ROUNDS;
      if (rounds > 0) {
        const startedAt = performance.now();
        const seen = await warmUp({ commands: options.commands, services: options.services, logger, rounds });
        const ms = Math.round(performance.now() - startedAt);
        if (seen.errors > 0)
          logger.warn(withFields(seen, { ms }), "warm-up: some sample questions met an error");
        else logger.info(withFields(seen, { ms }), "warmed up");
      }
      if (server) {
        const port = await server.listen(options.httpPort ?? 0, options.httpHost);
        serving = true;
        logger.info({ port, transport, signatures: signatureBackend() }, "interactions endpoint listening");
      }
      if (client) {
        let closedForGood: { code: number; meaning: string } | undefined;
        const ready = new Promise<void>((resolve, reject) => {
          starting = {
            fail: (close) => {
              closedForGood = close;
              reject(new Error(`gateway closed with ${close.code}, ${close.meaning}`));
            },
          };
          client.once(Events.ClientReady, () => resolve());
        });
        // A close while login is still under way rejects before `ready` is awaited.
        ready.catch(() => undefined);
        try {
          await client.login(options.token).catch((error: unknown) => {
            throw (error as { code?: unknown }).code === "TokenInvalid"
              ? new Error(REFUSED_DISCORD_TOKEN, { cause: error })
              : error;
          });
          await ready;
        } catch (error) {
          await client.destroy();
          // A close Discord will not resume can fail the login itself, before it is reported.
          const close = closedForGood ?? fatalCloseOfLoginError(error);
          if (close && error instanceof Error && !error.message.startsWith("gateway closed"))
            throw new Error(`gateway closed with ${close.code}, ${close.meaning}`, { cause: error });
          throw error;
        } finally {
          starting = null;
        }
        logger.info(
          {
            user: client.user?.tag,
            shards: client.ws.shards.map((s) => s.id),
          },
          "connected to Discord",
        );
      }
    },
    async stop(drainMs = 7_500) {
      serving = false;
      core.stop();
      const drained = await core.drain(drainMs);
      // Previews being posted get a moment to finish; a message is not worth holding a stop for.
      if (linkPreviews) await Promise.race([linkPreviews.idle(), sleep(ABANDON_MS)]);
      if (!drained) {
        const told = await core.abandonInFlight(ABANDON_MS);
        logger.warn(
          { inFlight: told },
          "stopping with interactions still in flight: their askers were told the bot is restarting",
        );
      }
      await client?.destroy();
      // Together: each gives what is still in flight at most 1 s (CLOSE_GRACE_MS), and a stop has 10 s.
      await Promise.all([botConnections.close(), callbacks.close(), closeInteractionsRest()]);
      await server?.close();
      await metricsServer?.close();
    },
  };
}
