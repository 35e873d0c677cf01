import { SYMLINK_MODE, type ContentsAnswer, type TreeEntry } from "../github/types.js";
import { ELLIPSIS, escapeLabel, sanitizeSingleLine, truncate } from "./escape.js";
import { LIMITS } from "./limits.js";
import { formatBytes, formatCount, type FormattedMessage } from "./message.js";
import { baseName, safeFileName } from "./snippet.js";

/** Entries of a folder listed in the message, at most. */
const MAX_ENTRIES_IN_MESSAGE = 50;
/** Characters of one entry name in the message. */
const ENTRY_NAME_WIDTH = 100;

/** What the listing says of an entry: git's type, with symbolic links told apart from files. */
type EntryKind = "folder" | "submodule" | "link" | "file";

const ORDER: Record<EntryKind, number> = { folder: 0, submodule: 1, link: 2, file: 2 };

function kindOf(entry: TreeEntry): EntryKind {
  if (entry.type === "tree") return "folder";
  if (entry.type === "commit") return "submodule";
  return entry.mode === SYMLINK_MODE ? "link" : "file";
}

/** Folders first, then submodules, then files and links; by name within each (case-insensitive, then exact). */
function sortEntries(entries: readonly TreeEntry[]): TreeEntry[] {
  return [...entries].sort((a, b) => {
    const byType = (ORDER[kindOf(a)] ?? 3) - (ORDER[kindOf(b)] ?? 3);
    if (byType !== 0) return byType;
    const left = a.name.toLowerCase();
    const right = b.name.toLowerCase();
    if (left !== right) return left < right ? -1 : 1;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}

function entryLine(entry: TreeEntry): string {
  const name = escapeLabel(entry.name, ENTRY_NAME_WIDTH) || "(unnamed)";
  switch (kindOf(entry)) {
    case "folder":
      return `📁 **${name}/**`;
    case "submodule":
      return `📦 ${name} · submodule`;
    case "link":
      return `🔗 ${name} · symbolic link`;
    case "file":
      return `📄 ${name} · ${formatBytes(entry.size)}${entry.isBinary ? " · binary" : ""}`;
  }
}

function entryAttachmentLine(entry: TreeEntry): string {
  const kind = kindOf(entry);
  const size = kind === "file" ? formatBytes(entry.size) : "";
  const name = sanitizeSingleLine(entry.name) + (kind === "folder" ? "/" : "");
  return `${kind.padEnd(9)}  ${size.padStart(10)}  ${name}`;
}

function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/**
 * A folder's entries for `/contents`: a count of each kind, then folders (📁), submodules (📦),
 * files (📄, with sizes) and symbolic links (🔗); past 50 entries (or Discord's limits) the rest are
 * counted and every entry is attached as `contents-<folder>.txt`. `note` (a line for the user, such
 * as why `lines:` does not apply) comes first.
 */
export function formatFolderListing(
  answer: Extract<ContentsAnswer, { kind: "tree" }>,
  room: { title: string; footer: string; note?: string | undefined; embedBudget?: number },
): {
  description: string;
  files: FormattedMessage["files"];
} {
  const lead = room.note ? [room.note] : [];
  const entries = sortEntries(answer.entries);
  if (entries.length === 0) return { description: [...lead, "This folder is empty."].join("\n"), files: [] };
  const counts = { folder: 0, submodule: 0, link: 0, file: 0 };
  for (const entry of entries) counts[kindOf(entry)] += 1;
  const summary = [plural(counts.folder, "folder", "folders"), plural(counts.file, "file", "files")];
  if (counts.submodule > 0) summary.push(plural(counts.submodule, "submodule", "submodules"));
  if (counts.link > 0) summary.push(plural(counts.link, "symbolic link", "symbolic links"));
  const head = `${summary.join(", ")}.`;
  const moreNote = (omitted: number) =>
    `${ELLIPSIS} ${plural(omitted, "more entry", "more entries")} in the attachment.`;
  const budget = Math.min(
    LIMITS.description,
    (room.embedBudget ?? LIMITS.embedTotal) - room.title.length - room.footer.length,
  );
  let used = [...lead, head].join("\n").length + 1 + moreNote(entries.length).length;
  const shown: string[] = [];
  for (const entry of entries) {
    if (shown.length >= MAX_ENTRIES_IN_MESSAGE) break;
    const line = entryLine(entry);
    if (used + line.length + 1 > budget) break;
    shown.push(line);
    used += line.length + 1;
  }
  const omitted = entries.length - shown.length;
  const parts = [...lead, head, ...shown];
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
