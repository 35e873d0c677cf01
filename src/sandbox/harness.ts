import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBot, type Bot } from "../bot/client.js";
import { commandDefinitions, loadCommands } from "../bot/loadCommands.js";
import { loadConfig, type Config } from "../config.js";
import { createServices, type RunningServices } from "../createServices.js";
import type { GitHubClientOptions } from "../github/index.js";
import { silentLogger, type Logger } from "../logger.js";
import { loadOrCreateSandboxKey } from "../tokens/keyFile.js";
import {
  startDiscordStandIn,
  type DiscordStandIn,
  type DiscordStandInOptions,
  type InteractionHandle,
  type InteractionRecord,
  type InteractionRequest,
} from "./discord/index.js";
import {
  DEMO_TOKEN,
  startGitHubStandIn,
  type GitHubStandIn,
  type GitHubStandInOptions,
} from "./github/index.js";

/** Both stand-ins, the real bot connected to them, and what it needs. */
export interface SandboxWorld {
  github: GitHubStandIn;
  discord: DiscordStandIn;
  bot: Bot;
  running: RunningServices;
  config: Config;
  /** Sends an interaction and waits for the bot's final visible answer. */
  run(
    request: InteractionRequest,
    options?: { timeoutMs?: number; settleMs?: number },
  ): Promise<InteractionRecord>;
  /** Sends an interaction and returns its handle at once. */
  send(request: InteractionRequest): Promise<InteractionHandle>;
  /** Stops the bot, the stores and both stand-ins; removes a temporary data folder. */
  close(): Promise<void>;
}

export interface SandboxWorldOptions {
  /** Where the bot's stores live; default a new temporary folder, removed on close. */
  dataDir?: string;
  /** Where the demo world's git repositories live (default: the stand-in's shared temp folder). */
  githubDataDir?: string;
  /** The bot's default GitHub token; default the demo user's; null for none. */
  defaultToken?: string | null;
  /** Key of the token vault; default generated into the data folder; null for none. */
  encryptionKey?: Buffer | null;
  /** Memory stores instead of SQLite (default true for a temporary data folder). */
  memoryStores?: boolean;
  /** Redis for the stores (tests of the Redis path). */
  redisUrl?: string;
  storePrefix?: string;
  logger?: Logger;
  github?: GitHubStandInOptions;
  discord?: DiscordStandInOptions;
  client?: Partial<Pick<GitHubClientOptions, "timeoutMs" | "holdWhileLimited" | "sleep" | "random">>;
  deferAfterMs?: number;
  shortTtlSeconds?: number;
}

/**
 * Starts the whole RepoScout world on loopback: the GitHub stand-in with the demo world, the
 * Discord stand-in, and the real bot (real discord.js client, real services) connected to both,
 * with the commands registered in the stand-in's server. Used by the sandbox, the end-to-end tests
 * and the benchmarks.
 */
export async function startSandboxWorld(options: SandboxWorldOptions = {}): Promise<SandboxWorld> {
  const logger = options.logger ?? silentLogger();
  const temporary = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "reposcout-world-")));
  const github = await startGitHubStandIn({
    ...(options.githubDataDir ? { dataDir: options.githubDataDir } : {}),
    ...options.github,
  });
  const discord = await startDiscordStandIn(options.discord);
  const key =
    options.encryptionKey === null
      ? undefined
      : (options.encryptionKey ?? (await loadOrCreateSandboxKey(dataDir)));
  const defaultToken = options.defaultToken === null ? undefined : (options.defaultToken ?? DEMO_TOKEN);
  const config = loadConfig({
    DISCORD_TOKEN: discord.botToken,
    DISCORD_CLIENT_ID: discord.applicationId,
    DISCORD_GUILD_ID: discord.guildId,
    DISCORD_API_URL: discord.apiUrl,
    GITHUB_API_URL: github.restUrl,
    GITHUB_GRAPHQL_URL: github.graphqlUrl,
    GITHUB_TOKEN: defaultToken,
    TOKEN_ENCRYPTION_KEY: key?.toString("base64"),
    DATA_DIR: dataDir,
    REDIS_URL: options.redisUrl,
    CACHE_SHORT_TTL_SECONDS: String(options.shortTtlSeconds ?? 60),
    LOG_LEVEL: "info",
  });
  // Links point where the stand-in says repositories live (github.com by default), like the links
  // in the stand-in's own answers.
  config.github.webUrl = options.github?.htmlUrl ?? "https://github.com";
  const running = await createServices(config, logger, {
    memoryStores: options.memoryStores ?? (temporary && !options.redisUrl),
    ...(options.storePrefix ? { storePrefix: options.storePrefix } : {}),
    ...(options.client ? { client: options.client } : {}),
  });
  const commands = await loadCommands();
  // Globally, as `npm run deploy` does without DISCORD_GUILD_ID: usable in the server and in DMs.
  discord.registerCommands(commandDefinitions(commands));
  const bot = createBot({
    apiUrl: discord.apiUrl,
    commands,
    services: running.services,
    logger,
    ...(options.deferAfterMs !== undefined ? { deferAfterMs: options.deferAfterMs } : {}),
  });
  await bot.start(discord.botToken);

  return {
    github,
    discord,
    bot,
    running,
    config,
    send: (request) => discord.interact(request),
    async run(request, wait = {}) {
      const handle = await discord.interact(request);
      if (request.kind === "autocomplete") {
        return handle.waitFor((record) => record.choices !== null, { timeoutMs: wait.timeoutMs ?? 10_000 });
      }
      return handle.waitForAnswer({ timeoutMs: wait.timeoutMs ?? 15_000, settleMs: wait.settleMs ?? 50 });
    },
    async close() {
      await bot.stop(2_000).catch(() => undefined);
      await running.close().catch(() => undefined);
      await discord.close().catch(() => undefined);
      await github.close().catch(() => undefined);
      if (temporary) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
