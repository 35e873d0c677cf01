import { InvalidOptionError } from "../errors.js";
import type { RepoRef } from "../github/types.js";
import { parseLines, type LineSpan } from "./linesArgument.js";
import { parsePath } from "./pathArgument.js";
import { parseRef } from "./refArgument.js";

/** What a `repo` option says: the repository, and what a URL of a file or folder fills in. */
export interface RepoArgument {
  repo: RepoRef;
  ref?: string;
  path?: string;
  lines?: LineSpan;
  /** `blob` (a file URL), `tree` (a folder URL) or absent (owner/name or the repository URL). */
  kind?: "blob" | "tree";
  /**
   * A URL cannot tell a branch with slashes (`feature/gears`) from the path after it: every way
   * of splitting, shortest ref first (the first is `ref` and `path` above). At most 4.
   */
  splits?: Array<{ ref: string; path: string }>;
}

/** GitHub logins: letters, digits and single hyphens, not at either end, at most 39. */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
/** Repository names: letters, digits, `.`, `_`, `-`, at most 100, not `.` or `..`. */
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

/** How many ways of splitting a URL's `<ref>/<path>` are tried (branches rarely nest deeper). */
const MAX_URL_SPLITS = 4;

const FORM = "takes `owner/name` or a GitHub URL of the repository, a file or a folder";

/** Validates an owner login; throws {@link InvalidOptionError} naming `option`. */
export function parseOwner(value: string, option = "owner"): string {
  const owner = value.trim().replace(/^@/, "");
  if (!OWNER.test(owner)) {
    throw new InvalidOptionError(
      option,
      "takes a GitHub login: letters, digits and single hyphens, at most 39 characters.",
    );
  }
  return owner;
}

function parseName(value: string): string {
  const name = value.endsWith(".git") ? value.slice(0, -4) : value;
  if (!NAME.test(name) || name === "." || name === "..") {
    throw new InvalidOptionError(
      "repo",
      `${FORM}; the name part takes letters, digits, \`.\`, \`_\` and \`-\`.`,
    );
  }
  return name;
}

function splitOwnerName(owner: string, name: string): RepoRef {
  if (!OWNER.test(owner)) {
    throw new InvalidOptionError("repo", `${FORM}; the owner part takes letters, digits and single hyphens.`);
  }
  return { owner, name: parseName(name) };
}

/**
 * Parses the `repo` option: `owner/name`, or a URL on `webHosts` (github.com and the configured
 * Enterprise host) of the repository (`/owner/name`), a file (`/owner/name/blob/<ref>/<path>#L10-L20`)
 * or a folder (`/owner/name/tree/<ref>/<path>`). A ref with a slash in a URL is ambiguous with the
 * path; the first segment is taken as the ref, and the `ref` option overrides it.
 * @throws InvalidOptionError naming `repo` and the form it takes.
 */
export function parseRepoArgument(raw: string, webHosts: readonly string[]): RepoArgument {
  const value = raw.trim();
  if (value.length === 0 || value.length > 2048 || value.includes("\0")) {
    throw new InvalidOptionError("repo", `${FORM}.`);
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value) && !/^(www\.)?[^/\s]+\.[a-z]{2,}\//i.test(value)) {
    const parts = value.replace(/\/+$/, "").split("/");
    if (parts.length !== 2 || !parts[0] || !parts[1]) throw new InvalidOptionError("repo", `${FORM}.`);
    return { repo: splitOwnerName(parts[0], parts[1]) };
  }
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
  } catch {
    throw new InvalidOptionError("repo", `${FORM}.`);
  }
  const host = url.host.toLowerCase().replace(/^www\./, "");
  if (!webHosts.some((allowed) => allowed.toLowerCase() === host) || !/^https?:$/.test(url.protocol)) {
    throw new InvalidOptionError("repo", `${FORM}; the URL must be on ${webHosts.join(" or ")}.`);
  }
  let segments: string[];
  try {
    segments = url.pathname
      .split("/")
      .filter((segment) => segment.length > 0)
      .map((segment) => decodeURIComponent(segment));
  } catch {
    throw new InvalidOptionError("repo", `${FORM}; the URL is not well encoded.`);
  }
  const [owner, name, kind, ref, ...rest] = segments;
  if (!owner || !name) throw new InvalidOptionError("repo", `${FORM}.`);
  const result: RepoArgument = { repo: splitOwnerName(owner, name) };
  if (kind === undefined) return result;
  if (kind !== "blob" && kind !== "tree") {
    throw new InvalidOptionError("repo", `${FORM}; a URL of a file has \`/blob/\`, of a folder \`/tree/\`.`);
  }
  if (!ref) throw new InvalidOptionError("repo", `${FORM}; the URL names no branch, tag or commit.`);
  result.kind = kind;
  result.ref = parseRef(ref, "repo");
  if (rest.length > 0) result.path = parsePath(rest.join("/"), "repo");
  const refAndPath = [ref, ...rest];
  const splits: Array<{ ref: string; path: string }> = [];
  for (let size = 1; size <= Math.min(refAndPath.length, MAX_URL_SPLITS); size++) {
    try {
      splits.push({
        ref: parseRef(refAndPath.slice(0, size).join("/"), "repo"),
        path: parsePath(refAndPath.slice(size).join("/"), "repo"),
      });
    } catch {
      // A split that makes no valid ref is no candidate.
    }
  }
  if (splits.length > 1) result.splits = splits;
  // GitHub also writes column anchors (`#L10C5-L20C3`): the lines are what matter here.
  const anchor = /^#L(\d+)(?:C\d+)?(?:-L(\d+)(?:C\d+)?)?$/i.exec(url.hash);
  if (anchor) result.lines = parseLines(anchor[2] ? `${anchor[1]}-${anchor[2]}` : anchor[1]!, "repo");
  return result;
}

/** The last answer of {@link webHostsOf}: every command's parse asks it of the one configured URL. */
let lastWebHosts: { webUrl: string; hosts: readonly string[] } | undefined;

/** The hosts whose URLs the `repo` option accepts: github.com and the configured web host. */
export function webHostsOf(webUrl: string): string[] {
  if (lastWebHosts?.webUrl !== webUrl) {
    const host = new URL(webUrl).host.toLowerCase();
    lastWebHosts = { webUrl, hosts: host === "github.com" ? ["github.com"] : [host, "github.com"] };
  }
  return [...lastWebHosts.hosts];
}
