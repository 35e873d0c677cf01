import { createHash } from "node:crypto";
import { merged } from "./json.js";

/** A 429 a test asks for: the next `count` requests matching `method` and `route` get it. */
export interface RateLimitInjection {
  /** HTTP method to match (any when absent). */
  method?: string;
  /**
   * Matched against the route template (`/channels/:channel_id/messages`) and the concrete path
   * (`/channels/123/messages`): a string must equal one of them, a RegExp must match one.
   * Any route when absent.
   */
  route?: string | RegExp;
  /** How many matching requests get a 429 (default 1). */
  count?: number;
  /**
   * Seconds the client must wait (default 1). Discord's `Retry-After` header holds whole
   * seconds; a fraction here is passed through as is, to keep tests fast.
   */
  retryAfterSeconds?: number;
  /** A global rate limit (`X-RateLimit-Global: true`, scope `global`). */
  global?: boolean;
}

/** A rate-limit verdict for one request. */
export interface RateLimitVerdict {
  /** Headers to add to the answer, whatever it is. */
  headers: Record<string, string>;
  /** Set when the request is refused with 429. */
  limited: { retryAfter: number; global: boolean } | null;
}

interface Window {
  remaining: number;
  resetAt: number;
}

/** Bucket sizes: how many requests a route's bucket allows per window. */
export interface RateLimitOptions {
  limit: number;
  windowMs: number;
}

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

/**
 * Per-route rate-limit buckets, in Discord's manner: each route template (per major parameter:
 * channel, guild, webhook) has a bucket with an opaque hash, a limit and a reset time, reported in
 * `X-RateLimit-*` headers on every answer; a client that goes past them gets 429. Tests can also
 * inject 429s for the next requests on a route.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  /**
   * The size of `windows` at which expired ones are swept: each interaction token is a webhook
   * bucket of its own, used for 15 minutes at most, so without a sweep every one ever seen would
   * stay (Discord forgets a bucket once it resets).
   */
  private sweepAt = 1_024;
  /** The opaque bucket hash of each `METHOD template` (hashing on every request was a hot spot). */
  private readonly bucketHashes = new Map<string, string>();
  private readonly injections: Array<
    Required<Omit<RateLimitInjection, "method" | "route">> & RateLimitInjection
  > = [];
  private readonly options: RateLimitOptions;

  constructor(options: RateLimitOptions) {
    this.options = options;
  }

  /** Queues an injected 429 for the next matching requests. */
  inject(injection: RateLimitInjection): void {
    this.injections.push(
      merged(injection, {
        count: injection.count ?? 1,
        retryAfterSeconds: injection.retryAfterSeconds ?? 1,
        global: injection.global ?? false,
      }),
    );
  }

  /** How many injected 429s are still waiting to be served. */
  pendingInjections(): number {
    return this.injections.reduce((total, injection) => total + injection.count, 0);
  }

  /** How many buckets are remembered (their window not over yet, or not swept yet). */
  buckets(): number {
    return this.windows.size;
  }

  /** Forgets the buckets whose window is over; the next sweep waits until the map doubles (amortized O(1)). */
  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    this.sweepAt = Math.max(1_024, 2 * this.windows.size);
  }

  /** Decides on one request and returns the headers to send with the answer. */
  check(method: string, template: string, path: string, majorValue: string | null): RateLimitVerdict {
    const route = `${method} ${template}`;
    let bucket = this.bucketHashes.get(route);
    if (bucket === undefined) {
      bucket = createHash("sha1").update(route).digest("hex").slice(0, 32);
      this.bucketHashes.set(route, bucket);
    }
    const key = `${bucket}:${majorValue ?? "-"}`;
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { remaining: this.options.limit, resetAt: now + this.options.windowMs };
      this.windows.set(key, window);
      if (this.windows.size >= this.sweepAt) this.sweep(now);
    }
    const injected = this.takeInjection(method, template, path);
    if (injected) {
      const resetAt = now + injected.retryAfterSeconds * 1000;
      return {
        headers: {
          "Retry-After": String(injected.retryAfterSeconds),
          "X-RateLimit-Limit": String(this.options.limit),
          "X-RateLimit-Remaining": "0",
          "X-RateLimit-Reset": seconds(resetAt),
          "X-RateLimit-Reset-After": seconds(injected.retryAfterSeconds * 1000),
          "X-RateLimit-Bucket": bucket,
          "X-RateLimit-Scope": injected.global ? "global" : "user",
          ...(injected.global ? { "X-RateLimit-Global": "true" } : {}),
        },
        limited: { retryAfter: injected.retryAfterSeconds, global: injected.global },
      };
    }
    const base = {
      "X-RateLimit-Limit": String(this.options.limit),
      "X-RateLimit-Reset": seconds(window.resetAt),
      "X-RateLimit-Reset-After": seconds(window.resetAt - now),
      "X-RateLimit-Bucket": bucket,
    };
    if (window.remaining <= 0) {
      const retryAfter = Math.max(0.001, (window.resetAt - now) / 1000);
      return {
        headers: merged(base, {
          "Retry-After": String(Math.ceil(retryAfter)),
          "X-RateLimit-Remaining": "0",
          "X-RateLimit-Scope": "user",
        }),
        limited: { retryAfter: Number(retryAfter.toFixed(3)), global: false },
      };
    }
    window.remaining--;
    return { headers: merged(base, { "X-RateLimit-Remaining": String(window.remaining) }), limited: null };
  }

  private takeInjection(
    method: string,
    template: string,
    path: string,
  ): { retryAfterSeconds: number; global: boolean } | null {
    const index = this.injections.findIndex((injection) => {
      if (injection.method && injection.method.toUpperCase() !== method) return false;
      if (injection.route === undefined) return true;
      if (typeof injection.route === "string")
        return injection.route === template || injection.route === path;
      return injection.route.test(template) || injection.route.test(path);
    });
    if (index < 0) return null;
    const injection = this.injections[index]!;
    injection.count--;
    if (injection.count <= 0) this.injections.splice(index, 1);
    return { retryAfterSeconds: injection.retryAfterSeconds, global: injection.global };
  }
}
