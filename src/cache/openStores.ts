/*
 * The family of stores (cache and durable namespaces) over memory, SQLite or Redis. Over 300
 * lines: the three backends share the private `Backend` shape and are wired into the guards and
 * the cache bound in one place; they are kept here, each a function of its own, while several
 * branches change them. Splitting them into one file per backend is the next step.
 */
import { join } from "node:path";
import KeyvRedis, { createClient } from "@keyv/redis";
import {
  memoryCoordination,
  redisCoordination,
  type Coordination,
  type RedisCommands,
} from "./coordination.js";
import KeyvSqlite from "@keyv/sqlite";
import { Keyv } from "keyv";
import { LRUCache } from "lru-cache";
import type { Logger } from "../logger.js";
import { ensurePrivateFile, secureDataDir, tightenDataFiles, warnAboutModes } from "../secureDataDir.js";
import { createCacheBound, type CacheBookkeeping, type CacheBound } from "./cacheBound.js";
import {
  guardCacheKeyv,
  guardDurableKeyv,
  type CacheStore,
  type DurableStore,
  type GuardOptions,
} from "./guardedStore.js";
import { createOutageReporter } from "./outageReporter.js";
import { redisCacheBookkeeping, type RedisScripting } from "./redisCacheBookkeeping.js";
import { sqliteCacheBookkeeping } from "./sqliteCacheBookkeeping.js";

/** The cache namespaces RepoScout uses: one per kind of answer, plus ETags and button state. */
export const CACHE_NAMESPACES = [
  "blame",
  "contents",
  "repositories",
  "contributors",
  "refs",
  "viewer",
  "etags",
  "buttons",
] as const;

/** The durable namespaces: server tokens, server settings and user sign-ins. */
export const DURABLE_NAMESPACES = ["vault", "settings", "user-tokens"] as const;

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

