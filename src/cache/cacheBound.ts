/**
 * The bound of the answer cache (`CACHE_MAX_MB`, SPEC section 4): past it the least recently used
 * answers are evicted. Only the cache family is ever bounded; the durable namespaces (server
 * tokens, settings) live apart (their own SQLite file, untracked Redis keys) and are never evicted.
 *
 * Reads must stay fast, so a read writes nothing on the spot: the keys read are remembered in
 * process memory and their recency is written in one batch (every {@link FLUSH_EVERY} reads or
 * every second, and before any eviction). Writes are rarer than reads (each follows an upstream
 * call), so the size bookkeeping of a write, and the check of the bound, happen with the write.
 */

import { withTimeout } from "./guardedStore.js";

/** Pending reads flushed at once past this many. */
export const FLUSH_EVERY = 256;
/** Eviction goes down to this share of the bound, so that not every write past it evicts again. */
export const EVICT_DOWN_TO = 0.9;

/** What a backend does to keep its cache under the bound (SQLite and Redis have one each). */
export interface CacheBookkeeping {
  /** Marks these stored keys as read now, the first the least recent. */
  flushReads(storedKeys: readonly string[]): Promise<void>;
  /** A write to `storedKey` landed: book its size and mark it as the most recent. */
  written(storedKey: string): Promise<void>;
  /** `storedKey` was deleted through the cache: forget it. */
  removed(storedKey: string): Promise<void>;
  /** The bytes of every entry, as booked. */
  totalBytes(): Promise<number>;
  /** Deletes the least recently used entries until the booked total is at most `targetBytes`. @returns how many. */
  evict(targetBytes: number): Promise<number>;
  /** Repairs the books: entries that expired or vanished behind their back. */
  reconcile(): Promise<void>;
}

/** The bound as the store family uses it. */
export interface CacheBound {
  read(storedKey: string): void;
  written(storedKey: string): void;
  removed(storedKey: string): void;
  /** Flushes pending reads, then evicts when over the bound. @returns how many entries were evicted. */
  trim(): Promise<number>;
  /** Repairs the books (run with the expiry sweep). */
  reconcile(): Promise<void>;
  /** Flushes pending reads and stops the timer. */
  close(): Promise<void>;
}

/**
 * Wraps a backend's bookkeeping with the batching of reads, the serialisation of its operations
 * (one at a time, in order) and the check of the bound after writes. Failures are reported and
 * never reach a command: a cache that cannot be trimmed is a slower cache, not a failed command.
 */
export function createCacheBound(
  books: CacheBookkeeping,
  options: {
    maxBytes: number;
    onError: (operation: string, error: unknown) => void;
    flushIntervalMs?: number;
    /** Bound of one bookkeeping step (an eviction round included). Default 5 s. */
    timeoutMs?: number;
  },
): CacheBound {
  const pendingReads = new Map<string, true>();
  let chain: Promise<unknown> = Promise.resolve();
  let trimScheduled = false;

  /** Runs one bookkeeping step after the previous ones; never rejects. */
  function serial<T>(operation: string, step: () => Promise<T>, fallback: T): Promise<T> {
    const run = chain
      .then(() => withTimeout(step(), options.timeoutMs ?? 5_000))
      .catch((error: unknown) => {
        options.onError(operation, error);
        return fallback;
      });
    chain = run;
    return run;
  }

  /**
   * Books the reads remembered so far, in the order of last read. Called inside a step, so it books
   * those remembered when the step runs, not when it was queued: a step queued behind others would
   * otherwise hold them back from an eviction that runs before it.
   */
  async function bookReads(): Promise<void> {
    if (pendingReads.size === 0) return;
    const keys = [...pendingReads.keys()];
    pendingReads.clear();
    await books.flushReads(keys);
  }

  function flush(): Promise<void> {
    if (pendingReads.size === 0) return Promise.resolve();
    return serial("lru-read", bookReads, undefined);
  }

  function trim(): Promise<number> {
    return serial(
      "lru-evict",
      async () => {
        const total = await books.totalBytes();
        if (total <= options.maxBytes) return 0;
        // The reads are booked now, just before the oldest are chosen, not when the check was
        // asked for: a check queued by an earlier write (or slow to read the total) runs after the
        // writes and reads that came since, and would otherwise evict an entry just read.
        await bookReads().catch((error: unknown) => options.onError("lru-read", error));
        return books.evict(Math.floor(options.maxBytes * EVICT_DOWN_TO));
      },
      0,
    );
  }

  const timer = setInterval(() => void flush(), options.flushIntervalMs ?? 1_000);
  timer.unref();

  return {
    read(storedKey) {
      // Re-inserting moves the key to the end: the Map's order is the order of last reads.
      pendingReads.delete(storedKey);
      pendingReads.set(storedKey, true);
      if (pendingReads.size >= FLUSH_EVERY) void flush();
    },
    written(storedKey) {
      pendingReads.delete(storedKey);
      void serial("lru-write", () => books.written(storedKey), undefined);
      // One check of the bound after a burst of writes, queued behind all of them.
      if (trimScheduled) return;
      trimScheduled = true;
      setImmediate(() => {
        trimScheduled = false;
        void trim();
      });
    },
    removed(storedKey) {
      pendingReads.delete(storedKey);
      void serial("lru-delete", () => books.removed(storedKey), undefined);
    },
    trim,
    reconcile: () => serial("lru-reconcile", () => books.reconcile(), undefined),
    async close() {
      clearInterval(timer);
      await flush();
      await chain;
    },
  };
}
