import { LRUCache } from "lru-cache";

/**
 * Remembers the requests already taken, so that one captured and sent again is refused. Claims are
 * atomic, so that a store shared by several processes (Redis `SET key 1 NX PX ttl`) refuses a
 * replay whichever process it reaches.
 */
export interface ReplayGuard {
  /** True the first time `key` is claimed within `ttlMs`; false for a replay. */
  claim(key: string, ttlMs: number): Promise<boolean>;
}

/**
 * A replay guard in this process's memory, bounded: past `max` keys the oldest go first (they are
 * older than the timestamp window long before that on any real load).
 */
export function createMemoryReplayGuard(options: { max?: number } = {}): ReplayGuard {
  const seen = new LRUCache<string, true>({ max: options.max ?? 100_000, ttlAutopurge: false });
  return {
    async claim(key, ttlMs) {
      if (seen.has(key)) return false;
      seen.set(key, true, { ttl: ttlMs });
      return true;
    },
  };
}

/**
 * A replay guard on claims shared by every process (Redis, through `stores.coordination`). When the
 * shared store cannot be asked, this process's own memory answers, so a replay sent to the same
 * process is still refused and no genuine request is turned away for an outage.
 */
export function createSharedReplayGuard(
  coordination: { claim(key: string, ttlMs: number): Promise<boolean> },
  fallback: ReplayGuard = createMemoryReplayGuard(),
): ReplayGuard {
  return {
    async claim(key, ttlMs) {
      const local = await fallback.claim(key, ttlMs);
      if (!local) return false;
      try {
        return await coordination.claim(`replay:${key}`, ttlMs);
      } catch {
        return true;
      }
    },
  };
}
