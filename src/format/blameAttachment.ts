import type { BlameAnswer, BlameRange } from "../github/types.js";
import { sanitizeSingleLine, truncate } from "./escape.js";
import { shortOid } from "./message.js";
import { authorOf, firstRangeEndingFrom, type CommitGroup } from "./blameRanges.js";
import { digitsOf, lineSpan, rawLine } from "./snippet.js";

/** Width of the author column in the attachment, which has room. */
const ATTACHMENT_AUTHOR_WIDTH = 20;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}T/;

/** The day of an ISO date, "YYYY-MM-DD" (GitHub's dates are ISO already: no Date needed). */
function isoDay(iso: string): string {
  if (ISO_DAY.test(iso)) return iso.slice(0, 10);
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : "????-??-??";
}

/** What the attachment shows: the selection `start..end` of a file of `total` lines. */
export interface BlameAttachmentInput {
  answer: BlameAnswer;
  lines: readonly string[];
  /** Sorted (see `normalizeRanges`). */
  ranges: readonly BlameRange[];
  groups: readonly CommitGroup[];
  start: number;
  end: number;
  total: number;
}

/**
 * The full annotated text of a selection, for the attachment. Its gutter is plain ASCII (the age as
 * a number, `|` as the separator): it lines up in any editor, and an ASCII string is several times
 * faster to encode than one with emoji, which matters for a 10,000-line file.
 */
export function blameAttachmentText(input: BlameAttachmentInput): string {
  const { answer, lines, ranges, groups, start, end, total } = input;
  const width = digitsOf(end);
  const out: string[] = [
    `blame ${sanitizeSingleLine(answer.repository.nameWithOwner)} ${sanitizeSingleLine(answer.path)}`,
    `at commit ${answer.commit.oid} ${answer.commit.url}`,
    `lines ${start}-${end} of ${total}`,
    "columns: line, age (1 newest .. 10 oldest, relative to this file's history), commit, author, text",
    "",
  ];
  const missing = ` ? ${"?".repeat(7)} ${" ".repeat(ATTACHMENT_AUTHOR_WIDTH)} | `;
  // What depends only on the commit is worked out once per commit, not once per range or line.
  const commitColumns = new Map<string, string>();
  // Lines are walked range by range: one gutter string per range, no lookup per line.
  let index = firstRangeEndingFrom(ranges, start);
  let line = start;
  while (line <= end) {
    while (index < ranges.length && ranges[index]!.endingLine < line) index += 1;
    const range = ranges[index];
    let gutter = missing;
    let stop = end;
    if (range && range.startingLine <= line) {
      const commit = range.commit;
      let columns = commitColumns.get(commit.oid);
      if (columns === undefined) {
        const author = truncate(authorOf(commit), ATTACHMENT_AUTHOR_WIDTH).padEnd(ATTACHMENT_AUTHOR_WIDTH);
        columns = `${shortOid(commit.oid, commit.abbreviatedOid).padEnd(7)} ${author} | `;
        commitColumns.set(commit.oid, columns);
      }
      const age = Number.isFinite(range.age) ? String(Math.round(range.age)) : "?";
      gutter = `${age.padStart(2)} ${columns}`;
      stop = Math.min(end, range.endingLine);
    } else if (range) {
      stop = Math.min(end, range.startingLine - 1);
    }
    for (; line <= stop; line += 1) {
      const text = lines[line - 1];
      out.push(String(line).padStart(width) + " " + gutter + (text === undefined ? "" : rawLine(text)));
    }
  }
  out.push("", "commits in these lines:");
  for (const group of groups) {
    const commit = group.commit;
    const date = isoDay(commit.authoredDate);
    const spans = group.spans.map(([a, b]) => lineSpan(a, b)).join(", ");
    out.push(
      `${shortOid(commit.oid, commit.abbreviatedOid)}  ${date}  ${authorOf(commit)}  ${sanitizeSingleLine(commit.messageHeadline)}`,
      `    ${spans}  ${commit.url}`,
    );
  }
  return `${out.join("\n")}\n`;
}
