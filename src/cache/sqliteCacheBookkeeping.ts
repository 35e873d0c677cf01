import type KeyvSqlite from "@keyv/sqlite";
import type { CacheBookkeeping } from "./cacheBound.js";

/**
 * The LRU books of the SQLite cache file, in that file: `reposcout_lru` (key, recency tick, bytes)
 * and a one-row running total. Triggers on Keyv's `keyv` table keep them exact whoever writes or
 * deletes (Keyv, the expiry sweep, an eviction), so a write costs no extra round trip and the total
 * is read in O(1). Ticks are a counter, not a clock: one file, one order.
 *
 * Keyv's table is created by @keyv/sqlite (`keyv(key VARCHAR PRIMARY KEY, value TEXT)`); sizes
 * are in bytes (`length(CAST(... AS BLOB))`) of key and value, which is what the bound counts. The
 * file itself is larger (pages, the index, the WAL) and SQLite reuses freed pages rather than
 * shrinking the file, so it stays near the bound instead of growing without end.
 */

/** Bytes of a row, in SQL: key and value as stored. */
const rowBytes = (row: "new" | "old") =>
  `length(CAST(${row}.key AS BLOB)) + COALESCE(length(CAST(${row}.value AS BLOB)), 0)`;

/**
 * What an insert or an update of a `keyv` row does to the books. The old row of the key is deleted
 * and a new one inserted, with no conflict clause: SQLite applies the firing statement's conflict
 * policy to a trigger's statements, and Keyv's upsert (`ON CONFLICT(key) DO UPDATE`) turned an
 * `INSERT OR REPLACE` here into a UNIQUE failure, so every rewrite of an existing key failed.
 */
const BOOK_ROW = `BEGIN
  UPDATE reposcout_lru_total SET bytes = bytes + ${rowBytes("new")}
    - COALESCE((SELECT bytes FROM reposcout_lru WHERE key = new.key), 0) WHERE id = 1;
  DELETE FROM reposcout_lru WHERE key = new.key;
  INSERT INTO reposcout_lru (key, tick, bytes)
    VALUES (new.key, (SELECT COALESCE(MAX(tick), 0) + 1 FROM reposcout_lru), ${rowBytes("new")});
END`;

/** Triggers of an earlier version of the books, replaced at start (see {@link BOOK_ROW}). */
const RETIRED_TRIGGERS = ["reposcout_lru_insert", "reposcout_lru_update"];

const SETUP = [
  `CREATE TABLE IF NOT EXISTS reposcout_lru (key TEXT PRIMARY KEY, tick INTEGER NOT NULL, bytes INTEGER NOT NULL) WITHOUT ROWID`,
  `CREATE INDEX IF NOT EXISTS reposcout_lru_by_tick ON reposcout_lru (tick)`,
  `CREATE TABLE IF NOT EXISTS reposcout_lru_total (id INTEGER PRIMARY KEY CHECK (id = 1), bytes INTEGER NOT NULL)`,
  `CREATE TRIGGER IF NOT EXISTS reposcout_lru_insert_v2 AFTER INSERT ON keyv ${BOOK_ROW}`,
  `CREATE TRIGGER IF NOT EXISTS reposcout_lru_update_v2 AFTER UPDATE OF value ON keyv ${BOOK_ROW}`,
  `CREATE TRIGGER IF NOT EXISTS reposcout_lru_delete AFTER DELETE ON keyv BEGIN
    UPDATE reposcout_lru_total SET bytes = bytes
      - COALESCE((SELECT bytes FROM reposcout_lru WHERE key = old.key), 0) WHERE id = 1;
    DELETE FROM reposcout_lru WHERE key = old.key;
  END`,
];

/** Entries examined per eviction round. */
const EVICT_BATCH = 256;

type Query = KeyvSqlite["query"];

async function recountTotal(query: Query): Promise<void> {
  await query(
    "INSERT OR REPLACE INTO reposcout_lru_total (id, bytes) SELECT 1, COALESCE(SUM(bytes), 0) FROM reposcout_lru",
  );
}

/**
 * Installs the books in an open SQLite cache file (once; a file from before the bound is booked
 * as it is, all of it equally old) and returns the bookkeeping of that file.
 */
export async function sqliteCacheBookkeeping(file: KeyvSqlite): Promise<CacheBookkeeping> {
  const query: Query = (sql, ...parameters) => file.query(sql, ...parameters);
  const installed = (await query(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'reposcout_lru'",
  )) as unknown[];
  for (const trigger of RETIRED_TRIGGERS) await query(`DROP TRIGGER IF EXISTS ${trigger}`);
  for (const statement of SETUP) await query(statement);
  if (installed.length === 0) {
    // Entries written before the books existed: booked once, as the least recent of all.
    await query(
      `INSERT OR IGNORE INTO reposcout_lru (key, tick, bytes)
        SELECT key, 0, length(CAST(key AS BLOB)) + COALESCE(length(CAST(value AS BLOB)), 0) FROM keyv`,
    );
  }
  // Cheap (the books hold no values) and it corrects any drift a crash may have left.
  await recountTotal(query);

  async function totalBytes(): Promise<number> {
    const rows = (await query("SELECT bytes FROM reposcout_lru_total WHERE id = 1")) as Array<{
      bytes: number;
    }>;
    return rows[0]?.bytes ?? 0;
  }

  async function forget(keys: readonly string[]): Promise<void> {
    const list = JSON.stringify(keys);
    await query("DELETE FROM keyv WHERE key IN (SELECT value FROM json_each(?))", list);
    // Books of keys no longer in `keyv` (none, unless written behind the triggers' back).
    await query(
      `UPDATE reposcout_lru_total SET bytes = bytes - COALESCE(
        (SELECT SUM(bytes) FROM reposcout_lru WHERE key IN (SELECT value FROM json_each(?))), 0) WHERE id = 1`,
      list,
    );
    await query("DELETE FROM reposcout_lru WHERE key IN (SELECT value FROM json_each(?))", list);
  }

  return {
    async flushReads(storedKeys) {
      // One statement for the batch: each key gets a tick above every tick so far, in read order.
      await query(
        `UPDATE reposcout_lru SET tick = top.tick + reads.key + 1
          FROM json_each(?) AS reads, (SELECT COALESCE(MAX(tick), 0) AS tick FROM reposcout_lru) AS top
          WHERE reposcout_lru.key = reads.value`,
        JSON.stringify(storedKeys),
      );
    },
    // The triggers booked the write already.
    async written() {},
    async removed() {},
    totalBytes,
    async evict(targetBytes) {
      let evicted = 0;
      let total = await totalBytes();
      while (total > targetBytes) {
        const oldest = (await query(
          "SELECT key, bytes FROM reposcout_lru ORDER BY tick, key LIMIT ?",
          EVICT_BATCH,
        )) as Array<{ key: string; bytes: number }>;
        if (oldest.length === 0) break;
        const chosen: string[] = [];
        let freed = 0;
        for (const row of oldest) {
          if (total - freed <= targetBytes) break;
          chosen.push(row.key);
          freed += row.bytes;
        }
        await forget(chosen);
        evicted += chosen.length;
        total = await totalBytes();
      }
      return evicted;
    },
    async reconcile() {
      await query("DELETE FROM reposcout_lru WHERE key NOT IN (SELECT key FROM keyv)");
      await recountTotal(query);
    },
  };
}