/** Waits `ms`, or less when `done` settles first; leaves no timer behind. */
async function waitAtMost(done: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    done.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
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

/** Backoff of Redis reconnections: fast at first, then every 2 s, and never giving up. */
function redisReconnectDelay(retries: number): number {
  return Math.min(50 * 2 ** retries, 2_000) + Math.floor(Math.random() * 100);
}

/** The parts a backend contributes to the family. */
interface Backend {
  backend: StoreBackend;
  cacheKeyv(namespace: string): Keyv<unknown>;
  durableKeyv(namespace: string): Keyv<unknown>;
  cacheGuard: Omit<GuardOptions, "timeoutMs" | "isClosed">;
  durableGuard: Omit<GuardOptions, "timeoutMs" | "isClosed">;
  /** The key a cache entry is stored under (Keyv adds the namespace its own way per adapter). */
  storedKey(namespace: string, key: string): string;
  /** The LRU books of the cache; absent where the store bounds itself (memory). */
  books?: CacheBookkeeping;
  /** Redis's claims; absent: this process's memory. */
  coordination?: Coordination;
  sweep(now: number): Promise<number>;
  close(): Promise<void>;
}

/** Keyv's own prefixing of a key with its namespace (`_getKeyPrefix`), for the books. */
function keyvPrefixed(namespace: string, key: string): string {
  return key.startsWith(`${namespace}:`) ? key : `${namespace}:${key}`;
}

function memoryBackend(logger: Logger, windowMs: number, maxBytes: number): Backend {
  // One map per family; Keyv prefixes every key with its namespace, so namespaces can share it.
  // The cache's is bounded by bytes, least recently used first (lru-cache does exactly that).
  const cacheMap = new LRUCache<string, NonNullable<unknown>>({
    maxSize: maxBytes,
    sizeCalculation: (value, key) =>
      Math.max(1, Buffer.byteLength(key) + (typeof value === "string" ? Buffer.byteLength(value) : 64)),
  });
  // Keyv hands a store's set() the TTL as a third argument, which LRUCache reads as its options.
  const cacheStore = {
    get: (key: string) => cacheMap.get(key),
    set: (key: string, value: NonNullable<unknown>) => Boolean(cacheMap.set(key, value)),
    delete: (key: string) => cacheMap.delete(key),
    has: (key: string) => cacheMap.has(key),
    clear: () => cacheMap.clear(),
  };
  const durableMap = new Map<string, unknown>();
  const reporter = createOutageReporter({ logger, store: "memory", windowMs });
  return {
    backend: "memory",
    cacheKeyv: (namespace) => new Keyv<unknown>({ store: cacheStore, namespace }),
    durableKeyv: (namespace) => new Keyv<unknown>({ store: durableMap, namespace }),
    cacheGuard: { store: "memory", reporter },
    durableGuard: { store: "memory", reporter },
    storedKey: keyvPrefixed,
    async sweep(now) {
      let removed = 0;
      // Collected first: an LRU list is not deleted from while it is walked.
      for (const [key, raw] of [...cacheMap.entries()]) {
        if (typeof raw !== "string") continue;
        const expires = (JSON.parse(raw) as { expires?: unknown }).expires;
        if (typeof expires === "number" && expires < now) {
          cacheMap.delete(key);
          removed += 1;
        }
      }
      return removed;
    },
    async close() {
      cacheMap.clear();
      durableMap.clear();
    },
  };
}

/**
 * Opens one SQLite file with one connection, shared by the namespaces of a family (Keyv prefixes
 * each key with its namespace). Opening is checked at once, so a data dir that cannot be written
 * fails the start with a clear error rather than every command later.
 */
async function openSqliteFile(path: string, tuneForCache: boolean, logger: Logger): Promise<KeyvSqlite> {
  // Created 0600 before SQLite opens it: its side files (-wal, -shm, -journal) take its mode.
  warnAboutModes(logger, [await ensurePrivateFile(path)]);
  const adapter = new KeyvSqlite({ uri: `sqlite://${path}`, busyTimeout: 250 });
  // Every namespace's Keyv listens to the adapter: more than Node's default of 10 listeners.
  adapter.setMaxListeners(0);
  adapter.on("error", () => undefined);
  try {
    // The first query awaits the adapter's connection promise, which would otherwise reject unheard.
    await adapter.query("SELECT 1");
    if (tuneForCache) {
      // The cache can lose its last writes in a crash; it cannot make commands wait on fsync.
      await adapter.query("PRAGMA journal_mode = WAL");
      await adapter.query("PRAGMA synchronous = NORMAL");
    }
  } catch (error) {
    throw new Error(`cannot open the SQLite store ${path}`, { cause: error });
  }
  return adapter;
}

async function sqliteBackend(dataDir: string, logger: Logger, windowMs: number): Promise<Backend> {
  // Owner-only (0700, files 0600), also when the folder or its files already exist looser.
  await secureDataDir(dataDir, logger);
  // Two files: the cache can be deleted at any time; the vault and settings cannot.
  const cacheFile = await openSqliteFile(join(dataDir, "cache.sqlite"), true, logger);
  let vaultFile: KeyvSqlite;
  try {
    vaultFile = await openSqliteFile(join(dataDir, "vault.sqlite"), false, logger);
  } catch (error) {
    await cacheFile.disconnect().catch(() => undefined);
    throw error;
  }
  // The WAL side files exist now; an older version may have left them readable by others.
  warnAboutModes(logger, await tightenDataFiles(dataDir));
  let books: CacheBookkeeping;
  try {
    books = await sqliteCacheBookkeeping(cacheFile);
  } catch (error) {
    await Promise.allSettled([cacheFile.disconnect(), vaultFile.disconnect()]);
    throw new Error("cannot set up the cache bound in cache.sqlite", { cause: error });
  }
  return {
    backend: "sqlite",
    cacheKeyv: (namespace) => new Keyv<unknown>(cacheFile, { namespace }),
    durableKeyv: (namespace) => new Keyv<unknown>(vaultFile, { namespace }),
    cacheGuard: {
      store: "sqlite:cache",
      reporter: createOutageReporter({ logger, store: "sqlite:cache", windowMs }),
    },
    durableGuard: {
      store: "sqlite:vault",
      reporter: createOutageReporter({ logger, store: "sqlite:vault", windowMs }),
    },
    storedKey: keyvPrefixed,
    books,
    async sweep(now) {
      // Keyv keeps the expiry inside the serialized value; nothing else deletes an entry never read again.
      const before = (await cacheFile.query("SELECT COUNT(*) AS n FROM keyv")) as Array<{ n: number }>;
      await cacheFile.query(
        "DELETE FROM keyv WHERE json_valid(value) AND json_extract(value, '$.expires') < ?",
        now,
      );
      const after = (await cacheFile.query("SELECT COUNT(*) AS n FROM keyv")) as Array<{ n: number }>;
      return (before[0]?.n ?? 0) - (after[0]?.n ?? 0);
    },
    async close() {
      await Promise.allSettled([cacheFile.disconnect(), vaultFile.disconnect()]);
    },
  };
}

async function redisBackend(
  url: string,
  prefix: string,
  logger: Logger,
  windowMs: number,
  connectWaitMs: number,
): Promise<Backend> {
  const reporter = createOutageReporter({ logger, store: "redis", windowMs });
  const client = createClient({
    url,
    // Without this, a command sent while Redis is unreachable waits in a queue until it comes back,
    // which can be forever; with it, the command fails at once and reads as a miss.
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: redisReconnectDelay },
  });
  // One adapter per namespace shares this client; each adds its own listeners.
  client.setMaxListeners(0);
  // A client with no 'error' listener would crash the process on the first refused connection.
  client.on("error", (error: unknown) => reporter.failure("connect", error));
  client.on("ready", () => reporter.recovered());
  // connect() resolves only once Redis answers and keeps retrying meanwhile (never rejecting with
  // this strategy); the bot starts without waiting for it past `connectWaitMs`.
  const connecting = client.connect();
  await waitAtMost(connecting, connectWaitMs);
  if (!client.isReady) {
    logger.warn(
      { store: "redis", waitedMs: connectWaitMs },
      "Redis is not reachable yet: the cache reads as empty and server tokens cannot be read until it is",
    );
  }
  const adapter = (namespace: string): Keyv<unknown> => {
    const full = `${prefix}:${namespace}`;
    // throwOnConnectError: if the client is ever closed, the adapter would otherwise reconnect on its own.
    const store = new KeyvRedis(client, { namespace: full, throwOnErrors: true, throwOnConnectError: true });
    // The adapter prefixes keys itself; Keyv must not add a second prefix.
    return new Keyv<unknown>(store, { namespace: full, useKeyPrefix: false });
  };
  return {
    backend: "redis",
    cacheKeyv: adapter,
    durableKeyv: adapter,
    cacheGuard: { store: "redis", reporter },
    durableGuard: { store: "redis", reporter },
    // KeyvRedis writes `<namespace>::<key>`, the namespace being `<prefix>:<namespace>`.
    storedKey: (namespace, key) => `${prefix}:${namespace}::${key}`,
    books: redisCacheBookkeeping(client as unknown as RedisScripting, prefix),
    coordination: redisCoordination(client as unknown as RedisCommands, prefix),
    async sweep() {
      return 0;
    },
    async close() {
      if (!client.isOpen) return;
      // close() waits for commands in flight; a server that does not answer gets destroy() instead.
      await waitAtMost(
        client.close().catch(() => undefined),
        1_000,
      );
      if (client.isOpen) client.destroy();
    },
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
export async function openStores(options: OpenStoresOptions): Promise<Stores> {
  const windowMs = options.outageWindowMs ?? 30_000;
  const cacheMaxBytes = options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES;
  const backend: Backend = options.memory
    ? memoryBackend(options.logger, windowMs, cacheMaxBytes)
    : options.redisUrl
      ? await redisBackend(
          options.redisUrl,
          options.prefix ?? "reposcout",
          options.logger,
          windowMs,
          options.redisConnectWaitMs ?? 3_000,
        )
      : await sqliteBackend(options.dataDir, options.logger, windowMs);

  let closed = false;
  const isClosed = (): boolean => closed;
  const cacheTimeoutMs = options.cacheTimeoutMs ?? 400;
  const durableTimeoutMs = options.durableTimeoutMs ?? 2_000;
  const cacheGuard: GuardOptions = { ...backend.cacheGuard, timeoutMs: cacheTimeoutMs, isClosed };
  const durableGuard: GuardOptions = { ...backend.durableGuard, timeoutMs: durableTimeoutMs, isClosed };
  // The bound of the cache family; the durable family is never booked, so never evicted.
  const bound: CacheBound | undefined = backend.books
    ? createCacheBound(backend.books, {
        maxBytes: cacheMaxBytes,
        onError: (operation, error) => backend.cacheGuard.reporter.failure(operation, error),
      })
    : undefined;
  const tracked = (namespace: string): GuardOptions =>
    bound
      ? {
          ...cacheGuard,
          track: {
            read: (key) => bound.read(backend.storedKey(namespace, key)),
            written: (key) => bound.written(backend.storedKey(namespace, key)),
            removed: (key) => bound.removed(backend.storedKey(namespace, key)),
          },
        }
      : cacheGuard;
  // One Keyv per namespace and kind of view, whatever the number of callers.
  const cache = memoize((namespace) => guardCacheKeyv(backend.cacheKeyv(namespace), tracked(namespace)));
  const durable = memoize((namespace) => guardDurableKeyv(backend.durableKeyv(namespace), durableGuard));
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
