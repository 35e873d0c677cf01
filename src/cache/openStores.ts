/*
 * The family of stores (cache and durable namespaces) over memory, SQLite or Redis: each backend
 * in a file of its own (memoryBackend, sqliteBackend, redisBackend), wired here into the guards,
 * the cache bound, the namespaces and the claims shared by processes.
 */
import { memoryCoordination, type Coordination } from "./coordination.js";
import type { Logger } from "../logger.js";
import { createCacheBound, type CacheBound } from "./cacheBound.js";
import {
  guardCacheKeyv,
  guardDurableKeyv,
  type CacheStore,
  type DurableStore,
  type GuardOptions,
} from "./guardedStore.js";
import { memoryBackend } from "./memoryBackend.js";
import type { Backend } from "./storeBackend.js";
import { withFields } from "../withFields.js";

/**
 * The cache namespaces RepoScout uses: one per kind of answer, plus ETags, button state, confirmed
 * access, rate-limit holds shared by processes, recent repositories, and which automatic preview
 * answers which message.
 */
export const CACHE_NAMESPACES = [
  "blame",
  "contents",
  "repositories",
  "contributors",
  "refs",
  "viewer",
  "etags",
  "buttons",
  "access",
  "rate-holds",
  "recents",
  "previews",
] as const;

/**
 * The durable namespaces: server tokens, server settings, user sign-ins, `/token set` checks, and
 * the versions of server tokens and sign-ins (Redis).
 */
export const DURABLE_NAMESPACES = [
  "vault",
  "settings",
  "user-tokens",
  "token-checks",
  "token-versions",
] as const;

export type StoreBackend = "memory" | "sqlite" | "redis";

/** Gives the store of one namespace; the same object for the same name. */
export type CacheStoreFactory = (namespace: string) => CacheStore;
export type DurableStoreFactory = (namespace: string) => DurableStore;

/** The family of stores of one process, opened once by {@link openStores}. */
export interface Stores {
  readonly backend: StoreBackend;
  /** A cache namespace (`blame`, `etags`...): failures read as misses. */
  readonly cache: CacheStoreFactory;
  /** A durable namespace (`vault`, `settings`): failures throw. */
  readonly durable: DurableStoreFactory;
  /**
   * A cache namespace whose failures throw instead of reading as misses, for a caller with a
   * fallback of its own: button state (`createButtonStateStore(stores.ephemeral("buttons"))` keeps
   * a button in process memory when the store cannot take it).
   */
  readonly ephemeral: DurableStoreFactory;
  /**
   * Deletes expired entries from the embedded stores (Redis expires its own). Runs on a timer;
   * exposed for tests and tools. @returns how many entries were deleted.
   */
  sweepExpired(): Promise<number>;
  /**
   * Evicts the least recently used cache entries while the cache is over its bound (`cacheMaxBytes`);
   * runs on its own after writes; exposed for tests and tools. Never touches the durable namespaces.
   * @returns how many entries were evicted.
   */
  trimCache(): Promise<number>;
  /**
   * Claims every process on these stores agrees on: Redis's when the stores are in Redis, this
   * process's memory otherwise (in-flight fetches across processes, the HTTP replay guard).
   */
  readonly coordination: Coordination;
  /** Closes every connection and file; afterwards every operation fails (cache: reads as a miss). */
  close(): Promise<void>;
}

export interface OpenStoresOptions {
  /** Where the SQLite files live (`cache.sqlite`, `vault.sqlite`); created when missing. */
  dataDir: string;
  /** Put everything in this Redis instead of SQLite. */
  redisUrl?: string | undefined;
  /** Keep everything in process memory (tests; nothing survives a restart). Wins over the others. */
  memory?: boolean;
  logger: Logger;
  /** First part of every Redis key (`<prefix>:<namespace>::<key>`); tests use a unique one. */
  prefix?: string;
  /** Bound of one cache operation before it counts as a miss. Default 400 ms. */
  cacheTimeoutMs?: number;
  /** Bound of one vault or settings operation before it fails. Default 2000 ms. */
  durableTimeoutMs?: number;
  /** How long {@link openStores} waits for Redis before going on without it. Default 3000 ms. */
  redisConnectWaitMs?: number;
  /** At most one store warning per this window (and per store). Default 30 s. */
  outageWindowMs?: number;
  /** How often expired entries are swept from SQLite and memory; 0 turns the timer off. Default 10 min. */
  sweepIntervalMs?: number;
  /**
   * Bound of the cache family in bytes of keys and values (config `CACHE_MAX_MB`); past it the
   * least recently used entries are evicted. Default 512 MiB.
   */
  cacheMaxBytes?: number;
}

/** `CACHE_MAX_MB`'s default, in bytes. */
export const DEFAULT_CACHE_MAX_BYTES = 512 * 1024 * 1024;

const NAMESPACE = /^[a-z][a-z0-9-]{0,39}$/;

