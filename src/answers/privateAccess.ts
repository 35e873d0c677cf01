import { LRUCache } from "lru-cache";
import type { AnswerCache, CachedAnswer, ReadTrail } from "../cache/answerCache.js";
import { UserFacingError } from "../errors.js";
import type { AnswerPrivacy } from "../format/privacy.js";
import type { GitHubClient } from "../github/client.js";
import { RepositoryNotFoundError } from "../github/errors.js";
import type { RepoRef, RepositoriesPage, RepositoryAccess, RepositoryVisibility } from "../github/types.js";
import type { TokenUse } from "../github/tokenSpend.js";
import type { ResolvedToken, TokenAsker } from "../tokens/tokenResolver.js";
import type { Upstream } from "./upstream.js";
import { withFields } from "../withFields.js";

/** What every answer knows of its repository's visibility. */
export interface VisibilityFacts {
  nameWithOwner: string;
  isPrivate: boolean;
  visibility: RepositoryVisibility;
}

/** A private (or internal) repository read through the default token, which the operator keeps public-only. */
export class PrivateRepositoryError extends UserFacingError {
  readonly code = "private_through_default_token";
  constructor(readonly nameWithOwner: string) {
    super();
  }
}

/** Private or internal: GitHub's `isPrivate` covers both; `visibility` is checked too, to fail closed. */
export function isPrivateRepository(facts: Pick<VisibilityFacts, "isPrivate" | "visibility">): boolean {
  return facts.isPrivate || facts.visibility !== "PUBLIC";
}

/** Whether a token reads public repositories only: the default token, unless the operator allows more. */
export function readsPublicOnly(resolved: ResolvedToken, defaultTokenAllowPrivate: boolean): boolean {
  return resolved.origin === "default" && !defaultTokenAllowPrivate;
}

/** The privacy of an answer drawn from one repository; undefined when it is public. */
export function repositoryPrivacy(facts: VisibilityFacts): AnswerPrivacy | undefined {
  if (!isPrivateRepository(facts)) return undefined;
  return {
    kind: "repository",
    nameWithOwner: facts.nameWithOwner,
    visibility: facts.visibility === "INTERNAL" ? "INTERNAL" : "PRIVATE",
  };
}

/** The privacy of a page of repositories: private when it lists any private or internal one. */
export function listPrivacy(page: RepositoriesPage): AnswerPrivacy | undefined {
  const privateCount = page.repositories.filter(isPrivateRepository).length;
  return privateCount > 0 ? { kind: "list", owner: page.owner.login, privateCount } : undefined;
}

/**
 * The rules of SPEC section 4 on reading private code, for the Scout:
 *
 * - the default token reads public repositories only, unless the operator allows more
 *   (`GITHUB_TOKEN_ALLOW_PRIVATE`): {@link admit} refuses the rest, on a fetch and on a cache hit;
 * - a cached private answer is served only while the token's access to its repository was confirmed
 *   within the short TTL: every fetch of a private answer records that confirmation (an `access`
 *   entry, short TTL, by token fingerprint), and {@link settle} serves a cached one only while that
 *   entry lives, else after a cheap `RepositoryAccess` read with the same token. Access gone reads
 *   "not found", as for any repository the token cannot see.
 */
