import { isUserFacingError } from "../errors.js";
import { parseRepoArgument, type RepoArgument } from "./repoArgument.js";
import { urlsInText } from "./urlsInText.js";

/** Answers a message menu gives at most, one per link (SPEC section 1). */
export const MAX_MENU_LINKS = 5;

/**
 * The hosts whose links a message menu follows: the configured web host only. On GitHub Enterprise
 * Server a github.com link names another service's repository (which the `repo` option may still
 * take, typed on purpose), so a menu does not read it as one of the server's.
 */
export function linkHostsOf(webUrl: string): string[] {
  return [new URL(webUrl).host.toLowerCase()];
}

/** A file link of the GitHub host found in a message, as the `repo` option would read it. */
export interface FileLink {
  /** The link as written in the message (what `repo:` would be given). */
  url: string;
  argument: RepoArgument & { kind: "blob" };
}

/** What a message's text holds for a message menu. */
export interface MessageLinks {
  /** File links of the GitHub host, first first, without repeats, at most {@link MAX_MENU_LINKS}. */
  files: FileLink[];
  /** File links past the first five, which get no answer. */
  skipped: number;
  /** The host of the first http(s) link on another service, if any. */
  otherHost?: string;
  /** The message links to a repository or a folder of the GitHub host. */
  notFile: boolean;
}

/**
 * The GitHub file links of a message (`.../blob/<ref>/<path>` with an optional `#L10`, `#L10-L20`
 * or `#L10C3-L20C5` anchor) on `webHosts` only, as `parseRepoArgument` reads them: the message
 * menus answer each. Links elsewhere are counted, not followed.
 */
export function fileLinksOf(content: string, webHosts: readonly string[]): MessageLinks {
  const found: MessageLinks = { files: [], skipped: 0, notFile: false };
  const seen = new Set<string>();
  for (const { url, host } of urlsInText(content)) {
    if (!webHosts.some((allowed) => allowed.toLowerCase() === host)) {
      found.otherHost ??= host;
      continue;
    }
    let argument: RepoArgument;
    try {
      argument = parseRepoArgument(url, webHosts);
    } catch (error) {
      // A GitHub page that is not a repository's (an issue, a user's profile): not a file.
      if (!isUserFacingError(error)) throw error;
      found.notFile = true;
      continue;
    }
    if (argument.kind !== "blob" || argument.path === undefined) {
      found.notFile = true;
      continue;
    }
    if (seen.has(url)) continue;
    seen.add(url);
    if (found.files.length >= MAX_MENU_LINKS) found.skipped += 1;
    else found.files.push({ url, argument: argument as FileLink["argument"] });
  }
  return found;
}
