import { Keyv } from "keyv";
import { LRUCache } from "lru-cache";
import type { Logger } from "../logger.js";
import { createOutageReporter } from "./outageReporter.js";
import { keyvPrefixed, NATIVE_JSON, type Backend } from "./storeBackend.js";

/** The store family in this process's memory (tests, and nothing survives a restart). */
export function memoryBackend(logger: Logger, windowMs: number, maxBytes: number): Backend {
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
    cacheKeyv: (namespace) => new Keyv<unknown>({ store: cacheStore, namespace, ...NATIVE_JSON }),
    durableKeyv: (namespace) => new Keyv<unknown>({ store: durableMap, namespace }),
    async durableKeys(namespace) {
      const prefix = `${namespace}:`;
      return [...durableMap.keys()].flatMap((key) =>
        key.startsWith(prefix) ? [key.slice(prefix.length)] : [],
      );
    },
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
