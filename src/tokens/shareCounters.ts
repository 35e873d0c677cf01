import { LRUCache } from "lru-cache";

/**
 * Points spent per scope (a server, a user) in one window of GitHub's hourly budget. A small
 * interface on purpose: one process keeps them in memory ({@link createMemoryShareCounters}); many
 * processes sharing the default token share them through Redis ({@link createSharedShareCounters}:
 * `INCRBY` on `<window>:<scope>` with `PEXPIREAT` the window's end), the policy unchanged.
 */
export interface ShareCounters {
  /** The points each scope spent in `window` (0 for a scope never seen), in the order asked. */
  get(window: string, scopes: readonly string[]): Promise<number[]>;
  /** Adds `points` to each scope's counter in `window`; the window can be forgotten after `endsAt`. */
  add(window: string, scopes: readonly string[], points: number, endsAt: Date): Promise<void>;
}

/**
 * In-process counters. Windows are dropped once past their end; within a window at most
 * `maxScopes` scopes are kept (the least recently charged forgotten first: past that many servers
 * and users in one hour, forgetting one only lets it start its share afresh). The bound is a size of
 * one per scope, not lru-cache's `max`: with `max`, lru-cache allocates room for every scope when
 * the window opens (two arrays of 100,000 slots and three typed arrays: 2.4 MB, measured, each hour),
 * while sized entries grow with the scopes actually charged.
 */
export function createMemoryShareCounters(
  options: { maxScopes?: number; now?: () => number } = {},
): ShareCounters {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { endsAt: number; spent: LRUCache<string, number> }>();

  function prune(): void {
    const at = now();
    for (const [id, window] of windows) if (window.endsAt <= at) windows.delete(id);
  }

  return {
    async get(window, scopes) {
      const spent = windows.get(window)?.spent;
      return scopes.map((scope) => spent?.get(scope) ?? 0);
    },
    async add(window, scopes, points, endsAt) {
      prune();
      let entry = windows.get(window);
      if (!entry) {
        const spent = new LRUCache<string, number>({
          maxSize: options.maxScopes ?? 100_000,
          sizeCalculation: () => 1,
        });
        entry = { endsAt: endsAt.getTime(), spent };
        windows.set(window, entry);
      }
      for (const scope of scopes) entry.spent.set(scope, (entry.spent.get(scope) ?? 0) + points);
    },
  };
}

/**
 * Counters every process sharing the stores adds to (Redis, through `stores.coordination`), keyed
 * `share:<window>:<scope>` and kept until the window ends. When the shared store cannot be asked,
 * this process's own counters answer, so the share still holds here during an outage.
 */
export function createSharedShareCounters(
  coordination: {
    add(keys: readonly string[], amount: number, expiresAt: Date): Promise<void>;
    counts(keys: readonly string[]): Promise<number[]>;
  },
  fallback: ShareCounters = createMemoryShareCounters(),
): ShareCounters {
  const keysOf = (window: string, scopes: readonly string[]) =>
    scopes.map((scope) => `share:${window}:${scope}`);
  return {
    async get(window, scopes) {
      try {
        return await coordination.counts(keysOf(window, scopes));
      } catch {
        return fallback.get(window, scopes);
      }
    },
    async add(window, scopes, points, endsAt) {
      await fallback.add(window, scopes, points, endsAt);
      await coordination.add(keysOf(window, scopes), points, endsAt).catch(() => undefined);
    },
  };
}
