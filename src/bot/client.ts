import { Client, Events, GatewayIntentBits, Partials, type Interaction } from "discord.js";
import type { Logger } from "../logger.js";
import type { CommandModule } from "./commandModule.js";
import { createRouter, type Router } from "./router.js";
import type { Services } from "./services.js";

export interface Bot {
  client: Client;
  router: Router;
  /** Logs in and resolves once the gateway session is ready. */
  start(token: string): Promise<void>;
  /**
   * Stops taking interactions, waits for those in flight (up to `drainMs`), then closes the
   * gateway connection. Stores are the caller's to close afterwards.
   */
  stop(drainMs?: number): Promise<void>;
}

/**
 * Creates the discord.js client with the Guilds intent only (no privileged intent), REST at
 * `apiUrl`, and mentions that never parse, wired to the interaction router.
 */
export function createBot(options: {
  apiUrl: string;
  commands: ReadonlyMap<string, CommandModule>;
  services: Services;
  logger: Logger;
  deferAfterMs?: number;
}): Bot {
  const { logger } = options;
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    // One shard serves at most 2,500 servers: take the count Discord recommends in /gateway/bot.
    shards: "auto",
    // Channels of interactions in DMs or uncached threads still resolve, so the router knows the
    // channel's type.
    partials: [Partials.Channel],
    rest: { api: options.apiUrl },
    allowedMentions: { parse: [] },
  });
  const router = createRouter({
    commands: options.commands,
    services: options.services,
    rest: client.rest,
    logger,
    ...(options.deferAfterMs !== undefined ? { deferAfterMs: options.deferAfterMs } : {}),
  });
  client.on(Events.InteractionCreate, (interaction: Interaction) => {
    void router.handle(interaction);
  });
  client.on(Events.Error, (error) => logger.error({ err: error }, "discord client error"));
  client.on(Events.Warn, (message) => logger.warn({ discord: message }, "discord client warning"));
  client.on(Events.ShardDisconnect, (_event, shardId) => logger.warn({ shardId }, "gateway disconnected"));
  client.on(Events.ShardResume, (shardId) => logger.info({ shardId }, "gateway resumed"));
  client.rest.on("rateLimited", (info) =>
    logger.warn(
      { route: info.route, retryAfter: info.retryAfter, global: info.global },
      "discord rate limit",
    ),
  );

  return {
    client,
    router,
    async start(token) {
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      await client.login(token);
      await ready;
      logger.info({ user: client.user?.tag, guilds: client.guilds.cache.size }, "connected to Discord");
    },
    async stop(drainMs = 9_000) {
      router.stop();
      const drained = await router.drain(drainMs);
      if (!drained)
        logger.warn({ inFlight: router.inFlight() }, "stopping with interactions still in flight");
      await client.destroy();
    },
  };
}
