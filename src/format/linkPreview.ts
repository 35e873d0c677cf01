import { ButtonStyle, ComponentType, type APIEmbed } from "discord-api-types/v10";
import type { CommitAnswer, IssueAnswer } from "../github/issueTypes.js";
import type { ContentsAnswer } from "../github/types.js";
import { ELLIPSIS, escapeLabel, sanitizeLanguage } from "./escape.js";
import { itemTitle } from "./issue.js";
import { changesText, checksText, COMMIT_COLOR, loginText, stateLabel, STATE_COLORS } from "./itemWords.js";
import { fitMessage, LIMITS } from "./limits.js";
import { selectLines } from "./lineSelection.js";
import {
  COLORS,
  discordTimestamp,
  embedUrl,
  emptyMessage,
  formatCount,
  objectUrl,
  shortOid,
  type FormattedMessage,
} from "./message.js";
import { digitsOf, displayLine, fileLines, languageFor } from "./snippet.js";
import { withFields } from "../withFields.js";

/*
 * Compact previews (SPEC section 7): one small embed per link, for a reply that previews several
 * links at once. Each is at most a title and one or two lines, well within 6,000 / 3.
 */

const REVIEW_SHORT = {
  APPROVED: "approved",
  CHANGES_REQUESTED: "changes requested",
  REVIEW_REQUIRED: "review required",
} as const;

function withLinks(embed: APIEmbed, url: string, repositoryName: string, repositoryUrl: string): APIEmbed {
  const link = embedUrl(url);
  if (link) embed.url = link;
  embed.author = { name: escapeLabel(repositoryName, LIMITS.author) };
  const authorUrl = embedUrl(repositoryUrl);
  if (authorUrl) embed.author.url = authorUrl;
  return embed;
}

/**
 * An issue or pull request's state line: "🟢 Open pull request by **bob** · ❌ 1 failing · ⏳ 2
 * pending · changes requested · +12 −3", for an issue "🟣 Closed as completed issue by **carol** ·
 * 2 comments".
 */
export function issueStateLine(answer: IssueAnswer): string {
  const kind = answer.kind === "pullRequest" ? "pull request" : "issue";
  const parts = [`${stateLabel(answer.state, answer.kind)} ${kind} by ${loginText(answer.author)}`];
  const pull = answer.pullRequest;
  if (pull) {
    if (pull.checks !== null) parts.push(checksText(pull.checks));
    if (pull.reviewDecision !== null && (answer.state === "open" || answer.state === "draft")) {
      parts.push(REVIEW_SHORT[pull.reviewDecision]);
    }
    parts.push(changesText(pull.additions, pull.deletions));
  } else {
    parts.push(`${answer.comments} ${answer.comments === 1 ? "comment" : "comments"}`);
  }
  const updated = discordTimestamp(answer.updatedAt);
  if (updated !== null) parts.push(`updated ${updated}`);
  return parts.join(" · ");
}

/** A compact preview of an issue or a pull request: its linked title and its state line. */
export function issuePreviewEmbed(answer: IssueAnswer): APIEmbed {
  return withLinks(
    { title: itemTitle(answer), color: STATE_COLORS[answer.state], description: issueStateLine(answer) },
    answer.url,
    answer.repository.nameWithOwner,
    answer.repository.url,
  );
}

/** A commit's summary line: "`4e0d166` by **carol** · +602 −0 in 301 files · ✅ 3 passing". */
export function commitSummaryLine(answer: CommitAnswer): string {
  const who = answer.author?.login ?? answer.author?.name ?? null;
  const more = answer.coAuthors.length > 0 ? ` and ${answer.coAuthors.length} more` : "";
  const parts = [
    `\`${shortOid(answer.oid, answer.abbreviatedOid)}\` by ${loginText(who)}${more}`,
    changesText(answer.additions, answer.deletions, answer.changedFiles),
  ];
  if (answer.checks !== null) parts.push(checksText(answer.checks));
  const date = discordTimestamp(answer.authoredDate);
  if (date !== null) parts.push(date);
  return parts.join(" · ");
}

/** A compact preview of a commit: its linked headline and its summary line. */
export function commitPreviewEmbed(answer: CommitAnswer): APIEmbed {
  const title = answer.headline === "" ? shortOid(answer.oid, answer.abbreviatedOid) : answer.headline;
  return withLinks(
    { title: escapeLabel(title, LIMITS.title), color: COMMIT_COLOR, description: commitSummaryLine(answer) },
    answer.url,
    answer.repository.nameWithOwner,
    answer.repository.url,
  );
}

