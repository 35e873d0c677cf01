import { createBot, type Bot } from "../bot/bot.js";
import { createSharedReplayGuard } from "../bot/http/replayGuard.js";
import { loadCommands } from "../bot/loadCommands.js";
import { createServices, type RunningServices } from "../createServices.js";
import { silentLogger, type Logger } from "../logger.js";
import type { SandboxWorld } from "./harness.js";

/** A second bot process beside a sandbox world's: its own services and memory, the same Redis. */
export interface PeerProcess {
  bot: Bot;
  running: RunningServices;
  /** Its `/interactions` URL. */
  endpoint: string;
  /** Stops it and closes its stores (the world's endpoint list is left as it is). */
  close(): Promise<void>;
}

/**
 * Starts another bot process for a world running over HTTP on Redis, as a second instance behind a
 * load balancer (SPEC section 6): it builds its own services from the world's configuration (its
 * own in-process state; Redis shared), listens on its own port, and the local Discord then spreads
 * interactions over both endpoints, round robin.
 * @throws when the world does not run over HTTP on Redis.
 */
export async function startPeerProcess(
  world: SandboxWorld,
  /** `storePrefix`: the same as the world's, so both read one set of keys. */
  options: { logger?: Logger; storePrefix?: string } = {},
): Promise<PeerProcess> {
  if (world.bot.transport !== "http" || world.bot.httpUrl === null) {
    throw new Error("a peer process needs a world running over HTTP");
  }
  if (!world.config.redisUrl) throw new Error("a peer process needs a world on Redis");
  const logger = options.logger ?? silentLogger();
  const running = await createServices(world.config, logger, {
    memoryStores: false,
    ...(options.storePrefix ? { storePrefix: options.storePrefix } : {}),
    signInWebUrl: world.github.webUrl,
  });
  const bot = createBot({
    token: world.discord.botToken,
    apiUrl: world.discord.apiUrl,
    publicKey: world.config.discord.publicKey,
    httpPort: 0,
    httpHost: "127.0.0.1",
    commands: await loadCommands(),
    services: running.services,
    replayGuard: createSharedReplayGuard(running.stores.coordination),
    logger,
  });
  await bot.start();
  const endpoint = `${bot.httpUrl}/interactions`;
  await world.discord.setInteractionsEndpoint([`${world.bot.httpUrl}/interactions`, endpoint]);
  return {
    bot,
    running,
    endpoint,
    async close() {
      await bot.stop(2_000);
      await running.close();
    },
  };
}
