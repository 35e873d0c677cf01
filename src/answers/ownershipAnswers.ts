/**
 * The Scout's `/history` and `/owners` answers: fetched with the token in effect, through the
 * cache, under the private-code rules and the fair use of the default token (SPEC sections 2-4).
 * createScout.ts builds this with its own upstream call, so both share one metering.
 */
import type { AnswerCache, CachedAnswer } from "../cache/answerCache.js";
import type { GitHubClient } from "../github/client.js";
import type { BlameBatch, FileBlame, HistoryPage, OwnersTree } from "../github/ownershipTypes.js";
import { BLAME_BATCH } from "../github/ownershipDocuments.js";
import type { RepoRef } from "../github/types.js";
import { OwnersBudgetError } from "../owners/ownersBudgetError.js";
import { selectFiles, type FileSelection } from "../owners/selectFiles.js";
import { DefaultShareUsedUpError, type DefaultTokenShare } from "../tokens/defaultTokenShare.js";
import type { ResolvedToken, TokenResolver } from "../tokens/tokenResolver.js";
import type { PrivateAccess } from "./privateAccess.js";
import type { RecentRepositories } from "./recentRepositories.js";
import type { Asker, Fetched } from "./scout.js";
import type { Upstream } from "./upstream.js";
import { withFields } from "../withFields.js";

/** Commits a `/history` page shows. */
export const HISTORY_PAGE_SIZE = 10;

/** How far back `/owners` reads commits: a year, for the chart's strip (the text says 90 days). */
const YEAR_MS = 365 * 86_400_000;

/** Blame requests of one `/owners` answer in flight at once (GitHub allows 100; be gentle). */
const BLAME_CONCURRENCY = 3;

/** Shape version of the cached answers of this file. */
const VERSION = 1;

const FULL_OID = /^[0-9a-f]{40}$/i;

/** A `/owners` answer: what was read before blame, the blame of the files read, what was left out. */
export interface OwnersAnswer {
  tree: OwnersTree;
  selection: FileSelection;
  /** The files read, in the order of `selection.read`; `lines` null where GitHub could not blame. */
  blamed: FileBlame[];
  /** GitHub points the blame cost when it was fetched (one per request of up to 10 files). */
  blamePoints: number;
}

/** A fetched `/owners` answer, with the points this very call spent (0 when all came from cache). */
export interface FetchedOwners extends Fetched<OwnersAnswer> {
  pointsSpent: number;
}

/** The `/history` and `/owners` reads of the Scout. */
export interface OwnershipAnswers {
  history(
    asker: Asker,
    args: { repo: RepoRef; ref?: string; path: string; after?: string },
  ): Promise<Fetched<HistoryPage>>;
  owners(asker: Asker, args: { repo: RepoRef; ref?: string; path: string }): Promise<FetchedOwners>;
}

function repoKey(repo: RepoRef): { owner: string; name: string } {
  return { owner: repo.owner.toLowerCase(), name: repo.name.toLowerCase() };
}

/** Runs `tasks` with at most `limit` at once, keeping their order. */
async function inBatches<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const index = next;
      next += 1;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** Creates the `/history` and `/owners` reads over the Scout's parts. */
