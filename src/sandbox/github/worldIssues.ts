/**
 * Issues, pull requests and checks of a repository of the world, as plain data (GITHUB-FACTS.md
 * "Issues, pull requests and commits"). What git knows (a pull request's commits, its diff, a
 * commit's files) is read from the repository; the rest (titles, states, reviews, checks) is
 * declared here, as GitHub keeps it beside the git data.
 */

/** A label: its name and colour (6 hex digits, no `#`, as GitHub gives it). */
export interface WorldLabel {
  name: string;
  color: string;
  description?: string | null;
}

/** A review of a pull request; the latest review of each reviewer counts for the decision. */
export interface WorldReview {
  author: string;
  state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED";
  submittedAt: string;
}

/** What a pull request adds to an issue. */
export interface WorldPullRequest {
  baseRefName: string;
  headRefName: string;
  /**
   * Where its diff starts (a revision expression): GitHub keeps a merged pull request's diff as it
   * was; default the merge base of the base branch and the head.
   */
  diffBase?: string;
  isDraft?: boolean;
  /** ISO time of the merge: the pull request is `MERGED`. */
  mergedAt?: string | null;
  reviews?: WorldReview[];
  /** The base branch's protection requires a review (else `reviewDecision` is null). */
  reviewRequired?: boolean;
  /** What GitHub computed; `UNKNOWN` while it is still computing. Default `MERGEABLE`. */
  mergeable?: "MERGEABLE" | "CONFLICTING" | "UNKNOWN";
  /** Issue numbers of the same repository it closes when merged (`Fixes #1`). */
  closes?: number[];
}

/** An issue, or a pull request when `pullRequest` is set: one number sequence per repository. */
export interface WorldIssue {
  number: number;
  title: string;
  /** Markdown. */
  body?: string;
  /** Login of the author; null for a deleted account (`ghost` on the web). */
  author: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt?: string | null;
  state: "OPEN" | "CLOSED";
  /** An issue's reason; `REOPENED` for one opened again. */
  stateReason?: "COMPLETED" | "NOT_PLANNED" | "REOPENED" | null;
  labels?: WorldLabel[];
  assignees?: string[];
  /** How many comments it has (their text is not served). */
  comments?: number;
  pullRequest?: WorldPullRequest;
}

/** A check run of a check suite (GitHub Actions and other apps). */
export interface WorldCheckRun {
  name: string;
  /** The app whose check suite it belongs to (one suite per app and commit); default "GitHub Actions". */
  app?: string;
  status: "QUEUED" | "IN_PROGRESS" | "COMPLETED" | "WAITING" | "PENDING" | "REQUESTED";
  /** Set once `COMPLETED`. */
  conclusion?:
    | "SUCCESS"
    | "FAILURE"
    | "NEUTRAL"
    | "CANCELLED"
    | "TIMED_OUT"
    | "ACTION_REQUIRED"
    | "SKIPPED"
    | "STALE"
    | "STARTUP_FAILURE"
    | null;
}

/** A commit status (the older statuses API): one context and its state. */
export interface WorldStatusContext {
  context: string;
  state: "SUCCESS" | "FAILURE" | "ERROR" | "PENDING" | "EXPECTED";
}

/** The checks and statuses reported on one commit, named by a revision expression. */
export interface WorldCommitChecks {
  commit: string;
  runs?: WorldCheckRun[];
  statuses?: WorldStatusContext[];
}
