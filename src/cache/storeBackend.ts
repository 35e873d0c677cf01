import type { Keyv } from "keyv";
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