/** Lines of code an automatic preview shows at most (SPEC section 7). */
export const PREVIEW_MAX_LINES = 15;
/** Links one automatic preview answers at most (SPEC section 7). */
export const PREVIEW_MAX_LINKS = 3;
/** A preview line is cut sooner than an answer's: the reply stays compact beside the conversation. */
const PREVIEW_LINE_WIDTH = 100;

/** The lines a file link names (`#L10-L20`; `#L42` is one line). */
export interface PreviewLines {
  start: number;
  end: number;
}

function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/**
 * The compact preview of a file link with a line anchor: `owner/name path` linked to the lines at
 * the commit they were read at, at most {@link PREVIEW_MAX_LINES} numbered lines in a code block
 * (the rest counted), and the short commit id. A binary or empty file says so in one line. Pure
 * and total: any path or text gives a valid embed, and nothing in the file can close the block.
 * @param privateMark set when the repository is private and the server lets previews of it be posted.
 */
export function formatFilePreview(
  answer: Extract<ContentsAnswer, { kind: "blob" }>,
  lines: PreviewLines,
  privateMark = false,
): APIEmbed {
  const name = answer.repository.nameWithOwner;
  const base = `${escapeLabel(name, 100)} ${escapeLabel(answer.path, 140)}`;
  const embed: APIEmbed = { color: COLORS.contents };
  const footer = [`📄 ${shortOid(answer.commit.oid)}`];
  if (privateMark) footer.push(PRIVATE_MARK);
  const file = answer.file;
  if (file.kind === "binary") {
    embed.title = base;
    embed.description = "A binary file: it cannot be shown as text.";
  } else {
    const all = fileLines(file);
    const { start, end } = selectLines({ start: lines.start, end: lines.end, requested: true }, all.length, {
      complete: !file.isTruncated,
    });
    if (end < start) {
      embed.title = base;
      embed.description = "This file is empty.";
    } else {
      const shownEnd = Math.min(end, start + PREVIEW_MAX_LINES - 1);
      const width = digitsOf(shownEnd);
      const shown: string[] = [];
      for (let line = start; line <= shownEnd; line += 1) {
        shown.push(
          `${String(line).padStart(width)} │ ${displayLine(all[line - 1] ?? "", PREVIEW_LINE_WIDTH).text}`,
        );
      }
      const anchor = start === end ? `L${start}` : `L${start}-L${end}`;
      embed.title = `${base} ${start === end ? `line ${formatCount(start)}` : `lines ${formatCount(start)}–${formatCount(end)}`}`;
      const url = embedUrl(
        `${objectUrl(answer.repository.url, "blob", answer.commit.oid, answer.path)}#${anchor}`,
      );
      if (url) embed.url = url;
      const more = end - shownEnd;
      embed.description =
        `\`\`\`${sanitizeLanguage(languageFor(answer.path))}\n${shown.join("\n")}\n\`\`\`` +
        (more > 0 ? `\n${ELLIPSIS} ${plural(more, "more line", "more lines")}` : "");
    }
  }
  embed.footer = { text: footer.join(" · ") };
  if ((embed.title ?? "").length > LIMITS.title)
    embed.title = `${embed.title!.slice(0, LIMITS.title - 1)}${ELLIPSIS}`;
  return embed;
}

/** The mark of a preview drawn from a private repository, where the server lets it be posted. */
const PRIVATE_MARK = "🔒 private repository";

/** A preview embed marked as drawn from a private repository (in its footer, after what is there). */
export function withPrivateMark(embed: APIEmbed): APIEmbed {
  const text = embed.footer?.text;
  if (text?.includes(PRIVATE_MARK)) return embed;
  return withFields(embed, {
    footer: withFields(embed.footer ?? {}, { text: text ? `${text} · ${PRIVATE_MARK}` : PRIVATE_MARK }),
  });
}

/** The custom id of a preview's Dismiss button: who may press it is its author (`<prefix>:<authorId>`). */
export const DISMISS_PREFIX = "dismiss-preview";

/**
 * The reply of an automatic preview: one embed per link (at most {@link PREVIEW_MAX_LINKS}), each
 * cut to its share of Discord's 6,000 characters, and a `Dismiss` button whose custom id names the
 * author of the message it answers.
 */
export function formatPreviewReply(embeds: readonly APIEmbed[], authorId: string): FormattedMessage {
  const message = emptyMessage();
  message.embeds.push(...embeds.slice(0, PREVIEW_MAX_LINKS));
  message.components.push({
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        label: "Dismiss",
        custom_id: `${DISMISS_PREFIX}:${authorId}`,
      },
    ],
  });
  return fitMessage(message);
}
