import type { AnswerCache, CachedAnswer } from "../cache/answerCache.js";
import type { GitHubClient } from "../github/client.js";
import { PathNotFoundError } from "../github/errors.js";
import type { BlameAnswer, ContentsAnswer, RepoRef } from "../github/types.js";
import type { TokenResolver } from "../tokens/tokenResolver.js";
import type { RecentRepositories } from "./recentRepositories.js";
import type { Fetched, Scout } from "./scout.js";

/** A full commit id: an answer asked for by it is pinned from the start. */
const FULL_OID = /^[0-9a-f]{40}$/i;

function repoArgs(repo: RepoRef): { owner: string; name: string } {
  // GitHub's owner and repository names are case-insensitive: one cache entry for all spellings.
  return { owner: repo.owner.toLowerCase(), name: repo.name.toLowerCase() };
}

function fetched<T>(answer: CachedAnswer<T>, origin: Fetched<T>["origin"]): Fetched<T> {
  return {
    value: answer.value,
    freshness: { fetchedAt: answer.fetchedAt, fromCache: answer.fromCache },
    origin,
  };
}

/**
 * Creates the Scout: every answer fetched with the token in effect for the server and through the
 * cache, keyed by the token's fingerprint so one server never sees what another's token fetched.
 *
 * Blame and contents follow a ref (a branch, by default the default branch) but are pinned to the
 * commit it resolves to: the ref's commit lives briefly (`refs`, short TTL), the answer at that
 * commit long (pinned TTL). A cold request is still ONE upstream call: its answer tells both.
 */
export function createScout(options: {
  github: GitHubClient;
  cache: AnswerCache;
  tokens: TokenResolver;
  recent: RecentRepositories;
}): Scout {
  const { github, cache, tokens, recent } = options;

  async function pinnedRead<T extends BlameAnswer | ContentsAnswer>(
    kind: "blame" | "contents",
    guildId: string | null,
    args: { repo: RepoRef; ref?: string; path: string },
    read: (token: string, ref: string | undefined) => Promise<T>,
  ): Promise<Fetched<T>> {
    const { token, origin, fingerprint } = await tokens.resolve(guildId);
    const repo = repoArgs(args.repo);
    const ref = args.ref ?? "HEAD";
    const refRequest = { kind: "refs", fingerprint, args: { ...repo, ref } } as const;
    const givenOid = FULL_OID.test(ref);
    const oid = givenOid ? ref.toLowerCase() : (await cache.peek<string>(refRequest))?.value;
    const answer = oid
      ? await cache.getOrFetch<T>({
          kind,
          fingerprint,
          ttl: "pinned",
          args: { ...repo, oid, path: args.path },
          fetch: () =>
            read(token, oid).catch((error: unknown) => {
              // The commit id came from the cache, not from the user: name what they asked for.
              if (!givenOid && error instanceof PathNotFoundError) {
                throw new PathNotFoundError(args.repo, args.path, args.ref);
              }
              throw error;
            }),
        })
      : await cache.getOrFetch<T>({
          kind: `${kind}-by-ref`,
          fingerprint,
          ttl: "short",
          args: { ...repo, ref, path: args.path },
          fetch: async () => {
            const value = await read(token, args.ref);
            // One call answered two questions: remember both, each for as long as it holds.
            await Promise.all([
              cache.put({ ...refRequest, ttl: "short" }, value.commit.oid),
              cache.put(
                {
                  kind,
                  fingerprint,
                  ttl: "pinned",
                  args: { ...repo, oid: value.commit.oid, path: args.path },
                },
                value,
              ),
            ]);
            return value;
          },
        });
    recent.remember(guildId, answer.value.repository.nameWithOwner);
    return fetched(answer, origin);
  }

  return {
    async viewer(guildId) {
      const { token, origin, fingerprint } = await tokens.resolve(guildId);
      const answer = await cache.getOrFetch({
        kind: "viewer",
        fingerprint,
        ttl: "short",
        args: {},
        fetch: () => github.viewer(token),
      });
      return fetched(answer, origin);
    },
    blame(guildId, args) {
      return pinnedRead("blame", guildId, args, (token, ref) =>
        github.blame(token, { repo: args.repo, path: args.path, ...(ref !== undefined ? { ref } : {}) }),
      );
    },
    contents(guildId, args) {
      return pinnedRead("contents", guildId, args, (token, ref) =>
        github.contents(token, { repo: args.repo, path: args.path, ...(ref !== undefined ? { ref } : {}) }),
      );
    },
    async repositories(guildId, args) {
      const { token, origin, fingerprint } = await tokens.resolve(guildId);
      const answer = await cache.getOrFetch({
        kind: "repositories",
        fingerprint,
        ttl: "short",
        args: {
          login: args.login.toLowerCase(),
          first: args.first,
          after: args.after ?? null,
          sort: args.sort,
        },
        fetch: () => github.repositories(token, args),
      });
      return fetched(answer, origin);
    },
    async contributors(guildId, args) {
      const { token, origin, fingerprint } = await tokens.resolve(guildId);
      const answer = await cache.getOrFetch({
        kind: "contributors",
        fingerprint,
        ttl: "short",
        args: { ...repoArgs(args.repo), page: args.page },
        // Past the short lifetime the client revalidates with If-None-Match: a 304 costs no budget.
        fetch: () => github.contributors(token, { repo: args.repo, page: args.page }),
      });
      recent.remember(guildId, `${args.repo.owner}/${args.repo.name}`);
      return fetched(answer, origin);
    },
    async rateLimit(guildId) {
      const { fingerprint } = await tokens.resolve(guildId);
      return github.rateLimit(fingerprint, "graphql") ?? github.rateLimit(fingerprint);
    },
  };
}
