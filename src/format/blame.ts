import type { APIEmbed, APIEmbedField } from "discord-api-types/v10";
import type { BlameAnswer, BlameCommit, BlameRange } from "../github/types.js";
import {
  breakCodeFences,
  ELLIPSIS,
  escapeLabel,
  sanitizeLanguage,
  sanitizeSingleLine,
  truncate,
} from "./escape.js";
import { HEAT_LEGEND, heatMark, UNKNOWN_HEAT } from "./heat.js";
import { fitMessage, LIMITS } from "./limits.js";
import {
  COLORS,
  discordTimestamp,
  emptyMessage,
  footerText,
  formatBytes,
  formatCount,
  embedUrl,
  maskedLink,
  navigationRow,
  objectUrl,
  shortOid,
  type FormattedMessage,
  type PagedAnswerMeta,
} from "./message.js";
import {
  baseName,
  digitsOf,
  displayLine,
  languageFor,
  lineSpan,
  MAX_LINES_IN_MESSAGE,
  rawLine,
  safeFileName,
  splitFileLines,
  utf8Bytes,
} from "./snippet.js";

/** Which lines to show: already validated by the command; clamped here to the file. */
export interface BlameView {
  startLine: number;
  endLine: number;
  /** The user asked for these lines (rather than the default first lines). */
  requestedLines: boolean;
}

export type BlameMeta = PagedAnswerMeta;

/** Width of the author column in the embed's gutter. */
const AUTHOR_WIDTH = 10;
/** Width of the author column in the attachment, which has room. */
const ATTACHMENT_AUTHOR_WIDTH = 20;
/** Characters of a commit headline shown in a field. */
const HEADLINE_WIDTH = 120;
/** Room the fields may claim before the code is cut for them. */
const FIELDS_RESERVE = 1500;
/** Spans listed in one field name before "+N more". */
const SPANS_PER_FIELD = 4;
const GIT_BLOB_TEXT_LIMIT = "512,000 bytes";

