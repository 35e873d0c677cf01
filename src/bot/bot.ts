import { setTimeout as sleep } from "node:timers/promises";
import { Events, REST, Status } from "discord.js";
import type { Logger } from "../logger.js";
import type { BotMetrics, MetricsSources } from "../metrics/botMetrics.js";
import type { CommandModule } from "./commandModule.js";
import { createInteractionCore, type InteractionCore } from "./core/interactionCore.js";
import { restResponder, type DiscordRest } from "./core/responder.js";
import { createGatewayClient, type ShardSelection } from "./gateway/gatewayClient.js";
import { createBotHttpServer, type BotHttpServer } from "./http/httpServer.js";
import { createLinkPreviews, type LinkPreviews } from "./linkPreviews.js";
import { createInteractionsEndpoint } from "./http/interactionsEndpoint.js";
import { createMemoryReplayGuard, type ReplayGuard } from "./http/replayGuard.js";
import { createSignatureVerifier } from "./http/signature.js";
import type { Services } from "./services.js";

/** How long a stop waits for Discord to take the "restarting" edits of unfinished interactions. */
const ABANDON_MS = 1_000;

/** How interactions reach this process (SPEC section 5). */
export type Transport = "gateway" | "http";

export interface Bot {
  transport: Transport;
  core: InteractionCore;
  /** The HTTP server's base URL once started (HTTP mode, or gateway mode with a port), else null. */
  readonly httpUrl: string | null;
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
  /** The HTTP server's port: required in HTTP mode (0: any free port); in gateway mode, `/healthz` only. */
  httpPort?: number | undefined;
  httpHost?: string;
  /** Gateway mode: the shards of this process. */
  shards?: ShardSelection;
  commands: ReadonlyMap<string, CommandModule>;
  services: Services;
  logger: Logger;
  deferAfterMs?: number;
  /** The bound on work in flight (see the core's MAX_ACTIVE and MAX_QUEUED). */
  admission?: { maxActive?: number; maxQueued?: number };
  /** Where the bot counts what it does (`GET /metrics`); absent: no metrics route. */
  metrics?: BotMetrics & { setSources(sources: MetricsSources): void };
  /** What the metrics' gauges read beside the shards (the default token's budget). */
  metricsSources?: MetricsSources;
  /** Whether the stores answer, for `GET /readyz` (absent: not checked). */
  storesAnswer?: () => Promise<boolean>;
  /** HTTP mode: where requests already taken are remembered (default: this process's memory). */
  replayGuard?: ReplayGuard;
}

/**
 * Creates the bot: the interaction core and its transport. With a public key, Discord POSTs
 * interactions to `/interactions` and no gateway connection is opened; without, a discord.js
 * client runs the gateway shards of this process and hands their raw interactions to the core.
 */
export function createBot(options: BotOptions): Bot {
  const { logger } = options;
  const core = createInteractionCore({
    commands: options.commands,
    services: options.services,
    logger,
    ...(options.deferAfterMs !== undefined ? { deferAfterMs: options.deferAfterMs } : {}),
    ...options.admission,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const interactionsRest = new REST({
    api: options.apiUrl,
    globalRequestsPerSecond: Number.POSITIVE_INFINITY,
  });
  const transport: Transport = options.publicKey ? "http" : "gateway";
  const client =
    transport === "gateway"
      ? createGatewayClient({
          apiUrl: options.apiUrl,
          shards: options.shards ?? { ids: undefined, count: undefined },
          logger,
          onInteraction: (interaction) => void core.handle(interaction, restResponder(rest, interaction)),
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
    bot: client?.rest ?? new REST({ api: options.apiUrl }).setToken(options.token),
    interactions: interactionsRest,
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
  const shards = (): Array<{ id: number; ready: boolean; pingMs: number }> =>
    client
      ? client.ws.shards.map((shard) => ({
          id: shard.id,
          ready: shard.status === Status.Ready,
          pingMs: shard.ping,
        }))
      : [];
  options.metrics?.setSources({ ...options.metricsSources, shards });
  /** `GET /readyz`: the gateway's shards ready (or the HTTP endpoint serving) and the stores answering. */
  const readiness = async (): Promise<Record<string, boolean>> => {
    const checks: Record<string, boolean> = {};
    if (client)
      checks.gateway = client.isReady() && shards().length > 0 && shards().every((shard) => shard.ready);
    else checks.interactions = serving;
    if (options.storesAnswer) checks.stores = await options.storesAnswer();
    return checks;
  };
  const server: BotHttpServer | null =
    transport === "http" || options.httpPort !== undefined
      ? createBotHttpServer({
          logger,
          readiness,
          ...(options.metrics ? { metrics: options.metrics.registry } : {}),
          ...(options.publicKey
            ? {
                interactions: createInteractionsEndpoint({
                  verify: createSignatureVerifier(options.publicKey),
                  core,
                  rest,
                  replayGuard: options.replayGuard ?? createMemoryReplayGuard(),
                  logger,
                }),
              }
            : {}),
        })
      : null;

  return {
    transport,
    core,
    get httpUrl() {
      return server?.url ?? null;
    },
    async start() {
      if (server) {
        const port = await server.listen(options.httpPort ?? 0, options.httpHost);
        serving = transport === "http";
        logger.info({ port, transport }, "HTTP server listening");
      }
      if (client) {
        const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
        await client.login(options.token);
        await ready;
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
      await server?.close();
    },
  };
}
