/**
 * Who knows a file or a folder, from blame and history: each author's lines (the lines they last
 * changed), share and newest change; commits in a window by author; the bus factor. Authors are one
 * person per GitHub login where GitHub links the commit's e-mail to an account, else per name and
 * e-mail, so one person with two linked e-mails is one row. Pure functions.
 */

/** A commit's author as GitHub gives it. */
export interface CommitAuthor {
  name: string | null;
  email: string | null;
  login: string | null;
}

/** The lines one commit last changed in a file (a blame range, reduced). */
export interface AuthoredLines {
  lines: number;
  authoredDate: string;
  author: CommitAuthor;
}

/** One author's part of a file or folder. */
export interface AuthorShare {
  /** `login:<login>` or `email:<name>\0<email>`: what rows are grouped by. */
  key: string;
  /** The login, else the git name (else the e-mail). */
  label: string;
  login: string | null;
  lines: number;
  /** lines / all lines, 0..1. */
  share: number;
  /** The newest authored date (ISO) of the lines they last changed. */
  newest: string;
}

/** One author's commits in a window. */
export interface AuthorCommits {
  key: string;
  label: string;
  login: string | null;
  commits: number;
}

/** Rows are grouped by login, else by name and e-mail (case-insensitive e-mail). */
export function authorKey(author: CommitAuthor): string {
  if (author.login) return `login:${author.login.toLowerCase()}`;
  return `email:${author.name ?? ""}\0${(author.email ?? "").toLowerCase()}`;
}

/** What a row shows for an author. */
export function authorLabel(author: CommitAuthor): string {
  return author.login ?? author.name ?? author.email ?? "unknown";
}

/**
 * Each author's lines, share and newest change over all `lines`, most lines first (ties by label).
 */
export function authorShares(lines: readonly AuthoredLines[]): AuthorShare[] {
  const byKey = new Map<string, Omit<AuthorShare, "share">>();
  let total = 0;
  for (const entry of lines) {
    if (entry.lines <= 0) continue;
    total += entry.lines;
    const key = authorKey(entry.author);
    const known = byKey.get(key);
    if (known) {
      known.lines += entry.lines;
      if (Date.parse(entry.authoredDate) > Date.parse(known.newest)) known.newest = entry.authoredDate;
    } else {
      byKey.set(key, {
        key,
        label: authorLabel(entry.author),
        login: entry.author.login,
        lines: entry.lines,
        newest: entry.authoredDate,
      });
    }
  }
  return [...byKey.values()]
    .map((row) => ({ ...row, share: total === 0 ? 0 : row.lines / total }))
    .sort((a, b) => b.lines - a.lines || a.label.localeCompare(b.label, "en"));
}

/**
 * The bus factor: the fewest authors who together last changed at least half of the lines (0 when
 * there are no lines). `shares` sorted by lines, most first, as {@link authorShares} gives them.
 */
export function busFactor(shares: readonly AuthorShare[]): number {
  const total = shares.reduce((sum, row) => sum + row.lines, 0);
  if (total === 0) return 0;
  let covered = 0;
  for (const [index, row] of shares.entries()) {
    covered += row.lines;
    if (covered * 2 >= total) return index + 1;
  }
  return shares.length;
}

/** Commits by author among `commits` authored at or after `since`, most first (ties by label). */
export function commitsByAuthor(
  commits: ReadonlyArray<{ authoredDate: string; author: CommitAuthor }>,
  since: Date,
): AuthorCommits[] {
  const byKey = new Map<string, AuthorCommits>();
  for (const commit of commits) {
    if (Date.parse(commit.authoredDate) < since.getTime()) continue;
    const key = authorKey(commit.author);
    const known = byKey.get(key);
    if (known) known.commits += 1;
    else byKey.set(key, { key, label: authorLabel(commit.author), login: commit.author.login, commits: 1 });
  }
  return [...byKey.values()].sort((a, b) => b.commits - a.commits || a.label.localeCompare(b.label, "en"));
}

/**
 * Commits per author and month over the 12 months that end with `now`'s month (index 11 is this
 * month), for the chart's strip.
 */
export function monthlyCommits(
  commits: ReadonlyArray<{ authoredDate: string; author: CommitAuthor }>,
  now: Date,
): Map<string, number[]> {
  const result = new Map<string, number[]>();
  const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
  for (const commit of commits) {
    const date = new Date(commit.authoredDate);
    if (Number.isNaN(date.getTime())) continue;
    const age = thisMonth - (date.getUTCFullYear() * 12 + date.getUTCMonth());
    if (age < 0 || age > 11) continue;
    const key = authorKey(commit.author);
    const months = result.get(key) ?? new Array<number>(12).fill(0);
    months[11 - age] = (months[11 - age] ?? 0) + 1;
    result.set(key, months);
  }
  return result;
}
