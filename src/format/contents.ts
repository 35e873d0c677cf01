import type { APIEmbed } from "discord-api-types/v10";
import type { ContentsAnswer, FileBody, TreeEntry } from "../github/types.js";
import { ELLIPSIS, escapeLabel, sanitizeLanguage, sanitizeSingleLine, truncate } from "./escape.js";
import { fitMessage, LIMITS } from "./limits.js";
import {
  COLORS,
  emptyMessage,
  footerText,
  formatBytes,
  formatCount,
  embedUrl,
  linkButton,
  objectUrl,
  rowOf,
  navigationRow,
  type FormattedMessage,
  type PagedAnswerMeta,
} from "./message.js";
import {
  baseName,
  digitsOf,
  displayLine,
  languageFor,
  MAX_LINES_IN_MESSAGE,
  rawLine,
  safeFileName,
  splitFileLines,
  utf8Bytes,
} from "./snippet.js";

/** Which lines of a file to show; both absent: the first lines. */
export interface ContentsView {
  startLine?: number;
  endLine?: number;
}

/** Freshness, the ref asked at, and the Previous / Next buttons of a file's lines. */
export type ContentsMeta = PagedAnswerMeta;

/** The lines of a file a view shows, clamped to the file. */
export interface ContentsWindow {
  start: number;
  end: number;
  /** Lines of the file (of the text GitHub gave, for a file it cut). */
  total: number;
  /** The selection asked for went past the last line. */
  pastTheEnd: boolean;
  /** Lines were asked for (rather than the default first lines). */
  asked: boolean;
}

/** Lines of a file shown when none are asked for. */
export const DEFAULT_SNIPPET_LINES = 20;
/** Entries of a folder listed in the message, at most. */
const MAX_ENTRIES_IN_MESSAGE = 50;
/** Characters of one entry name in the message. */
const ENTRY_NAME_WIDTH = 100;

const ORDER: Record<TreeEntry["type"], number> = { tree: 0, commit: 1, blob: 2 };

