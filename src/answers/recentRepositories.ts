import { LRUCache } from "lru-cache";

/**
 * The repositories recently asked about, for autocomplete ("recent choices first"), kept per token
 * in effect (SPEC section 4): the scope is the token's fingerprint, so a private repository's name
 * read with one person's or one server's token is never suggested to someone reading with another.
 * In process memory, or in the stores every process shares ({@link createSharedRecentRepositories});
 * losing it costs a suggestion, nothing more.
 */
export interface RecentRepositories {
  /** Remembers a repository read with the token whose fingerprint is `scope`. */
  remember(scope: string, nameWithOwner: string): void;
  /** Most recent first; only what was read with that same token. */
  list(scope: string): string[] | Promise<string[]>;
}

/** Puts `nameWithOwner` first in `list`, once (names compared without case), keeping `max`. */
function withFirst(list: readonly string[], nameWithOwner: string, max: number): string[] {
  const rest = list.filter((name) => name.toLowerCase() !== nameWithOwner.toLowerCase());
  return [nameWithOwner, ...rest].slice(0, max);
}

/**
 * Creates the recent-repositories memory: `perScope` names for each of up to `scopes` tokens, the
 * least recently used token's list forgotten first (lru-cache: a bounded map is what it does).
 */
export function createRecentRepositories(perScope = 10, scopes = 5_000): RecentRepositories {
  const byScope = new LRUCache<string, string[]>({ max: scopes });
  return {
    remember(scope, nameWithOwner) {
      byScope.set(scope, withFirst(byScope.get(scope) ?? [], nameWithOwner, perScope));
    },
    list(scope) {
      return [...(byScope.get(scope) ?? [])];
    },
  };
}

/** What the shared lists need of a store: the cache family's get and set (failures read as misses). */
export interface RecentStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
}

function isNameList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((name) => typeof name === "string");
}

/**
 * The lists in a store every process shares (`stores.cache("recents")`, by token fingerprint),
 * so a repository read through one process is suggested by the others. This process's own lists
 * answer when the store cannot (it reads as a miss); two processes remembering at once may drop
 * one suggestion, nothing more.
 */
export function createSharedRecentRepositories(
  store: RecentStore,
  options: { perScope?: number; ttlMs?: number; local?: RecentRepositories } = {},
): RecentRepositories {
  const perScope = options.perScope ?? 10;
  const ttlMs = options.ttlMs ?? 7 * 24 * 60 * 60 * 1000;
  const local = options.local ?? createRecentRepositories(perScope);
  return {
    remember(scope, nameWithOwner) {
      local.remember(scope, nameWithOwner);
      void (async () => {
        const stored = await store.get(scope);
        const base = isNameList(stored) ? stored : await local.list(scope);
        await store.set(scope, withFirst(base, nameWithOwner, perScope), ttlMs);
      })().catch(() => undefined);
    },
    async list(scope) {
      const stored = await store.get(scope).catch(() => undefined);
      return isNameList(stored) ? stored.slice(0, perScope) : local.list(scope);
    },
  };
}
