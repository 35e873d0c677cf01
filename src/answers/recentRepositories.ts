import { LRUCache } from "lru-cache";

/**
 * The repositories recently asked about, for autocomplete ("recent choices first"), kept per token
 * in effect (SPEC section 4): the scope is the token's fingerprint, so a private repository's name
 * read with one person's or one server's token is never suggested to someone reading with another.
 * Process memory only: losing it on restart costs a suggestion, nothing more.
 */
export interface RecentRepositories {
  /** Remembers a repository read with the token whose fingerprint is `scope`. */
  remember(scope: string, nameWithOwner: string): void;
  /** Most recent first; only what was read with that same token. */
  list(scope: string): string[];
}

/**
 * Creates the recent-repositories memory: `perScope` names for each of up to `scopes` tokens, the
 * least recently used token's list forgotten first (lru-cache: a bounded map is what it does).
 */
export function createRecentRepositories(perScope = 10, scopes = 5_000): RecentRepositories {
  const byScope = new LRUCache<string, string[]>({ max: scopes });
  return {
    remember(scope, nameWithOwner) {
      const list = (byScope.get(scope) ?? []).filter(
        (name) => name.toLowerCase() !== nameWithOwner.toLowerCase(),
      );
      list.unshift(nameWithOwner);
      byScope.set(scope, list.slice(0, perScope));
    },
    list(scope) {
      return [...(byScope.get(scope) ?? [])];
    },
  };
}