function checkNamespace(namespace: string): string {
  if (!NAMESPACE.test(namespace)) throw new Error(`invalid store namespace ${JSON.stringify(namespace)}`);
  return namespace;
}

/** A factory that checks the namespace and makes each store once. */
function memoize<T>(make: (namespace: string) => T): (namespace: string) => T {
  const made = new Map<string, T>();
  return (namespace) => {
    let store = made.get(namespace);
    if (store === undefined) {
      store = make(checkNamespace(namespace));
      made.set(namespace, store);
    }
    return store;
  };
}

/**
 * Opens the family of stores of the process once: one SQLite file for the cache and one for the
 * vault and settings (default, in `dataDir`), or one Redis connection for everything when
 * `redisUrl` is set, or process memory. Namespaces are cheap views of that one connection.
 *
 * Redis that is down at start does not stop the bot: the client keeps reconnecting in the
 * background, the cache reads as empty meanwhile, and the vault throws a user-facing error.
 * @throws when a SQLite file cannot be opened (a data dir that cannot be written).
 */
/**
 * The backend the options name. Each is loaded only when used: the Redis client alone is about 9 MB
 * of resident memory that a process on SQLite never needs, and SQLite's driver the reverse.
 */
async function openBackend(
  options: OpenStoresOptions,
  windowMs: number,
  cacheMaxBytes: number,
): Promise<Backend> {
  if (options.memory) return memoryBackend(options.logger, windowMs, cacheMaxBytes);
  if (options.redisUrl) {
    const { redisBackend } = await import("./redisBackend.js");
    return redisBackend(
      options.redisUrl,
      options.prefix ?? "reposcout",
      options.logger,
      windowMs,
      options.redisConnectWaitMs ?? 3_000,
    );
  }
  const { sqliteBackend } = await import("./sqliteBackend.js");
  return sqliteBackend(options.dataDir, options.logger, windowMs);
}

export async function openStores(options: OpenStoresOptions): Promise<Stores> {
  const windowMs = options.outageWindowMs ?? 30_000;
  const cacheMaxBytes = options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES;
  const backend = await openBackend(options, windowMs, cacheMaxBytes);

  let closed = false;
  const isClosed = (): boolean => closed;
  const cacheTimeoutMs = options.cacheTimeoutMs ?? 400;
  const durableTimeoutMs = options.durableTimeoutMs ?? 2_000;
  const cacheGuard: GuardOptions = withFields(backend.cacheGuard, { timeoutMs: cacheTimeoutMs, isClosed });
  const durableGuard: GuardOptions = withFields(backend.durableGuard, {
    timeoutMs: durableTimeoutMs,
    isClosed,
  });
  // The bound of the cache family; the durable family is never booked, so never evicted.
  const bound: CacheBound | undefined = backend.books
    ? createCacheBound(backend.books, {
        maxBytes: cacheMaxBytes,
        onError: (operation, error) => backend.cacheGuard.reporter.failure(operation, error),
      })
    : undefined;
  const tracked = (namespace: string): GuardOptions =>
    bound
      ? withFields(cacheGuard, {
          track: {
            read: (key: string) => bound.read(backend.storedKey(namespace, key)),
            written: (key: string) => bound.written(backend.storedKey(namespace, key)),
            removed: (key: string) => bound.removed(backend.storedKey(namespace, key)),
          },
        })
      : cacheGuard;
  // One Keyv per namespace and kind of view, whatever the number of callers.
  const cache = memoize((namespace) => guardCacheKeyv(backend.cacheKeyv(namespace), tracked(namespace)));
  const durable = memoize((namespace) =>
    guardDurableKeyv(backend.durableKeyv(namespace), durableGuard, () => backend.durableKeys(namespace)),
  );
  const ephemeral = memoize((namespace) =>
    guardDurableKeyv(backend.cacheKeyv(namespace), tracked(namespace)),
  );

  const sweepExpired = async (): Promise<number> => {
    if (closed) return 0;
    try {
      const swept = await backend.sweep(Date.now());
      await bound?.reconcile();
      return swept;
    } catch (error) {
      backend.cacheGuard.reporter.failure("sweep", error);
      return 0;
    }
  };
  const sweepIntervalMs = options.sweepIntervalMs ?? 10 * 60_000;
  // Redis expires its own entries; its sweep only repairs the books of the bound.
  const sweepTimer =
    sweepIntervalMs > 0 ? setInterval(() => void sweepExpired(), sweepIntervalMs).unref() : undefined;

  options.logger.info({ store: backend.backend }, "stores open");
  return {
    backend: backend.backend,
    cache,
    durable,
    ephemeral,
    sweepExpired,
    coordination: backend.coordination ?? memoryCoordination(),
    trimCache: async () => (closed || !bound ? 0 : bound.trim()),
    async close() {
      if (closed) return;
      // Pending reads are flushed while the connection is still open.
      await bound?.close();
      closed = true;
      clearInterval(sweepTimer);
      await backend.close();
    },
  };
}

export type { CacheStore, DurableStore };
