import type { ContentsAnswer } from "../github/types.js";
import { escapeLabel } from "./escape.js";
import { quoted as quotedUpTo } from "./errorWords.js";
import { maskedLink, objectUrl } from "./message.js";

/** Characters of a link's target or path quoted in the answer. */
const QUOTED_WIDTH = 300;

/** Repository text quoted as every sentence quotes it (errorWords' `quoted`), up to 300 characters. */
function quoted(text: string, max = QUOTED_WIDTH): string {
  return quotedUpTo(text, max);
}

/**
 * The repository path a symbolic link at `linkPath` points to: `target` read from the link's folder
 * (`docs/latest` -> `guide/intro.md` is `docs/guide/intro.md`), `.` and `..` resolved. Null when it
 * points outside the repository (an absolute path, or more `..` than there are folders) or is empty.
 */
export function resolveLinkTarget(linkPath: string, target: string): string | null {
  if (target === "" || target.startsWith("/")) return null;
  const parts = linkPath.split("/").filter((part) => part !== "");
  parts.pop();
  for (const part of target.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else {
      parts.push(part);
    }
  }
  return parts.length > 0 ? parts.join("/") : null;
}

/** What the answer of a symbolic link says, and the web page of its target when it has one. */
export interface SymlinkBody {
  description: string;
  /** The target at the pinned commit on the web host; null when it is outside the repository. */
  targetUrl: string | null;
}

/**
 * The answer of `/contents` on a symbolic link: what it points to, as git stores it and as a path of
 * the repository; the `/contents` command that shows the target (with the ref and the lines that
 * were asked for), and a web link to it at the pinned commit. A target outside the repository, or
 * one GitHub gives no text for, is said as such.
 */
export function symlinkBody(
  answer: Extract<ContentsAnswer, { kind: "symlink" }>,
  options: { ref?: string | undefined; lines?: { start: number; end: number } | undefined },
): SymlinkBody {
  const link = quoted(answer.path);
  if (answer.target === null) {
    return {
      description: `${link} is a symbolic link. GitHub gives its target as binary data, so it cannot be shown here; open it on GitHub.`,
      targetUrl: null,
    };
  }
  const written = quoted(answer.target);
  const resolved = resolveLinkTarget(answer.path, answer.target);
  if (resolved === null) {
    return {
      description: `${link} is a symbolic link to ${written}, outside the repository: there is nothing here to show.`,
      targetUrl: null,
    };
  }
  const inRepository = resolved === answer.target ? "" : ` (${quoted(resolved)} in the repository)`;
  const command = [
    "/contents",
    `repo:${answer.repository.nameWithOwner}`,
    `path:${resolved}`,
    ...(options.ref ? [`ref:${options.ref}`] : []),
    ...(options.lines ? [`lines:${options.lines.start}-${options.lines.end}`] : []),
  ].join(" ");
  const targetUrl = objectUrl(answer.repository.url, "blob", answer.commit.oid, resolved);
  const webLink = maskedLink(escapeLabel(resolved, 100), targetUrl);
  return {
    description: [
      `${link} is a symbolic link to ${written}${inRepository}.`,
      `To see the target: ${quoted(command, QUOTED_WIDTH * 2)}, or open ${webLink} on GitHub.`,
    ].join("\n"),
    targetUrl,
  };
}
