import { breakCodeFences, ELLIPSIS } from "./escape.js";
import { formatCount } from "./message.js";

/**
 * Helpers shared by the formatters that show lines of a file (blame, contents): splitting, the
 * display form of one line inside a code block, the language hint, attachment names.
 */

/** Width of a line inside an embed's code block; longer lines are cut with "…". */
export const MAX_LINE_WIDTH = 120;

/** Lines of a file in one message, at most. */
export const MAX_LINES_IN_MESSAGE = 50;

const TAB_WIDTH = 4;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
// Bidirectional overrides can make code read differently from what it is ("Trojan Source").
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * The lines of a file's text. A final newline ends the last line rather than starting an empty
 * one; an empty text has no lines. Carriage returns stay (see `displayLine`, `rawLine`).
 */
export function splitFileLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

const linesOfFile = new WeakMap<object, readonly string[]>();

/**
 * {@link splitFileLines} of a file answer's text, split once per answer: the answer cache's
 * in-process tier hands the same answer object to every repeat, and a long file's split was most
 * of a cached answer's CPU. The array is shared: read it, never change it.
 */
export function fileLines(file: { readonly text: string }): readonly string[] {
  let lines = linesOfFile.get(file);
  if (!lines) {
    lines = splitFileLines(file.text);
    linesOfFile.set(file, lines);
  }
  return lines;
}

/**
 * The number of the line GitHub's text cut (512,000 bytes) stopped inside, or null: the last line
 * of a cut text that does not end with a line end is only its start, and must not read as whole.
 */
export function partialLineOf(file: { readonly text: string; readonly isTruncated: boolean }): number | null {
  if (!file.isTruncated || file.text === "" || file.text.endsWith("\n")) return null;
  return fileLines(file).length;
}

/** The sentence said above the code when the line GitHub's cut stopped inside is shown. */
export function partialLineNote(line: number): string {
  return `Line ${formatCount(line)} is cut (${ELLIPSIS}) where GitHub's text stops: the rest of it is not here.`;
}

/**
 * {@link displayLine} for a line that may be the one GitHub's cut stopped inside (`partial`): that
 * one ends with "…" like a line cut for width, so no cut line reads as whole.
 */
export function displayFileLine(line: string, partial: boolean): { text: string; cut: boolean } {
  const display = displayLine(line);
  if (!partial || display.cut) return display;
  return { text: `${display.text}${ELLIPSIS}`, cut: false };
}

