import { createClaimTable } from "./claimTable.js";

/**
 * While the shared store cannot be asked, how old a request may be and still be taken: Discord sends
 * an interaction the moment it signs it (and wants its answer within 3 s), so a genuine request is
 * seconds old at most, while a captured one sent again to another process is refused once this has
 * passed. Clocks a few seconds apart are tolerated.
 */
export const OUTAGE_MAX_AGE_SECONDS = 15;

/**
 * Remembers the requests already taken, so that one captured and sent again is refused. Claims are
 * atomic, so that a store shared by several processes (Redis `SET key 1 NX PX ttl`) refuses a
 * replay whichever process it reaches.
 */
export interface ReplayGuard {
  /**
   * True the first time `key` is claimed within `ttlMs`; false for a replay, or for a request this
   * guard cannot tell from one (see {@link createSharedReplayGuard}). `signedAtMs`: when Discord
   * signed the request (its `X-Signature-Timestamp`), in Unix milliseconds.
   */
  claim(key: string, ttlMs: number, signedAtMs: number): Promise<boolean>;
}

/**
 * A replay guard in this process's memory, bounded: past `max` keys the oldest go first (they are
 * older than the timestamp window long before that on any real load). The whole truth for one
 * process, so the signing time does not matter to it. The keys are held in typed arrays
 * (./claimTable.ts), not as strings in a map: a claim per interaction leaves nothing to collect.
 */
export function createMemoryReplayGuard(options: { max?: number } = {}): ReplayGuard {
  const seen = createClaimTable(options.max ?? 100_000);
  return {
    async claim(key, ttlMs) {
      return seen.claim(key, ttlMs, Date.now());
    },
  };
}

/**
 * A replay guard on claims shared by every process (Redis, through `stores.coordination`), with this
 * process's own memory in front (a replay to the same process is refused without asking).
 *
 * While the shared store cannot be asked, another process cannot see this one's claims, so a
 * captured request could be taken again there. What holds then: a request is taken only if signed
 * within {@link OUTAGE_MAX_AGE_SECONDS}, and only once by this process; so a replay reaches another
 * process only within those seconds of its signing, and no genuine request (seconds old) is turned
 * away. Once the store answers again, a request signed before this process saw it come back is taken
 * under the same short window, since another process may have taken it during the outage without
 * the store knowing. A process that received nothing during the outage cannot know of it: for it,
 * the full timestamp window applies (README, "Several processes"). Claims that are not shared
 * (`coordination.shared` false: one process, memory stores) are left to this process's memory.
 */
export function createSharedReplayGuard(
  coordination: { readonly shared?: boolean; claim(key: string, ttlMs: number): Promise<boolean> },
  options: { fallback?: ReplayGuard; now?: () => number } = {},
): ReplayGuard {
  const fallback = options.fallback ?? createMemoryReplayGuard();
  // Claims kept in this process's memory (no Redis) are what the fallback already knows: asking
  // them too would hold every key twice for its 10 minutes and find nothing more.
  if (coordination.shared === false) return fallback;
  const now = options.now ?? Date.now;
  let failing = false;
  /** When the store answered again after this process last saw it fail. */
  let recoveredAt = Number.NEGATIVE_INFINITY;
  return {
    async claim(key, ttlMs, signedAtMs) {
      if (!(await fallback.claim(key, ttlMs, signedAtMs))) return false;
      const time = now();
      const recent = time - signedAtMs <= OUTAGE_MAX_AGE_SECONDS * 1000;
      let shared: boolean;
      try {
        shared = await coordination.claim(`replay:${key}`, ttlMs);
      } catch {
        failing = true;
        return recent;
      }
      if (failing) {
        failing = false;
        recoveredAt = time;
      }
      return shared && (recent || signedAtMs >= recoveredAt);
    },
  };
}
