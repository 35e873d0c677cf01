import type { AnswerCache, CachedAnswer } from "../cache/answerCache.js";
import type { GitHubClient } from "../github/client.js";
import type { CommitAnswer, IssueAnswer } from "../github/issueTypes.js";
import type { RepoRef } from "../github/types.js";
import type { ResolvedToken, TokenResolver } from "../tokens/tokenResolver.js";
import type { PrivateAccess } from "./privateAccess.js";
import type { RecentRepositories } from "./recentRepositories.js";
import type { Asker, Fetched } from "./scout.js";
import { withFields } from "../withFields.js";

/** The shape version of cached issue and commit answers. */
const ITEM_ANSWER_VERSION = 1;
/** A full commit id: an answer asked for by it never changes. */
const FULL_OID = /^[0-9a-f]{40}$/i;

/** The Scout's reads of issues, pull requests and commits (see ./scout.ts). */
export interface ItemAnswers {
  issue(asker: Asker, args: { repo: RepoRef; number: number }): Promise<Fetched<IssueAnswer>>;
  commit(asker: Asker, args: { repo: RepoRef; ref?: string }): Promise<Fetched<CommitAnswer>>;
}

function repoArgs(repo: RepoRef): { owner: string; name: string } {
  return { owner: repo.owner.toLowerCase(), name: repo.name.toLowerCase() };
}

/**
 * Issues, pull requests and commits through the cache, by token fingerprint, with the private-code
 * rules of every answer (SPEC section 4). How long an answer lives follows how long it holds: an
 * issue or an open pull request changes at any time (short); a merged pull request is done
 * (pinned, kept apart and looked up first); a commit asked by its full id never changes (pinned),
 * one asked by a branch is short-lived and also kept under its id.
 */
export function createItemAnswers(options: {
  github: GitHubClient;
  cache: AnswerCache;
  tokens: TokenResolver;
  recent: RecentRepositories;
  /** Reads upstream through the Scout's one way (fair use, the reader on errors) and admits the answer. */
  privateAccess: PrivateAccess;
}): ItemAnswers {
  const { github, cache, tokens, recent, privateAccess } = options;

  async function served<T extends IssueAnswer | CommitAnswer>(
    asker: Asker,
    resolved: ResolvedToken,
    repo: RepoRef,
    answer: CachedAnswer<T>,
  ): Promise<Fetched<T>> {
    const privacy = await privateAccess.settle(
      asker,
      resolved,
      repo,
      answer.value.repository,
      answer.fromCache,
    );
    recent.remember(resolved.fingerprint, answer.value.repository.nameWithOwner);
    return {
      value: answer.value,
      freshness: { fetchedAt: answer.fetchedAt, fromCache: answer.fromCache },
      origin: resolved.origin,
      ...(privacy ? { privacy } : {}),
    };
  }

  return {
    async issue(asker, args) {
      const resolved = await tokens.resolve(asker);
      const key = {
        fingerprint: resolved.fingerprint,
        version: ITEM_ANSWER_VERSION,
        args: withFields(repoArgs(args.repo), { number: args.number }),
      };
      const done = await cache.peek<IssueAnswer>(withFields(key, { kind: "issue-done" }));
      const answer =
        done ??
        (await cache.getOrFetch<IssueAnswer>({
          fingerprint: key.fingerprint,
          version: key.version,
          args: key.args,
          kind: "issue",
          ttl: "short",
          // A merged pull request is kept once, as `issue-done` (issue 23: store once).
          keptAt: (value) => (value.state === "merged" ? withFields(key, { kind: "issue-done" }) : undefined),
          fetch: async () => {
            // Admitted before anything is stored: a refused answer never reaches the cache.
            const value = await privateAccess.read(asker, resolved, args.repo, (token) =>
              github.issueOrPullRequest(token, args),
            );
            if (value.state === "merged")
              await cache.put(withFields(key, { kind: "issue-done", ttl: "pinned" as const }), value);
            return value;
          },
        }));
      return served(asker, resolved, args.repo, answer);
    },
    async commit(asker, args) {
      const resolved = await tokens.resolve(asker);
      const repo = repoArgs(args.repo);
      const pinnedKey = (oid: string) => ({
        kind: "commit",
        fingerprint: resolved.fingerprint,
        version: ITEM_ANSWER_VERSION,
        args: withFields(repo, { oid: oid.toLowerCase() }),
      });
      const read = (ref: string | undefined): Promise<CommitAnswer> =>
        privateAccess.read(asker, resolved, args.repo, (token) =>
          github.commit(token, { repo: args.repo, ...(ref !== undefined ? { ref } : {}) }),
        );
      const answer =
        args.ref !== undefined && FULL_OID.test(args.ref)
          ? await cache.getOrFetch<CommitAnswer>(
              withFields(pinnedKey(args.ref), { ttl: "pinned" as const, fetch: () => read(args.ref) }),
            )
          : await cache.getOrFetch<CommitAnswer>({
              kind: "commit-by-ref",
              fingerprint: resolved.fingerprint,
              version: ITEM_ANSWER_VERSION,
              ttl: "short",
              args: withFields(repo, { ref: args.ref ?? "HEAD" }),
              // The commit a ref names is kept once, at its id (issue 23: store once).
              keptAt: (value) => pinnedKey(value.oid),
              fetch: async () => {
                const value = await read(args.ref);
                // One call answered two questions: the ref now, and the commit for good.
                await cache.put(withFields(pinnedKey(value.oid), { ttl: "pinned" as const }), value);
                return value;
              },
            });
      return served(asker, resolved, args.repo, answer);
    },
  };
}
