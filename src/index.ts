/**
 * RepoScout's entry point: configuration, then the logger, the stores, the GitHub client and the
 * bot; or, with no DISCORD_TOKEN, the local sandbox (SPEC section 6).
 */
import { ConfigError, loadConfigFromProcess, type Config } from "./config.js";
import { createLogger, type Logger } from "./logger.js";
import { createBot } from "./bot/bot.js";
import { createSharedReplayGuard } from "./bot/http/replayGuard.js";
import { loadCommands } from "./bot/loadCommands.js";
import { createServices } from "./createServices.js";
import { createBotMetrics } from "./metrics/botMetrics.js";
import { MISSING_DISCORD_TOKEN, startWarnings } from "./startWarnings.js";

/** Hard ceiling for a graceful stop (SPEC: exit 0 within 10 seconds). */
const STOP_DEADLINE_MS = 10_000;

async function runBot(config: Config, logger: Logger): Promise<void> {
  for (const warning of startWarnings(config)) logger.warn(warning);
  const commands = await loadCommands();
  const metrics = createBotMetrics();
  const services = await createServices(config, logger, { metrics });
  // HTTP mode when DISCORD_PUBLIC_KEY is set (no gateway connection), else the gateway shards
  // DISCORD_SHARDS names; METRICS_PORT (or, in gateway mode, HTTP_PORT) serves /healthz, /readyz
  // and /metrics apart from the public /interactions (SPEC section 5).
  const bot = createBot({
    token: config.discord.token as string,
    apiUrl: config.discord.apiUrl,
    publicKey: config.discord.publicKey,
    httpPort: config.http.port,
    metricsPort: config.http.metricsPort,
    shards: config.discord.shards,
    commands,
    services: services.services,
    logger,
    // Requests already taken are remembered where every process behind the load balancer sees them.
    replayGuard: createSharedReplayGuard(services.stores.coordination),
    metrics,
    metricsSources: { defaultBudget: services.defaultBudget },
    // Ready only while the stores answer (a read of the settings, within the store's own timeout).
    storesAnswer: () =>
      services.stores
        .durable("settings")
        .get("readyz")
        .then(
          () => true,
          () => false,
        ),
  });
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping: finishing the interactions in flight");
    const forced = setTimeout(() => {
      logger.error("could not stop in time; exiting");
      process.exit(0);
    }, STOP_DEADLINE_MS);
    forced.unref();
    try {
      // The drain, then at most 1 s to tell those still waiting that the bot restarts, then the
      // stores: all within the 10 s (a GitHub call may take 10 s itself: it is not waited out).
      await bot.stop(STOP_DEADLINE_MS - 2_500);
      await services.close();
    } catch (error) {
      logger.error({ err: error }, "error while stopping");
    }
    logger.info("stopped");
    logger.flush();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
  await bot.start();
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = await loadConfigFromProcess();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(
        `${error.message}\nFix these in the environment or in .env (see .env.example), then start again.`,
      );
      process.exit(1);
    }
    throw error;
  }
  if (!config.discord.token) {
    // Under a process manager or in a container (no terminal), a missing token is an error, not
    // a reason to start the sandbox and exit 0 as if all went well.
    if (!process.stdin.isTTY) {
      console.error(MISSING_DISCORD_TOKEN);
      process.exit(1);
    }
    const { runSandboxChat } = await import("./sandbox/chat.js");
    process.exit(await runSandboxChat(config));
  }
  const logger = createLogger({ level: config.logLevel });
  try {
    await runBot(config, logger);
  } catch (error) {
    logger.fatal({ err: error }, "RepoScout could not start");
    logger.flush();
    console.error(`RepoScout could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

void main();