/** Folders first, then submodules, then files; by name within each (case-insensitive, then exact). */
function sortEntries(entries: readonly TreeEntry[]): TreeEntry[] {
  return [...entries].sort((a, b) => {
    const byType = (ORDER[a.type] ?? 3) - (ORDER[b.type] ?? 3);
    if (byType !== 0) return byType;
    const left = a.name.toLowerCase();
    const right = b.name.toLowerCase();
    if (left !== right) return left < right ? -1 : 1;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}

function entryLine(entry: TreeEntry): string {
  const name = escapeLabel(entry.name, ENTRY_NAME_WIDTH) || "(unnamed)";
  if (entry.type === "tree") return `📁 **${name}/**`;
  if (entry.type === "commit") return `📦 ${name} · submodule`;
  const binary = entry.isBinary ? " · binary" : "";
  return `📄 ${name} · ${formatBytes(entry.size)}${binary}`;
}

function entryAttachmentLine(entry: TreeEntry): string {
  const kind = entry.type === "tree" ? "folder" : entry.type === "commit" ? "submodule" : "file";
  const size = entry.type === "blob" ? formatBytes(entry.size) : "";
  const name = sanitizeSingleLine(entry.name) + (entry.type === "tree" ? "/" : "");
  return `${kind.padEnd(9)}  ${size.padStart(10)}  ${name}`;
}

function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

function formatTree(
  answer: Extract<ContentsAnswer, { kind: "tree" }>,
  title: string,
  footer: string,
): {
  description: string;
  files: FormattedMessage["files"];
} {
  const entries = sortEntries(answer.entries);
  if (entries.length === 0) return { description: "This folder is empty.", files: [] };
  const folders = entries.filter((entry) => entry.type === "tree").length;
  const submodules = entries.filter((entry) => entry.type === "commit").length;
  const fileCount = entries.length - folders - submodules;
  const summary = [plural(folders, "folder", "folders"), plural(fileCount, "file", "files")];
  if (submodules > 0) summary.push(plural(submodules, "submodule", "submodules"));
  const head = `${summary.join(", ")}.`;
  const moreNote = (omitted: number) =>
    `${ELLIPSIS} ${plural(omitted, "more entry", "more entries")} in the attachment.`;
  const budget = Math.min(LIMITS.description, LIMITS.embedTotal - title.length - footer.length);
  let used = head.length + 1 + moreNote(entries.length).length;
  const shown: string[] = [];
  for (const entry of entries) {
    if (shown.length >= MAX_ENTRIES_IN_MESSAGE) break;
    const line = entryLine(entry);
    if (used + line.length + 1 > budget) break;
    shown.push(line);
    used += line.length + 1;
  }
  const omitted = entries.length - shown.length;
  const parts = [head, ...shown];
  const files: FormattedMessage["files"] = [];
  if (omitted > 0) {
    parts.push(moreNote(omitted));
    const folder = answer.path === "" ? "root" : safeFileName(baseName(answer.path));
    const text = [
      `${sanitizeSingleLine(answer.repository.nameWithOwner)}/${sanitizeSingleLine(answer.path)} at ${answer.commit.oid}`,
      head,
      "",
      ...entries.map(entryAttachmentLine),
      "",
    ].join("\n");
    files.push({
      name: `contents-${folder}.txt`,
      data: Buffer.from(text, "utf8"),
      description: truncate(
        `all ${entries.length} entries of ${sanitizeSingleLine(answer.path) || "the root"}`,
        200,
      ),
    });
  }
  return { description: parts.join("\n"), files };
}

/** The lines of a `total`-line file (at least 1) that a view selects. */
function windowOfLines(total: number, view: ContentsView): ContentsWindow {
  const asked = view.startLine !== undefined || view.endLine !== undefined;
  let start = Number.isFinite(view.startLine) ? Math.floor(view.startLine!) : 1;
  let end = Number.isFinite(view.endLine) ? Math.floor(view.endLine!) : start + DEFAULT_SNIPPET_LINES - 1;
  if (end < start) [start, end] = [end, start];
  const pastTheEnd = end > total;
  // A window wholly past the end moves back to the file's last lines, keeping its size.
  if (start > total) [start, end] = [Math.max(1, total - (end - start)), total];
  start = Math.min(Math.max(1, start), total);
  end = Math.min(Math.max(start, end), total);
  return { start, end, total, pastTheEnd, asked };
}

/**
 * The lines of a file answer that `formatContents` shows for a view, or null when it shows no lines
 * (a folder, a binary or empty file): what the Previous / Next buttons turn from.
 */
export function contentsWindow(answer: ContentsAnswer, view: ContentsView): ContentsWindow | null {
  if (answer.kind !== "blob" || answer.file.kind !== "text") return null;
  const total = splitFileLines(answer.file.text).length;
  return total > 0 ? windowOfLines(total, view) : null;
}

function formatBlob(
  answer: Extract<ContentsAnswer, { kind: "blob" }>,
  view: ContentsView,
  title: string,
  footer: string,
): { description: string; files: FormattedMessage["files"]; anchor: string } {
  const file: FileBody = answer.file;
  if (file.kind === "binary") {
    return {
      description: `This is a binary file (${formatBytes(file.byteSize)}): it cannot be shown as text. Open it on GitHub.`,
      files: [],
      anchor: "",
    };
  }
  const lines = splitFileLines(file.text);
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
  const { start, end, pastTheEnd, asked } = windowOfLines(total, view);
  notes.unshift(`Lines ${formatCount(start)}–${formatCount(end)} of ${formatCount(total)}.`);
  if (pastTheEnd && asked) {
    notes.push(`The file has ${plural(total, "line", "lines")}, so the selection stops there.`);
  }

  const count = end - start + 1;
  const width = digitsOf(end);
  const head = `${notes.join("\n")}\n\`\`\`${sanitizeLanguage(languageFor(answer.path))}\n`;
  const moreNote = (omitted: number) =>
    `${ELLIPSIS} ${plural(omitted, "more line", "more lines")} in the attachment.`;
  const cutNote = "Long lines are cut here; the attachment has them whole.";
  const budget = Math.min(LIMITS.description, LIMITS.embedTotal - title.length - footer.length);
  let used = head.length + `\n\`\`\`\n${moreNote(count)}\n${cutNote}`.length;
  const shown: string[] = [];
  let anyCut = false;
  for (let line = start; line <= end && shown.length < MAX_LINES_IN_MESSAGE; line += 1) {
    const display = displayLine(lines[line - 1] ?? "");
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

/**
 * The answer of `/contents`. A folder: its entries, folders first (📁), then submodules (📦), then
 * files (📄) with their sizes; past 50 entries (or Discord's limits) the rest are counted and every
 * entry is attached as `contents-<folder>.txt`. A file: a snippet with line numbers and a language
 * hint (the first 20 lines by default, at most 50 in the message; the whole selection is attached
 * as `<file>-L<a>-<b>.txt` when it does not fit); binary and too-large files are explained with
 * their size. The title links to the folder or file at the pinned commit; the footer says how fresh
 * the answer is, the ref it was asked at and the commit. A file's lines get Previous / Next lines
 * buttons (`meta.buttons`; disabled without a custom id) beside Open on GitHub.
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
  const title = escapeLabel(`${answer.kind === "tree" ? "📁" : "📄"} ${where}`, LIMITS.title);
  const footer = footerText(meta.freshness, meta.now, answer.commit.oid, meta.ref);
  const kind = answer.kind === "tree" ? "tree" : "blob";
  const baseUrl = objectUrl(answer.repository.url, kind, answer.commit.oid, answer.path);
  let url = baseUrl;
  let body: { description: string; files: FormattedMessage["files"] };
  let paged = false;
  if (answer.kind === "tree") {
    body = formatTree(answer, title, footer);
  } else {
    const blob = formatBlob(answer, view, title, footer);
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
    message.components.push(
      navigationRow({
        previous: meta.buttons?.previous,
        next: meta.buttons?.next,
        previousLabel: "◀ Previous lines",
        nextLabel: "Next lines ▶",
        link: { label: "Open on GitHub", url },
      }),
    );
  } else {
    const row = rowOf([linkButton("Open on GitHub", url)]);
    if (row) message.components.push(row);
  }
  return fitMessage(message);
}
