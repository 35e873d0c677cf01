import type { RepositoryHeader } from "./types.js";

/**
 * The answers of `/issue` and `/commit`, as the rest of RepoScout sees them: plain JSON data, ready
 * to cache, no raw GitHub payload.
 */

/**
 * An issue's or pull request's state in the words the answer uses: `completed` and `notPlanned`
 * are closed issues, `closed` a pull request closed unmerged (or an issue closed for no reason
 * given), `draft` an open draft pull request.
 */
export type ItemState = "open" | "completed" | "notPlanned" | "closed" | "merged" | "draft";

/** The checks of a commit, counted: check runs and commit statuses together. */
export interface ChecksSummary {
  /** GitHub's combined state: `SUCCESS`, `FAILURE`, `ERROR`, `PENDING` or `EXPECTED`. */
  state: string;
  passing: number;
  failing: number;
  pending: number;
}

/** Another issue or pull request an answer names (the ones a pull request closes...). */
export interface ItemReference {
  number: number;
  title: string;
  url: string;
  state: ItemState;
}

/** What `/issue` answers: an issue or a pull request. */
export interface IssueAnswer {
  kind: "issue" | "pullRequest";
  repository: RepositoryHeader;
  number: number;
  title: string;
  url: string;
  state: ItemState;
  /** Null for a deleted account (`ghost`). */
  author: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  labels: Array<{ name: string; color: string }>;
  /** All labels, when more than those listed. */
  labelCount: number;
  assignees: string[];
  assigneeCount: number;
  comments: number;
  /** Markdown, as written. */
  body: string;
  /** An issue: the pull requests that close it; a pull request: the issues it closes. */
  linked: ItemReference[];
  linkedCount: number;
  pullRequest?: {
    base: string;
    head: string;
    /** The owner of the head's repository when it is a fork's (null: the same repository). */
    headOwner: string | null;
    reviewDecision: "APPROVED" | "CHANGES_REQUESTED" | "REVIEW_REQUIRED" | null;
    additions: number;
    deletions: number;
    changedFiles: number;
    mergeable: "MERGEABLE" | "CONFLICTING" | "UNKNOWN";
    /** Null: no checks reported on its head commit. */
    checks: ChecksSummary | null;
    headOid: string | null;
  };
}

/** A changed file of a commit (REST). */
export interface CommitFile {
  path: string;
  previousPath?: string;
  /** `added`, `removed`, `modified`, `renamed`, `copied`, `changed`, `unchanged`. */
  status: string;
  additions: number;
  deletions: number;
}

/** A person of a commit: the git name, and the GitHub login when the email maps to an account. */
export interface CommitPerson {
  name: string | null;
  login: string | null;
}

/** What `/commit` answers. */
export interface CommitAnswer {
  repository: RepositoryHeader;
  oid: string;
  abbreviatedOid: string;
  url: string;
  headline: string;
  body: string;
  authoredDate: string;
  committedDate: string;
  author: CommitPerson | null;
  /** The `Co-authored-by` people, after the author. */
  coAuthors: CommitPerson[];
  additions: number;
  deletions: number;
  /** Null when GitHub does not count them (a very large commit). */
  changedFiles: number | null;
  checks: ChecksSummary | null;
  pullRequests: ItemReference[];
  pullRequestCount: number;
  isMerge: boolean;
  /** The first page of files GitHub lists (up to 300), in its order. */
  files: CommitFile[];
}