/** Ranges sorted by first line, without ranges that make no sense (GitHub's come sorted already). */
function normalizeRanges(ranges: readonly BlameRange[]): BlameRange[] {
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
function firstRangeEndingFrom(ranges: readonly BlameRange[], line: number): number {
  let low = 0;
  let high = ranges.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ranges[middle]!.endingLine < line) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The ranges that own some line of `start..end`, in line order. */
function rangesOverlapping(ranges: readonly BlameRange[], start: number, end: number): BlameRange[] {
  const found: BlameRange[] = [];
  for (let index = firstRangeEndingFrom(ranges, start); index < ranges.length; index += 1) {
    const range = ranges[index]!;
    if (range.startingLine > end) break;
    if (range.endingLine >= start) found.push(range);
  }
  return found;
}

/**
 * Walks the lines of a selection in order and gives each its range in O(1) amortized: the ranges
 * are sorted, so a pointer only moves forward.
 */
function rangeWalker(ranges: readonly BlameRange[], start: number): (line: number) => BlameRange | undefined {
  let index = firstRangeEndingFrom(ranges, start);
  return (line) => {
    while (index < ranges.length && ranges[index]!.endingLine < line) index += 1;
    const range = ranges[index];
    return range && range.startingLine <= line ? range : undefined;
  };
}

function authorOf(commit: BlameCommit): string {
  return (
    sanitizeSingleLine(commit.authorLogin ?? "") || sanitizeSingleLine(commit.authorName ?? "") || "unknown"
  );
}

/** A column of exactly `width` characters: cut with "…" or padded with spaces. */
function column(text: string, width: number): string {
  return truncate(text, width).padEnd(width);
}

interface CommitGroup {
  commit: BlameCommit;
  age: number;
  spans: Array<[number, number]>;
}

/** Ranges grouped by commit, in order of first appearance. */
function groupByCommit(ranges: readonly BlameRange[]): CommitGroup[] {
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

function groupField(group: CommitGroup): APIEmbedField {
  const spans = group.spans.slice(0, SPANS_PER_FIELD).map(([a, b]) => lineSpan(a, b));
  if (group.spans.length > SPANS_PER_FIELD) spans.push(`+${group.spans.length - SPANS_PER_FIELD} more`);
  const commit = group.commit;
  const suffix = ` ${heatMark(group.age)} ${shortOid(commit.oid, commit.abbreviatedOid)}`;
  const name = truncate(spans.join(", "), LIMITS.fieldName - suffix.length) + suffix;
  const headline = escapeLabel(commit.messageHeadline || "(no commit message)", HEADLINE_WIDTH);
  const when = discordTimestamp(commit.authoredDate) ?? "date unknown";
  const author = escapeLabel(authorOf(commit), 60);
  return { name, value: `${maskedLink(headline, commit.url)}\nby ${author} · ${when}` };
}

function rangesWord(count: number): string {
  return count === 1 ? "range" : "ranges";
}

/**
 * Fields for the commit groups within `budget` characters and 25 fields; when some do not fit, a
 * last field says how many ranges are left out and where to find them.
 */
function buildFields(
  groups: readonly CommitGroup[],
  budget: number,
  hasAttachment: boolean,
): APIEmbedField[] {
  const fields: APIEmbedField[] = [];
  const moreValue = hasAttachment
    ? "Every line of the selection, with its commit, is in the attachment."
    : "Each line above shows its commit id and author.";
  const moreReserve = `${ELLIPSIS} and ${formatCount(1e9)} more ranges`.length + moreValue.length;
  let used = 0;
  let shown = 0;
  for (const group of groups) {
    const field = groupField(group);
    const cost = field.name.length + field.value.length;
    const isLast = shown === groups.length - 1;
    const room = isLast ? budget : budget - moreReserve;
    const slots = isLast ? LIMITS.fields : LIMITS.fields - 1;
    if (fields.length >= slots || used + cost > room) break;
    fields.push(field);
    used += cost;
    shown += 1;
  }
  if (shown < groups.length) {
    const hidden = groups.slice(shown).reduce((sum, group) => sum + group.spans.length, 0);
    const name = `${ELLIPSIS} and ${formatCount(hidden)} more ${rangesWord(hidden)}`;
    if (used + name.length + moreValue.length <= budget) fields.push({ name, value: moreValue });
  }
  return fields;
}

/**
 * The full annotated text of a selection, for the attachment. Its gutter is plain ASCII (the age as
 * a number, `|` as the separator): it lines up in any editor, and an ASCII string is several times
 * faster to encode than one with emoji, which matters for a 10,000-line file.
 */
const ISO_DAY = /^\d{4}-\d{2}-\d{2}T/;

/** The day of an ISO date, "YYYY-MM-DD" (GitHub's dates are ISO already: no Date needed). */
function isoDay(iso: string): string {
  if (ISO_DAY.test(iso)) return iso.slice(0, 10);
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : "????-??-??";
}

function buildAttachmentText(
  answer: BlameAnswer,
  lines: readonly string[],
  ranges: readonly BlameRange[],
  groups: readonly CommitGroup[],
  start: number,
  end: number,
  total: number,
): string {
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
        columns = `${shortOid(commit.oid, commit.abbreviatedOid).padEnd(7)} ${column(authorOf(commit), ATTACHMENT_AUTHOR_WIDTH)} | `;
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

/** A whole number, or the fallback for anything else. */
function wholeNumber(value: number, fallback: number): number {
  return Number.isFinite(value) ? Math.floor(value) : fallback;
}

/**
 * The answer of `/blame`: the selected lines of a file in a code block, each with its line number,
 * heat mark, short commit id and author; a field per commit owning lines of the selection (span,
 * heat, id, linked headline, author, relative date); a heat legend; the footer with freshness and
 * the pinned commit; Previous / Next / Open on GitHub buttons. What does not fit (more than 50
 * lines, or Discord's limits) is counted visibly and attached whole as
 * `blame-<file>-L<a>-<b>.txt`. Binary, empty and cut (512,000 bytes) files are explained; a
 * selection past the end is clamped and the file's line count is said.
 */
export function formatBlame(answer: BlameAnswer, view: BlameView, meta: BlameMeta): FormattedMessage {
  const ranges = normalizeRanges(answer.ranges);
  const file = answer.file;
  const lines = file.kind === "text" ? splitFileLines(file.text) : [];
  const lastRangeEnd = ranges.reduce((max, range) => Math.max(max, range.endingLine), 0);
  const total = file.kind === "text" ? Math.max(lines.length, file.isTruncated ? lastRangeEnd : 0) : 0;

  let start = wholeNumber(view.startLine, 1);
  let end = wholeNumber(view.endLine, start);
  if (end < start) [start, end] = [end, start];
  const pastTheEnd = total > 0 && end > total;
  // A window wholly past the end moves back to the file's last lines, keeping its size.
  if (total > 0 && start > total) [start, end] = [Math.max(1, total - (end - start)), total];
  start = Math.min(Math.max(1, start), Math.max(1, total));
  end = Math.min(Math.max(start, end), Math.max(1, total));

  const title = escapeLabel(`blame ${answer.repository.nameWithOwner} ${answer.path}`, LIMITS.title);
  const fileUrl = objectUrl(answer.repository.url, "blob", answer.commit.oid, answer.path);
  const hasLines = file.kind === "text" && total > 0;
  const url = hasLines ? `${fileUrl}#${start === end ? `L${start}` : `L${start}-L${end}`}` : fileUrl;
  const footer = footerText(meta.freshness, meta.now, answer.commit.oid, meta.ref);

  const notes: string[] = [];
  if (file.kind === "binary") {
    notes.push(`This is a binary file (${formatBytes(file.byteSize)}): it has no lines to show.`);
  } else if (total === 0) {
    notes.push("This file is empty: there are no lines to blame.");
  } else {
    notes.push(`Lines ${formatCount(start)}–${formatCount(end)} of ${formatCount(total)}.`);
    if (pastTheEnd && view.requestedLines) {
      notes.push(
        `The file has ${formatCount(total)} ${total === 1 ? "line" : "lines"}, so the selection stops there.`,
      );
    }
    if (file.isTruncated) {
      notes.push(
        `GitHub cut this file's text at ${GIT_BLOB_TEXT_LIMIT} (the file is ${formatBytes(file.byteSize)}); ` +
          `lines after ${formatCount(lines.length)} have no text here.`,
      );
    }
  }

  const selected = hasLines ? rangesOverlapping(ranges, start, end) : ranges;
  const groups = groupByCommit(selected);
  const fixed = title.length + footer.length;
  const fieldsNeed = groups.slice(0, LIMITS.fields).reduce((sum, group) => {
    const field = groupField(group);
    return sum + field.name.length + field.value.length;
  }, 0);
  const descriptionBudget = Math.min(
    LIMITS.description,
    LIMITS.embedTotal - fixed - Math.min(fieldsNeed, FIELDS_RESERVE),
  );

  let description = notes.join("\n");
  const files: FormattedMessage["files"] = [];
  if (hasLines) {
    const count = end - start + 1;
    const width = digitsOf(end);
    const rangeAt = rangeWalker(ranges, start);
    const gutters = new Map<BlameRange, string>();
    const missing = `${UNKNOWN_HEAT} ${"?".repeat(7)} ${" ".repeat(AUTHOR_WIDTH)}`;
    const head = `${description}\n\`\`\`${sanitizeLanguage(languageFor(answer.path))}\n`;
    const moreNote = (omitted: number) => `${ELLIPSIS} ${formatCount(omitted)} more lines in the attachment.`;
    const cutNote = "Long lines are cut here; the attachment has them whole.";
    // The tail's worst case is reserved up front so the loop can stop at the first line that does not fit.
    const worstTail = `\n\`\`\`\n${moreNote(count)}\n${cutNote}\n${HEAT_LEGEND}`;
    let used = head.length + worstTail.length;
    const shown: string[] = [];
    let anyCut = false;
    for (let line = start; line <= end && shown.length < MAX_LINES_IN_MESSAGE; line += 1) {
      const range = rangeAt(line);
      let gutter = missing;
      if (range) {
        gutter = gutters.get(range) ?? "";
        if (gutter === "") {
          const commit = range.commit;
          gutter = `${heatMark(range.age)} ${shortOid(commit.oid, commit.abbreviatedOid).padEnd(7)} ${breakCodeFences(column(authorOf(commit), AUTHOR_WIDTH))}`;
          gutters.set(range, gutter);
        }
      }
      const source = lines[line - 1];
      const display = source === undefined ? { text: "", cut: false } : displayLine(source);
      const text = `${String(line).padStart(width)} ${gutter} │ ${display.text}`;
      const cost = text.length + (shown.length > 0 ? 1 : 0);
      if (used + cost > descriptionBudget) break;
      shown.push(text);
      used += cost;
      anyCut ||= display.cut;
    }
    const omitted = count - shown.length;
    const parts: string[] = [];
    if (shown.length > 0) parts.push(`${head}${shown.join("\n")}\n\`\`\``);
    else parts.push(description);
    if (omitted > 0) parts.push(moreNote(omitted));
    else if (anyCut) parts.push(cutNote);
    parts.push(HEAT_LEGEND);
    description = parts.join("\n");
    if (omitted > 0 || anyCut) {
      files.push({
        name: `blame-${safeFileName(baseName(answer.path))}-L${start}-${end}.txt`,
        data: utf8Bytes(buildAttachmentText(answer, lines, ranges, groups, start, end, total)),
        description: truncate(`blame of ${sanitizeSingleLine(answer.path)}, lines ${start}-${end}`, 200),
      });
    }
  } else if (groups.length > 0) {
    description += `\n${HEAT_LEGEND}`;
  }

  const fieldsBudget = LIMITS.embedTotal - fixed - description.length;
  const fields = buildFields(groups, fieldsBudget, files.length > 0);
  const embed: APIEmbed = { title, color: COLORS.blame, description, footer: { text: footer } };
  const link = embedUrl(url);
  if (link) embed.url = link;
  if (fields.length > 0) embed.fields = fields;

  const message = emptyMessage();
  message.embeds.push(embed);
  message.files.push(...files);
  message.components.push(
    navigationRow({
      previous: meta.buttons?.previous,
      next: meta.buttons?.next,
      previousLabel: "◀ Previous lines",
      nextLabel: "Next lines ▶",
      link: { label: "Open on GitHub", url },
    }),
  );
  return fitMessage(message);
}
