import { isUserFacingError } from "../errors.js";
import type { RepoRef } from "../github/types.js";
import { parseRepoArgument, type RepoArgument } from "./repoArgument.js";
import { MAX_URLS_READ, URL_IN_TEXT, urlsInText } from "./urlsInText.js";

/**
 * Every kind of GitHub link a message can hold (GITHUB-FACTS.md "Issues, pull requests and
 * commits", web URLs and references in text), each as the command answering it reads it.
 */
export type GitHubLink =
  | {
      /** An issue or a pull request: `/issues/N`, `/pull/N` (and its tails), `owner/name#N`, `#N`. */
      kind: "issue";
      /** The link as written (a reference: `owner/name#N`, or `#N` as written). */
      url: string;
      repo: RepoRef;
      number: number;
      /** How it was written: a web URL, or a reference in text. */
      form: "url" | "reference";
    }
  | {
      /** A commit: `/commit/<sha>`, `/commits/<sha>` or `/pull/N/commits/<sha>` (7 to 40 hex). */
      kind: "commit";
      url: string;
      repo: RepoRef;
      /** The commit id as written (abbreviated or full), lower case. */
      sha: string;
      form: "url";
    }
  | {
      /** A file: `/blob/<ref>/<path>`, with `lines` when anchored (`#L10`, `#L10-L20`). */
      kind: "file";
      url: string;
      repo: RepoRef;
      argument: RepoArgument & { kind: "blob" };
      form: "url";
    }
  | {
      /** A folder (`/tree/<ref>/<path>`) or the repository itself (`/owner/name`). */
      kind: "folder" | "repository";
      url: string;
      repo: RepoRef;
      argument: RepoArgument;
      form: "url";
    };

/** What a message holds, for a menu or an automatic preview. */
export interface FoundLinks {
  /** GitHub links of the web host, in the order written, without repeats, at most `max`. */
  links: GitHubLink[];
  /** Links past `max`, which get no answer. */
  skipped: number;
  /** The host of the first http(s) link on another service, if any. */
  otherHost?: string;
  /** Links of the web host that name nothing answerable (a profile, a compare, an Actions run). */
  unsupported: number;
}

/** How {@link githubLinksOf} reads a message. */
export interface GitHubLinkOptions {
  /** Hosts whose links are GitHub's (see `linkHostsOf`). */
  webHosts: readonly string[];
  /** The server's default repository (`/settings repo`): a bare `#123` refers to it; else ignored. */
  defaultRepo?: RepoRef | undefined;
  /**
   * Leave out links Discord shows without a preview, as automatic previews must (SPEC section 7):
   * inside `<...>`, inside code blocks and inline code. Default false (a menu is asked on purpose).
   */
  skipSuppressed?: boolean;
  /** At most this many links are returned; default 5. */
  max?: number;
}

/**
 * References as GitHub autolinks them: `owner/name#26` and `#26`. Not preceded by a word character,
 * `/`, `&` (an HTML entity `&#26;`), `<` (a Discord channel mention `<#123>`) or another `#`.
 */
