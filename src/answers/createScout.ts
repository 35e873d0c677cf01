// Over 300 lines: the Scout is one factory whose methods share its closures (the upstream call with fair use, the private-code rules, the public scope); split, they would pass all of them around.
import { newReadTrail, type AnswerCache, type CachedAnswer, type ReadTrail } from "../cache/answerCache.js";
import type { GitHubClient } from "../github/client.js";
import { PathNotFoundError } from "../github/errors.js";
import type { TokenUse } from "../github/tokenSpend.js";
import type { BlameAnswer, ContentsAnswer, ContributorsPage, RepoRef } from "../github/types.js";
import type { DefaultTokenShare } from "../tokens/defaultTokenShare.js";
import { MissingTokenError, type ResolvedToken, type TokenResolver } from "../tokens/tokenResolver.js";
import { createHeldReads, fetchedFrom, heldReadKeys } from "./heldReads.js";
import { createItemAnswers } from "./itemAnswers.js";
import { createOwnershipAnswers } from "./ownershipAnswers.js";
import { createPrivateAccess, listPrivacy, repositoryPrivacy } from "./privateAccess.js";
import { createPublicAnswers, inScope, PUBLIC_SCOPE, type PinnedKey } from "./publicAnswers.js";
import type { RecentRepositories } from "./recentRepositories.js";
import type { Asker, Fetched, Scout } from "./scout.js";
import { againIfTokenReplaced, createUpstream } from "./upstream.js";
import { withFields } from "../withFields.js";

/**
 * The shape version of cached answers that carry a repository: 2 since they carry its
 * `visibility`. Entries of version 1 (no visibility) are never read, so an answer cached before
 * is never shown as public, nor taken as private, on a guess. 3 since a symbolic link is a
 * `symlink` answer: a link cached before as a file whose text is its target is never read again.
 * 4 since a blame is stored with a table of its commits (../cache/storedForms.ts) and a shared
 * answer once (`keptAt`): entries of the old forms are simply misses.
 */
const REPOSITORY_ANSWER_VERSION = 4;

/** A full commit id: an answer asked for by it is pinned from the start. */
const FULL_OID = /^[0-9a-f]{40}$/i;

function repoArgs(repo: RepoRef): { owner: string; name: string } {
  // GitHub's owner and repository names are case-insensitive: one cache entry for all spellings.
  return { owner: repo.owner.toLowerCase(), name: repo.name.toLowerCase() };
}

/**
 * Creates the Scout: every answer fetched with the token in effect for the server and through the
 * cache, keyed by the token's fingerprint so one server never sees what another's token fetched.
 * The recent repositories are kept by that fingerprint too.
 *
 * Blame and contents follow a ref (a branch, by default the default branch) but are pinned to the
 * commit it resolves to: the ref's commit lives briefly (`refs`, short TTL), the answer at that
 * commit long (pinned TTL). A cold request is still ONE upstream call: its answer tells both.
 *
 * Private code (SPEC section 4, see ./privateAccess.ts): every answer says whether it is private;
 * the default token reads public repositories only unless `defaultTokenAllowPrivate`; a cached
 * private answer is served only while the token's access was confirmed within the short TTL. A
 * refused answer is never stored, and its repository is never remembered for autocomplete.
 *
 * Every upstream call goes through one metered path (./upstream.ts), access reads included, and a
 * "not found" is remembered for the short TTL, so made-up names cannot spend the default token past
 * the asker's share.
 */
