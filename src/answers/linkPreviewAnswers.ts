import type { APIEmbed } from "discord-api-types/v10";
import {
  commitPreviewEmbed,
  formatFilePreview,
  issuePreviewEmbed,
  withPrivateMark,
} from "../format/linkPreview.js";
import type { AnswerPrivacy } from "../format/privacy.js";
import { githubLinksOf, linkKey, type GitHubLink } from "../input/githubLinks.js";
import type { RepoRef } from "../github/types.js";
import type { Asker, Scout } from "./scout.js";
import { firstExistingSplit } from "./urlSplits.js";

/** A link an automatic preview answers, with the key of the 5-minute repeat rule. */
export interface PreviewTarget {
  link: GitHubLink;
  /** The same for every spelling of one issue, commit or file lines (see `linkKey`). */
  key: string;
}

/** One link's compact preview: its embed, and whether it shows a private repository. */
export interface RenderedPreview {
  embed: APIEmbed;
  privacy?: AnswerPrivacy;
  /** Drawn from the cache, not from GitHub (for the benchmark's cached / not cached figures). */
  fromCache: boolean;
}

/**
 * Reads one kind of link and renders it compactly: the seam where every kind an automatic preview
 * answers plugs in. The asker never carries a person's own sign-in (SPEC section 7).
 */
export type PreviewRenderer = (link: GitHubLink, asker: Asker, scout: Scout) => Promise<RenderedPreview>;

/** A link that reads as something a preview does not show (a file link that names a folder). */
export class NotPreviewableError extends Error {
  constructor() {
    super("the link names nothing a preview shows");
    this.name = "NotPreviewableError";
  }
}

/** Links read in a message at most, before the ones already previewed nearby are left out. */
const MAX_CANDIDATES = 10;

/**
 * A file link with a line anchor (`#L10`, `#L10-L20`): the lines at the commit the ref names now,
 * read as `/contents` reads them (a branch with slashes tried split by split), shown compactly.
 */
export const renderFilePreview: PreviewRenderer = async (link, asker, scout) => {
  if (link.kind !== "file" || !link.argument.lines) throw new NotPreviewableError();
  const { argument } = link;
  const lines = argument.lines!;
  const read = (ref: string | undefined, path: string) =>
    scout.contents(asker, { repo: argument.repo, path, ...(ref !== undefined ? { ref } : {}) });
  const fetched = argument.splits
    ? await firstExistingSplit(argument.splits, (split) => read(split.ref, split.path))
    : await read(argument.ref, argument.path ?? "");
  const answer = fetched.value;
  if (answer.kind !== "blob") throw new NotPreviewableError();
  return {
    embed: formatFilePreview(answer, lines, fetched.privacy !== undefined),
    ...(fetched.privacy ? { privacy: fetched.privacy } : {}),
    fromCache: fetched.freshness.fromCache,
  };
};

/** An issue or a pull request (a URL or a reference): its linked title and its state line. */
export const renderIssuePreview: PreviewRenderer = async (link, asker, scout) => {
  if (link.kind !== "issue") throw new NotPreviewableError();
  const fetched = await scout.issue(asker, { repo: link.repo, number: link.number });
  return {
    embed: fetched.privacy
      ? withPrivateMark(issuePreviewEmbed(fetched.value))
      : issuePreviewEmbed(fetched.value),
    ...(fetched.privacy ? { privacy: fetched.privacy } : {}),
    fromCache: fetched.freshness.fromCache,
  };
};

/** A commit: its linked headline and its summary line (author, `+/−`, checks). */
export const renderCommitPreview: PreviewRenderer = async (link, asker, scout) => {
  if (link.kind !== "commit") throw new NotPreviewableError();
  const fetched = await scout.commit(asker, { repo: link.repo, ref: link.sha });
  return {
    embed: fetched.privacy
      ? withPrivateMark(commitPreviewEmbed(fetched.value))
      : commitPreviewEmbed(fetched.value),
    ...(fetched.privacy ? { privacy: fetched.privacy } : {}),
    fromCache: fetched.freshness.fromCache,
  };
};

/** The renderers of the kinds automatic previews answer; a kind without one is not previewed. */
export const PREVIEW_RENDERERS: Readonly<Partial<Record<GitHubLink["kind"], PreviewRenderer>>> = {
  issue: renderIssuePreview,
  commit: renderCommitPreview,
  file: renderFilePreview,
};

/** Whether a link is one automatic previews answer: an issue, a pull request, a commit, or a file's lines. */
function previewable(link: GitHubLink, renderers: typeof PREVIEW_RENDERERS): boolean {
  if (renderers[link.kind] === undefined) return false;
  return link.kind !== "file" || link.argument.lines !== undefined;
}

/**
 * The links of a message an automatic preview may answer, in the order written, without repeats
 * (SPEC section 7): issues, pull requests, commits and files with a line anchor on the GitHub web
 * host, and references (`owner/name#N`, a bare `#N` with the server's default repository). Links
 * inside `<...>`, code blocks and inline code are left out, as Discord shows them without a preview.
 */
export function previewTargetsOf(
  content: string,
  options: { webHosts: readonly string[]; defaultRepo?: RepoRef | undefined },
  renderers: typeof PREVIEW_RENDERERS = PREVIEW_RENDERERS,
): PreviewTarget[] {
  const { links } = githubLinksOf(content, {
    webHosts: options.webHosts,
    defaultRepo: options.defaultRepo,
    skipSuppressed: true,
    max: MAX_CANDIDATES,
  });
  return links.filter((link) => previewable(link, renderers)).map((link) => ({ link, key: linkKey(link) }));
}
