import { LRUCache } from "lru-cache";

/**
 * What the hot tier keeps of an answer: the record as the store holds it, already parsed (and
 * decoded from its stored form). A record that only names where its answer is (`at`, see
 * ./answerCache.ts) carries no value.
 */
export interface HotRecord {
  value?: unknown;
  at?: { kind: string; key: string };
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
  /** Bytes held (an estimate: see {@link approximateBytes}). */
  bytes(): number;
  /** Answers held. */
  size(): number;
}

/** Bookkeeping of one entry beside its value (the key, the record, the LRU's links). */
const ENTRY_OVERHEAD_BYTES = 256;
/** A number, a boolean, a null or an object's header and slot, roughly, in V8. */
const VALUE_BYTES = 16;

/**
 * Roughly the memory an answer holds: two bytes per code unit of its strings and
 * {@link VALUE_BYTES} per other value and per key. A walk over the parsed value, where
 * `JSON.stringify` built a whole copy of a large answer only to take its length. An object reached
 * twice (a blame's commit, named by many ranges) is counted once, as it is held once.
 */
export function approximateBytes(value: unknown): number {
  let bytes = 0;
  const seen = new Set<object>();
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") {
      bytes += VALUE_BYTES + next.length * 2;
    } else if (next !== null && typeof next === "object") {
      if (seen.has(next)) continue;
      seen.add(next);
      bytes += VALUE_BYTES;
      // Numbers and booleans are weighed in place, not queued: a blame's ranges are mostly numbers.
      if (Array.isArray(next)) {
        for (const item of next as unknown[]) {
          if (item !== null && (typeof item === "object" || typeof item === "string")) pending.push(item);
          else bytes += VALUE_BYTES;
        }
      } else {
        // for...in, not Object.entries: no array of pairs made for every object walked.
        for (const key in next) {
          bytes += VALUE_BYTES + key.length * 2;
          const item = (next as Record<string, unknown>)[key];
          if (item !== null && (typeof item === "object" || typeof item === "string")) pending.push(item);
          else bytes += VALUE_BYTES;
        }
      }
    } else {
      bytes += VALUE_BYTES;
    }
  }
  return bytes;
}

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
      const size = approximateBytes(record.value) + key.length * 2 + ENTRY_OVERHEAD_BYTES;
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
