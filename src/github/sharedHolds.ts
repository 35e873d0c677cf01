import type { RateLimitBook, TokenBlock } from "./rateLimits.js";

/**
 * Holds on a token (a secondary rate limit, an authentication lockout) that every process sharing
 * the stores sees (SPEC section 6): GitHub asks that nothing be sent while one lasts, whichever
 * process would send it. Kept per token fingerprint, never per token.
 */
export interface SharedHolds {
  /** Tells the other processes. Never throws: a hold that cannot be shared still holds here. */
  publish(fingerprint: string, block: TokenBlock): Promise<void>;
  /** A hold another process told of, still running; undefined when none or when it cannot be read. */
  read(fingerprint: string): Promise<TokenBlock | undefined>;
}

/** What the holds need of a store: the cache family's get and set (failures read as misses). */
export interface HoldStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
}

/** Holds kept in a shared store (`stores.cache("rate-holds")`), each living as long as it lasts. */
export function storeHolds(store: HoldStore, now: () => Date = () => new Date()): SharedHolds {
  return {
    async publish(fingerprint, block) {
      const ttlMs = block.until.getTime() - now().getTime();
      if (ttlMs <= 0) return;
      await store
        .set(fingerprint, { until: block.until.toISOString(), reason: block.reason }, ttlMs)
        .catch(() => undefined);
    },
    async read(fingerprint) {
      const raw = (await store.get(fingerprint).catch(() => undefined)) as
        { until?: unknown; reason?: unknown } | undefined;
      if (!raw || typeof raw.until !== "string") return undefined;
      if (raw.reason !== "secondary" && raw.reason !== "lockout") return undefined;
      const until = new Date(raw.until);
      return until.getTime() > now().getTime() ? { until, reason: raw.reason } : undefined;
    },
  };
}

/**
 * A rate-limit book that also publishes the holds it notes, and `adoptShared` that takes in a hold
 * another process noted, so the next preflight check refuses to send.
 */
export function sharingBook(
  book: RateLimitBook,
  holds: SharedHolds,
): RateLimitBook & { adoptShared(fingerprint: string, now: Date): Promise<void> } {
  return {
    ...book,
    noteSecondaryLimit(fingerprint, now, retryAfter) {
      const until = book.noteSecondaryLimit(fingerprint, now, retryAfter);
      void holds.publish(fingerprint, { until, reason: "secondary" });
      return until;
    },
    block(fingerprint, until, reason) {
      book.block(fingerprint, until, reason);
      void holds.publish(fingerprint, { until, reason });
    },
    async adoptShared(fingerprint, now) {
      const shared = await holds.read(fingerprint);
      if (!shared || shared.until.getTime() <= now.getTime()) return;
      const local = book.blocked(fingerprint, now);
      if (!local || local.until.getTime() < shared.until.getTime()) {
        book.block(fingerprint, shared.until, shared.reason);
      }
    },
  };
}
