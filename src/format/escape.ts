/**
 * Escaping for text that comes from a repository (names, paths, commit headlines, descriptions,
 * file contents). Discord renders markdown and mentions everywhere outside code; the bot sends
 * `allowed_mentions: { parse: [] }` so nothing pings, but a mention would still RENDER as one, and
 * markup could restyle the answer or forge a link. Everything here is pure and total.
 */

/** U+200B: invisible, and enough to stop Discord from recognising markup or a mention. */
export const ZWSP = "\u200b";

/** The visible mark of a cut. */
export const ELLIPSIS = "…";

// Backslash first, so the escapes added afterwards are not themselves escaped.
const MARKDOWN_CHARACTERS = /[\\*_~|>#\-[\]()`]/g;
// "1. item" is an ordered list in Discord; the dot is what makes it one.
const ORDERED_LIST = /^(\s*\d+)\./gm;
const EVERYONE_HERE = /@(everyone|here)/gi;
// `<@id>`, `<@!id>`, `<@&id>`, `<#id>`, `</cmd:id>`, `<t:…>`, `<:emoji:id>`: all begin with "<" and
// a non-space character. An invisible character after "<" defuses every one of them.
const ANGLE_MARKUP = /<(?=\S)/g;
// Line and paragraph separators, and the bidirectional overrides that can make a name read
// backwards: none of them belong in a one-line label.
const LINE_BREAKS = /\r\n|[\n\r\u2028\u2029\u0085]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;
// Anything one of the four replacements below would change (a superset: a dot after digits at a
// line's start, an at sign, an angle bracket, any markup character).
const NEEDS_ESCAPING = /[\\*_~|>#\-[\]()`@<]|^\s*\d+\./m;
const NEEDS_SANITIZING =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f\u0085\u2028\u2029\u202a-\u202e\u2066-\u2069]| {2}|^\s|\s$/;

/**
 * Escapes repository text shown outside code blocks: markdown markup characters get a backslash,
 * mentions (`@everyone`, `@here`, `<@id>`, `<@!id>`, `<@&id>`, `<#id>`) and other angle markup get
 * an invisible zero-width space so they render as plain text, and masked links cannot be formed
 * because brackets and parentheses are escaped. Newlines are kept (use `sanitizeSingleLine` first
 * for labels).
 */
export function escapeMarkdown(text: string): string {
  const value = String(text);
  // Most names and paths hold nothing to escape: one test instead of four replacements.
  if (!NEEDS_ESCAPING.test(value)) return value;
  return value
    .replace(MARKDOWN_CHARACTERS, "\\$&")
    .replace(ORDERED_LIST, "$1\\.")
    .replace(EVERYONE_HERE, `@${ZWSP}$1`)
    .replace(ANGLE_MARKUP, `<${ZWSP}`);
}

/**
 * Makes text fit on one line: line breaks and tabs become spaces, control and bidirectional
 * override characters go, runs of spaces collapse, ends are trimmed. For titles, labels, names.
 */
export function sanitizeSingleLine(text: string): string {
  const value = String(text);
  // Most names and headlines are clean: one test instead of five replacements.
  if (!NEEDS_SANITIZING.test(value)) return value;
  return value
    .replace(LINE_BREAKS, " ")
    .replace(/\t/g, " ")
    .replace(CONTROL_CHARACTERS, "")
    .replace(BIDI_CONTROLS, "")
    .replace(/ {2,}/g, " ")
    .trim();
}

/** Index at which a string may be cut without splitting a surrogate pair. */
function safeCutIndex(text: string, index: number): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  const before = text.charCodeAt(index - 1);
  // A high surrogate right before the cut would be left without its pair.
  return before >= 0xd800 && before <= 0xdbff ? index - 1 : index;
}

/**
 * Cuts `text` to at most `max` UTF-16 units (what Discord's limits are checked against, counted
 * conservatively), ending with a visible "…" when anything was cut. Never splits a surrogate pair.
 */
export function truncate(text: string, max: number): string {
  const value = String(text);
  const limit = Math.floor(Number.isFinite(max) ? max : 0);
  if (value.length <= limit) return value;
  if (limit <= 0) return "";
  if (limit === 1) return ELLIPSIS;
  return value.slice(0, safeCutIndex(value, limit - ELLIPSIS.length)) + ELLIPSIS;
}

/**
 * One-line escaped label of at most `max` characters: sanitized, cut on the raw text (so a cut
 * never lands inside an escape sequence), then escaped.
 */
export function escapeLabel(text: string, max: number): string {
  const raw = sanitizeSingleLine(text);
  let keep = Math.min(raw.length, Math.max(0, Math.floor(max)));
  let escaped = escapeMarkdown(truncate(raw, keep));
  // Escaping can double the length; shrink the raw cut by the excess until the result fits.
  while (escaped.length > max && keep > 0) {
    keep = Math.max(0, keep - Math.max(1, Math.ceil((escaped.length - max) / 2)));
    escaped = escapeMarkdown(truncate(raw, keep));
  }
  return escaped;
}

const BACKTICK_RUN_3 = /`{3,}/g;
const BACKTICK_RUN_2 = /`{2,}/g;

function interleave(run: string): string {
  return run.split("").join(ZWSP);
}

/**
 * Breaks every run of three or more backticks with zero-width spaces: inside a code block such a
 * run is the only thing that could end the block early.
 */
export function breakCodeFences(text: string): string {
  return text.includes("```") ? text.replace(BACKTICK_RUN_3, interleave) : text;
}

/**
 * Repository text for a place Discord renders no markdown (an embed footer): a backslash would show
 * there, so nothing is escaped; only what could still read as a mention or a code fence, were the
 * text ever shown elsewhere, gets invisible zero-width spaces.
 */
export function defusePlainText(text: string): string {
  return breakCodeFences(String(text)).replace(EVERYONE_HERE, `@${ZWSP}$1`).replace(ANGLE_MARKUP, `<${ZWSP}`);
}

/** The language hint of a code block, reduced to what Discord's highlighter accepts. */
export function sanitizeLanguage(language: string | undefined): string {
  return (language ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9+#-]/g, "")
    .slice(0, 20);
}

/**
 * A fenced code block whose content can never close it: runs of 3+ backticks inside are broken
 * with zero-width spaces, and the language hint is sanitized to `[a-z0-9+#-]`. Empty content gets
 * a zero-width space, since Discord renders an empty block as plain text.
 */
export function codeBlock(text: string, language?: string): string {
  const body = breakCodeFences(String(text).replace(/\r\n?/g, "\n"));
  return `\`\`\`${sanitizeLanguage(language)}\n${body === "" ? ZWSP : body}\n\`\`\``;
}

/**
 * Safe inline code: one line; a text holding backticks is wrapped in double backticks with
 * spaces (Discord's rule), and runs of two or more backticks inside are broken so they cannot
 * close it.
 */
export function inlineCode(text: string): string {
  const line = sanitizeSingleLine(text);
  if (line === "") return `\`${ZWSP}\``;
  if (!line.includes("`")) return `\`${line}\``;
  return `\`\` ${line.replace(BACKTICK_RUN_2, interleave)} \`\``;
}
