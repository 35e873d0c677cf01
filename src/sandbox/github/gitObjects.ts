/**
 * Parsers of git's raw object formats (what `cat-file` prints for `contents`). Pure functions.
 */

/** A person line of a commit or tag: `Name <email> 1500000000 +0200`. */
export interface GitSignature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  time: number;
  /** `+0200`, `-0700`. */
  timezone: string;
}

export interface ParsedCommit {
  oid: string;
  tree: string;
  parents: string[];
  author: GitSignature | null;
  committer: GitSignature | null;
  /** The message as stored, without the final line feed. */
  message: string;
}

export interface ParsedTreeEntry {
  /** Octal mode as git writes it: `100644`, `100755`, `40000`, `120000`, `160000`. */
  mode: string;
  name: string;
  oid: string;
  type: "blob" | "tree" | "commit";
}

export interface ParsedTag {
  oid: string;
  object: string;
  objectType: string;
  name: string;
  tagger: GitSignature | null;
  message: string;
}

/** Parses `Name <email> 1500000000 +0200`; null when the line does not have that shape. */
export function parseSignature(value: string): GitSignature | null {
  const match = /^(.*?) ?<([^>]*)> (-?\d+) ([+-]\d{4})$/.exec(value);
  if (!match) return null;
  return {
    name: match[1] ?? "",
    email: match[2] ?? "",
    time: Number(match[3]),
    timezone: match[4] ?? "+0000",
  };
}

/** Splits the header block of a commit or tag (continuation lines start with a space). */
function parseHeaders(text: string): { headers: Array<[string, string]>; message: string } {
  const end = text.indexOf("\n\n");
  const head = end < 0 ? text : text.slice(0, end);
  const message = end < 0 ? "" : text.slice(end + 2);
  const headers: Array<[string, string]> = [];
  for (const line of head.split("\n")) {
    const last = headers[headers.length - 1];
    if (line.startsWith(" ") && last) {
      last[1] += `\n${line.slice(1)}`;
      continue;
    }
    const space = line.indexOf(" ");
    headers.push(space < 0 ? [line, ""] : [line.slice(0, space), line.slice(space + 1)]);
  }
  return { headers, message: message.replace(/\n$/, "") };
}

/** Parses a raw commit object. */
export function parseCommit(oid: string, content: Buffer): ParsedCommit {
  const { headers, message } = parseHeaders(content.toString("utf8"));
  const commit: ParsedCommit = { oid, tree: "", parents: [], author: null, committer: null, message };
  for (const [key, value] of headers) {
    if (key === "tree") commit.tree = value;
    else if (key === "parent") commit.parents.push(value);
    else if (key === "author") commit.author = parseSignature(value);
    else if (key === "committer") commit.committer = parseSignature(value);
  }
  return commit;
}

/** Parses a raw annotated tag object. */
export function parseTag(oid: string, content: Buffer): ParsedTag {
  const { headers, message } = parseHeaders(content.toString("utf8"));
  const tag: ParsedTag = { oid, object: "", objectType: "", name: "", tagger: null, message };
  for (const [key, value] of headers) {
    if (key === "object") tag.object = value;
    else if (key === "type") tag.objectType = value;
    else if (key === "tag") tag.name = value;
    else if (key === "tagger") tag.tagger = parseSignature(value);
  }
  return tag;
}

/** Parses a raw tree object: `<mode> <name>\0<20 bytes>` repeated. */
export function parseTree(content: Buffer): ParsedTreeEntry[] {
  const entries: ParsedTreeEntry[] = [];
  let offset = 0;
  while (offset < content.length) {
    const space = content.indexOf(32, offset);
    const nul = content.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > content.length) break;
    const mode = content.subarray(offset, space).toString("latin1");
    const name = content.subarray(space + 1, nul).toString("utf8");
    const oid = content.subarray(nul + 1, nul + 21).toString("hex");
    const type = mode === "40000" ? "tree" : mode === "160000" ? "commit" : "blob";
    entries.push({ mode, name, oid, type });
    offset = nul + 21;
  }
  return entries;
}

/** Formats epoch seconds with the given git offset: `2024-01-02T04:04:05+01:00` (GitTimestamp). */
export function formatGitTimestamp(time: number, timezone: string): string {
  const sign = timezone.startsWith("-") ? -1 : 1;
  const hours = Number(timezone.slice(1, 3));
  const minutes = Number(timezone.slice(3, 5));
  const offsetSeconds = sign * (hours * 3600 + minutes * 60);
  const local = new Date((time + offsetSeconds) * 1000).toISOString().slice(0, 19);
  return `${local}${timezone.slice(0, 3)}:${timezone.slice(3, 5)}`;
}

/** Formats epoch seconds as GitHub's DateTime: UTC, no fraction: `2024-01-02T03:04:05Z`. */
export function formatDateTime(time: number): string {
  return `${new Date(time * 1000).toISOString().slice(0, 19)}Z`;
}

/** Git's binary heuristic, which GitHub's `isBinary` follows: a NUL byte in the first 8,000 bytes. */
export function looksBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}
