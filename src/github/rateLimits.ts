import type { RateLimitSnapshot } from "./types.js";

/** GitHub asks for at least a minute of quiet after a secondary limit without `retry-after`. */
export const SECONDARY_MINIMUM_WAIT_MS = 60_000;
/** Repeated secondary limits double the wait, up to this. */
export const SECONDARY_MAXIMUM_WAIT_MS = 15 * 60_000;

function headerNumber(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === "") return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Reads `x-ratelimit-limit`, `-remaining`, `-used`, `-reset` (epoch seconds) and `-resource`.
 * Undefined when the answer carries none (GitHub Enterprise Server with rate limits off, a proxy).
 */
export function rateLimitFromHeaders(headers: Headers, observedAt: Date): RateLimitSnapshot | undefined {
  const limit = headerNumber(headers, "x-ratelimit-limit");
  const remaining = headerNumber(headers, "x-ratelimit-remaining");
  const reset = headerNumber(headers, "x-ratelimit-reset");
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  return {
    resource: headers.get("x-ratelimit-resource")?.trim() || "unknown",
    limit,
    remaining,
    // Older servers send no `used`.
    used: headerNumber(headers, "x-ratelimit-used") ?? Math.max(0, limit - remaining),
    resetAt: new Date(reset * 1000).toISOString(),
    observedAt: observedAt.toISOString(),
  };
}

/**
 * When `retry-after` says to try again: a number of seconds or an HTTP date (RFC 9110). Undefined
 * when the header is absent or unreadable.
 */
export function retryAfterFromHeaders(headers: Headers, now: Date): Date | undefined {
  const raw = headers.get("retry-after")?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return new Date(now.getTime() + Number(raw) * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : new Date(Math.max(date, now.getTime()));
}

/** When the primary budget refills according to `x-ratelimit-reset`, if that is in the future. */
export function resetFromHeaders(headers: Headers, now: Date): Date | undefined {
  const reset = headerNumber(headers, "x-ratelimit-reset");
  if (reset === undefined) return undefined;
  const at = new Date(reset * 1000);
  return at.getTime() > now.getTime() ? at : undefined;
}

/** Why and until when a token sends nothing. */
export interface TokenBlock {
  until: Date;
  reason: "secondary" | "lockout";
}

interface TokenRecord {
  byResource: Map<string, RateLimitSnapshot>;
  latest: RateLimitSnapshot | undefined;
  /** Secondary limits met in a row, without a successful answer in between. */
  secondaryStreak: number;
  /** No request goes out for this token before then (a secondary limit or a lockout). */
  block: TokenBlock | undefined;
}

/**
 * The rate-limit figures per token fingerprint (never per token): the last `x-ratelimit-*` seen,
 * per resource (`graphql`, `core`...), and the secondary-limit state.
 */
export interface RateLimitBook {
  /** Keeps a snapshot read from headers or from GraphQL's `rateLimit` field. */
  record(fingerprint: string, snapshot: RateLimitSnapshot): void;
  /** The last snapshot for the token; for one resource when `resource` is given. */
  latest(fingerprint: string, resource?: string): RateLimitSnapshot | undefined;
  /**
   * Notes a secondary limit and returns when to try again: `retryAfter` when GitHub said so, else
   * one minute, doubled for each secondary limit in a row (up to 15 minutes). The token is blocked
   * until then.
   */
  noteSecondaryLimit(fingerprint: string, now: Date, retryAfter?: Date): Date;
  /** Blocks the token until `until` (an authentication lockout). */
  block(fingerprint: string, until: Date, reason: TokenBlock["reason"]): void;
  /** A successful answer: the secondary back-off starts again from one minute. */
  noteSuccess(fingerprint: string): void;
  /** Why and until when the token may not send, if it is blocked now. */
  blocked(fingerprint: string, now: Date): TokenBlock | undefined;
}

/**
 * Creates a {@link RateLimitBook} that remembers the `maxTokens` most recently used fingerprints
 * (one per server token plus the default, so the bound only guards against unbounded growth).
 */
export function createRateLimitBook(options: { maxTokens?: number } = {}): RateLimitBook {
  const maxTokens = Math.max(1, options.maxTokens ?? 10_000);
  const records = new Map<string, TokenRecord>();

  function recordFor(fingerprint: string): TokenRecord {
    let record = records.get(fingerprint);
    if (record) {
      records.delete(fingerprint);
    } else {
      record = { byResource: new Map(), latest: undefined, secondaryStreak: 0, block: undefined };
    }
    records.set(fingerprint, record);
    while (records.size > maxTokens) {
      const oldest = records.keys().next();
      if (oldest.done) break;
      records.delete(oldest.value);
    }
    return record;
  }

  return {
    record(fingerprint, snapshot) {
      const record = recordFor(fingerprint);
      record.byResource.set(snapshot.resource, snapshot);
      record.latest = snapshot;
    },
    latest(fingerprint, resource) {
      const record = records.get(fingerprint);
      if (!record) return undefined;
      return resource === undefined ? record.latest : record.byResource.get(resource);
    },
    noteSecondaryLimit(fingerprint, now, retryAfter) {
      const record = recordFor(fingerprint);
      record.secondaryStreak += 1;
      const backoff = Math.min(
        SECONDARY_MAXIMUM_WAIT_MS,
        SECONDARY_MINIMUM_WAIT_MS * 2 ** Math.min(record.secondaryStreak - 1, 10),
      );
      const retryAt = retryAfter ?? new Date(now.getTime() + backoff);
      record.block = { until: retryAt, reason: "secondary" };
      return retryAt;
    },
    block(fingerprint, until, reason) {
      recordFor(fingerprint).block = { until, reason };
    },
    noteSuccess(fingerprint) {
      const record = records.get(fingerprint);
      if (record) record.secondaryStreak = 0;
    },
    blocked(fingerprint, now) {
      const block = records.get(fingerprint)?.block;
      return block !== undefined && block.until.getTime() > now.getTime() ? block : undefined;
    },
  };
}