export interface PrivateAccess {
  /** Whether lists read with this token must leave private repositories out (the default token). */
  publicOnly(resolved: ResolvedToken): boolean;
  /** @throws PrivateRepositoryError for a private repository read through a public-only token. */
  admit(resolved: ResolvedToken, facts: VisibilityFacts): void;
  /**
   * The privacy of an answer of `repo`, once access is settled: a fresh private answer records the
   * confirmation; a cached one is re-confirmed when the last confirmation is older than the short TTL.
   * @throws RepositoryNotFoundError when the token lost access, PrivateRepositoryError as `admit`.
   */
  settle(
    asker: TokenAsker,
    resolved: ResolvedToken,
    repo: RepoRef,
    facts: VisibilityFacts,
    fromCache: boolean,
  ): Promise<AnswerPrivacy | undefined>;
  /**
   * The repository's visibility as the token sees it, and when GitHub said so: the last
   * confirmation while it lives (short TTL), else a `RepositoryAccess` read, metered as every
   * upstream call. For `/contributors`, whose REST answer says nothing of it.
   * @throws RepositoryNotFoundError when the token sees no such repository (for the default token,
   *   remembered for the short TTL: made-up names asked again cost its shared budget nothing).
   */
  access(
    asker: TokenAsker,
    resolved: ResolvedToken,
    repo: RepoRef,
    trail?: ReadTrail,
  ): Promise<CachedAnswer<RepositoryAccess>>;
  /**
   * Throws the "not found" this token was given for `repo` within the short TTL, if remembered
   * (see {@link noteMissing}): asked again, a made-up name costs the shared budget nothing.
   */
  refuseKnownMissing(resolved: ResolvedToken, repo: RepoRef): Promise<void>;
  /**
   * Whether {@link refuseKnownMissing} would pass at once, reading no store: a token other than the
   * default, or a repository the store said lately was not noted missing.
   */
  surelyNotMissing(resolved: ResolvedToken, repo: RepoRef): boolean;
  /**
   * Remembers a "not found" of `repo` for the short TTL when the default token was told so (other
   * errors, other tokens: nothing): its budget is everyone's, so a made-up name asked again must
   * not spend it. A person's or a server's own token is left alone, so access granted there shows
   * at once.
   */
  noteMissing(resolved: ResolvedToken, repo: RepoRef, error: unknown): Promise<void>;
  /**
   * One GraphQL read of an answer about `repo` through the Scout's upstream call: a "not found" is
   * noted ({@link noteMissing}), and an answer the token may not show is refused ({@link admit})
   * before it is returned, so a refused answer never reaches the cache.
   */
  read<T extends { repository: VisibilityFacts }>(
    asker: TokenAsker,
    resolved: ResolvedToken,
    repo: RepoRef,
    call: (token: TokenUse) => Promise<T>,
  ): Promise<T>;
}

/** How long a "not noted missing" read of the store is trusted in process (see `notMissing`). */
const NOT_MISSING_FOR_MS = 5_000;

function accessArgs(repo: RepoRef): { owner: string; name: string } {
  // As the Scout's keys: GitHub's names are case-insensitive.
  return { owner: repo.owner.toLowerCase(), name: repo.name.toLowerCase() };
}

