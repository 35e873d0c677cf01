import type { RepoRef } from "../github/types.js";

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
 * A user-given or upstream name inside inline code in a sentence. Backticks would end the code
 * span early, so they are dropped; very long values are cut so the sentence stays short.
 */
export function quoted(value: string): string {
  const clean = String(value).replace(/`/g, "").replace(/\s+/g, " ");
  const cut = clean.length > 100 ? `${clean.slice(0, 99)}…` : clean;
  return `\`${cut === "" ? " " : cut}\``;
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
