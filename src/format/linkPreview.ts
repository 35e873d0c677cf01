import type { APIEmbed } from "discord-api-types/v10";
import type { CommitAnswer, IssueAnswer } from "../github/issueTypes.js";
import { escapeLabel } from "./escape.js";
import { itemTitle } from "./issue.js";
import { changesText, checksText, COMMIT_COLOR, loginText, stateLabel, STATE_COLORS } from "./itemWords.js";
import { LIMITS } from "./limits.js";
import { discordTimestamp, embedUrl, shortOid } from "./message.js";

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
