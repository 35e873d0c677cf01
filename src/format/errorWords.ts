import type { RepoRef } from "../github/types.js";
import { escapeLabel, inlineCode, sanitizeSingleLine, truncate } from "./escape.js";

/**
 * The pieces error sentences are built of: how a name is quoted, how a time is shown, and the next
 * steps that depend on where the asker is and which token read.
 */

/** What the sentence of an error may depend on besides the error's own facts. */
export interface ErrorSituation {
  /** `/login` works on this bot (an OAuth app or GitHub App is configured). */
  signIn: boolean;
  /** The asker is in a server, whose admins can `/token set` (not a DM). */
  inServer: boolean;
  /** Where people read repositories in a browser (`GITHUB_WEB_URL`, `https://github.com`). */
  webUrl: string;
}

/**
 * The one way a sentence quotes text it did not write: a name, a path, a ref, a symbolic link's
 * target, from a repository or from the user. On one line (line breaks, control and bidirectional
 * characters go), cut to `max` characters so the sentence stays short, as inline code, which copies
 * as it is; text holding a backtick, which could end the code span and let the rest render as
 * markup, is an escaped label instead (no markup, no mention).
 */
export function quoted(value: string, max = 100): string {
  const line = sanitizeSingleLine(String(value));
  return line.includes("`") ? escapeLabel(line, max) : inlineCode(truncate(line, max));
}

/** A repository as people write it, quoted. */
export function repoName(repo: RepoRef): string {
  return quoted(`${repo.owner}/${repo.name}`);
}

/** A Discord timestamp rendered relative to the reader's clock ("in 5 minutes"). */
export function relativeTime(date: Date): string {
  return `<t:${Math.ceil(date.getTime() / 1000)}:R>`;
}

/** "1 page", "3 pages", with thousands separated. */
export function pagesText(count: number): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? "page" : "pages"}`;
}
