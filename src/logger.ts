import type { Writable } from "node:stream";
import { pino, stdSerializers, type DestinationStream, type Logger, type LoggerOptions } from "pino";
import pretty from "pino-pretty";

export type { Logger } from "pino";

/** What replaces a secret in a log line. */
export const REDACTED = "[REDACTED]";

/**
 * Field names whose values are secrets wherever they appear in a log object: tokens, secrets,
 * keys, passwords, credentials, Authorization and cookie headers. Matching on the name (at any
 * depth) rather than on a fixed list of paths means a new field called `serverToken` is redacted
 * too. The price: a harmless field must not be named like a secret (log `cacheId`, not `cacheKey`).
 */
const SECRET_FIELD = /token|secret|key|passw|authori[sz]ation|cookie|credential/i;

/** GitHub token formats (classic, OAuth, app, refresh, fine-grained) anywhere in free text. */
const GITHUB_TOKEN_IN_TEXT = /\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,})\b/g;
/** A credential after an auth scheme word (`bearer x`, `token x`, `Bot x`, `Basic x`). */
const SCHEME_CREDENTIAL_IN_TEXT = /\b(bearer|token|bot|basic)(\s+)[A-Za-z0-9._~+/=-]{12,}/gi;

/** Replaces secret-looking substrings of a string (an upstream error message, a URL). */
export function scrubSecrets(text: string): string {
  return text
    .replace(GITHUB_TOKEN_IN_TEXT, REDACTED)
    .replace(
      SCHEME_CREDENTIAL_IN_TEXT,
      (_match, scheme: string, space: string) => `${scheme}${space}${REDACTED}`,
    );
}

const MAX_DEPTH = 8;

/**
 * Returns a copy of a log object with every secret field redacted and secret-looking text
 * scrubbed. Errors are serialized first (pino's `err` shape), so a request's headers carried by
 * an error are redacted too.
 */
export function redactSecrets(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === "string") return scrubSecrets(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[too deep]";
  if (seen.has(value)) return "[circular]";
  seen.add(value);
  if (value instanceof Error) return redactSecrets(stdSerializers.err(value), depth + 1, seen);
  if (Buffer.isBuffer(value)) return `[${value.length} bytes]`;
  if (value instanceof Date) return value;
  if (value instanceof Map) return redactSecrets(Object.fromEntries(value), depth, seen);
  if (typeof Headers !== "undefined" && value instanceof Headers) {
    return redactSecrets(Object.fromEntries(value.entries()), depth, seen);
  }
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      SECRET_FIELD.test(key) && item !== undefined && item !== null
        ? REDACTED
        : redactSecrets(item, depth + 1, seen);
  }
  return out;
}

export interface CreateLoggerOptions {
  level: LoggerOptions["level"];
  /** Where lines go; default stdout. */
  destination?: DestinationStream | Writable;
  /** Human-readable lines; default: when the destination is stdout and a terminal. */
  pretty?: boolean;
  /** Bound fields on every line. */
  base?: Record<string, unknown>;
}

/**
 * Creates the one pino root of the process. Secrets never reach a line: every field named like a
 * token, secret or key is redacted at any depth, and token-looking text is scrubbed from strings.
 * Pretty output on a terminal, JSON otherwise.
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  const usePretty = options.pretty ?? (options.destination === undefined && process.stdout.isTTY === true);
  const loggerOptions: LoggerOptions = {
    level: options.level,
    base: options.base ?? { app: "reposcout" },
    // Redaction runs on the whole object, before pino's serializers see it.
    formatters: {
      log: (object) => redactSecrets(object) as Record<string, unknown>,
    },
    // The err serializer is applied by redactSecrets itself; keep pino's for the top-level key.
    serializers: { err: stdSerializers.err, error: stdSerializers.err },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  const destination = usePretty
    ? pretty({
        colorize: true,
        translateTime: "SYS:HH:MM:ss",
        ignore: "pid,hostname,app",
        destination: options.destination ?? 1,
        sync: true,
      })
    : (options.destination ?? pino.destination({ dest: 1, sync: false }));
  return pino(loggerOptions, destination as DestinationStream);
}

/** A logger that writes nothing, for tests and tools that do not care about logs. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