/** Creates the rules over the answer cache and the GitHub client (see {@link PrivateAccess}). */
export function createPrivateAccess(options: {
  github: Pick<GitHubClient, "repositoryAccess">;
  cache: AnswerCache;
  /** `GITHUB_TOKEN_ALLOW_PRIVATE`: the default token may read private repositories. */
  defaultTokenAllowPrivate: boolean;
  /** The Scout's upstream call (./upstream.ts): access reads are metered as every other. */
  upstream: Upstream;
}): PrivateAccess {
  const { github, cache, upstream } = options;

  function publicOnly(resolved: ResolvedToken): boolean {
    return readsPublicOnly(resolved, options.defaultTokenAllowPrivate);
  }

  function admit(resolved: ResolvedToken, facts: VisibilityFacts): void {
    if (publicOnly(resolved) && isPrivateRepository(facts)) {
      throw new PrivateRepositoryError(facts.nameWithOwner);
    }
  }

  const missingRequest = (resolved: ResolvedToken, repo: RepoRef) =>
    ({ kind: "access-missing", fingerprint: resolved.fingerprint, args: accessArgs(repo) }) as const;

  /**
   * Repositories the store said were not noted missing, for {@link NOT_MISSING_FOR_MS}: nearly every
   * read with the default token asks, and the answer is nearly always "not noted", which no tier
   * of the cache keeps (a store read each time: 12% of the bot's CPU at 1,600 interactions a
   * second on SQLite, `npm run bench`). A note made here clears it at once; one made by another
   * process is seen within the window, so a made-up name may cost the default token one more call.
   */
  const notMissing = new LRUCache<string, true>({ max: 10_000, ttl: NOT_MISSING_FOR_MS });
  const notMissingKey = (resolved: ResolvedToken, repo: RepoRef): string => {
    const { owner, name } = accessArgs(repo);
    return `${resolved.fingerprint}/${owner}/${name}`;
  };

  function surelyNotMissing(resolved: ResolvedToken, repo: RepoRef): boolean {
    return resolved.origin !== "default" || notMissing.has(notMissingKey(resolved, repo));
  }

  async function refuseKnownMissing(
    resolved: ResolvedToken,
    repo: RepoRef,
    trail?: ReadTrail,
  ): Promise<void> {
    // Only the default token's are remembered (noteMissing): other tokens need not ask the store.
    if (resolved.origin !== "default") return;
    const memo = notMissingKey(resolved, repo);
    if (notMissing.has(memo)) return;
    if ((await cache.peek<boolean>(missingRequest(resolved, repo), trail))?.value !== true) {
      notMissing.set(memo, true);
      return;
    }
    throw new RepositoryNotFoundError(repo).readWith({
      origin: resolved.origin,
      publicOnly: publicOnly(resolved),
    });
  }

  async function noteMissing(resolved: ResolvedToken, repo: RepoRef, error: unknown): Promise<void> {
    if (resolved.origin !== "default" || !(error instanceof RepositoryNotFoundError)) return;
    notMissing.delete(notMissingKey(resolved, repo));
    await cache.put(withFields(missingRequest(resolved, repo), { ttl: "short" as const }), true);
  }

  async function read<T extends { repository: VisibilityFacts }>(
    asker: TokenAsker,
    resolved: ResolvedToken,
    repo: RepoRef,
    call: (token: TokenUse) => Promise<T>,
  ): Promise<T> {
    // Just before GitHub is asked: a held answer costs no store read for a remembered "not found".
    await refuseKnownMissing(resolved, repo);
    const value = await upstream(asker, resolved, "graphql", call).catch(async (error: unknown) => {
      await noteMissing(resolved, repo, error);
      throw error;
    });
    admit(resolved, value.repository);
    return value;
  }

  async function access(
    asker: TokenAsker,
    resolved: ResolvedToken,
    repo: RepoRef,
    trail?: ReadTrail,
  ): Promise<CachedAnswer<RepositoryAccess>> {
    await refuseKnownMissing(resolved, repo, trail);
    try {
      return await cache.getOrFetch<RepositoryAccess>(
        {
          kind: "access",
          fingerprint: resolved.fingerprint,
          ttl: "short",
          args: accessArgs(repo),
          fetch: () => upstream(asker, resolved, "graphql", (token) => github.repositoryAccess(token, repo)),
        },
        trail,
      );
    } catch (error) {
      await noteMissing(resolved, repo, error);
      throw error;
    }
  }

  return {
    publicOnly,
    admit,
    access,
    refuseKnownMissing,
    surelyNotMissing,
    noteMissing,
    read,
    async settle(asker, resolved, repo, facts, fromCache) {
      admit(resolved, facts);
      const privacy = repositoryPrivacy(facts);
      if (!privacy) return undefined;
      if (fromCache) {
        // Served only while access was confirmed within the short TTL; past it, ask GitHub again.
        admit(resolved, (await access(asker, resolved, repo)).value);
      } else {
        const confirmed: RepositoryAccess = {
          nameWithOwner: facts.nameWithOwner,
          isPrivate: facts.isPrivate,
          visibility: facts.visibility,
        };
        await cache.put(
          { kind: "access", fingerprint: resolved.fingerprint, ttl: "short", args: accessArgs(repo) },
          confirmed,
        );
      }
      return privacy;
    },
  };
}