export function createOwnershipAnswers(options: {
  github: GitHubClient;
  cache: AnswerCache;
  tokens: TokenResolver;
  recent: RecentRepositories;
  privateAccess: PrivateAccess;
  upstream: Upstream;
  share?: DefaultTokenShare | undefined;
  now: () => Date;
}): OwnershipAnswers {
  const { github, cache, tokens, recent, privateAccess, upstream, share } = options;

  function fetchedOf<T>(answer: CachedAnswer<T>, resolved: ResolvedToken): Fetched<T> {
    return {
      value: answer.value,
      freshness: { fetchedAt: answer.fetchedAt, fromCache: answer.fromCache },
      origin: resolved.origin,
    };
  }

  /**
   * Refuses, before anything is sent, an answer whose known cost the token cannot pay: its last
   * reported budget, and for the default token the asker's fair share.
   */
  async function affordable(
    asker: Asker,
    resolved: ResolvedToken,
    cost: number,
    files: number,
  ): Promise<void> {
    const budget = github.rateLimit(resolved.fingerprint, "graphql");
    if (budget && Date.parse(budget.resetAt) > options.now().getTime() && budget.remaining < cost) {
      throw new OwnersBudgetError("token", cost, files, new Date(budget.resetAt));
    }
    if (resolved.origin !== "default" || !share) return;
    try {
      await share.check(asker, "graphql", cost);
    } catch (error) {
      if (error instanceof DefaultShareUsedUpError)
        throw new OwnersBudgetError("share", cost, files, error.until);
      throw error;
    }
  }

  return {
    async history(asker, args) {
      const resolved = await tokens.resolve(asker);
      const pinned = args.ref !== undefined && FULL_OID.test(args.ref);
      // A page read by commit id never changes; the first page follows its branch for a short while.
      // A remembered "not found" is looked up just before GitHub is asked, as for /blame (createScout).
      const answer = await cache.getOrFetch<HistoryPage>({
        kind: "history",
        fingerprint: resolved.fingerprint,
        ttl: pinned ? "pinned" : "short",
        version: VERSION,
        args: withFields(repoKey(args.repo), {
          ref: args.ref ?? "HEAD",
          path: args.path,
          after: args.after ?? null,
          first: HISTORY_PAGE_SIZE,
        }),
        fetch: () =>
          privateAccess.read(asker, resolved, args.repo, (token) =>
            github.history(token, {
              repo: args.repo,
              path: args.path,
              first: HISTORY_PAGE_SIZE,
              ...(args.ref !== undefined ? { ref: args.ref } : {}),
              ...(args.after !== undefined ? { after: args.after } : {}),
            }),
          ),
      });
      const privacy = await privateAccess.settle(
        asker,
        resolved,
        args.repo,
        answer.value.repository,
        answer.fromCache,
      );
      recent.remember(resolved.fingerprint, answer.value.repository.nameWithOwner);
      return privacy ? withFields(fetchedOf(answer, resolved), { privacy }) : fetchedOf(answer, resolved);
    },

    async owners(asker, args) {
      const resolved = await tokens.resolve(asker);
      let pointsSpent = 0;
      // The year starts at a whole day, so the question (and its cache key) holds for a day.
      const today = new Date(options.now());
      today.setUTCHours(0, 0, 0, 0);
      const since = new Date(today.getTime() - YEAR_MS);
      const pinned = args.ref !== undefined && FULL_OID.test(args.ref);
      const tree = await cache.getOrFetch<OwnersTree>({
        kind: "owners-tree",
        fingerprint: resolved.fingerprint,
        ttl: pinned ? "pinned" : "short",
        version: VERSION,
        args: withFields(repoKey(args.repo), {
          ref: args.ref ?? "HEAD",
          path: args.path,
          since: since.toISOString(),
        }),
        fetch: async () => {
          const value = await privateAccess.read(asker, resolved, args.repo, (token) =>
            github.ownersTree(token, {
              repo: args.repo,
              path: args.path,
              since,
              ...(args.ref !== undefined ? { ref: args.ref } : {}),
            }),
          );
          pointsSpent += 1;
          return value;
        },
      });
      const privacy = await privateAccess.settle(
        asker,
        resolved,
        args.repo,
        tree.value.repository,
        tree.fromCache,
      );
      const { commit, path } = tree.value;
      const selection = selectFiles(path, tree.value.target);
      const batches: string[][] = [];
      for (let start = 0; start < selection.read.length; start += BLAME_BATCH) {
        batches.push(selection.read.slice(start, start + BLAME_BATCH));
      }
      // Blame at a commit never changes: cached by the commit the answer is pinned to, so a repeat
      // (by ref or by id) costs nothing and is not refused for a budget it does not need.
      const blameRequest = {
        kind: "owners-blame",
        fingerprint: resolved.fingerprint,
        version: VERSION,
        args: withFields(repoKey(args.repo), { oid: commit.oid, path }),
      } as const;
      const held = await cache.peek<{ blamed: FileBlame[]; points: number }>(blameRequest);
      if (!held && batches.length > 0)
        await affordable(asker, resolved, batches.length, selection.read.length);
      const blame =
        held ??
        (await cache.getOrFetch<{ blamed: FileBlame[]; points: number }>(
          withFields(blameRequest, {
            ttl: "pinned" as const,
            fetch: async () => {
              const answers = await inBatches(
                batches.map(
                  (paths) => (): Promise<BlameBatch> =>
                    upstream(asker, resolved, "graphql", (token) =>
                      github.ownersBlame(token, { repo: args.repo, oid: commit.oid, paths }),
                    ),
                ),
                BLAME_CONCURRENCY,
              );
              pointsSpent += answers.length;
              for (const answer of answers) privateAccess.admit(resolved, answer.repository);
              return { blamed: answers.flatMap((answer) => answer.files), points: answers.length };
            },
          }),
        ));
      recent.remember(resolved.fingerprint, tree.value.repository.nameWithOwner);
      // The answer is as old as its oldest part.
      const fetchedAt =
        Date.parse(blame.fetchedAt) < Date.parse(tree.fetchedAt) ? blame.fetchedAt : tree.fetchedAt;
      return {
        value: { tree: tree.value, selection, blamed: blame.value.blamed, blamePoints: blame.value.points },
        freshness: { fetchedAt, fromCache: tree.fromCache && blame.fromCache },
        origin: resolved.origin,
        pointsSpent,
        ...(privacy ? { privacy } : {}),
      };
    },
  };
}
