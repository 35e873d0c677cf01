import type { APIEmbed } from "discord-api-types/v10";
import type { ContentsAnswer, FileBody } from "../github/types.js";
import { ELLIPSIS, escapeLabel, sanitizeLanguage, sanitizeSingleLine, truncate } from "./escape.js";
import { formatFolderListing } from "./folderListing.js";
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
  linkButton,
  objectUrl,
  rowOf,
  fileLinesRow,
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
  rawLine,
  safeFileName,
  fileLines,
  utf8Bytes,
} from "./snippet.js";
import { symlinkBody } from "./symlink.js";

/** Which lines of a file to show; both absent: the first lines. */
export interface ContentsView {
  startLine?: number;
  endLine?: number;
}

/** Freshness, the ref asked at, and the Previous / Next buttons of a file's lines. */
export type ContentsMeta = PagedAnswerMeta;

/** The lines of a file a view shows, clamped to the file, and the sentences that say which. */
export interface ContentsWindow {
  start: number;
  end: number;
  /** Lines of the file (of the text GitHub gave, for a file it cut). */
  total: number;
  /** What the answer says of the lines shown (see `selectLines`). */
  sentences: string[];
}

/** Lines of a file shown when none are asked for. */
export const DEFAULT_SNIPPET_LINES = 20;
function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/**
 * The lines of a `total`-line file (at least 1) that a view selects, in the words `/blame` uses
 * too; `complete` is false for a file GitHub cut, whose `total` counts only the lines returned.
 */
function windowOfLines(total: number, view: ContentsView, complete: boolean): ContentsWindow {
  const askedStart = Number.isFinite(view.startLine) ? Math.floor(view.startLine!) : 1;
  const { start, end, sentences } = selectLines(
    {
      start: askedStart,
      end: Number.isFinite(view.endLine) ? view.endLine! : askedStart + DEFAULT_SNIPPET_LINES - 1,
      requested: view.startLine !== undefined || view.endLine !== undefined,
    },
    total,
    { complete },
  );
  return { start, end, total, sentences };
}

/**
 * The lines of a file answer that `formatContents` shows for a view, or null when it shows no lines
 * (a folder, a binary or empty file): what the Previous / Next buttons turn from.
 */
export function contentsWindow(answer: ContentsAnswer, view: ContentsView): ContentsWindow | null {
  if (answer.kind !== "blob" || answer.file.kind !== "text") return null;
  const total = fileLines(answer.file).length;
  return total > 0 ? windowOfLines(total, view, !answer.file.isTruncated) : null;
}

function formatBlob(
  answer: Extract<ContentsAnswer, { kind: "blob" }>,
  view: ContentsView,
  title: string,
  footer: string,
  embedBudget: number,
): { description: string; files: FormattedMessage["files"]; anchor: string } {
  const file: FileBody = answer.file;
  if (file.kind === "binary") {
    return {
      description: `This is a binary file (${formatBytes(file.byteSize)}): it cannot be shown as text. Open it on GitHub.`,
      files: [],
      anchor: "",
    };
  }
  const lines = fileLines(file);
  const total = lines.length;
  const notes: string[] = [];
  if (file.isTruncated) {
    notes.push(
      `This file is too large to show whole (${formatBytes(file.byteSize)}): GitHub returns only its first ` +
        `512,000 bytes, so only lines 1–${formatCount(total)} are here.`,
    );
  }
  if (total === 0) {
    notes.push(file.isTruncated ? "No line of it is available." : "This file is empty.");
    return { description: notes.join("\n"), files: [], anchor: "" };
  }
  const { start, end, sentences } = windowOfLines(total, view, !file.isTruncated);
  notes.push(...sentences);
  const partial = partialLineOf(file);
  if (partial !== null && partial >= start && partial <= end) notes.push(partialLineNote(partial));

  const count = end - start + 1;
  const width = digitsOf(end);
  const head = `${notes.join("\n")}\n\`\`\`${sanitizeLanguage(languageFor(answer.path))}\n`;
  const moreNote = (omitted: number) =>
    `${ELLIPSIS} ${plural(omitted, "more line", "more lines")} in the attachment.`;
  const cutNote = "Long lines are cut here; the attachment has them whole.";
  const budget = Math.min(LIMITS.description, embedBudget - title.length - footer.length);
  let used = head.length + `\n\`\`\`\n${moreNote(count)}\n${cutNote}`.length;
  const shown: string[] = [];
  let anyCut = false;
  for (let line = start; line <= end && shown.length < MAX_LINES_IN_MESSAGE; line += 1) {
    const display = displayFileLine(lines[line - 1] ?? "", line === partial);
    const text = `${String(line).padStart(width)} │ ${display.text}`;
    const cost = text.length + (shown.length > 0 ? 1 : 0);
    if (used + cost > budget) break;
    shown.push(text);
    used += cost;
    anyCut ||= display.cut;
  }
  const omitted = count - shown.length;
  const parts = [shown.length > 0 ? `${head}${shown.join("\n")}\n\`\`\`` : notes.join("\n")];
  if (omitted > 0) parts.push(moreNote(omitted));
  else if (anyCut) parts.push(cutNote);
  const files: FormattedMessage["files"] = [];
  if (omitted > 0 || anyCut) {
    const selection: string[] = [];
    for (let line = start; line <= end; line += 1) selection.push(rawLine(lines[line - 1] ?? ""));
    files.push({
      name: `${safeFileName(baseName(answer.path))}-L${start}-${end}.txt`,
      data: utf8Bytes(`${selection.join("\n")}\n`),
      description: truncate(`${sanitizeSingleLine(answer.path)}, lines ${start}-${end}`, 200),
    });
  }
  return { description: parts.join("\n"), files, anchor: start === end ? `L${start}` : `L${start}-L${end}` };
}

