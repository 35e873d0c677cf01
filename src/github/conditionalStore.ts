/** What is kept of a REST answer so the next identical request can be conditional. */
export interface ConditionalEntry {
  /** The answer's `ETag`, sent back as `If-None-Match`. */
  etag: string;
  /** The parsed JSON body; a 304 answer reuses it. */
  body: unknown;
  /** The answer's `Link` header, which a 304 does not repeat reliably. */
  link: string | null;
}

/**
 * Where the client keeps ETags and bodies of REST answers. A 304 costs no rate-limit points, so a
 * store shared by shards (Redis) saves budget; the default keeps them in memory. Keys contain the
 * token's fingerprint, never the token: one server never gets a body fetched with another's token.
 */
export interface ConditionalStore {
  get(key: string): Promise<ConditionalEntry | undefined>;
  set(key: string, value: ConditionalEntry): Promise<void>;
}

/**
 * An in-memory {@link ConditionalStore} that keeps the `maxEntries` most recently used entries
 * (least recently used ones are dropped first).
 */
export function createMemoryConditionalStore(options: { maxEntries?: number } = {}): ConditionalStore {
  const maxEntries = Math.max(1, options.maxEntries ?? 500);
  // A Map iterates in insertion order; re-inserting on use makes the first key the least recent.
  const entries = new Map<string, ConditionalEntry>();
  return {
    async get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },
    async set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
    },
  };
}