export function createScout(options: {
  github: GitHubClient;
  cache: AnswerCache;
  tokens: TokenResolver;
  recent: RecentRepositories;
  /** Fair use of the default token; absent: not metered. */
  share?: DefaultTokenShare;
  /** `GITHUB_TOKEN_ALLOW_PRIVATE`; default false (the default token reads public repositories only). */
  defaultTokenAllowPrivate?: boolean;
  /** The clock (the windows of `/owners`); default the system's. */
  now?: () => Date;
}): Scout {
  const { github, cache, tokens, recent } = options;
  const defaultTokenAllowPrivate = options.defaultTokenAllowPrivate ?? false;
  const upstream = createUpstream({ share: options.share, defaultTokenAllowPrivate });
  const privateAccess = createPrivateAccess({ github, cache, defaultTokenAllowPrivate, upstream });
  const publicAnswers = createPublicAnswers({ cache, privateAccess });
  // Public reads given again while their records are held (./heldReads.ts).
  const heldReads = createHeldReads(cache);

  async function pinnedRead<T extends BlameAnswer | ContentsAnswer>(
    kind: "blame" | "contents",
    asker: Asker,
    args: { repo: RepoRef; ref?: string; path: string },
    read: (token: TokenUse, ref: string | undefined) => Promise<T>,
  ): Promise<Fetched<T>> {
    const resolved = await tokens.resolve(asker);
    const { origin, fingerprint } = resolved;
    const repo = repoArgs(args.repo);
    const ref = args.ref ?? "HEAD";
    const heldKey = heldReadKeys.pinned(kind, resolved, repo, args);
    const again = pinnedAgain<T>(heldKey, resolved);
    if (again) return again;
    const trail = newReadTrail();
    const pinnedKey = (oid: string): PinnedKey => ({
      kind,
      version: REPOSITORY_ANSWER_VERSION,
      args: { owner: repo.owner, name: repo.name, oid, path: args.path },
    });
    // Checked before anything is stored: a refused answer never reaches the cache. A public
    // answer is shared with every token (./publicAnswers.ts).
    const admitted = async (readRef: string | undefined, byRef: boolean): Promise<T> => {
      const value = await privateAccess.read(asker, resolved, args.repo, (token) => read(token, readRef));
      await publicAnswers.publish(pinnedKey(value.commit.oid), value, byRef ? ref : undefined);
      return value;
    };
    const refRequest = {
      kind: "refs",
      fingerprint,
      args: { owner: repo.owner, name: repo.name, ref },
    } as const;
    /**
     * The branch's commit expired. When this token knew where it was (`refs-last`) and the answer
     * there is still held, one cheap read says where the branch is now: if it did not move, that
     * answer is served without fetching it again. Otherwise the whole answer is fetched by ref, one
     * call, as before.
     */
    const movedTo = async (request: typeof refRequest): Promise<string | undefined> => {
      // A read that asks GitHub where the branch is now is not one to give again.
      trail.cold = true;
      const last = (await cache.peek<string>(withFields(request, { kind: "refs-last" })))?.value;
      if (!last) return undefined;
      const held =
        (await cache.peek(inScope(pinnedKey(last), fingerprint))) ??
        (await cache.peek(inScope(pinnedKey(last), PUBLIC_SCOPE)));
      if (!held) return undefined;
      await privateAccess.refuseKnownMissing(resolved, args.repo);
      const now = await upstream(asker, resolved, "graphql", (token) =>
        github.refCommit(token, { repo: args.repo, ...(args.ref !== undefined ? { ref: args.ref } : {}) }),
      );
      privateAccess.admit(resolved, now.repository);
      await Promise.all([
        cache.put(withFields(request, { ttl: "short" as const }), now.oid),
        cache.put(withFields(request, { kind: "refs-last", ttl: "pinned" as const }), now.oid),
        publicAnswers.publishRef(repo, ref, now.oid, now.repository),
      ]);
      return now.oid;
    };
    // A "not found" told to the default token is looked up just before a call to GitHub (in
    // `admitted` and `movedTo`), the only thing it saves: an answer already held costs no budget,
    // and looking first made every cached answer one more store read that misses (a SQLite query,
    // a Redis round trip; a fifth of the bot's CPU on cached answers over HTTP, issue 23).
    const givenOid = FULL_OID.test(ref);
    const oid = givenOid
      ? ref.toLowerCase()
      : ((await cache.peek<string>(refRequest, trail))?.value ??
        (await publicAnswers.refCommit(repo, ref, trail)) ??
        (await movedTo(refRequest)));
    const shared = oid ? await sharedPinned<T>(pinnedKey(oid), asker, resolved, trail) : undefined;
    const answer =
      shared ??
      (oid
        ? await cache.getOrFetch<T>(
            withFields(inScope(pinnedKey(oid), fingerprint), {
              ttl: "pinned" as const,
              // A public answer is kept once, in the shared scope (published by `admitted`).
              keptAt: (value: T) => publicAnswers.keptAt(pinnedKey(oid), value),
              fetch: () =>
                admitted(oid, false).catch((error: unknown) => {
                  // The commit id came from the cache, not from the user: name what they asked for.
                  if (!givenOid && error instanceof PathNotFoundError) {
                    throw new PathNotFoundError(args.repo, args.path, args.ref);
                  }
                  throw error;
                }),
            }),
            trail,
          )
        : await cache.getOrFetch<T>(
            {
              kind: `${kind}-by-ref`,
              fingerprint,
              ttl: "short",
              version: REPOSITORY_ANSWER_VERSION,
              args: { owner: repo.owner, name: repo.name, ref, path: args.path },
              // The answer at the branch is the answer at its commit: kept there, once.
              keptAt: (value) =>
                publicAnswers.keptAt(pinnedKey(value.commit.oid), value) ??
                inScope(pinnedKey(value.commit.oid), fingerprint),
              fetch: async () => {
                const value = await admitted(args.ref, true);
                // One call answered two questions: remember both, each for as long as it holds.
                await Promise.all([
                  cache.put(withFields(refRequest, { ttl: "short" as const }), value.commit.oid),
                  cache.put(
                    withFields(refRequest, { kind: "refs-last", ttl: "pinned" as const }),
                    value.commit.oid,
                  ),
                  cache.put(
                    withFields(inScope(pinnedKey(value.commit.oid), fingerprint), {
                      ttl: "pinned" as const,
                      keptAt: () => publicAnswers.keptAt(pinnedKey(value.commit.oid), value),
                    }),
                    value,
                  ),
                ]);
                return value;
              },
            },
            trail,
          ));
    const privacy = await privateAccess.settle(
      asker,
      resolved,
      args.repo,
      answer.value.repository,
      answer.fromCache,
    );
    recent.remember(fingerprint, answer.value.repository.nameWithOwner);
    if (!privacy) heldReads.hold(heldKey, trail, answer);
    return fetchedFrom(answer, origin, privacy);
  }

  /** A held pinned read, its repository remembered for autocomplete as the steps do. */
  function pinnedAgain<T extends BlameAnswer | ContentsAnswer>(
    heldKey: string,
    resolved: ResolvedToken,
  ): Fetched<T> | undefined {
    const again = heldReads.again<T>(heldKey, resolved.origin);
    if (again) recent.remember(resolved.fingerprint, again.value.repository.nameWithOwner);
    return again;
  }

  /** A pinned read given at once, when the token in effect and the read are both held. */
  function heldPinned<T extends BlameAnswer | ContentsAnswer>(
    kind: "blame" | "contents",
    asker: Asker,
    args: { repo: RepoRef; ref?: string; path: string },
  ): Fetched<T> | undefined {
    const resolved = tokens.resolveHeld?.(asker);
    return (
      resolved && pinnedAgain<T>(heldReadKeys.pinned(kind, resolved, repoArgs(args.repo), args), resolved)
    );
  }

  /**
   * A held page of contributors, its repository remembered for autocomplete as the steps do: only
   * while the steps would read no "not found" note from the store (they read one before the
   * repository's access, and a note there would refuse the page).
   */
  function contributorsAgain(
    heldKey: string,
    resolved: ResolvedToken,
    repo: RepoRef,
  ): Fetched<ContributorsPage> | undefined {
    if (!privateAccess.surelyNotMissing(resolved, repo)) return undefined;
    const again = heldReads.again<ContributorsPage>(heldKey, resolved.origin);
    if (again) recent.remember(resolved.fingerprint, `${repo.owner}/${repo.name}`);
    return again;
  }

  const ownership = createOwnershipAnswers({
    github,
    cache,
    tokens,
    recent,
    privateAccess,
    upstream,
    share: options.share,
    now: options.now ?? (() => new Date()),
  });

  /**
   * A pinned answer already held: this token's own, else one of a public repository fetched with
   * any token (served while the repository is still public, see ./publicAnswers.ts).
   */
  async function sharedPinned<T>(
    key: PinnedKey,
    asker: Asker,
    resolved: ResolvedToken,
    trail: ReadTrail,
  ): Promise<CachedAnswer<T> | undefined> {
    return (
      (await cache.peek<T>(inScope(key, resolved.fingerprint), trail)) ??
      (await publicAnswers.pinned<T>(key, asker, resolved, trail))
    );
  }

  const items = createItemAnswers({ github, cache, tokens, recent, privateAccess });

  const scout: Scout = {
    issue: items.issue,
    commit: items.commit,
    async viewer(asker) {
      const resolved = await tokens.resolve(asker);
      const { origin, fingerprint } = resolved;
      return heldReads.againOrRead(heldReadKeys.viewer(resolved), origin, (trail) =>
        cache.getOrFetch(
          {
            kind: "viewer",
            fingerprint,
            ttl: "short",
            args: {},
            fetch: () => upstream(asker, resolved, "graphql", (token) => github.viewer(token)),
          },
          trail,
        ),
      );
    },
    heldViewer(asker) {
      const resolved = tokens.resolveHeld?.(asker);
      return resolved && heldReads.again(heldReadKeys.viewer(resolved), resolved.origin);
    },
    blame(asker, args) {
      return pinnedRead("blame", asker, args, (token, ref) =>
        github.blame(token, { repo: args.repo, path: args.path, ...(ref !== undefined ? { ref } : {}) }),
      );
    },
    contents(asker, args) {
      return pinnedRead("contents", asker, args, (token, ref) =>
        github.contents(token, { repo: args.repo, path: args.path, ...(ref !== undefined ? { ref } : {}) }),
      );
    },
    heldBlame: (asker, args) => heldPinned<BlameAnswer>("blame", asker, args),
    heldContents: (asker, args) => heldPinned<ContentsAnswer>("contents", asker, args),
    async repositories(asker, args) {
      const resolved = await tokens.resolve(asker);
      const { origin, fingerprint } = resolved;
      // The default token lists public repositories only: GitHub leaves the others out of the
      // page and the count (`privacy: PUBLIC`).
      const publicOnly = privateAccess.publicOnly(resolved);
      // A list is short-lived (fetched within the short TTL), so its access needs no re-check.
      return heldReads.againOrRead(
        heldReadKeys.repositories(resolved, args),
        origin,
        (trail) =>
          cache.getOrFetch(
            {
              kind: "repositories",
              fingerprint,
              ttl: "short",
              version: REPOSITORY_ANSWER_VERSION,
              args: {
                login: args.login.toLowerCase(),
                first: args.first,
                after: args.after ?? null,
                sort: args.sort,
                ...(publicOnly ? { publicOnly } : {}),
              },
              fetch: () =>
                upstream(asker, resolved, "graphql", (token) =>
                  github.repositories(token, publicOnly ? withFields(args, { publicOnly }) : args),
                ),
            },
            trail,
          ),
        listPrivacy,
      );
    },
    heldRepositories(asker, args) {
      const resolved = tokens.resolveHeld?.(asker);
      return resolved && heldReads.again(heldReadKeys.repositories(resolved, args), resolved.origin);
    },
    async contributors(asker, args) {
      const resolved = await tokens.resolve(asker);
      const { origin, fingerprint } = resolved;
      const key = heldReadKeys.contributors(resolved, args);
      const again = contributorsAgain(key, resolved, args.repo);
      if (again) return again;
      const trail = newReadTrail();
      // REST says nothing of visibility: the cheap GraphQL read goes alongside (and is cached for
      // the short TTL, so paging costs it once). Awaited inside the fetch, so a refused page is
      // never stored. A public-only token reads it first: a private repository is then refused
      // before REST could tell whether it is empty or too large.
      const access = privateAccess.access(asker, resolved, args.repo, trail).then((seen) => seen.value);
      access.catch(() => undefined);
      if (privateAccess.publicOnly(resolved)) privateAccess.admit(resolved, await access);
      const answer = await cache.getOrFetch(
        {
          kind: "contributors",
          fingerprint,
          ttl: "short",
          args: withFields(repoArgs(args.repo), { page: args.page }),
          // Past the short lifetime the client revalidates with If-None-Match: a 304 costs no budget.
          fetch: async () => {
            const [page, seen] = await Promise.all([
              upstream(asker, resolved, "core", (token) =>
                github.contributors(token, { repo: args.repo, page: args.page }),
              ),
              access,
            ]);
            privateAccess.admit(resolved, seen);
            return page;
          },
        },
        trail,
      );
      const seen = await access;
      privateAccess.admit(resolved, seen);
      recent.remember(fingerprint, `${args.repo.owner}/${args.repo.name}`);
      const privacy = repositoryPrivacy(seen);
      // Public, its page and access both read from the tier, and no "not found" note read: the
      // same steps would give it again while those records are held.
      if (!privacy) heldReads.hold(key, trail, answer);
      return fetchedFrom(answer, origin, privacy);
    },
    heldContributors(asker, args) {
      const resolved = tokens.resolveHeld?.(asker);
      return resolved && contributorsAgain(heldReadKeys.contributors(resolved, args), resolved, args.repo);
    },
    history: (asker, args) => ownership.history(asker, args),
    owners: (asker, args) => ownership.owners(asker, args),
    async tokenOrigin(asker) {
      try {
        return (await tokens.resolve(asker)).origin;
      } catch (error) {
        if (error instanceof MissingTokenError) return undefined;
        throw error;
      }
    },
    async recentRepositories(asker) {
      // No token in effect: nothing was read, so nothing to suggest (and no error in autocomplete).
      const resolved = await tokens.resolve(asker).catch(() => null);
      return resolved ? await recent.list(resolved.fingerprint) : [];
    },
    async rateLimit(asker) {
      const { fingerprint } = await tokens.resolve(asker);
      return github.rateLimit(fingerprint, "graphql") ?? github.rateLimit(fingerprint);
    },
  };
  // A person's token that another process renewed meanwhile reads 401; the command runs again, once,
  // with the token now in effect (src/tokens/userTokens.ts).
  // Made once, at start: the rule against a spread first (eslint.config.js) is for what each
  // interaction makes.
  return {
    // eslint-disable-next-line no-restricted-syntax
    ...scout,
    viewer: (asker) => againIfTokenReplaced(() => scout.viewer(asker)),
    blame: (asker, args) => againIfTokenReplaced(() => scout.blame(asker, args)),
    contents: (asker, args) => againIfTokenReplaced(() => scout.contents(asker, args)),
    repositories: (asker, args) => againIfTokenReplaced(() => scout.repositories(asker, args)),
    contributors: (asker, args) => againIfTokenReplaced(() => scout.contributors(asker, args)),
    issue: (asker, args) => againIfTokenReplaced(() => scout.issue(asker, args)),
    commit: (asker, args) => againIfTokenReplaced(() => scout.commit(asker, args)),
  };
}
