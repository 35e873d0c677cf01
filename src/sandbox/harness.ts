import { mkdtemp, rm } from "node:fs/promises";
import { GatewayIntentBits } from "discord-api-types/v10";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createBot, type Bot, type Transport } from "../bot/bot.js";
import { createSharedReplayGuard } from "../bot/http/replayGuard.js";
import type { ShardSelection } from "../bot/gateway/gatewayClient.js";
import { commandDefinitions, loadCommands } from "../bot/loadCommands.js";
import { loadConfig, type Config } from "../config.js";
import { createBotMetrics } from "../metrics/botMetrics.js";
import { createServices, type RunningServices } from "../createServices.js";
import type { GitHubClientOptions } from "../github/index.js";
import { silentLogger, type Logger } from "../logger.js";
import { loadOrCreateSandboxKey } from "../tokens/keyFile.js";
import {
  startDiscordStandIn,
  type DiscordStandIn,
  type DiscordStandInOptions,
  type InteractionContextOptions,
  type InteractionHandle,
  type InteractionRecord,
  type InteractionRequest,
} from "./discord/index.js";
import {
  DEMO_APPS,
  DEMO_TOKEN,
  startGitHubStandIn,
  type GitHubStandIn,
  type GitHubStandInOptions,
} from "./github/index.js";
import { githubSchema } from "./github/schema.js";

/** Both stand-ins, the real bot connected to them, and what it needs. */
/** How long `run` waits, past the answer, for the bot to finish handling an interaction. */
const SETTLED_WAIT_MS = 3_000;

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
  /**
   * Signs a Discord user in through the real flow: `/login` as `user`, the code read from the
   * bot's message, approved at the GitHub stand-in as `login` (or denied), then waits until the
   * bot's message says how it ended. Resolves to the interaction's record at that point.
   */
  signIn(options: {
    user?: InteractionContextOptions["user"];
    channel?: InteractionContextOptions["channel"];
    login: string;
    deny?: boolean;
    timeoutMs?: number;
  }): Promise<InteractionRecord>;
  /** Stops the bot, the stores and both stand-ins; removes a temporary data folder. */
  close(): Promise<void>;
}

export interface SandboxWorldOptions {
  /**
   * How interactions reach the bot (default the gateway): `http` starts the bot with
   * DISCORD_PUBLIC_KEY on a free port and saves its `/interactions` URL at the local Discord, which
   * then checks it (probes with bad signatures) and POSTs every interaction there, signed.
   */
  transport?: Transport;
  /** Gateway mode: the shards the bot runs (default every shard the local Discord recommends). */
  shards?: ShardSelection;
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
  /** Gateway mode: also start the bot's HTTP server (`/healthz`, `/readyz`, `/metrics`) on a free port. */
  httpServer?: boolean;
  /** METRICS_PORT on a free port: `/metrics`, `/healthz` and `/readyz` apart from `/interactions`. */
  metricsServer?: boolean;
  /** The bot's bound on work in flight (default the core's). */
  admission?: { maxActive?: number; maxQueued?: number; maxPerUser?: number; maxPerServer?: number };
  /**
   * Rounds of the bot's warm-up before it says it is ready (default 1: the path is run, cheaply; a
   * world serves one person, or a test, not a burst). The production entry point warms up fully.
   */
  warmUpRounds?: number;
  shortTtlSeconds?: number;
  /**
   * The app `/login` signs in to (GITHUB_OAUTH_CLIENT_ID and, when given, ..._SECRET); default the
   * demo world's OAuth app with its secret; null for none (sign-in not set up).
   */
  oauth?: { clientId: string; clientSecret?: string } | null;
  /** The bot's clock (token expiry, timestamps); tests move it with the stand-in's `now`. */
  now?: () => Date;
  /** `GITHUB_TOKEN_ALLOW_PRIVATE`: the default token may read private repositories (default false, as in production). */
  allowPrivate?: boolean;
  /** The answer cache's clock (epoch ms): tests move it to age entries without waiting. */
  cacheNow?: () => number;
  /**
   * `DISCORD_MESSAGE_CONTENT=true`, with Message Content enabled for the local Discord's app (as in
   * the developer portal): the bot hears messages and can preview links (SPEC section 7).
   */
  messageContent?: boolean;
}

