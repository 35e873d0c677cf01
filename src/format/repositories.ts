import type { APIEmbed } from "discord-api-types/v10";
import type { RepositoriesPage, RepositorySort, RepositorySummary } from "../github/types.js";
import { ELLIPSIS, escapeLabel, sanitizeSingleLine, truncate } from "./escape.js";
import { fitMessage, LIMITS } from "./limits.js";
import {
  COLORS,
  discordTimestamp,
  emptyMessage,
  footerText,
  formatCount,
  embedUrl,
  safeUrl,
  maskedLink,
  navigationRow,
  type FormattedMessage,
  type PagedAnswerMeta,
} from "./message.js";
import { safeFileName } from "./snippet.js";

export interface RepositoriesView {
  sort: RepositorySort;
  /** 1-based. */
  pageNumber: number;
  perPage: number;
}

export type RepositoriesMeta = PagedAnswerMeta;

/** Characters of a repository name in the list. */
const NAME_WIDTH = 100;
/** Characters of a description, at most, when there is room for it. */
const DESCRIPTION_WIDTH = 100;
/** Below this, a description is left out rather than cut to a stub. */
const DESCRIPTION_MIN = 12;

/** The owner's page, from a repository URL (`https://host/owner/name` -> `https://host/owner`). */
function ownerUrl(page: RepositoriesPage): string | null {
  const first = page.repositories.find((repository) => safeUrl(repository.url) !== null);
  if (!first) return null;
  const url = first.url.replace(/\/+$/, "");
  const cut = url.lastIndexOf("/");
  const owner = url.slice(0, cut);
  return owner.toLowerCase().endsWith(`/${page.owner.login.toLowerCase()}`) ? owner : null;
}

function entryLine(repository: RepositorySummary): string {
  const name = maskedLink(
    escapeLabel(repository.name || repository.nameWithOwner, NAME_WIDTH) || "(unnamed)",
    repository.url,
  );
  const lock = repository.isPrivate ? " 🔒" : "";
  const pushed = discordTimestamp(repository.pushedAt);
  return `${name}${lock} · ${pushed ? `pushed ${pushed}` : "never pushed"}`;
}

function attachmentLine(repository: RepositorySummary): string {
  const pushed = repository.pushedAt ?? "never pushed";
  const description = sanitizeSingleLine(repository.description ?? "");
  return [
    sanitizeSingleLine(repository.nameWithOwner),
    repository.isPrivate ? "private" : "public",
    pushed,
    repository.url,
    description,
  ].join("\t");
}

/**
 * The answer of `/repos`: the owner (and whether it is an organization), the total count, the
 * page (and that only public ones are listed, for the default token's list), and per repository
 * its linked name, 🔒 when private, its last push as a Discord relative
 * timestamp (or "never pushed") and a one-line escaped description, shortened so the whole page
 * fits. Previous / Next buttons (disabled without a custom id) and a link to the owner.
 */
export function formatRepositories(
  page: RepositoriesPage,
  view: RepositoriesView,
  meta: RepositoriesMeta,
): FormattedMessage {
  const isOrganization = page.owner.type === "Organization";
  const suffix = isOrganization ? " (organization)" : "";
  const prefix = "Repositories of ";
  const title = `${prefix}${escapeLabel(page.owner.login, LIMITS.title - prefix.length - suffix.length)}${suffix}`;
  const footer = footerText(meta.freshness, meta.now);
  const pageNumber = Number.isFinite(view.pageNumber) ? Math.max(1, Math.floor(view.pageNumber)) : 1;
  const perPage = Number.isFinite(view.perPage)
    ? Math.max(1, Math.floor(view.perPage))
    : page.repositories.length;
  const first = (pageNumber - 1) * perPage + 1;
  const last = first + page.repositories.length - 1;
  const order = view.sort === "name" ? "by name" : "most recently pushed first";
  const total = `**${formatCount(page.totalCount)}** ${page.totalCount === 1 ? "repository" : "repositories"}`;
  const span = page.repositories.length > 0 ? ` (${formatCount(first)}–${formatCount(last)})` : "";
  const publicOnly = page.publicOnly
    ? "\n*Public repositories only: the bot's shared token lists no private ones.*"
    : "";
  const head = `${total} · ${order} · page ${formatCount(pageNumber)}${span}${publicOnly}`;

  const files: FormattedMessage["files"] = [];
  const lines: string[] = [head];
  if (page.totalCount === 0 && page.repositories.length === 0) {
    lines.push(`${escapeLabel(page.owner.login, 100)} has no repositories this token can see.`);
  } else if (page.repositories.length === 0) {
    lines.push("No repositories on this page.");
  } else {
    const budget = Math.min(LIMITS.description, LIMITS.embedTotal - title.length - footer.length);
    const moreNote = (omitted: number) =>
      `${ELLIPSIS} ${formatCount(omitted)} more on this page, in the attachment.`;
    const entries = page.repositories.map(entryLine);
    // Every entry gets its line; what is left is shared fairly among the descriptions.
    const base = head.length + entries.reduce((sum, entry) => sum + entry.length + 1, 0);
    const withDescription = page.repositories.filter((repository) =>
      sanitizeSingleLine(repository.description ?? ""),
    );
    const share =
      withDescription.length > 0 ? Math.floor((budget - base) / withDescription.length) - " — ".length : 0;
    const width = Math.min(DESCRIPTION_WIDTH, share);
    let used = head.length + moreNote(page.repositories.length).length + 1;
    let shown = 0;
    for (const [index, repository] of page.repositories.entries()) {
      const description = sanitizeSingleLine(repository.description ?? "");
      let line = entries[index]!;
      if (description && width >= DESCRIPTION_MIN) line += ` — ${escapeLabel(description, width)}`;
      if (used + line.length + 1 > budget) break;
      lines.push(line);
      used += line.length + 1;
      shown += 1;
    }
    const omitted = page.repositories.length - shown;
    if (omitted > 0) {
      lines.push(moreNote(omitted));
      files.push({
        name: `repositories-${safeFileName(page.owner.login, 40)}-page-${pageNumber}.txt`,
        data: Buffer.from(
          `name\tvisibility\tpushed\turl\tdescription\n${page.repositories.map(attachmentLine).join("\n")}\n`,
          "utf8",
        ),
        description: truncate(
          `repositories of ${sanitizeSingleLine(page.owner.login)}, page ${pageNumber}`,
          200,
        ),
      });
    }
  }

  const url = ownerUrl(page);
  const embed: APIEmbed = {
    title,
    color: COLORS.repositories,
    description: lines.join("\n"),
    footer: { text: footer },
  };
  const link = embedUrl(url);
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
      link: url ? { label: "Open on GitHub", url } : undefined,
    }),
  );
  return fitMessage(message);
}