/** The icon of each kind of answer, before its path in the title. */
const ICONS: Record<ContentsAnswer["kind"], string> = { tree: "📁", blob: "📄", symlink: "🔗" };

/** Said above a folder's entries when `lines:` was given: it applies to files only. */
export const LINES_ON_A_FOLDER = "`lines:` applies to files; a folder lists its entries.";

/**
 * The answer of `/contents`. A folder: its entries (see `formatFolderListing`), with a note when
 * `lines:` was given, which a folder has none of. A file: a snippet with line numbers and a language
 * hint (the first 20 lines by default, at most 50 in the message; the whole selection is attached
 * as `<file>-L<a>-<b>.txt` when it does not fit); binary and too-large files are explained with
 * their size. A symbolic link: what it points to, the `/contents` command and the web link that
 * show the target (see `symlinkBody`). The title links to the folder, file or link at the pinned
 * commit; the footer says how fresh the answer is, the ref it was asked at and the commit. A file's
 * lines get Previous / Next lines buttons (`meta.buttons`; disabled without a custom id) beside Open
 * on GitHub.
 */
export function formatContents(
  answer: ContentsAnswer,
  view: ContentsView,
  meta: ContentsMeta,
): FormattedMessage {
  const where =
    answer.path === ""
      ? answer.repository.nameWithOwner
      : `${answer.repository.nameWithOwner}/${answer.path}`;
  const title = escapeLabel(`${ICONS[answer.kind]} ${where}`, LIMITS.title);
  const footer = footerText(meta.freshness, meta.now, answer.commit.oid, meta.ref);
  const kind = answer.kind === "tree" ? "tree" : "blob";
  const baseUrl = objectUrl(answer.repository.url, kind, answer.commit.oid, answer.path);
  const asked = view.startLine !== undefined || view.endLine !== undefined;
  let url = baseUrl;
  let body: { description: string; files: FormattedMessage["files"] };
  let paged = false;
  let targetUrl: string | null = null;
  if (answer.kind === "tree") {
    body = formatFolderListing(answer, {
      title,
      footer,
      note: asked ? LINES_ON_A_FOLDER : undefined,
      embedBudget: embedRoom(meta),
    });
  } else if (answer.kind === "symlink") {
    const first = view.startLine ?? view.endLine ?? 1;
    // The lines asked for belong to the target: they go into the command that shows it.
    const link = symlinkBody(answer, {
      ref: meta.ref,
      lines: asked ? { start: first, end: view.endLine ?? first } : undefined,
    });
    body = { description: link.description, files: [] };
    targetUrl = link.targetUrl;
  } else {
    const blob = formatBlob(answer, view, title, footer, embedRoom(meta));
    if (blob.anchor) url = `${baseUrl}#${blob.anchor}`;
    paged = blob.anchor !== "";
    body = blob;
  }
  const embed: APIEmbed = {
    title,
    color: COLORS.contents,
    description: body.description,
    footer: { text: footer },
  };
  const link = embedUrl(url);
  if (link) embed.url = link;
  const message = emptyMessage();
  message.embeds.push(embed);
  message.files.push(...body.files);
  if (paged) {
    message.components.push(fileLinesRow(meta.buttons, url));
  } else {
    const row = rowOf([
      linkButton("Open on GitHub", url),
      targetUrl === null ? null : linkButton("Open the target on GitHub", targetUrl),
    ]);
    if (row) message.components.push(row);
  }
  return fitMessage(message);
}
