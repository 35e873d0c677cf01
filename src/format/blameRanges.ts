import type { BlameCommit, BlameRange } from "../github/types.js";
import { sanitizeSingleLine } from "./escape.js";
import { withFields } from "../withFields.js";

/**
 * The range algorithms of a blame answer: GitHub's ranges made safe to walk (sorted, sensible),
 * the ranges of a selection, the range of each line, and the commits that own them.
 */

/** Ranges sorted by first line, without ranges that make no sense (GitHub's come sorted already). */
export function normalizeRanges(ranges: readonly BlameRange[]): BlameRange[] {
  const valid = ranges.filter(
    (range) =>
      Number.isFinite(range.startingLine) &&
      Number.isFinite(range.endingLine) &&
      range.startingLine >= 1 &&
      range.endingLine >= range.startingLine,
  );
  for (let index = 1; index < valid.length; index += 1) {
    if (valid[index - 1]!.startingLine > valid[index]!.startingLine) {
      return valid.sort((a, b) => a.startingLine - b.startingLine);
    }
  }
  return valid;
}

/** Index of the first range that ends on or after `line` (binary search over sorted ranges). */
export function firstRangeEndingFrom(ranges: readonly BlameRange[], line: number): number {
  let low = 0;
  let high = ranges.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ranges[middle]!.endingLine < line) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The ranges that own some line of `start..end`, in line order, clipped to it: a range of lines
 * 1-22 is 3-7 for a selection of lines 3-7, since the answer speaks only of the lines it shows.
 */
export function rangesWithin(ranges: readonly BlameRange[], start: number, end: number): BlameRange[] {
  const found: BlameRange[] = [];
  for (let index = firstRangeEndingFrom(ranges, start); index < ranges.length; index += 1) {
    const range = ranges[index]!;
    if (range.startingLine > end) break;
    if (range.endingLine < start) continue;
    found.push(
      withFields(range, {
        startingLine: Math.max(start, range.startingLine),
        endingLine: Math.min(end, range.endingLine),
      }),
    );
  }
  return found;
}

/**
 * Walks the lines of a selection in order and gives each its range in O(1) amortized: the ranges
 * are sorted, so a pointer only moves forward.
 */
export function rangeWalker(
  ranges: readonly BlameRange[],
  start: number,
): (line: number) => BlameRange | undefined {
  let index = firstRangeEndingFrom(ranges, start);
  return (line) => {
    while (index < ranges.length && ranges[index]!.endingLine < line) index += 1;
    const range = ranges[index];
    return range && range.startingLine <= line ? range : undefined;
  };
}

/** Who a commit is by: the GitHub login, else the git author name, else "unknown". */
export function authorOf(commit: BlameCommit): string {
  return (
    sanitizeSingleLine(commit.authorLogin ?? "") || sanitizeSingleLine(commit.authorName ?? "") || "unknown"
  );
}

/** The ranges of one commit, with its newest age among them. */
export interface CommitGroup {
  commit: BlameCommit;
  age: number;
  spans: Array<[number, number]>;
}

/** Ranges grouped by commit, in order of first appearance. */
export function groupByCommit(ranges: readonly BlameRange[]): CommitGroup[] {
  const groups = new Map<string, CommitGroup>();
  for (const range of ranges) {
    const key = range.commit.oid;
    const group = groups.get(key);
    if (group) {
      group.spans.push([range.startingLine, range.endingLine]);
      if (range.age < group.age) group.age = range.age;
    } else {
      groups.set(key, {
        commit: range.commit,
        age: range.age,
        spans: [[range.startingLine, range.endingLine]],
      });
    }
  }
  return [...groups.values()];
}

/** The time of a commit: when it was made, else (an answer cached before that was kept) authored. */
function commitTime(commit: BlameCommit): number {
  const committed = Date.parse(commit.committedDate);
  if (Number.isFinite(committed)) return committed;
  const authored = Date.parse(commit.authoredDate);
  return Number.isFinite(authored) ? authored : Number.NEGATIVE_INFINITY;
}

/**
 * The newest commit owning some range: the last change to the file's content (every change to a
 * file leaves lines of its own, but for one that only deleted lines). Undefined without ranges.
 */
export function newestCommit(ranges: readonly BlameRange[]): BlameCommit | undefined {
  let newest: BlameCommit | undefined;
  let newestTime = Number.NEGATIVE_INFINITY;
  for (const range of ranges) {
    const time = commitTime(range.commit);
    if (newest === undefined || time > newestTime) [newest, newestTime] = [range.commit, time];
  }
  return newest;
}
