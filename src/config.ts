// Over 300 lines: one zod schema of every variable of SPEC section 5, each with the sentence its mistake reads; the schema is the list an operator checks against, and reads best whole.
import { z } from "zod";

/**
 * The environment of RepoScout (SPEC section 5), validated with zod. This is the only module that
 * knows about environment variables; `src/index.ts` hands `process.env` to {@link loadConfig}.
 */

const optionalString = z
  .string()
  .transform((value) => value.trim())
  .optional()
  .transform((value) => (value === undefined || value === "" ? undefined : value));

const httpUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an http(s) URL")
  .transform((value) => value.replace(/\/+$/, ""));

const snowflake = z
  .string()
  .trim()
  .regex(/^\d{17,20}$/, "must be a Discord id (17 to 20 digits)");

const encryptionKey = z
  .string()
  .trim()
  .refine((value) => {
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return false;
    return Buffer.from(value, "base64").length === 32;
  }, "must be 32 bytes in base64 (generate one with: openssl rand -base64 32)");

const redisUrl = z
  .string()
  .trim()
  .refine((value) => /^rediss?:\/\/.+/.test(value), "must be a redis:// or rediss:// URL");

/** `true`/`false` (also 1/0, yes/no), as a person writes it in a .env file. */
const booleanFlag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => ["true", "false", "1", "0", "yes", "no"].includes(value), "must be true or false")
  .transform((value) => value === "true" || value === "1" || value === "yes");

/** An Ed25519 public key as the developer portal shows it: 32 bytes in hex. */
const publicKeyHex = z
  .string()
  .trim()
  .regex(/^[0-9a-fA-F]{64}$/, "must be the application's public key: 64 hex characters")
  .transform((value) => value.toLowerCase());

/** A shard id list as `DISCORD_SHARDS` takes it: `0,1` or `0-3` (or both: `0-3,6`). */
const shardList = z
  .string()
  .trim()
  .regex(/^\d+(-\d+)?(\s*,\s*\d+(-\d+)?)*$/, "must be shard ids like 0,1 or 0-3")
  .transform((value, context) => {
    const ids = new Set<number>();
    for (const part of value.split(",")) {
      const [from, to = from] = part.trim().split("-").map(Number) as [number, number?];
      if (to < from) {
        context.addIssue({ code: "custom", message: `the range ${part.trim()} runs backwards` });
        return z.NEVER;
      }
      for (let id = from; id <= to && ids.size <= 1024; id += 1) ids.add(id);
    }
    return [...ids].sort((a, b) => a - b);
  });

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
const logLevel = z.enum(LOG_LEVELS, {
  error: "must be one of fatal, error, warn, info, debug, trace or silent",
});

/**
 * A number as a .env file writes it, checked into one sentence that names its form (`must be a
 * whole number of seconds from 1 to 86400`): zod's own text ("expected number, received NaN")
 * tells an operator neither what is wrong nor what to write.
 */
function numberSetting(options: { whole: boolean; min: number; max: number; form: string }) {
  const shape = options.whole ? /^\d+$/ : /^(?:\d+(?:\.\d*)?|\.\d+)$/;
  return z
    .string()
    .trim()
    .refine(
      (value) => shape.test(value) && Number(value) >= options.min && Number(value) <= options.max,
      `must be ${options.form}`,
    )
    .transform(Number);
}

/** Unset or empty variables both count as "not given", as dotenv leaves empty strings. */
function blankAsUndefined(value: unknown): unknown {
  return typeof value === "string" && value.trim() === "" ? undefined : value;
}

