import { Events, REST } from "discord.js";
import type { Logger } from "../logger.js";
import type { CommandModule } from "./commandModule.js";
import { createInteractionCore, type InteractionCore } from "./core/interactionCore.js";
import { restResponder, type DiscordRest } from "./core/responder.js";
import { createGatewayClient, type ShardSelection } from "./gateway/gatewayClient.js";
import type { Services } from "./services.js";

export interface Bot {
  core: InteractionCore;
  /** Connects; resolves once interactions can arrive. */
  start(): Promise<void>;
  /**
   * Stops taking interactions, waits for those in flight (up to `drainMs`), then closes the
   * gateway connection. Stores are the caller's to close afterwards.
   */
  stop(drainMs?: number): Promise<void>;
}

export interface BotOptions {
  token: string;
  apiUrl: string;
  /** The shards of this process. */
  shards?: ShardSelection;
  commands: ReadonlyMap<string, CommandModule>;
  services: Services;
  logger: Logger;
  deferAfterMs?: number;
}

/**
 * Creates the bot: the interaction core, and a discord.js client that runs the gateway shards of
 * this process and hands their raw interactions to the core.
 */
export function createBot(options: BotOptions): Bot {
  const { logger } = options;
  const core = createInteractionCore({
    commands: options.commands,
    services: options.services,
    logger,
    ...(options.deferAfterMs !== undefined ? { deferAfterMs: options.deferAfterMs } : {}),
  });
  const client = createGatewayClient({
    apiUrl: options.apiUrl,
    shards: options.shards ?? { ids: undefined, count: undefined },
    logger,
    onInteraction: (interaction) => void core.handle(interaction, restResponder(rest, interaction)),
  });
  const rest: DiscordRest = {
    bot: client.rest,
    interactions: new REST({ api: options.apiUrl, globalRequestsPerSecond: Number.POSITIVE_INFINITY }),
  };
  rest.bot.on("rateLimited", (info) =>
    logger.warn(
      { route: info.route, retryAfter: info.retryAfter, global: info.global },
      "discord rate limit",
    ),
  );

  return {
    core,
    async start() {
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      await client.login(options.token);
      await ready;
      logger.info(
        {
          user: client.user?.tag,
          guilds: client.guilds.cache.size,
          shards: client.ws.shards.map((shard) => shard.id),
        },
        "connected to Discord",
      );
    },
    async stop(drainMs = 9_000) {
      core.stop();
      const drained = await core.drain(drainMs);
      if (!drained) logger.warn({ inFlight: core.inFlight() }, "stopping with interactions still in flight");
      await client.destroy();
    },
  };
}
