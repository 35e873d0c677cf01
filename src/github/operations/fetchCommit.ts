import { RefNotFoundError, UpstreamError } from "../errors.js";
import { commitDataSchema, commitFilesBodySchema } from "../issueSchemas.js";
import type { CommitAnswer, CommitFile, CommitPerson } from "../issueTypes.js";
import { contextOf } from "../transport/failureContext.js";
import { httpFailure, parseJsonBody } from "../transport/httpFailure.js";
import type { RepoRef } from "../types.js";
import { repositoryAtRevision, toRepositoryHeader } from "./answerParts.js";
import { pullReferences, toChecksSummary } from "./issueParts.js";
import type { Credentials, OperationDeps } from "./operationDeps.js";

function person(node: { name: string | null; user: { login: string } | null } | null): CommitPerson | null {
  return node ? { name: node.name, login: node.user?.login ?? null } : null;
}

/**
 * A commit by revision (`ref`, default `HEAD`: the default branch; an annotated tag is followed to
 * its commit): the `Commit` document (headline, message, author and `Co-authored-by` co-authors,
 * `+/-`, checks, pull requests), then its changed files from REST
 * `GET /repos/{owner}/{repo}/commits/{oid}` (GraphQL has no files), asked by the commit id the first
 * answer pinned, so both describe the same commit. The files are GitHub's first page (up to 300).
 */
export async function fetchCommit(
  deps: OperationDeps,
  credentials: Credentials,
  args: { repo: RepoRef; ref?: string },
): Promise<CommitAnswer> {
  const { repo } = args;
  const expression = args.ref ?? "HEAD";
  const answer = await deps.graphql.execute({
    ...credentials,
    operation: "Commit",
    variables: { owner: repo.owner, name: repo.name, expression },
    schema: commitDataSchema,
  });
  const { repository, commit } = repositoryAtRevision(answer, (found) => found.object, {
    field: ["repository", "object"],
    repo,
    expression,
  });
  const files = await fetchCommitFiles(deps, credentials, repo, commit.oid);
  const [author, ...coAuthors] = (commit.authors.nodes ?? []).map(person).filter((p) => p !== null);
  return {
    repository: toRepositoryHeader(repository),
    oid: commit.oid,
    abbreviatedOid: commit.abbreviatedOid,
    url: commit.url,
    headline: commit.messageHeadline,
    body: commit.messageBody,
    authoredDate: commit.authoredDate,
    committedDate: commit.committedDate,
    author: author ?? null,
    coAuthors,
    additions: commit.additions,
    deletions: commit.deletions,
    changedFiles: commit.changedFilesIfAvailable,
    checks: toChecksSummary(commit.statusCheckRollup),
    pullRequests: pullReferences(commit.associatedPullRequests?.nodes),
    pullRequestCount: commit.associatedPullRequests?.totalCount ?? 0,
    isMerge: commit.parents.totalCount > 1,
    files,
  };
}

/** The first page of a commit's files (REST); a 422 is a commit GitHub no longer finds. */
async function fetchCommitFiles(
  deps: OperationDeps,
  credentials: Credentials,
  repo: RepoRef,
  oid: string,
): Promise<CommitFile[]> {
  const url = `${deps.restUrl}/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}/commits/${oid}`;
  const { exchange, ctx } = await deps.rest.get({
    ...credentials,
    operation: "commitFiles",
    url,
    variables: { owner: repo.owner, repo: repo.name, ref: oid },
  });
  if (exchange.status === 422) throw new RefNotFoundError(repo, oid, contextOf(ctx, exchange));
  if (exchange.status !== 200) throw httpFailure(exchange, ctx, { api: "rest", repo });
  const parsed = commitFilesBodySchema.safeParse(parseJsonBody(exchange.bodyText));
  if (!parsed.success) throw new UpstreamError("unreadable", contextOf(ctx, exchange, parsed.error));
  return (parsed.data.files ?? []).map((file) => ({
    path: file.filename,
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    ...(file.previous_filename !== undefined ? { previousPath: file.previous_filename } : {}),
  }));
}
