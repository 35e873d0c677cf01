import { z } from "zod";
import { repositoryHeaderFields, throughTags } from "./schemas.js";

/**
 * zod schemas of the IssueOrPullRequest and Commit documents (./issueDocuments.ts) and of REST
 * `GET /repos/{owner}/{repo}/commits/{ref}`. Enum values GitHub may add one day read as a value
 * RepoScout knows (`.catch`), so a new state never fails an answer.
 */

const int = z.number().int();
const count = z.object({ totalCount: int });
const login = z.object({ login: z.string() }).nullable();

const checkCounts = z
  .object({
    state: z.string(),
    contexts: z.object({
      checkRunCount: int,
      checkRunCountsByState: z.array(z.object({ state: z.string(), count: int })).nullable(),
      statusContextCount: int,
      statusContextCountsByState: z.array(z.object({ state: z.string(), count: int })).nullable(),
    }),
  })
  .nullable();
export type CheckCountsData = z.infer<typeof checkCounts>;

const pullState = z.enum(["OPEN", "CLOSED", "MERGED"]).catch("CLOSED");
const issueState = z.enum(["OPEN", "CLOSED"]).catch("CLOSED");
const stateReason = z.enum(["COMPLETED", "NOT_PLANNED", "REOPENED", "DUPLICATE"]).nullable().catch(null);

const labels = z.object({
  totalCount: int,
  nodes: z.array(z.object({ name: z.string(), color: z.string() }).nullable()).nullable(),
});
const assignees = z.object({ totalCount: int, nodes: z.array(login).nullable() });

const itemCommon = {
  number: int,
  title: z.string(),
  url: z.string(),
  author: login,
  createdAt: z.string(),
  updatedAt: z.string(),
  closedAt: z.string().nullable(),
  labels: labels.nullable(),
  assignees,
  comments: count,
  body: z.string(),
};

const pullReference = z.object({
  number: int,
  title: z.string(),
  url: z.string(),
  pullState,
  isDraft: z.boolean(),
});

const issueSchema = z.object({
  __typename: z.literal("Issue"),
  ...itemCommon,
  issueState,
  stateReason,
  closedByPullRequestsReferences: z
    .object({ totalCount: int, nodes: z.array(pullReference.nullable()).nullable() })
    .nullable(),
});

const pullRequestSchema = z.object({
  __typename: z.literal("PullRequest"),
  ...itemCommon,
  pullState,
  isDraft: z.boolean(),
  mergedAt: z.string().nullable(),
  baseRefName: z.string(),
  headRefName: z.string(),
  headRepositoryOwner: login,
  reviewDecision: z.enum(["APPROVED", "CHANGES_REQUESTED", "REVIEW_REQUIRED"]).nullable().catch(null),
  additions: int,
  deletions: int,
  changedFiles: int,
  mergeable: z.enum(["MERGEABLE", "CONFLICTING", "UNKNOWN"]).catch("UNKNOWN"),
  closingIssuesReferences: z
    .object({
      totalCount: int,
      nodes: z
        .array(
          z.object({ number: int, title: z.string(), url: z.string(), issueState, stateReason }).nullable(),
        )
        .nullable(),
    })
    .nullable(),
  commits: z.object({
    nodes: z
      .array(z.object({ commit: z.object({ oid: z.string(), statusCheckRollup: checkCounts }) }).nullable())
      .nullable(),
  }),
});

export const issueOrPullRequestDataSchema = z.object({
  repository: z
    .object({
      ...repositoryHeaderFields,
      issueOrPullRequest: z.discriminatedUnion("__typename", [issueSchema, pullRequestSchema]).nullable(),
    })
    .nullable(),
});
export type IssueOrPullRequestData = z.infer<typeof issueOrPullRequestDataSchema>;

const commitDetailsSchema = z.object({
  __typename: z.literal("Commit"),
  oid: z.string().min(1),
  abbreviatedOid: z.string(),
  url: z.string(),
  messageHeadline: z.string(),
  messageBody: z.string(),
  authoredDate: z.string(),
  committedDate: z.string(),
  authors: z.object({
    totalCount: int,
    nodes: z
      .array(z.object({ name: z.string().nullable(), email: z.string().nullable(), user: login }).nullable())
      .nullable(),
  }),
  additions: int,
  deletions: int,
  changedFilesIfAvailable: int.nullable(),
  parents: count,
  statusCheckRollup: checkCounts,
  associatedPullRequests: z
    .object({ totalCount: int, nodes: z.array(pullReference.nullable()).nullable() })
    .nullable(),
});
export type CommitDetailsData = z.infer<typeof commitDetailsSchema>;

export const commitDataSchema = z.object({
  repository: z
    .object({ ...repositoryHeaderFields, object: throughTags(commitDetailsSchema).nullable() })
    .nullable(),
});

/** REST `GET /repos/{owner}/{repo}/commits/{ref}`: only what `/commit` reads of it. */
export const commitFilesBodySchema = z.object({
  sha: z.string(),
  files: z
    .array(
      z.object({
        filename: z.string(),
        status: z.string(),
        additions: int,
        deletions: int,
        previous_filename: z.string().optional(),
      }),
    )
    .optional(),
});
