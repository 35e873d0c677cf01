import { historyDataSchema } from "../ownershipSchemas.js";
import type { GitAuthor, HistoryPage } from "../ownershipTypes.js";
import type { RepoRef } from "../types.js";
import { normalizePath, repositoryAtRevision, toPinnedCommit, toRepositoryHeader } from "./answerParts.js";
import type { Credentials, OperationDeps } from "./operationDeps.js";

/** GitHub's author of a commit, reduced to what RepoScout shows and groups by. */
export function toGitAuthor(
  author: { name: string | null; email: string | null; user: { login: string } | null } | null,
): GitAuthor {
  return { name: author?.name ?? null, email: author?.email ?? null, login: author?.user?.login ?? null };
}

/**
 * One page of the commits that touched `path` ("" for the whole repository), newest first
 * (`History` document, ONE request), read from the commit `ref` names (or `HEAD`, the default
 * branch; or the commit id a first page was pinned to). A path that never existed has no commits:
 * GitHub answers an empty history, not an error.
 */
export async function fetchHistory(
  deps: OperationDeps,
  credentials: Credentials,
  args: { repo: RepoRef; ref?: string; path: string; first: number; after?: string },
): Promise<HistoryPage> {
  const { repo, ref } = args;
  const path = normalizePath(args.path);
  const expression = ref ?? "HEAD";
  const answer = await deps.graphql.execute({
    ...credentials,
    operation: "History",
    variables: {
      owner: repo.owner,
      name: repo.name,
      expression,
      path: path === "" ? null : path,
      first: args.first,
      after: args.after ?? null,
    },
    schema: historyDataSchema,
  });
  const { repository, commit } = repositoryAtRevision(answer, (found) => found.object, {
    field: ["repository", "object"],
    repo,
    expression,
  });
  return {
    repository: toRepositoryHeader(repository),
    commit: toPinnedCommit(commit),
    path,
    totalCount: commit.history.totalCount,
    commits: commit.history.nodes.map((node) => ({
      oid: node.oid,
      abbreviatedOid: node.abbreviatedOid,
      messageHeadline: node.messageHeadline,
      url: node.url,
      committedDate: node.committedDate,
      authoredDate: node.authoredDate,
      additions: node.additions,
      deletions: node.deletions,
      author: toGitAuthor(node.author),
    })),
    hasNextPage: commit.history.pageInfo.hasNextPage,
    endCursor: commit.history.pageInfo.endCursor,
  };
}
