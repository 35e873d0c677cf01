import type { Keyv } from "keyv";
import { settleWithin } from "../timeouts.js";
import type { OutageReporter } from "./outageReporter.js";
import { withFields } from "../withFields.js";

/**
 * A namespace of the cache family (answers, ETags, button state). It never fails: a store that
 * errs or does not answer in time reads as a miss, and a failed write is dropped (SPEC section 4:
 * a cache outage makes answers slower, never fails a command).
 */
export interface CacheStore {
  /** The value, or undefined on a miss, an expired entry or a store failure. */
  get(key: string): Promise<unknown>;
  /** Stores a value for `ttlMs`; a failure is logged (per burst) and otherwise ignored. */
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}

/**
 * A namespace of the durable family (server tokens, server settings). Unlike the cache, a failure
 * here is not a miss: reading "no token" while the store is down would silently move a server to
 * the default token. Every failure throws a {@link StoreUnavailableError}.
 */
export interface DurableStore {
  /** The value, or undefined when the key is absent (or expired). */
  get(key: string): Promise<unknown>;
  /** Stores a value, for good or for `ttlMs`. */
  set(key: string, value: unknown, ttlMs?: number): Promise<void>;
  /** @returns whether the key existed. */
  delete(key: string): Promise<boolean>;
  /**
   * Every key the namespace holds (one whose time ran out may be listed until it is swept): for
   * small namespaces, such as who has signed in, not for the cache.
   * @throws StoreUnavailableError when the store fails or cannot list its keys.
   */
  keys(): Promise<string[]>;
}

/** A store did not answer, or answered with an error. The cause is the store's error. */
export class StoreUnavailableError extends Error {
  constructor(
    readonly store: string,
    readonly operation: string,
    options?: { cause?: unknown },
  ) {
    super(`store ${store} failed on ${operation}`, options);
    this.name = "StoreUnavailableError";
  }
}

/** A store operation took longer than its bound. */
export class StoreTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`store operation did not finish within ${timeoutMs} ms`);
    this.name = "StoreTimeoutError";
  }
}

export interface GuardOptions {
  /** The store's name in logs and errors (`redis`, `sqlite:cache`, `memory`...). */
  store: string;
  reporter: OutageReporter;
  /** Upper bound of one operation; past it the operation counts as failed. */
  timeoutMs: number;
  /** True once the family is closed: operations fail at once instead of reopening a connection. */
  isClosed?: () => boolean;
  /** Told of every hit, landed write and delete by key (the LRU books of the cache bound). */
  track?: KeyTracker;
}

/** What the cache bound learns from a namespace (keys as the caller gave them). */
export interface KeyTracker {
  read(key: string): void;
  written(key: string): void;
  removed(key: string): void;
}

/**
 * Bounds a promise with a timeout ({@link StoreTimeoutError} past it). The abandoned promise keeps
 * running; its late rejection is swallowed so it can never become an unhandled rejection.
 */
export async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  const bounded = await settleWithin(promise, timeoutMs);
  if (bounded.timedOut) throw new StoreTimeoutError(timeoutMs);
  return bounded.value;
}

/** A listing of a whole namespace reads many rows: it is bounded more loosely than one operation. */
const LISTING_TIMEOUT_MS = 30_000;

/**
 * Runs one Keyv operation under the guard: refused after close, bounded in time, failures reported
 * (once per burst) and rethrown as {@link StoreUnavailableError}.
 */
async function guarded<T>(guard: GuardOptions, operation: string, run: () => Promise<T>): Promise<T> {
  if (guard.isClosed?.()) throw new StoreUnavailableError(guard.store, operation, { cause: "closed" });
  try {
    // `run` may throw synchronously (a Keyv adapter bug); the async wrapper turns that into a rejection.
    const result = await withTimeout((async () => run())(), guard.timeoutMs);
    guard.reporter.recovered();
    return result;
  } catch (error) {
    guard.reporter.failure(operation, error);
    throw new StoreUnavailableError(guard.store, operation, { cause: error });
  }
}

/**
 * Makes Keyv report failures by throwing rather than by an event alone. Keyv 5 swallows a failed
 * `get` unless `throwOnErrors` is set (it then reads as a miss, which the vault must not do), and
 * re-emits adapter errors as 'error' events; a listener is kept so that an emitter that throws on
 * an unheard 'error' (Node's own, or a future Keyv) can never crash the process.
 */
function prepareKeyv(keyv: Keyv<unknown>): Keyv<unknown> {
  keyv.throwOnErrors = true;
  if (keyv.listeners("error").length === 0) keyv.on("error", () => undefined);
  return keyv;
}

/** Wraps a Keyv namespace as a {@link CacheStore}: failures and timeouts read as misses. */
export function guardCacheKeyv(keyv: Keyv<unknown>, guard: GuardOptions): CacheStore {
  const store = prepareKeyv(keyv);
  return {
    async get(key) {
      try {
        const value = await guarded(guard, "get", () => store.get(key));
        if (value !== undefined) guard.track?.read(key);
        return value;
      } catch {
        return undefined;
      }
    },
    async set(key, value, ttlMs) {
      try {
        await guarded(guard, "set", () => store.set(key, value, ttlMs));
        guard.track?.written(key);
      } catch {
        // A dropped write costs one more upstream call later, nothing else.
      }
    },
    async delete(key) {
      try {
        await guarded(guard, "delete", () => store.delete(key));
        guard.track?.removed(key);
      } catch {
        // An entry that could not be deleted expires on its own.
      }
    },
  };
}

/**
 * Wraps a Keyv namespace as a {@link DurableStore}: failures and timeouts throw. `listKeys` lists
 * the namespace where it can be listed, its backend's way: Keyv's own iterator lists the namespace
 * of whichever Keyv was made last over an adapter that namespaces share (SQLite's, the memory map).
 */
export function guardDurableKeyv(
  keyv: Keyv<unknown>,
  guard: GuardOptions,
  listKeys?: () => Promise<string[]>,
): DurableStore {
  const store = prepareKeyv(keyv);
  return {
    async get(key) {
      const value = await guarded(guard, "get", () => store.get(key));
      if (value !== undefined && value !== null) guard.track?.read(key);
      return value ?? undefined;
    },
    async set(key, value, ttlMs) {
      const ok = await guarded(guard, "set", () => store.set(key, value, ttlMs));
      // With throwOnErrors Keyv throws on failure; `false` would be an adapter that declined quietly.
      if (ok === false) throw new StoreUnavailableError(guard.store, "set", { cause: "write refused" });
      guard.track?.written(key);
    },
    async delete(key) {
      const existed = await guarded(guard, "delete", () => store.delete(key));
      guard.track?.removed(key);
      return existed;
    },
    keys() {
      const listing = withFields(guard, { timeoutMs: Math.max(guard.timeoutMs, LISTING_TIMEOUT_MS) });
      return guarded(
        listing,
        "keys",
        listKeys ?? (() => Promise.reject(new Error("this store cannot list its keys"))),
      );
    },
  };
}
