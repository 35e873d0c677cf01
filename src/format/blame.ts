import type { APIEmbed } from "discord-api-types/v10";
import type { BlameAnswer, BlameRange } from "../github/types.js";
import { blameAttachmentText } from "./blameAttachment.js";
import { formatBinaryBlame } from "./blameBinary.js";
import { blameFields, groupField } from "./blameFields.js";
import { authorOf, groupByCommit, normalizeRanges, rangesWithin, rangeWalker } from "./blameRanges.js";
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
import { selectLines } from "./lineSelection.js";
import {
  COLORS,
  emptyMessage,
  footerText,
  formatBytes,
  formatCount,
  embedRoom,
  embedUrl,
  fileLinesRow,
  objectUrl,
  shortOid,
  type FormattedMessage,
  type PagedAnswerMeta,
} from "./message.js";
import {
  baseName,
  digitsOf,
  displayFileLine,
  languageFor,
  MAX_LINES_IN_MESSAGE,
  partialLineNote,
  partialLineOf,
  safeFileName,
  fileLines,
  utf8Bytes,
} from "./snippet.js";

/** Which lines to show, as asked: already validated by the command; fitted here to the file. */
export interface BlameView {
  startLine: number;
  endLine: number;
  /** The user asked for these lines (rather than the default first lines). */
  requestedLines: boolean;
  /** The path the URL in `repo` named, when the `path` option named another (which was blamed). */
  pathInUrl?: string;
}

/** Characters of a path quoted in the note on which path was blamed. */
const NOTED_PATH_WIDTH = 200;

/** The one line saying that the `path` option was blamed rather than the path of the URL. */
function pathChoiceNote(used: string, inUrl: string): string {
  // Escaped text, not inline code: a path may hold backticks and mentions, which escaping defuses.
  const quote = (path: string) => escapeLabel(path, NOTED_PATH_WIDTH);
  return `Blaming ${quote(used)} from the \`path\` option, not ${quote(inUrl)} from the URL in \`repo\`.`;
}

export type BlameMeta = PagedAnswerMeta;

/** Width of the author column in the embed's gutter. */
const AUTHOR_WIDTH = 10;
/** Room the fields may claim before the code is cut for them. */
const FIELDS_RESERVE = 1500;
const GIT_BLOB_TEXT_LIMIT = "512,000 bytes";

/** A column of exactly `width` characters: cut with "…" or padded with spaces. */
function column(text: string, width: number): string {
  return truncate(text, width).padEnd(width);
}

/**
 * The lines a blame answer has to show: those of its text or, when GitHub cut the text, as far as
 * the ranges go (they cover the whole file). A binary file has none, whatever its ranges say.
 */
export function blameLineCount(answer: BlameAnswer): number {
  const file = answer.file;
  if (file.kind !== "text") return 0;
  const textLines = fileLines(file).length;
  if (!file.isTruncated) return textLines;
  return answer.ranges.reduce(
    (max, range) => (Number.isFinite(range.endingLine) ? Math.max(max, range.endingLine) : max),
    textLines,
  );
}

/**
 * The answer of `/blame`: the selected lines of a file in a code block, each with its line number,
 * heat mark, short commit id and author; a field per commit owning lines of the selection (span,
 * heat, id, linked headline, author, relative date); a heat legend; the footer with freshness and
 * the pinned commit; Previous / Next / Open on GitHub buttons. What does not fit (more than 50
 * lines, or Discord's limits) is counted visibly and attached whole as
 * `blame-<file>-L<a>-<b>.txt`. Empty and cut (512,000 bytes) files are explained; a binary file
 * shows its last change instead (see `formatBinaryBlame`); a selection past the end is clamped or
 * moved, and said so (see `selectLines`).
 */
export function formatBlame(answer: BlameAnswer, view: BlameView, meta: BlameMeta): FormattedMessage {
  const title = escapeLabel(`blame ${answer.repository.nameWithOwner} ${answer.path}`, LIMITS.title);
  const footer = footerText(meta.freshness, meta.now, answer.commit.oid, meta.ref);
  const file = answer.file;
  const pathNote = view.pathInUrl !== undefined ? pathChoiceNote(answer.path, view.pathInUrl) : undefined;
  if (file.kind === "binary") {
    return formatBinaryBlame(answer, file.byteSize, {
      title,
      footer,
      ...(pathNote ? { note: pathNote } : {}),
    });
  }

  const ranges = normalizeRanges(answer.ranges);
  const lines = fileLines(file);
  const total = blameLineCount(answer);
  const selection = selectLines(
    { start: view.startLine, end: view.endLine, requested: view.requestedLines },
    total,
  );
  const { start } = selection;
  const end = Math.max(start, selection.end);
  const partial = partialLineOf(file);

  const fileUrl = objectUrl(answer.repository.url, "blob", answer.commit.oid, answer.path);
  const hasLines = total > 0;
  const url = hasLines ? `${fileUrl}#${start === end ? `L${start}` : `L${start}-L${end}`}` : fileUrl;

  const notes: string[] = pathNote ? [pathNote] : [];
  if (total === 0) {
    notes.push("This file is empty: there are no lines to blame.");
  } else {
    notes.push(...selection.sentences);
    if (file.isTruncated) {
      notes.push(
        `GitHub cut this file's text at ${GIT_BLOB_TEXT_LIMIT} (the file is ${formatBytes(file.byteSize)}); ` +
          `lines after ${formatCount(lines.length)} have no text here.`,
      );
    }
    if (partial !== null && partial >= start && partial <= end) notes.push(partialLineNote(partial));
  }

  // The commits of the selection (clipped to it): the attachment lists them all.
  const groups = groupByCommit(hasLines ? rangesWithin(ranges, start, end) : []);
  let fieldGroups = groups;
  const fixed = title.length + footer.length;
  const fieldsNeed = groups.slice(0, LIMITS.fields).reduce((sum, group) => {
    const field = groupField(group);
    return sum + field.name.length + field.value.length;
  }, 0);
  const room = embedRoom(meta);
  const descriptionBudget = Math.min(
    LIMITS.description,
    room - fixed - Math.min(fieldsNeed, FIELDS_RESERVE, Math.floor(room / 4)),
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
      const display =
        source === undefined ? { text: "", cut: false } : displayFileLine(source, line === partial);
      const text = `${String(line).padStart(width)} ${gutter} │ ${display.text}`;
      const cost = text.length + (shown.length > 0 ? 1 : 0);
      if (used + cost > descriptionBudget) break;
      shown.push(text);
      used += cost;
      anyCut ||= display.cut;
    }
    const omitted = count - shown.length;
    // The fields speak of the lines in the message; the attachment holds the rest.
    if (omitted > 0 && shown.length > 0) {
      fieldGroups = groupByCommit(rangesWithin(ranges, start, start + shown.length - 1));
    }
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
        data: utf8Bytes(blameAttachmentText({ answer, lines, ranges, groups, start, end, total })),
        description: truncate(`blame of ${sanitizeSingleLine(answer.path)}, lines ${start}-${end}`, 200),
      });
    }
  }

  const fieldsBudget = room - fixed - description.length;
  const fields = blameFields(fieldGroups, fieldsBudget, files.length > 0);
  const embed: APIEmbed = { title, color: COLORS.blame, description, footer: { text: footer } };
  const link = embedUrl(url);
  if (link) embed.url = link;
  if (fields.length > 0) embed.fields = fields;

  const message = emptyMessage();
  message.embeds.push(embed);
  message.files.push(...files);
  message.components.push(fileLinesRow(meta.buttons, url));
  return fitMessage(message);
}