const envSchema = z.object({
  DISCORD_TOKEN: optionalString,
  DISCORD_CLIENT_ID: z.preprocess(blankAsUndefined, snowflake.optional()),
  DISCORD_GUILD_ID: z.preprocess(blankAsUndefined, snowflake.optional()),
  DISCORD_API_URL: z.preprocess(blankAsUndefined, httpUrl.default("https://discord.com/api")),
  GITHUB_TOKEN: optionalString,
  GITHUB_API_URL: z.preprocess(blankAsUndefined, httpUrl.default("https://api.github.com")),
  GITHUB_GRAPHQL_URL: z.preprocess(blankAsUndefined, httpUrl.optional()),
  TOKEN_ENCRYPTION_KEY: z.preprocess(blankAsUndefined, encryptionKey.optional()),
  TOKEN_ENCRYPTION_KEY_PREVIOUS: z.preprocess(blankAsUndefined, encryptionKey.optional()),
  DATA_DIR: z.preprocess(blankAsUndefined, z.string().trim().default("./data")),
  REDIS_URL: z.preprocess(blankAsUndefined, redisUrl.optional()),
  CACHE_SHORT_TTL_SECONDS: z.preprocess(
    blankAsUndefined,
    numberSetting({
      whole: true,
      min: 1,
      max: 86_400,
      form: "a whole number of seconds from 1 to 86400, like 60",
    }).default(60),
  ),
  LOG_LEVEL: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().toLowerCase() || undefined : value),
    logLevel.default("info"),
  ),
  GITHUB_WEB_URL: z.preprocess(blankAsUndefined, httpUrl.optional()),
  GITHUB_OAUTH_CLIENT_ID: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9._-]{1,100}$/, "must be the client id of an OAuth app or GitHub App")
      .optional(),
  ),
  GITHUB_OAUTH_CLIENT_SECRET: optionalString,
  GITHUB_TOKEN_ALLOW_PRIVATE: z.preprocess(blankAsUndefined, booleanFlag.default(false)),
  DEFAULT_TOKEN_SHARE: z.preprocess(
    blankAsUndefined,
    numberSetting({ whole: false, min: 0, max: 1, form: "a share from 0 to 1, like 0.2" }).default(0.2),
  ),
  CACHE_MAX_MB: z.preprocess(
    blankAsUndefined,
    numberSetting({
      whole: false,
      min: 1,
      max: 1_048_576,
      form: "a number of megabytes from 1 to 1048576, like 512",
    }).default(512),
  ),
  DISCORD_PUBLIC_KEY: z.preprocess(blankAsUndefined, publicKeyHex.optional()),
  HTTP_PORT: z.preprocess(
    blankAsUndefined,
    numberSetting({
      whole: true,
      min: 0,
      max: 65_535,
      form: "a port number from 0 to 65535, like 8080",
    }).optional(),
  ),
  METRICS_PORT: z.preprocess(
    blankAsUndefined,
    numberSetting({
      whole: true,
      min: 0,
      max: 65_535,
      form: "a port number from 0 to 65535, like 9090",
    }).optional(),
  ),
  DISCORD_SHARDS: z.preprocess(blankAsUndefined, shardList.optional()),
  DISCORD_SHARD_COUNT: z.preprocess(
    blankAsUndefined,
    numberSetting({
      whole: true,
      min: 1,
      max: 65_536,
      form: "a whole number of shards from 1 to 65536, like 4",
    }).optional(),
  ),
  DISCORD_MESSAGE_CONTENT: z.preprocess(blankAsUndefined, booleanFlag.default(false)),
});

/**
 * Every variable the configuration reads (SPEC section 5), in the schema's order: what the deploy
 * files must let through (compose's env_file, .env.example), checked against this one list.
 */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** Port of the bot's HTTP server in HTTP mode when `HTTP_PORT` is not set (SPEC section 5). */
export const DEFAULT_HTTP_PORT = 8080;

