import { IssueNotFoundError } from "../errors.js";
import { explainNullField } from "../graphqlErrors.js";
import { issueOrPullRequestDataSchema } from "../issueSchemas.js";
import type { IssueAnswer } from "../issueTypes.js";
import type { RepoRef } from "../types.js";
import { missingRepository, toRepositoryHeader } from "./answerParts.js";
import { issueItemState, pullItemState, pullReferences, toChecksSummary } from "./issueParts.js";
import type { Credentials, OperationDeps } from "./operationDeps.js";

/**
 * An issue or a pull request by number (`IssueOrPullRequest` document, ONE request: they share one
 * number sequence), with the repository's visibility. A pull request brings its refs, review
 * decision, `+/-`, mergeability, the issues it closes and its head commit's checks, counted; an
 * issue the pull requests that close it.
 * @throws IssueNotFoundError when the repository has no issue or pull request by that number.
 */
export async function fetchIssueOrPullRequest(
  deps: OperationDeps,
  credentials: Credentials,
  args: { repo: RepoRef; number: number },
): Promise<IssueAnswer> {
  const { repo, number } = args;
  if (!Number.isInteger(number) || number < 1)
    throw new RangeError(`number must be an integer >= 1, got ${number}`);
  const { data, errors, context } = await deps.graphql.execute({
    ...credentials,
    operation: "IssueOrPullRequest",
    variables: { owner: repo.owner, name: repo.name, number },
    schema: issueOrPullRequestDataSchema,
  });
  const repository = data.repository;
  if (!repository) throw missingRepository(errors, repo, context);
  const item = repository.issueOrPullRequest;
  if (!item) {
    throw explainNullField(
      errors,
      ["repository", "issueOrPullRequest"],
      context,
      () => new IssueNotFoundError(repo, number, context),
      repo,
    );
  }
  const common = {
    repository: toRepositoryHeader(repository),
    number: item.number,
    title: item.title,
    url: item.url,
    author: item.author?.login ?? null,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    closedAt: item.closedAt,
    labels: (item.labels?.nodes ?? []).flatMap((label) => (label ? [label] : [])),
    labelCount: item.labels?.totalCount ?? 0,
    assignees: (item.assignees.nodes ?? []).flatMap((user) => (user ? [user.login] : [])),
    assigneeCount: item.assignees.totalCount,
    comments: item.comments.totalCount,
    body: item.body,
  };
  if (item.__typename === "Issue") {
    return {
      kind: "issue",
      ...common,
      state: issueItemState(item.issueState, item.stateReason),
      linked: pullReferences(item.closedByPullRequestsReferences?.nodes),
      linkedCount: item.closedByPullRequestsReferences?.totalCount ?? 0,
    };
  }
  const head = item.commits.nodes?.[0]?.commit ?? null;
  const headOwner = item.headRepositoryOwner?.login ?? null;
  return {
    kind: "pullRequest",
    ...common,
    state: pullItemState(item.pullState, item.isDraft),
    linked: (item.closingIssuesReferences?.nodes ?? []).flatMap((issue) =>
      issue
        ? [
            {
              number: issue.number,
              title: issue.title,
              url: issue.url,
              state: issueItemState(issue.issueState, issue.stateReason),
            },
          ]
        : [],
    ),
    linkedCount: item.closingIssuesReferences?.totalCount ?? 0,
    pullRequest: {
      base: item.baseRefName,
      head: item.headRefName,
      headOwner:
        headOwner !== null && headOwner.toLowerCase() !== repo.owner.toLowerCase() ? headOwner : null,
      reviewDecision: item.reviewDecision,
      additions: item.additions,
      deletions: item.deletions,
      changedFiles: item.changedFiles,
      mergeable: item.mergeable,
      checks: head ? toChecksSummary(head.statusCheckRollup) : null,
      headOid: head?.oid ?? null,
    },
  };
}
