import type { Deserialize, DeserializedData, Keyv, Serialize } from "keyv";
import type { CacheBookkeeping } from "./cacheBound.js";
import type { Coordination } from "./coordination.js";
import type { GuardOptions } from "./guardedStore.js";
import type { StoreBackend } from "./openStores.js";

/*
 * What each backend of the store family (memory, SQLite, Redis: one file each) gives
 * `openStores`, which wires it into the guards, the cache bound and the namespaces.
 */

/** The parts a backend contributes to the family. */
export interface Backend {
  backend: StoreBackend;
  cacheKeyv(namespace: string): Keyv<unknown>;
  durableKeyv(namespace: string): Keyv<unknown>;
  /** The keys of a durable namespace, without its prefix (see DurableStore.keys). */
  durableKeys(namespace: string): Promise<string[]>;
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

/**
 * The cache family's Keyv (de)serializer: the runtime's own JSON. Keyv's default walks every value
 * in JavaScript to escape strings that begin with `:` and to write Buffers as base64 (issue 23: it
 * was most of the cost of storing a large answer); nothing the cache keeps is a Buffer, and its
 * strings need no escape when nothing reads them back as Buffers. The durable family keeps Keyv's
 * default, so what it already holds reads back exactly as before.
 */
export const NATIVE_JSON: { serialize: Serialize; deserialize: Deserialize } = {
  serialize: (data) => JSON.stringify(data),
  deserialize: <Value>(data: string) => JSON.parse(data) as DeserializedData<Value>,
};

/** Keyv's own prefixing of a key with its namespace (`_getKeyPrefix`), for the books. */
export function keyvPrefixed(namespace: string, key: string): string {
  return key.startsWith(`${namespace}:`) ? key : `${namespace}:${key}`;
}

/** Waits `ms`, or less when `done` settles first; leaves no timer behind. */
export async function waitAtMost(done: Promise<unknown>, ms: number): Promise<void> {
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