/** The validated configuration. URLs carry no trailing slash. */
export interface Config {
  discord: {
    /** Absent: `npm start` runs the local sandbox. */
    token: string | undefined;
    clientId: string | undefined;
    guildId: string | undefined;
    /** REST base without the version, as discord.js's `rest.api` option takes it. */
    apiUrl: string;
    /**
     * The application's Ed25519 public key (hex). Set: interactions arrive over HTTP at
     * `POST /interactions` and no gateway connection is opened.
     */
    publicKey: string | undefined;
    /**
     * Gateway mode: the shards this process runs out of `count`. Both undefined: every shard in
     * one process, as many as Discord recommends.
     */
    shards: { ids: number[] | undefined; count: number | undefined };
    /**
     * `DISCORD_MESSAGE_CONTENT`: gateway mode asks for the Guild Messages and Message Content
     * intents, so servers can turn on automatic link previews (SPEC section 7).
     */
    messageContent: boolean;
  };
  github: {
    /** The default token, used when a server has none of its own. */
    defaultToken: string | undefined;
    /** REST v3 base. */
    apiUrl: string;
    /** GraphQL v4 endpoint. */
    graphqlUrl: string;
    /** Whether GITHUB_GRAPHQL_URL was set (else `graphqlUrl` is derived from `apiUrl`), for messages. */
    graphqlUrlSet: boolean;
    /** Where people read repositories in a browser and sign in (github.com, or the Enterprise host). */
    webUrl: string;
    /** The registered OAuth app or GitHub App behind `/login`; clientId undefined: no sign-in. */
    oauth: { clientId: string | undefined; clientSecret: string | undefined };
    /** Whether the default token may read private repositories (GITHUB_TOKEN_ALLOW_PRIVATE). */
    defaultTokenAllowPrivate: boolean;
    /** The share (0..1) of the default token's hourly budget one server or user may spend. */
    defaultTokenShare: number;
  };
  tokens: {
    /** 32-byte AES-256-GCM key for server tokens; absent until an operator (or the sandbox) sets one. */
    encryptionKey: Buffer | undefined;
    /** The key before a rotation: still decrypts old records, which are re-encrypted on read. */
    previousEncryptionKey: Buffer | undefined;
  };
  dataDir: string;
  redisUrl: string | undefined;
  cache: {
    /** Lifetime of answers that follow a branch or a list (ref resolution, repositories, contributors). */
    shortTtlSeconds: number;
    /** Bound of the answer cache, in megabytes (least recently used answers are evicted). */
    maxMb: number;
  };
  /**
   * The bot's HTTP server; port undefined: none (gateway mode without HTTP_PORT). `metricsPort`:
   * `/metrics`, `/healthz` and `/readyz` on a port of their own, apart from the public
   * `/interactions` (METRICS_PORT); undefined: in gateway mode they are on `port`, in HTTP mode
   * `/healthz` and `/readyz` stay beside `/interactions` and `/metrics` is not served.
   */
  http: { port: number | undefined; metricsPort: number | undefined };
  logLevel: z.infer<typeof logLevel>;
}

/** Thrown by {@link loadConfig}; lists every problem at once, by variable name. */
export class ConfigError extends Error {
  constructor(readonly problems: ReadonlyArray<{ variable: string; message: string }>) {
    super(
      `Invalid configuration (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n` +
        problems.map((problem) => `  - ${problem.variable}: ${problem.message}`).join("\n"),
    );
    this.name = "ConfigError";
  }
}

/**
 * Derives the GraphQL endpoint from the REST base: `https://api.github.com` gives
 * `https://api.github.com/graphql`; an Enterprise Server base `https://HOST/api/v3` gives
 * `https://HOST/api/graphql`.
 */
export function graphqlUrlFromRestUrl(restUrl: string): string {
  const enterprise = /^(.*\/api)\/v3$/.exec(restUrl);
  return enterprise ? `${enterprise[1]}/graphql` : `${restUrl}/graphql`;
}

/**
 * Derives the browser host of repositories from the REST base: `https://api.github.com` gives
 * `https://github.com`; `https://HOST/api/v3` gives `https://HOST`.
 */
export function webUrlFromRestUrl(restUrl: string): string {
  const url = new URL(restUrl);
  if (url.hostname === "api.github.com") return `${url.protocol}//github.com`;
  const enterprise = /^(.*)\/api\/v3$/.exec(restUrl);
  return enterprise ? enterprise[1]! : `${url.protocol}//${url.host}`;
}

