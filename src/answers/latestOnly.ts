import { LRUCache } from "lru-cache";

/**
 * Debounces lookups by "latest wins": per key (a user), one lookup runs at a time, and a lookup
 * asked while another runs waits for it and then runs only if no newer one was asked meanwhile.
 * Autocomplete sends an interaction on every keystroke; this way only the latest keystroke of a
 * user goes upstream, with no timer and no added delay for a user who types slowly.
 */
export interface LatestOnly {
  /**
   * Runs `lookup` for `key` once the key's previous lookup has settled, unless a newer lookup for
   * the same key was asked meanwhile: then resolves to undefined without running it.
   */
  run<T>(key: string, lookup: () => Promise<T>): Promise<T | undefined>;
}

/** Creates a {@link LatestOnly} that keeps at most `maxKeys` keys with a lookup pending. */
export function createLatestOnly(maxKeys = 10_000): LatestOnly {
  const pending = new LRUCache<string, { generation: number; tail: Promise<unknown> }>({ max: maxKeys });
  return {
    run<T>(key: string, lookup: () => Promise<T>): Promise<T | undefined> {
      const state = pending.get(key) ?? { generation: 0, tail: Promise.resolve() };
      const mine = state.generation + 1;
      state.generation = mine;
      const result = state.tail.then(() => (state.generation === mine ? lookup() : undefined));
      state.tail = result.then(
        () => undefined,
        () => undefined,
      );
      pending.set(key, state);
      // The last one out forgets the key: memory holds only users typing right now.
      void state.tail.then(() => {
        if (state.generation === mine && pending.get(key) === state) pending.delete(key);
      });
      return result;
    },
  };
}
