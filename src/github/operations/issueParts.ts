import type { CheckCountsData } from "../issueSchemas.js";
import type { ChecksSummary, ItemReference, ItemState } from "../issueTypes.js";

/** Check run states that pass (GitHub shows neutral and skipped runs as not failing). */
const PASSING_RUNS = new Set(["SUCCESS", "NEUTRAL", "SKIPPED"]);
/** Check run states still under way. */
const PENDING_RUNS = new Set(["QUEUED", "IN_PROGRESS", "WAITING", "PENDING", "REQUESTED"]);

/**
 * The checks of a commit counted as passing, failing and pending, check runs and commit statuses
 * together; null when GitHub reports none (a null rollup).
 */
export function toChecksSummary(rollup: CheckCountsData): ChecksSummary | null {
  if (rollup === null) return null;
  const summary: ChecksSummary = { state: rollup.state, passing: 0, failing: 0, pending: 0 };
  for (const { state, count } of rollup.contexts.checkRunCountsByState ?? []) {
    if (PASSING_RUNS.has(state)) summary.passing += count;
    else if (PENDING_RUNS.has(state)) summary.pending += count;
    else summary.failing += count;
  }
  for (const { state, count } of rollup.contexts.statusContextCountsByState ?? []) {
    if (state === "SUCCESS") summary.passing += count;
    else if (state === "PENDING" || state === "EXPECTED") summary.pending += count;
    else summary.failing += count;
  }
  return summary;
}

/** An issue's state in the answer's words: open, or closed as completed or as not planned. */
export function issueItemState(state: "OPEN" | "CLOSED", reason: string | null): ItemState {
  if (state === "OPEN") return "open";
  if (reason === "NOT_PLANNED") return "notPlanned";
  // A duplicate is closed as "not planned" on GitHub's own pages.
  if (reason === "DUPLICATE") return "notPlanned";
  return reason === "COMPLETED" ? "completed" : "closed";
}

/** A pull request's state in the answer's words: merged, closed (unmerged), draft or open. */
export function pullItemState(state: "OPEN" | "CLOSED" | "MERGED", isDraft: boolean): ItemState {
  if (state === "MERGED") return "merged";
  if (state === "CLOSED") return "closed";
  return isDraft ? "draft" : "open";
}

/** The pull requests of a connection, as references (null nodes are left out). */
export function pullReferences(
  nodes:
    | ReadonlyArray<{
        number: number;
        title: string;
        url: string;
        pullState: "OPEN" | "CLOSED" | "MERGED";
        isDraft: boolean;
      } | null>
    | null
    | undefined,
): ItemReference[] {
  return (nodes ?? []).flatMap((node) =>
    node
      ? [
          {
            number: node.number,
            title: node.title,
            url: node.url,
            state: pullItemState(node.pullState, node.isDraft),
          },
        ]
      : [],
  );
}