/**
 * Validates an environment (usually `process.env` after dotenv) and applies the defaults.
 * @throws ConfigError naming every variable that is wrong, all at once.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? "(environment)"),
        message: issue.message,
      })),
    );
  }
  const e = parsed.data;
  const problems: Array<{ variable: string; message: string }> = [];
  if (e.DISCORD_SHARDS && e.DISCORD_SHARD_COUNT === undefined) {
    problems.push({
      variable: "DISCORD_SHARDS",
      message: "needs DISCORD_SHARD_COUNT, the total every process uses",
    });
  }
  const tooHigh = e.DISCORD_SHARDS?.find(
    (id) => e.DISCORD_SHARD_COUNT !== undefined && id >= e.DISCORD_SHARD_COUNT,
  );
  if (tooHigh !== undefined) {
    problems.push({
      variable: "DISCORD_SHARDS",
      message: `shard ${tooHigh} is not below DISCORD_SHARD_COUNT (${e.DISCORD_SHARD_COUNT})`,
    });
  }
  if (e.DISCORD_PUBLIC_KEY && (e.DISCORD_SHARDS || e.DISCORD_SHARD_COUNT !== undefined)) {
    problems.push({
      variable: "DISCORD_SHARDS",
      message:
        "applies to the gateway; with DISCORD_PUBLIC_KEY interactions come over HTTP and no shard runs",
    });
  }
  if (e.GITHUB_OAUTH_CLIENT_SECRET && !e.GITHUB_OAUTH_CLIENT_ID) {
    problems.push({
      variable: "GITHUB_OAUTH_CLIENT_SECRET",
      message: "is set without GITHUB_OAUTH_CLIENT_ID, the app it belongs to",
    });
  }
  const httpPort = e.HTTP_PORT ?? (e.DISCORD_PUBLIC_KEY ? DEFAULT_HTTP_PORT : undefined);
  if (
    e.DISCORD_PUBLIC_KEY &&
    e.METRICS_PORT !== undefined &&
    e.METRICS_PORT !== 0 &&
    e.METRICS_PORT === httpPort
  ) {
    problems.push({
      variable: "METRICS_PORT",
      message: `must differ from the public interactions port (HTTP_PORT, ${httpPort}): it keeps /metrics off it`,
    });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    discord: {
      token: e.DISCORD_TOKEN,
      clientId: e.DISCORD_CLIENT_ID,
      guildId: e.DISCORD_GUILD_ID,
      apiUrl: e.DISCORD_API_URL,
      publicKey: e.DISCORD_PUBLIC_KEY,
      shards: { ids: e.DISCORD_SHARDS, count: e.DISCORD_SHARD_COUNT },
      messageContent: e.DISCORD_MESSAGE_CONTENT,
    },
    github: {
      defaultToken: e.GITHUB_TOKEN,
      apiUrl: e.GITHUB_API_URL,
      graphqlUrl: e.GITHUB_GRAPHQL_URL ?? graphqlUrlFromRestUrl(e.GITHUB_API_URL),
      graphqlUrlSet: e.GITHUB_GRAPHQL_URL !== undefined,
      webUrl: e.GITHUB_WEB_URL ?? webUrlFromRestUrl(e.GITHUB_API_URL),
      oauth: { clientId: e.GITHUB_OAUTH_CLIENT_ID, clientSecret: e.GITHUB_OAUTH_CLIENT_SECRET },
      defaultTokenAllowPrivate: e.GITHUB_TOKEN_ALLOW_PRIVATE,
      defaultTokenShare: e.DEFAULT_TOKEN_SHARE,
    },
    tokens: {
      encryptionKey: e.TOKEN_ENCRYPTION_KEY ? Buffer.from(e.TOKEN_ENCRYPTION_KEY, "base64") : undefined,
      previousEncryptionKey: e.TOKEN_ENCRYPTION_KEY_PREVIOUS
        ? Buffer.from(e.TOKEN_ENCRYPTION_KEY_PREVIOUS, "base64")
        : undefined,
    },
    dataDir: e.DATA_DIR,
    redisUrl: e.REDIS_URL,
    cache: { shortTtlSeconds: e.CACHE_SHORT_TTL_SECONDS, maxMb: e.CACHE_MAX_MB },
    http: { port: httpPort, metricsPort: e.METRICS_PORT },
    logLevel: e.LOG_LEVEL,
  };
}

/**
 * Loads `.env` (dotenv; variables already set win) and validates the process environment. The one
 * place that reads `process.env`.
 * @throws ConfigError naming every variable that is wrong.
 */
export async function loadConfigFromProcess(options: { dotenvPath?: string } = {}): Promise<Config> {
  const dotenv = await import("dotenv");
  dotenv.config({ quiet: true, ...(options.dotenvPath ? { path: options.dotenvPath } : {}) });
  return loadConfig(process.env);
}