const REFERENCE =
  /(?<![\w/&<#.-])(?:([A-Za-z0-9][A-Za-z0-9-]{0,38})\/([A-Za-z0-9._-]{1,100}))?#(\d{1,9})(?![\w-])/g;
/**
 * Spans Discord shows without a link preview: code blocks, inline code (one or two backticks) and
 * `<url>`. An unclosed fence is no block, as in Discord.
 */
const SUPPRESSED = /```[\s\S]*?```|``[\s\S]+?``|`[^`]+`|<https?:\/\/[^\s>]+>/g;
/** Commit ids in URLs: 7 to 40 hex digits. */
const SHA = /^[0-9a-f]{7,40}$/i;
/** The default number of links answered (SPEC section 1: a menu answers up to 5). */
const DEFAULT_MAX = 5;

/** The same length of text with the spans of `pattern` blanked, so positions stay. */
function blank(text: string, pattern: RegExp): string {
  return text.replace(pattern, (span) => " ".repeat(span.length));
}

/** A link of the web host read from its path, or "unsupported" when it names nothing answerable. */
function readUrl(url: string, webHosts: readonly string[]): GitHubLink | "unsupported" {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "unsupported";
  }
  const segments = parsed.pathname.split("/").filter((segment) => segment.length > 0);
  const [owner, name, kind, id, tail, tailId] = segments;
  if (owner === undefined || name === undefined) return "unsupported";
  let repo: RepoRef;
  try {
    repo = parseRepoArgument(`${owner}/${name}`, webHosts).repo;
  } catch (error) {
    if (!isUserFacingError(error)) throw error;
    return "unsupported";
  }
  const number = id !== undefined && /^\d{1,9}$/.test(id) ? Number(id) : 0;
  if ((kind === "issues" || kind === "pull") && number >= 1) {
    // `/pull/N/commits/<sha>` is one commit of the pull request; other tails (`/files`, `/checks`) show the pull request.
    if (kind === "pull" && tail === "commits" && tailId !== undefined && SHA.test(tailId)) {
      return { kind: "commit", url, repo, sha: tailId.toLowerCase(), form: "url" };
    }
    return { kind: "issue", url, repo, number, form: "url" };
  }
  if ((kind === "commit" || kind === "commits") && id !== undefined && SHA.test(id) && tail === undefined) {
    return { kind: "commit", url, repo, sha: id.toLowerCase(), form: "url" };
  }
  if (kind !== undefined && kind !== "blob" && kind !== "tree") return "unsupported";
  let argument: RepoArgument;
  try {
    argument = parseRepoArgument(url, webHosts);
  } catch (error) {
    if (!isUserFacingError(error)) throw error;
    return "unsupported";
  }
  if (argument.kind === "blob") {
    if (argument.path === undefined) return "unsupported";
    return { kind: "file", url, repo, argument: argument as RepoArgument & { kind: "blob" }, form: "url" };
  }
  return { kind: argument.kind === "tree" ? "folder" : "repository", url, repo, argument, form: "url" };
}

/**
 * What makes two links the same answer: the same issue, commit, file lines or folder, whatever the
 * spelling (case of the names, URL tails, a reference or a URL). The automatic previews' "not
 * again within 5 minutes" is kept by it.
 */
export function linkKey(link: GitHubLink): string {
  const repo = `${link.repo.owner}/${link.repo.name}`.toLowerCase();
  switch (link.kind) {
    case "issue":
      return `issue ${repo}#${link.number}`;
    case "commit":
      return `commit ${repo}@${link.sha}`;
    default: {
      const { ref, path, lines } = link.argument;
      const span = lines ? `#L${lines.start}-L${lines.end}` : "";
      return `${link.kind} ${repo} ${ref ?? ""}:${path ?? ""}${span}`;
    }
  }
}

/**
 * Every GitHub link of a message, in the order written: web URLs on `webHosts` (issues, pull
 * requests, commits, files, folders, repositories) and references (`owner/name#N`; a bare `#N` only
 * with a default repository). Repeats are dropped; past `max` they are counted as skipped. Links on
 * other hosts are not followed (the first one's host is kept, for the message that says so).
 */
export function githubLinksOf(content: string, options: GitHubLinkOptions): FoundLinks {
  const found: FoundLinks = { links: [], skipped: 0, unsupported: 0 };
  const max = options.max ?? DEFAULT_MAX;
  const text = options.skipSuppressed ? blank(content, SUPPRESSED) : content;
  const hosts = options.webHosts.map((host) => host.toLowerCase());
  const candidates: Array<{ at: number; link: GitHubLink }> = [];
  for (const { url, host, at } of urlsInText(text)) {
    if (!hosts.includes(host)) {
      found.otherHost ??= host;
      continue;
    }
    const link = readUrl(url, options.webHosts);
    if (link === "unsupported") found.unsupported += 1;
    else candidates.push({ at, link });
  }
  // References are looked for in the text around the URLs, never inside one (`/pull/12#issue-3`).
  let references = 0;
  for (const match of blank(text, URL_IN_TEXT).matchAll(REFERENCE)) {
    if (++references > MAX_URLS_READ) break;
    const [written, owner, name, digits] = match;
    const number = Number(digits);
    if (number < 1) continue;
    let repo: RepoRef | undefined = options.defaultRepo;
    if (owner !== undefined && name !== undefined) {
      try {
        repo = parseRepoArgument(`${owner}/${name}`, options.webHosts).repo;
      } catch (error) {
        if (!isUserFacingError(error)) throw error;
        continue;
      }
    }
    if (repo === undefined) continue;
    candidates.push({
      at: match.index,
      link: { kind: "issue", url: written, repo, number, form: "reference" },
    });
  }
  candidates.sort((a, b) => a.at - b.at);
  const seen = new Set<string>();
  for (const { link } of candidates) {
    const key = linkKey(link);
    if (seen.has(key)) continue;
    seen.add(key);
    if (found.links.length >= max) found.skipped += 1;
    else found.links.push(link);
  }
  return found;
}
