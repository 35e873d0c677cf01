/**
 * GitHub's primary rate limits: a budget of points per token (or, without a token, per client
 * address) and resource (`graphql`, `core` for REST), refilled an hour after the window opened.
 */

export type RateResource = "graphql" | "core";

/** The figures of one budget, as the `x-ratelimit-*` headers show them. */
export interface RateSnapshot {
  resource: RateResource;
  limit: number;
  remaining: number;
  used: number;
  /** Epoch seconds when the budget refills. */
  resetAt: number;
}

interface Bucket {
  limit: number;
  used: number;
  resetAt: number;
}

const WINDOW_SECONDS = 3600;

/** Budgets by key (a token fingerprint, or `anonymous:<address>`) and resource. */
export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #limits = new Map<string, number>();
  #defaultLimit: number;
  readonly #anonymousLimit: number;
  readonly #now: () => number;

  /**
   * @param options.defaultLimit points per hour of a token (GitHub: 5,000)
   * @param options.anonymousLimit points per hour without a token (GitHub: 60)
   * @param options.now the clock, in milliseconds
   */
  constructor(options: { defaultLimit?: number; anonymousLimit?: number; now?: () => number } = {}) {
    this.#defaultLimit = options.defaultLimit ?? 5000;
    this.#anonymousLimit = options.anonymousLimit ?? 60;
    this.#now = options.now ?? Date.now;
  }

  /** The current figures, charging nothing. */
  peek(key: string, resource: RateResource): RateSnapshot {
    return snapshot(resource, this.#bucket(key, resource));
  }

  /**
   * Charges `cost` points when the budget has them. An exhausted budget charges nothing and says so
   * (`ok: false`), as GitHub refuses the request.
   */
  charge(key: string, resource: RateResource, cost: number): { ok: boolean; snapshot: RateSnapshot } {
    const bucket = this.#bucket(key, resource);
    if (bucket.limit - bucket.used < cost) return { ok: false, snapshot: snapshot(resource, bucket) };
    bucket.used += cost;
    return { ok: true, snapshot: snapshot(resource, bucket) };
  }

  /**
   * Sets a budget: its limit (kept for later windows too) and what remains of the current window.
   * Without `resource`, both resources.
   */
  set(key: string, budget: { limit?: number; remaining?: number; resource?: RateResource }): void {
    for (const resource of budget.resource ? [budget.resource] : (["graphql", "core"] as const)) {
      const bucket = this.#bucket(key, resource);
      if (budget.limit !== undefined) {
        this.#limits.set(`${key}\0${resource}`, budget.limit);
        bucket.limit = budget.limit;
      }
      if (budget.remaining !== undefined) bucket.used = Math.max(0, bucket.limit - budget.remaining);
    }
  }

  /** Changes the limit of every token budget that was not set one by one. */
  setDefaultLimit(limit: number): void {
    this.#defaultLimit = limit;
  }

  #bucket(key: string, resource: RateResource): Bucket {
    const id = `${key}\0${resource}`;
    const now = Math.floor(this.#now() / 1000);
    let bucket = this.#buckets.get(id);
    if (!bucket || bucket.resetAt <= now) {
      const limit =
        this.#limits.get(id) ?? (key.startsWith("anonymous:") ? this.#anonymousLimit : this.#defaultLimit);
      bucket = { limit, used: 0, resetAt: now + WINDOW_SECONDS };
      this.#buckets.set(id, bucket);
    }
    return bucket;
  }
}

function snapshot(resource: RateResource, bucket: Bucket): RateSnapshot {
  return {
    resource,
    limit: bucket.limit,
    remaining: Math.max(0, bucket.limit - bucket.used),
    used: bucket.used,
    resetAt: bucket.resetAt,
  };
}

/** The `x-ratelimit-*` headers of a snapshot. */
export function rateLimitHeaders(rate: RateSnapshot): Record<string, string> {
  return {
    "x-ratelimit-limit": String(rate.limit),
    "x-ratelimit-remaining": String(rate.remaining),
    "x-ratelimit-reset": String(rate.resetAt),
    "x-ratelimit-used": String(rate.used),
    "x-ratelimit-resource": rate.resource,
  };
}
