import { LRUCache } from "lru-cache";

/** What the hot tier keeps of an answer: the record as the store holds it, already parsed. */
export interface HotRecord {
  value: unknown;
  fetchedAt: string;
  /** Epoch ms on the answer cache's clock. */
  expiresAt: number;
}

/**
 * The in-process tier in front of the answer store: the latest answers, already parsed, bounded in
 * bytes. A repeat is then served without a round trip to SQLite or Redis and without parsing the
 * whole answer again (a cached `/blame` read its full text back from SQLite on every repeat). It
 * holds exactly what the store holds, under the same keys and expiry, so every rule that reads the
 * store (token scope, the access rule for private answers) reads it the same way; and an answer in
 * it is still served while the store is down.
 */
export interface HotTier {
  get(key: string, now: number): HotRecord | undefined;
  set(key: string, record: HotRecord): void;
  /** Bytes held (an estimate: the answer's JSON length, in UTF-16 code units times two). */
  bytes(): number;
  /** Answers held. */
  size(): number;
}

/** Bookkeeping of one entry beside its JSON (the key, the record, the LRU's links). */
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * Creates the tier, holding at most `maxBytes` (least recently used answers leave first). An answer
 * larger than an eighth of the bound is not kept: one huge file must not push out everything else.
 */
export function createHotTier(maxBytes: number): HotTier {
  if (!(maxBytes > 0)) throw new Error("the hot tier needs a positive size");
  const maxEntryBytes = Math.max(1, Math.floor(maxBytes / 8));
  const lru = new LRUCache<string, HotRecord>({ maxSize: maxBytes, maxEntrySize: maxEntryBytes });
  return {
    get(key, now) {
      const record = lru.get(key);
      if (!record) return undefined;
      if (record.expiresAt <= now) {
        lru.delete(key);
        return undefined;
      }
      return record;
    },
    set(key, record) {
      let json: string | undefined;
      try {
        json = JSON.stringify(record.value);
      } catch {
        return;
      }
      const size = (json?.length ?? 0) * 2 + key.length * 2 + ENTRY_OVERHEAD_BYTES;
      if (size > maxEntryBytes) {
        lru.delete(key);
        return;
      }
      lru.set(key, record, { size });
    },
    bytes: () => lru.calculatedSize,
    size: () => lru.size,
  };
}
