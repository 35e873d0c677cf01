import type { APIEmbed } from "discord-api-types/v10";
import type { Contributor, ContributorsPage } from "../github/types.js";
import { ELLIPSIS, escapeLabel, sanitizeSingleLine, truncate } from "./escape.js";
import { fitMessage, LIMITS } from "./limits.js";
import {
  COLORS,
  emptyMessage,
  footerText,
  formatCount,
  embedUrl,
  maskedLink,
  navigationRow,
  type FormattedMessage,
  type PagedAnswerMeta,
} from "./message.js";
import { safeFileName } from "./snippet.js";

export interface ContributorsView {
  /** `owner/name`. */
  repo: string;
  /** The repository's web page, for the title link. */
  repoUrl?: string;
}

export type ContributorsMeta = PagedAnswerMeta;

/** GitHub logins are at most 39 characters; anything longer is cut all the same. */
const LOGIN_WIDTH = 40;
const NAME_WIDTH = 60;

function contributionsText(count: number): string {
  return `${formatCount(count)} ${count === 1 ? "contribution" : "contributions"}`;
}

/**
 * Who a contributor is, as shown: a linked login with 🤖 for bots and 🏢 for organizations, or,
 * for a contributor whose email maps to no account, "anonymous" with their git name. The email is
 * never shown: it is personal data the user did not ask for.
 */
function contributorLabel(contributor: Contributor): string {
  if (contributor.kind === "account") {
    const login = maskedLink(escapeLabel(contributor.login, LOGIN_WIDTH) || "(unknown)", contributor.htmlUrl);
    const mark = contributor.type === "Bot" ? " 🤖" : contributor.type === "Organization" ? " 🏢" : "";
    return `${login}${mark}`;
  }
  const name = sanitizeSingleLine(contributor.name ?? "");
  return name
    ? `${escapeLabel(name, NAME_WIDTH)} (anonymous, no GitHub account)`
    : "anonymous (no GitHub account)";
}

function attachmentLine(rank: number, contributor: Contributor): string {
  const who =
    contributor.kind === "account"
      ? `${sanitizeSingleLine(contributor.login)}${contributor.type === "Bot" ? " (bot)" : ""}\t${contributor.htmlUrl}`
      : `${sanitizeSingleLine(contributor.name ?? "") || "anonymous"} (anonymous)\t`;
  return `${rank}\t${who}\t${contributor.contributions}`;
}

/**
 * The answer of `/contributors`: page N of M (M when GitHub said which page is last), then per
 * contributor the rank, the login linked to its GitHub page (🤖 for bots) or "anonymous" with the
 * git name (never the email), and the number of contributions. Previous / Next buttons (disabled
 * without a custom id) and a link to the repository's contributors graph.
 */
export function formatContributors(
  page: ContributorsPage,
  view: ContributorsView,
  meta: ContributorsMeta,
): FormattedMessage {
  const title = escapeLabel(`Contributors of ${view.repo}`, LIMITS.title);
  const footer = footerText(meta.freshness, meta.now);
  const pageNumber = Number.isFinite(page.page) ? Math.max(1, Math.floor(page.page)) : 1;
  const perPage = Number.isFinite(page.perPage) && page.perPage > 0 ? Math.floor(page.perPage) : 30;
  const lastPage =
    page.lastPage !== null && Number.isFinite(page.lastPage) ? Math.max(1, page.lastPage) : null;
  const head =
    lastPage !== null
      ? `Page ${formatCount(pageNumber)} of ${formatCount(lastPage)}`
      : `Page ${formatCount(pageNumber)}`;

  const lines = [head];
  const files: FormattedMessage["files"] = [];
  if (page.contributors.length === 0) {
    lines.push(
      lastPage !== null && pageNumber > lastPage
        ? `No contributors on this page: the last page is ${formatCount(lastPage)}.`
        : "No contributors on this page.",
    );
  } else {
    const budget = Math.min(LIMITS.description, LIMITS.embedTotal - title.length - footer.length);
    const moreNote = (omitted: number) =>
      `${ELLIPSIS} ${formatCount(omitted)} more on this page, in the attachment.`;
    let used = head.length + moreNote(page.contributors.length).length + 1;
    let shown = 0;
    const firstRank = (pageNumber - 1) * perPage + 1;
    for (const [index, contributor] of page.contributors.entries()) {
      const line = `**${formatCount(firstRank + index)}.** ${contributorLabel(contributor)} · ${contributionsText(contributor.contributions)}`;
      if (used + line.length + 1 > budget) break;
      lines.push(line);
      used += line.length + 1;
      shown += 1;
    }
    const omitted = page.contributors.length - shown;
    if (omitted > 0) {
      lines.push(moreNote(omitted));
      const text = page.contributors.map((contributor, index) =>
        attachmentLine(firstRank + index, contributor),
      );
      files.push({
        name: `contributors-${safeFileName(view.repo.replace("/", "-"), 60)}-page-${pageNumber}.txt`,
        data: Buffer.from(`rank\tlogin\turl\tcontributions\n${text.join("\n")}\n`, "utf8"),
        description: truncate(`contributors of ${sanitizeSingleLine(view.repo)}, page ${pageNumber}`, 200),
      });
    }
  }

  const graphUrl = view.repoUrl ? `${view.repoUrl.replace(/\/+$/, "")}/graphs/contributors` : undefined;
  const embed: APIEmbed = {
    title,
    color: COLORS.contributors,
    description: lines.join("\n"),
    footer: { text: footer },
  };
  const link = embedUrl(view.repoUrl);
  if (link) embed.url = link;
  const message = emptyMessage();
  message.embeds.push(embed);
  message.files.push(...files);
  message.components.push(
    navigationRow({
      previous: meta.buttons?.previous,
      next: meta.buttons?.next,
      previousLabel: "◀ Previous",
      nextLabel: "Next ▶",
      link: graphUrl ? { label: "Open on GitHub", url: graphUrl } : undefined,
    }),
  );
  return fitMessage(message);
}
