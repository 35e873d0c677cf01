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

const logLevel = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

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
    z.coerce.number().int().min(1).max(86_400).default(60),
  ),
  LOG_LEVEL: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().toLowerCase() || undefined : value),
    logLevel.default("info"),
  ),
});

/** The validated configuration. URLs carry no trailing slash. */
export interface Config {
  discord: {
    /** Absent: `npm start` runs the local sandbox. */
    token: string | undefined;
    clientId: string | undefined;
    guildId: string | undefined;
    /** REST base without the version, as discord.js's `rest.api` option takes it. */
    apiUrl: string;
  };
  github: {
    /** The default token, used when a server has none of its own. */
    defaultToken: string | undefined;
    /** REST v3 base. */
    apiUrl: string;
    /** GraphQL v4 endpoint. */
    graphqlUrl: string;
    /** Where people read repositories in a browser (github.com, or the Enterprise host). */
    webUrl: string;
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
  };
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
  return {
    discord: {
      token: e.DISCORD_TOKEN,
      clientId: e.DISCORD_CLIENT_ID,
      guildId: e.DISCORD_GUILD_ID,
      apiUrl: e.DISCORD_API_URL,
    },
    github: {
      defaultToken: e.GITHUB_TOKEN,
      apiUrl: e.GITHUB_API_URL,
      graphqlUrl: e.GITHUB_GRAPHQL_URL ?? graphqlUrlFromRestUrl(e.GITHUB_API_URL),
      webUrl: webUrlFromRestUrl(e.GITHUB_API_URL),
    },
    tokens: {
      encryptionKey: e.TOKEN_ENCRYPTION_KEY ? Buffer.from(e.TOKEN_ENCRYPTION_KEY, "base64") : undefined,
      previousEncryptionKey: e.TOKEN_ENCRYPTION_KEY_PREVIOUS
        ? Buffer.from(e.TOKEN_ENCRYPTION_KEY_PREVIOUS, "base64")
        : undefined,
    },
    dataDir: e.DATA_DIR,
    redisUrl: e.REDIS_URL,
    cache: { shortTtlSeconds: e.CACHE_SHORT_TTL_SECONDS },
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
