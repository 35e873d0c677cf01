/**
 * The resolvers of `Commit.history(path:, since:, until:, author:, first:, after:...)` and of a
 * commit's `additions` / `deletions`, kept apart from resolvers.ts (which merges them in). The
 * models are the ones resolvers.ts passes around: a commit is `{ __typename, repo, commit }`.
 */
import type { GraphQLResolveInfo } from "graphql";
import { paginate, type ConnectionArgs } from "./connection.js";
import type { ParsedCommit } from "./gitObjects.js";
import type { GitRepository } from "./gitRepository.js";
import { GitHubFieldError } from "./githubErrors.js";
import { commitStats, historyOf, type HistoryEntry } from "./history.js";
import type { World } from "./world.js";

/** The parts of resolvers.ts's commit model these resolvers read and make. */
interface CommitLike {
  __typename: "Commit";
  repo: { git: GitRepository };
  commit: ParsedCommit;
}

interface HistoryArgs extends ConnectionArgs {
  path?: string | null;
  since?: string | null;
  until?: string | null;
  author?: { emails?: string[] | null; id?: string | null } | null;
}

/** What these resolvers need of the request's context. */
interface HistoryContext {
  world: World;
}

/** GitHub's legacy global node id of a user (`04:User<id>` in base64), as resolvers.ts makes it. */
function userNodeId(id: number): string {
  return Buffer.from(`04:User${id}`, "utf8").toString("base64");
}

/** Epoch seconds of a GitTimestamp (ISO-8601); GitHub refuses what it cannot read. */
function timestampSeconds(value: string, argument: string): number {
  const millis = Date.parse(value);
  if (Number.isNaN(millis)) {
    // Unconfirmed: GitHub's wording for an unreadable GitTimestamp was not captured.
    throw new GitHubFieldError("INVALID_ARGUMENTS", `\`${argument}\` is not a valid ISO-8601 timestamp.`);
  }
  return Math.floor(millis / 1000);
}

/**
 * Which commits the `author` filter keeps: by the account (`id`, which wins over `emails`, as the
 * schema says), whose every email counts, else by any of the emails (case-insensitive).
 */
function authorFilter(
  author: HistoryArgs["author"],
  world: World,
): ((entry: HistoryEntry) => boolean) | undefined {
  if (!author) return undefined;
  if (author.id != null) {
    const wanted = author.id;
    return (entry) => {
      const user = world.userForEmail(entry.authorEmail);
      return user !== undefined && userNodeId(user.id) === wanted;
    };
  }
  if (author.emails != null) {
    const emails = new Set(author.emails.map((email) => email.toLowerCase()));
    return (entry) => emails.has(entry.authorEmail.toLowerCase());
  }
  return undefined;
}

async function history(
  model: CommitLike,
  args: HistoryArgs,
  context: HistoryContext,
  info: GraphQLResolveInfo,
): Promise<unknown> {
  // A path names a file or folder from the root; GitHub takes `src/` and `src` alike.
  const path = args.path == null ? null : args.path.replace(/^\/+|\/+$/g, "");
  let entries = await historyOf(model.repo.git, model.commit.oid, path === "" ? null : path);
  const since = args.since != null ? timestampSeconds(args.since, "since") : undefined;
  const until = args.until != null ? timestampSeconds(args.until, "until") : undefined;
  const byAuthor = authorFilter(args.author, context.world);
  if (since !== undefined || until !== undefined || byAuthor) {
    entries = entries.filter(
      (entry) =>
        (since === undefined || entry.committerTime >= since) &&
        (until === undefined || entry.committerTime <= until) &&
        (!byAuthor || byAuthor(entry)),
    );
  }
  const page = paginate(entries, args, info);
  // Read the page's commits in one pipelined burst of cat-file commands.
  const commits = await Promise.all(
    page.nodes.map(async (entry): Promise<CommitLike> => {
      const commit = await model.repo.git.commit(entry.oid);
      if (!commit) throw new Error(`commit ${entry.oid} of a history is missing`);
      return { __typename: "Commit", repo: model.repo, commit };
    }),
  );
  return {
    ...page,
    nodes: commits,
    edges: page.edges.map((edge, index) => ({ cursor: edge.cursor, node: commits[index] })),
  };
}

/** Fields of `Commit` that history answers need, by field name. */
export const HISTORY_COMMIT_FIELDS = {
  history,
  additions: async (model: CommitLike) => (await commitStats(model.repo.git, model.commit.oid)).additions,
  deletions: async (model: CommitLike) => (await commitStats(model.repo.git, model.commit.oid)).deletions,
  changedFilesIfAvailable: async (model: CommitLike) =>
    (await commitStats(model.repo.git, model.commit.oid)).changedFiles,
};
