import type { APIEmbed } from "discord-api-types/v10";
import type { GitAuthor, HistoryPage } from "../github/ownershipTypes.js";
import { escapeLabel, inlineCode } from "./escape.js";
import { fitMessage, LIMITS } from "./limits.js";
import {
  discordTimestamp,
  emptyMessage,
  embedUrl,
  encodePath,
  footerText,
  formatCount,
  maskedLink,
  navigationRow,
  shortOid,
  type FormattedMessage,
  type PagedAnswerMeta,
} from "./message.js";

/** The colour of `/history` answers. */
export const HISTORY_COLOR = 0xd29922;

const HEADLINE_WIDTH = 90;
const AUTHOR_WIDTH = 40;

/** Which page of the history is shown (1-based) and how many a page holds. */
export interface HistoryView {
  /** `owner/name`. */
  repo: string;
  page: number;
  pageSize: number;
}

/** Who wrote a commit, as shown: the login GitHub links the e-mail to, else the git name. Never the e-mail. */
export function authorText(author: GitAuthor, width = AUTHOR_WIDTH): string {
  if (author.login) return `**${escapeLabel(author.login, width)}**`;
  const name = escapeLabel(author.name ?? "", width);
  return name === "" ? "unknown author" : name;
}

/** `+12 −3`: the lines a commit added and deleted. */
function changeText(additions: number, deletions: number): string {
  return `+${formatCount(additions)} −${formatCount(deletions)}`;
}

/**
 * The answer of `/history`: the commits that touched a file or a folder, newest first, 10 a page:
 * short id linked to the commit, headline, author, relative time, `+/−` of the whole commit.
 * Previous / Next (disabled without a custom id); the footer names the commit the pages are pinned to.
 */
export function formatHistory(page: HistoryPage, view: HistoryView, meta: PagedAnswerMeta): FormattedMessage {
  const where = page.path === "" ? view.repo : `${view.repo} ${page.path}`;
  const title = escapeLabel(`History of ${where}`, LIMITS.title);
  const pageNumber = Math.max(1, Math.floor(Number.isFinite(view.page) ? view.page : 1));
  const pages = Math.max(1, Math.ceil(page.totalCount / Math.max(1, view.pageSize)));
  const lines: string[] = [];
  const subject = page.path === "" ? "the repository" : inlineCode(page.path);
  if (page.totalCount === 0) {
    lines.push(
      page.path === ""
        ? "No commits at this ref."
        : `No commit at this ref touched ${subject}. Check the path: GitHub keeps no history for a path that never existed.`,
    );
  } else {
    lines.push(
      `${formatCount(page.totalCount)} ${page.totalCount === 1 ? "commit" : "commits"} touched ${subject} · page ${formatCount(pageNumber)} of ${formatCount(pages)} · \`+/−\` of the whole commit`,
    );
    for (const commit of page.commits) {
      const id = maskedLink(`\`${shortOid(commit.oid, commit.abbreviatedOid)}\``, commit.url);
      const headline = escapeLabel(commit.messageHeadline, HEADLINE_WIDTH) || "(no message)";
      const when = discordTimestamp(commit.authoredDate) ?? "at an unknown time";
      lines.push(
        `${id} ${headline}\n  ${authorText(commit.author)} · ${when} · ${changeText(commit.additions, commit.deletions)}`,
      );
    }
  }
  const embed: APIEmbed = {
    title,
    color: HISTORY_COLOR,
    description: lines.join("\n"),
    footer: { text: footerText(meta.freshness, meta.now, page.commit.oid, meta.ref) },
  };
  const base = page.repository.url.replace(/\/+$/, "");
  const commitsUrl = `${base}/commits/${encodePath(page.commit.oid)}${page.path === "" ? "" : `/${encodePath(page.path)}`}`;
  const link = embedUrl(commitsUrl);
  if (link) embed.url = link;
  const message = emptyMessage();
  message.embeds.push(embed);
  message.components.push(
    navigationRow({
      previous: meta.buttons?.previous,
      next: meta.buttons?.next,
      previousLabel: "◀ Previous",
      nextLabel: "Next ▶",
      link: { label: "Open on GitHub", url: commitsUrl },
    }),
  );
  return fitMessage(message);
}
