/**
 * The figures of an `/owners` answer, computed from what was read (ownershipAnswers.ts): shares,
 * bus factor, commits of the last 90 days and of each month of the year, and the CODEOWNERS rule
 * of the file or the rules of the folder's files. Pure.
 */
import type { OwnersAnswer } from "../answers/ownershipAnswers.js";
import { BLAME_BATCH } from "../github/ownershipDocuments.js";
import type { PinnedCommit } from "../github/types.js";
import { CODEOWNERS_MAX_BYTES, ownerRule, parseCodeowners, type CodeownersRule } from "./codeowners.js";
import {
  authorShares,
  busFactor,
  commitsByAuthor,
  monthlyCommits,
  type AuthorCommits,
  type AuthorShare,
} from "./ownership.js";
import type { FileSelection } from "./selectFiles.js";

/** The window of "recent" commits the text names. */
export const RECENT_DAYS = 90;

/** What CODEOWNERS says of the path. */
export type CodeownersFinding =
  | { state: "none" }
  /** The file is there but GitHub ignores it (over 3 MB) or gives no text. */
  | { state: "unreadable"; path: string }
  | {
      state: "read";
      path: string;
      /** Per rule that owns some of the counted files (null: no rule), most files first. */
      rules: Array<{ rule: CodeownersRule | null; files: number }>;
      /** Lines GitHub skips (cannot parse). */
      skipped: number;
    };

/** Everything the `/owners` formatter and chart show. */
export interface OwnersReport {
  repo: string;
  repoUrl: string;
  path: string;
  kind: "file" | "folder";
  commit: PinnedCommit;
  shares: AuthorShare[];
  totalLines: number;
  busFactor: number;
  recent: AuthorCommits[];
  /** The year's commits were more than one page (100): the counts are of the newest 100. */
  recentCapped: boolean;
  /** Commits per author key and month, index 11 being this month. */
  monthly: Record<string, number[]>;
  codeowners: CodeownersFinding;
  selection: FileSelection;
  /** Files GitHub could not blame. */
  failed: string[];
  /** GitHub points the whole answer costs when nothing is cached: 1 + one per blame request. */
  cost: number;
}

function codeownersFinding(answer: OwnersAnswer, files: readonly string[]): CodeownersFinding {
  const file = answer.tree.codeowners;
  if (!file) return { state: "none" };
  if (file.text === null || file.byteSize > CODEOWNERS_MAX_BYTES)
    return { state: "unreadable", path: file.path };
  const parsed = parseCodeowners(file.text);
  const counts = new Map<CodeownersRule | null, number>();
  for (const path of files) {
    const rule = ownerRule(parsed, path) ?? null;
    counts.set(rule, (counts.get(rule) ?? 0) + 1);
  }
  const rules = [...counts.entries()]
    .map(([rule, count]) => ({ rule, files: count }))
    .sort((a, b) => b.files - a.files || (a.rule?.line ?? 0) - (b.rule?.line ?? 0));
  return { state: "read", path: file.path, rules, skipped: parsed.skipped.length };
}

/** The start of the window of "commits in the last 90 days" as of `now`. */
function recentSinceOf(now: Date): Date {
  return new Date(now.getTime() - RECENT_DAYS * 86_400_000);
}

/**
 * How many of the commits the report counts as recent as of `now` (as `commitsByAuthor` counts
 * them): the window only moves forward, so this number tells which commits are in it. A rendered
 * report is reused while it, the month and the footer stay the same.
 */
export function recentWindowCount(commits: ReadonlyArray<{ authoredDate: string }>, now: Date): number {
  const since = recentSinceOf(now).getTime();
  return commits.reduce((count, commit) => (Date.parse(commit.authoredDate) < since ? count : count + 1), 0);
}

/** Computes the report of an `/owners` answer as of `now`. */
export function ownersReport(answer: OwnersAnswer, now: Date): OwnersReport {
  const { tree, selection, blamed } = answer;
  const lines = blamed.flatMap((file) => file.lines ?? []);
  const shares = authorShares(lines);
  const recentSince = recentSinceOf(now);
  // CODEOWNERS is asked of every file of the answer's path, read or not: ownership does not need blame.
  const paths = tree.target.kind === "file" ? [tree.path] : tree.target.files.map((file) => file.path);
  return {
    repo: tree.repository.nameWithOwner,
    repoUrl: tree.repository.url,
    path: tree.path,
    kind: tree.target.kind,
    commit: tree.commit,
    shares,
    totalLines: shares.reduce((sum, row) => sum + row.lines, 0),
    busFactor: busFactor(shares),
    recent: commitsByAuthor(tree.recent, recentSince),
    recentCapped: tree.recentTotal > tree.recent.length,
    monthly: Object.fromEntries(monthlyCommits(tree.recent, now)),
    codeowners: codeownersFinding(answer, paths),
    selection,
    failed: blamed.filter((file) => file.lines === null).map((file) => file.path),
    cost: 1 + Math.ceil(selection.read.length / BLAME_BATCH),
  };
}