/** A line as written to a text attachment: its own text, without a Windows line end. */
export function rawLine(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

function expandTabs(line: string): string {
  let out = "";
  let column = 0;
  let from = 0;
  for (let index = line.indexOf("\t"); index !== -1; index = line.indexOf("\t", from)) {
    const chunk = line.slice(from, index);
    out += chunk;
    column += chunk.length;
    const spaces = TAB_WIDTH - (column % TAB_WIDTH);
    out += " ".repeat(spaces);
    column += spaces;
    from = index + 1;
  }
  return out + line.slice(from);
}

/**
 * A line as shown inside an embed's code block: tabs expanded, control characters drawn as their
 * visible symbols (␛, ␀...), bidirectional overrides replaced, cut at `maxWidth` with "…", and
 * runs of backticks broken so the line can never close the block. `cut` tells whether text was lost.
 */
export function displayLine(line: string, maxWidth: number = MAX_LINE_WIDTH): { text: string; cut: boolean } {
  let text = rawLine(line);
  if (text.includes("\t")) text = expandTabs(text);
  text = text
    .replace(CONTROL, (c) => String.fromCharCode(c === "\u007f" ? 0x2421 : 0x2400 + c.charCodeAt(0)))
    .replace(BIDI, "\ufffd");
  let cut = false;
  if (text.length > maxWidth) {
    let end = Math.max(0, maxWidth - ELLIPSIS.length);
    const before = text.charCodeAt(end - 1);
    if (before >= 0xd800 && before <= 0xdbff) end -= 1;
    text = text.slice(0, end) + ELLIPSIS;
    cut = true;
  }
  return { text: breakCodeFences(text), cut };
}

const LANGUAGE_BY_EXTENSION: Readonly<Record<string, string>> = {
  ts: "ts",
  tsx: "tsx",
  mts: "ts",
  cts: "ts",
  js: "js",
  jsx: "jsx",
  mjs: "js",
  cjs: "js",
  json: "json",
  jsonc: "json",
  json5: "json",
  py: "py",
  pyi: "py",
  rb: "rb",
  rs: "rs",
  go: "go",
  java: "java",
  kt: "kotlin",
  kts: "kotlin",
  scala: "scala",
  swift: "swift",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  hh: "cpp",
  cs: "cs",
  fs: "fsharp",
  php: "php",
  pl: "perl",
  lua: "lua",
  r: "r",
  dart: "dart",
  ex: "elixir",
  exs: "elixir",
  erl: "erlang",
  hs: "hs",
  clj: "clojure",
  ml: "ocaml",
  zig: "zig",
  nim: "nim",
  md: "md",
  markdown: "md",
  rst: "rst",
  txt: "",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
  ini: "ini",
  cfg: "ini",
  xml: "xml",
  svg: "xml",
  html: "html",
  htm: "html",
  vue: "html",
  css: "css",
  scss: "scss",
  less: "less",
  sql: "sql",
  graphql: "graphql",
  gql: "graphql",
  proto: "protobuf",
  sh: "sh",
  bash: "bash",
  zsh: "bash",
  fish: "fish",
  ps1: "powershell",
  bat: "bat",
  cmd: "bat",
  diff: "diff",
  patch: "diff",
  tf: "hcl",
  hcl: "hcl",
  nix: "nix",
  cmake: "cmake",
  gradle: "groovy",
  groovy: "groovy",
  tex: "tex",
};

const LANGUAGE_BY_NAME: Readonly<Record<string, string>> = {
  dockerfile: "dockerfile",
  makefile: "makefile",
  gnumakefile: "makefile",
  "cmakelists.txt": "cmake",
  gemfile: "rb",
  rakefile: "rb",
  ".bashrc": "bash",
  ".zshrc": "bash",
  ".gitignore": "",
};

/** The last segment of a path. */
export function baseName(path: string): string {
  const segments = path.split("/").filter((segment) => segment !== "");
  return segments.at(-1) ?? "";
}

/** The code block language hint for a file, from its name or extension; "" when unknown. */
export function languageFor(path: string): string {
  const name = baseName(path).toLowerCase();
  const byName = LANGUAGE_BY_NAME[name];
  if (byName !== undefined) return byName;
  if (name.startsWith("dockerfile")) return "dockerfile";
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return "";
  return LANGUAGE_BY_EXTENSION[name.slice(dot + 1)] ?? "";
}

/** A file name safe for an attachment: letters, digits, `.`, `_`, `-` only, at most `max` long. */
export function safeFileName(name: string, max = 60): string {
  const safe = name
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .replace(/_{2,}/g, "_")
    .replace(/^[._]+/, "");
  return (safe || "file").slice(0, max);
}

/** "L12-L40", or "L12" for one line. */
export function lineSpan(start: number, end: number): string {
  return start === end ? `L${start}` : `L${start}-L${end}`;
}

/** Decimal digits of a positive line number, for right-aligned gutters. */
export function digitsOf(value: number): number {
  return String(Math.max(1, Math.floor(value))).length;
}

/**
 * A text as UTF-8 bytes for an attachment. When the text is pure ASCII (its UTF-8 length equals its
 * length, since every other character takes two bytes or more), Latin-1 gives the same bytes with a
 * plain copy: several times faster for the megabyte a large blame can make.
 */
export function utf8Bytes(text: string): Buffer {
  return Buffer.byteLength(text, "utf8") === text.length
    ? Buffer.from(text, "latin1")
    : Buffer.from(text, "utf8");
}