/** The user code in the bot's `/login` message (the code between ** and `), or null. */
export function userCodeOf(record: InteractionRecord): string | null {
  for (const embed of record.original?.embeds ?? []) {
    const match = /\*\*`([A-Z0-9-]{4,32})`\*\*/.exec(embed.description ?? "");
    if (match?.[1]) return match[1];
  }
  return null;
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
    // Polls 50 ms apart instead of GitHub's 5 s: a sign-in takes milliseconds, with the same rules.
    deviceFlow: { intervalSeconds: 0.05 },
    ...options.github,
  });
  // Links point where the stand-in's answers say repositories live: github.com by default, or the
  // stand-in's own web pages (`htmlUrl: "self"`, as `npm run sandbox` runs), whose host is then the
  // bot's GITHUB_WEB_URL and the host of the links people post in the local Discord.
  const htmlUrl = options.github?.htmlUrl ?? "https://github.com";
  const webUrl = htmlUrl === "self" ? github.webUrl : htmlUrl;
  const discord = await startDiscordStandIn({
    ...(options.messageContent ? { privilegedIntents: GatewayIntentBits.MessageContent } : {}),
    ...options.discord,
    demoLinks: { webHost: webUrl, ...options.discord?.demoLinks },
  });
  // The stand-in builds GitHub's schema (a large SDL) on its first GraphQL request: seconds of CPU
  // in this process on a busy machine, which held the bot's first acknowledgement past Discord's
  // 3 seconds (the first command of a sandbox failed). Build it before the bot takes interactions.
  githubSchema();
  const key =
    options.encryptionKey === null
      ? undefined
      : (options.encryptionKey ?? (await loadOrCreateSandboxKey(dataDir)));
  const defaultToken = options.defaultToken === null ? undefined : (options.defaultToken ?? DEMO_TOKEN);
  const oauth = options.oauth === null ? undefined : (options.oauth ?? DEMO_APPS.oauthApp);
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
    GITHUB_TOKEN_ALLOW_PRIVATE: options.allowPrivate ? "true" : undefined,
    LOG_LEVEL: "info",
    GITHUB_OAUTH_CLIENT_ID: oauth?.clientId,
    GITHUB_OAUTH_CLIENT_SECRET: oauth?.clientSecret,
    ...(options.transport === "http" ? { DISCORD_PUBLIC_KEY: discord.publicKey, HTTP_PORT: "0" } : {}),
    ...(options.messageContent ? { DISCORD_MESSAGE_CONTENT: "true" } : {}),
  });
  // Links point where the stand-in says repositories live (github.com by default), like the links
  // in the stand-in's own answers.
  config.github.webUrl = webUrl;
  const metrics = createBotMetrics();
  const running = await createServices(config, logger, {
    metrics,
    memoryStores: options.memoryStores ?? (temporary && !options.redisUrl),
    ...(options.storePrefix ? { storePrefix: options.storePrefix } : {}),
    ...(options.client ? { client: options.client } : {}),
    ...(options.now ? { now: options.now } : {}),
    // Links follow the stand-in's answers (above); the sign-in is served by its own web host.
    signInWebUrl: github.webUrl,
    ...(options.cacheNow ? { cacheNow: options.cacheNow } : {}),
  });
  const commands = await loadCommands();
  // Globally, as `npm run deploy` does without DISCORD_GUILD_ID: usable in the server and in DMs.
  discord.registerCommands(commandDefinitions(commands));
  const bot = createBot({
    token: discord.botToken,
    apiUrl: discord.apiUrl,
    publicKey: config.discord.publicKey,
    httpPort: config.http.port,
    httpHost: "127.0.0.1",
    ...(options.shards ? { shards: options.shards } : {}),
    commands,
    services: running.services,
    replayGuard: createSharedReplayGuard(running.stores.coordination),
    logger,
    ...(options.deferAfterMs !== undefined ? { deferAfterMs: options.deferAfterMs } : {}),
    ...(options.admission ? { admission: options.admission } : {}),
    ...(options.httpServer && options.transport !== "http" ? { httpPort: 0 } : {}),
    ...(options.metricsServer ? { metricsPort: 0 } : {}),
    warmUpRounds: options.warmUpRounds ?? 1,
    metrics,
    metricsSources: { defaultBudget: running.defaultBudget },
    storesAnswer: () =>
      running.stores
        .durable("settings")
        .get("readyz")
        .then(
          () => true,
          () => false,
        ),
  });
  await bot.start();
  if (bot.transport === "http") await discord.setInteractionsEndpoint(`${bot.httpUrl}/interactions`);

  return {
    github,
    discord,
    bot,
    running,
    config,
    send: (request) => discord.interact(request),
    async signIn({ user, channel, login, deny, timeoutMs = 15_000 }) {
      const handle = await discord.interact({
        kind: "slash",
        name: "login",
        ...(user !== undefined ? { user } : {}),
        ...(channel !== undefined ? { channel } : {}),
      });
      const shown = await handle.waitFor((record) => userCodeOf(record) !== null || record.answered, {
        timeoutMs,
      });
      const code = userCodeOf(shown);
      if (code === null) throw new Error("the bot showed no sign-in code");
      if (deny) github.oauth.deny(code);
      else github.oauth.approve(code, login);
      return handle.waitFor((record) => record.original !== null && userCodeOf(record) === null, {
        timeoutMs,
      });
    },
    async run(request, wait = {}) {
      const handle = await discord.interact(request);
      if (request.kind === "autocomplete") {
        return handle.waitFor((record) => record.choices !== null, { timeoutMs: wait.timeoutMs ?? 10_000 });
      }
      const record = await handle.waitForAnswer({
        timeoutMs: wait.timeoutMs ?? 15_000,
        settleMs: wait.settleMs ?? 50,
      });
      // A busy machine can leave a gap longer than the settle time between the answer and what
      // follows it (a thread and its message): wait until the bot has handled the interaction to
      // its end, for a bounded time (a continuation, such as a sign-in, may wait much longer).
      const handled = await Promise.race([
        bot.core.settled(handle.id).then(() => true),
        sleep(SETTLED_WAIT_MS, false, { ref: false }),
      ]);
      return handled ? handle.waitForAnswer({ timeoutMs: 1_000, settleMs: 20 }) : record;
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
