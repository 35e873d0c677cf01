import { join } from "node:path";
import KeyvSqlite from "@keyv/sqlite";
import { Keyv } from "keyv";
import type { Logger } from "../logger.js";
import { ensurePrivateFile, secureDataDir, tightenDataFiles, warnAboutModes } from "../secureDataDir.js";
import { createOutageReporter } from "./outageReporter.js";
import { openPreparedConnection } from "./preparedSqlite.js";
import { sqliteCacheBookkeeping } from "./sqliteCacheBookkeeping.js";
import type { CacheBookkeeping } from "./cacheBound.js";
import { keyvPrefixed, NATIVE_JSON, type Backend } from "./storeBackend.js";

/** How long a query waits for another connection's lock before it fails. */
const BUSY_TIMEOUT_MS = 250;

/**
 * Opens one SQLite file with one adapter, shared by the namespaces of a family (Keyv prefixes
 * each key with its namespace); its queries run on one connection with prepared statements.
 * Opening is checked at once, so a data dir that cannot be written fails the start with a clear
 * error rather than every command later.
 */
async function openSqliteFile(path: string, tuneForCache: boolean, logger: Logger): Promise<KeyvSqlite> {
  // Created 0600 before SQLite opens it: its side files (-wal, -shm, -journal) take its mode.
  warnAboutModes(logger, [await ensurePrivateFile(path)]);
  const adapter = new KeyvSqlite({ uri: `sqlite://${path}`, busyTimeout: BUSY_TIMEOUT_MS });
  // Every namespace's Keyv listens to the adapter: more than Node's default of 10 listeners.
  adapter.setMaxListeners(0);
  adapter.on("error", () => undefined);
  try {
    // The first query awaits the adapter's connection promise, which would otherwise reject unheard.
    await adapter.query("SELECT 1");
    // Every query of the adapter (get, set, delete, the iterator) and of the cache's bookkeeping goes
    // through its `query`: run there, on a connection that keeps its statements prepared, each is
    // one trip to the threadpool instead of three (./preparedSqlite.ts). The adapter's own
    // connection made the table and stays idle; it is closed with this one.
    const prepared = await openPreparedConnection(path, BUSY_TIMEOUT_MS);
    const closeOwn = adapter.close;
    adapter.query = prepared.query;
    adapter.close = async () => {
      await Promise.allSettled([prepared.close(), closeOwn()]);
    };
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

/** The store family in two SQLite files of `dataDir`: the cache, and the vaults and settings. */
export async function sqliteBackend(dataDir: string, logger: Logger, windowMs: number): Promise<Backend> {
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
    cacheKeyv: (namespace) => new Keyv<unknown>(cacheFile, { namespace, ...NATIVE_JSON }),
    durableKeyv: (namespace) => new Keyv<unknown>(vaultFile, { namespace }),
    async durableKeys(namespace) {
      const prefix = `${namespace}:`;
      // A range of the primary key (";" follows ":"), not LIKE, whose "_" and "%" a namespace may
      // hold; the keys alone, no value read.
      const rows = (await vaultFile.query(
        "SELECT key FROM keyv WHERE key >= ? AND key < ?",
        prefix,
        `${namespace};`,
      )) as Array<{ key: string }>;
      return rows.map((row) => row.key.slice(prefix.length));
    },
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
