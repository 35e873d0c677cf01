import type { AnswerCache, CacheKeyRequest, CachedAnswer, ReadTrail } from "../cache/answerCache.js";
import type { RepositoryAccess, RepositoryHeader } from "../github/types.js";
import type { ResolvedToken, TokenAsker } from "../tokens/tokenResolver.js";
import { isPrivateRepository, type PrivateAccess } from "./privateAccess.js";
import { withFields } from "../withFields.js";

/**
 * The scope of answers every token may read: in place of a token's fingerprint in a cache key. A
 * fingerprint is a keyed hash (never all zeros in practice), so no token's answers are ever here.
 */
export const PUBLIC_SCOPE = "00000000000000000000000000000000";

/** Owner and name, lowercased (GitHub's names are case-insensitive): as in every key of the Scout. */
export type RepoArgs = { owner: string; name: string };

/** A pinned answer's request, as the Scout keys it (its token's fingerprint aside). */
export interface PinnedKey {
  kind: "blame" | "contents";
  version: number;
  args: { owner: string; name: string; oid: string; path: string };
}

/**
 * `key` in a token's scope (or the public one): written out, not spread (`{ ...key, fingerprint }`),
 * since every cached answer looks one or two up. In Node 20's V8 an object that starts as a copy of
 * another's properties and then gets more survives young collections (see eslint.config.js).
 */
export function inScope(key: PinnedKey, fingerprint: string): CacheKeyRequest {
  return { kind: key.kind, version: key.version, args: key.args, fingerprint };
}

/**
 * Answers of public repositories, shared by every token (issue 12: three servers asking the same
 * public blame paid three times). A public repository reads the same whatever the token: so an
 * answer pinned to a commit is kept once more in the public scope, and the commit a branch of a
 * public repository points to too (for the short TTL, as any branch). Private answers never leave
 * their token's scope.
 *
 * A repository can turn private. A shared answer is served only while the repository was seen
 * public within the short TTL (by any token: the `public-check` entry); past it, one cheap access
 * read with the asker's own token checks it again (SPEC section 4, as for cached private answers).
 * The check lives from when GitHub said so, never longer: re-armed from the asker's own access
 * entry, it ends when that entry does.
 */
export interface PublicAnswers {
  /**
   * The commit `ref` of a public repository pointed to, seen by any token within the short TTL.
   * With `trail`, the lookup is noted in it (../cache/answerCache.ts).
   */
  refCommit(repo: RepoArgs, ref: string, trail?: ReadTrail): Promise<string | undefined>;
  /** The shared answer at a commit, if any and if the repository is still public (see above). */
  pinned<T>(
    key: PinnedKey,
    asker: TokenAsker,
    resolved: ResolvedToken,
    trail?: ReadTrail,
  ): Promise<CachedAnswer<T> | undefined>;
  /** Shares a freshly fetched answer when its repository is public (and the commit of `ref`). */
  publish(key: PinnedKey, value: { repository: RepositoryHeader }, ref?: string): Promise<void>;
  /**
   * Where a pinned answer is kept once it is shared: the public scope for a public repository (a
   * token's own key then names it rather than holding a second copy); undefined for a private one.
   */
  keptAt(key: PinnedKey, value: { repository: RepositoryHeader }): CacheKeyRequest | undefined;
  /** Shares where `ref` of a public repository points, freshly read. */
  publishRef(repo: RepoArgs, ref: string, oid: string, facts: RepositoryAccess): Promise<void>;
}

/** Creates the shared scope over the answer cache (see {@link PublicAnswers}). */
export function createPublicAnswers(options: {
  cache: AnswerCache;
  privateAccess: PrivateAccess;
}): PublicAnswers {
  const { cache, privateAccess } = options;
  const checkRequest = (repo: RepoArgs) =>
    ({ kind: "public-check", fingerprint: PUBLIC_SCOPE, args: { ...repo } }) as const;

  /** Whether the repository is public, as seen within the short TTL or asked now with this token. */
  async function stillPublic(
    repo: RepoArgs,
    asker: TokenAsker,
    resolved: ResolvedToken,
    trail?: ReadTrail,
  ): Promise<boolean> {
    if ((await cache.peek<boolean>(checkRequest(repo), trail))?.value === true) return true;
    const access = await privateAccess.access(asker, resolved, repo, trail);
    if (isPrivateRepository(access.value)) return false;
    // Dated when GitHub said so: the access entry read may be nearly a short TTL old, and a check
    // re-armed from now would serve a repository turned private for twice the short TTL.
    await cache.put(withFields(checkRequest(repo), { ttl: "short" as const }), true, access.fetchedAt);
    return true;
  }

  const putRef = (repo: RepoArgs, ref: string, oid: string): Promise<void> =>
    cache.put(
      { kind: "public-refs", fingerprint: PUBLIC_SCOPE, ttl: "short", args: withFields(repo, { ref }) },
      oid,
    );

  return {
    async refCommit(repo, ref, trail) {
      return (
        await cache.peek<string>(
          { kind: "public-refs", fingerprint: PUBLIC_SCOPE, args: withFields(repo, { ref }) },
          trail,
        )
      )?.value;
    },
    async pinned<T>(key: PinnedKey, asker: TokenAsker, resolved: ResolvedToken, trail?: ReadTrail) {
      const shared = await cache.peek<T>(inScope(key, PUBLIC_SCOPE), trail);
      if (!shared) return undefined;
      return (await stillPublic({ owner: key.args.owner, name: key.args.name }, asker, resolved, trail))
        ? shared
        : undefined;
    },
    async publish(key, value, ref) {
      if (isPrivateRepository(value.repository)) return;
      const repo = { owner: key.args.owner, name: key.args.name };
      await Promise.all([
        cache.put(withFields(inScope(key, PUBLIC_SCOPE), { ttl: "pinned" as const }), value),
        cache.put(withFields(checkRequest(repo), { ttl: "short" as const }), true),
        ...(ref !== undefined ? [putRef(repo, ref, key.args.oid)] : []),
      ]);
    },
    keptAt(key, value) {
      return isPrivateRepository(value.repository) ? undefined : inScope(key, PUBLIC_SCOPE);
    },
    async publishRef(repo, ref, oid, facts) {
      if (isPrivateRepository(facts)) return;
      await Promise.all([
        cache.put(withFields(checkRequest(repo), { ttl: "short" as const }), true),
        putRef(repo, ref, oid),
      ]);
    },
  };
}
