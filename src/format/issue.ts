import type { APIEmbed, APIEmbedField } from "discord-api-types/v10";
import type { IssueAnswer } from "../github/issueTypes.js";
import { defusePlainText, escapeLabel, inlineCode } from "./escape.js";
import {
  bodyExcerpt,
  changesText,
  checksText,
  loginText,
  referenceText,
  stateLabel,
  STATE_COLORS,
} from "./itemWords.js";
import { fitMessage, LIMITS, measureEmbed } from "./limits.js";
import {
  discordTimestamp,
  embedRoom,
  embedUrl,
  emptyMessage,
  footerText,
  formatCount,
  type FormattedMessage,
  type Freshness,
} from "./message.js";
import { withFields } from "../withFields.js";

/** What the issue answer needs besides its data. */
export interface IssueMeta {
  freshness: Freshness;
  now: Date;
  /** The share of the message's embed characters this answer may use (several links in one reply). */
  embedBudget?: number | undefined;
}

/** Characters of the body shown at most; the rest is on GitHub. */
const BODY_CHARACTERS = 700;
/** Labels and assignees named at most. */
const LIST_ITEMS = 10;

const REVIEW_WORDS = {
  APPROVED: "✅ approved",
  CHANGES_REQUESTED: "✋ changes requested",
  REVIEW_REQUIRED: "👀 review required",
} as const;

const MERGEABLE_WORDS = {
  MERGEABLE: "yes, no conflicts",
  CONFLICTING: "⚠️ no: it has conflicts",
  UNKNOWN: "not known yet (GitHub is still checking)",
} as const;

/** "#5 Fix tick drift", escaped and cut to an embed title. */
export function itemTitle(answer: Pick<IssueAnswer, "number" | "title">): string {
  const number = `#${answer.number} `;
  return `${number}${escapeLabel(answer.title, LIMITS.title - number.length)}`;
}

/** Names in a list, each as inline code (a label named `` ` `` is text), the rest counted. */
function listText(names: readonly string[], total: number, asCode: boolean): string {
  // In code a mention never renders; defused all the same, so no reader of the text mistakes it.
  const shown = names
    .slice(0, LIST_ITEMS)
    .map((name) => (asCode ? inlineCode(defusePlainText(name.slice(0, 50))) : loginText(name)));
  const more = Math.max(total, names.length) - shown.length;
  return shown.length === 0
    ? "none"
    : `${shown.join(", ")}${more > 0 ? ` and ${formatCount(more)} more` : ""}`;
}

/** "opened <t:…:R> by **alice** · updated <t:…:R>" (and when it closed or merged). */
function datesLine(answer: IssueAnswer): string {
  const parts = [
    `opened ${discordTimestamp(answer.createdAt) ?? "at an unknown time"} by ${loginText(answer.author)}`,
  ];
  const closed = discordTimestamp(answer.closedAt);
  if (closed !== null) parts.push(`${answer.state === "merged" ? "merged" : "closed"} ${closed}`);
  const updated = discordTimestamp(answer.updatedAt);
  if (updated !== null) parts.push(`updated ${updated}`);
  return parts.join(" · ");
}

function pullFields(answer: IssueAnswer): APIEmbedField[] {
  const pull = answer.pullRequest;
  if (!pull) return [];
  const head = pull.headOwner === null ? pull.head : `${pull.headOwner}:${pull.head}`;
  return [
    {
      name: "Branches",
      value: `${inlineCode(pull.base)} ← ${inlineCode(head)}`.slice(0, LIMITS.fieldValue),
      inline: false,
    },
    {
      name: "Review",
      value: pull.reviewDecision === null ? "no review required" : REVIEW_WORDS[pull.reviewDecision],
      inline: true,
    },
    { name: "Checks", value: checksText(pull.checks), inline: true },
    { name: "Changes", value: changesText(pull.additions, pull.deletions, pull.changedFiles), inline: true },
    ...(answer.state === "open" || answer.state === "draft"
      ? [{ name: "Mergeable", value: MERGEABLE_WORDS[pull.mergeable], inline: true }]
      : []),
  ];
}

/** The linked issues or pull requests, one a line, the rest counted. */
function linkedField(answer: IssueAnswer): APIEmbedField[] {
  if (answer.linked.length === 0) return [];
  const kind = answer.kind === "issue" ? "pullRequest" : "issue";
  const lines = answer.linked.map((reference) => referenceText(reference, kind));
  const more = answer.linkedCount - answer.linked.length;
  if (more > 0) lines.push(`and ${formatCount(more)} more`);
  return [
    {
      name: answer.kind === "issue" ? "Closed by" : "Closes",
      value: lines.join("\n").slice(0, LIMITS.fieldValue),
      inline: false,
    },
  ];
}

/**
 * The answer of `/issue`: the title linked, the state in words and colour, author and dates, the
 * start of the body (escaped: its markdown, mentions and fences are text), labels, assignees,
 * comments; a pull request adds its branches, review decision, checks, `+/-` in N files, whether
 * it can be merged, and the issues it closes; an issue the pull requests that close it.
 */
export function formatIssue(answer: IssueAnswer, meta: IssueMeta): FormattedMessage {
  const kindWords = answer.kind === "pullRequest" ? "pull request" : "issue";
  const head = `${stateLabel(answer.state, answer.kind)} ${kindWords} · ${datesLine(answer)}`;
  const embed: APIEmbed = {
    title: itemTitle(answer),
    color: STATE_COLORS[answer.state],
    author: { name: escapeLabel(answer.repository.nameWithOwner, LIMITS.author) },
    fields: [
      ...pullFields(answer),
      {
        name: "Labels",
        value: listText(
          answer.labels.map((label) => label.name),
          answer.labelCount,
          true,
        ),
        inline: true,
      },
      { name: "Assignees", value: listText(answer.assignees, answer.assigneeCount, false), inline: true },
      { name: "Comments", value: formatCount(answer.comments), inline: true },
      ...linkedField(answer),
    ],
    footer: { text: footerText(meta.freshness, meta.now) },
  };
  const url = embedUrl(answer.url);
  if (url) embed.url = url;
  const authorUrl = embedUrl(answer.repository.url);
  if (authorUrl && embed.author) embed.author.url = authorUrl;
  // The body gets what the rest leaves of this answer's room.
  const room = embedRoom(meta) - measureEmbed(withFields(embed, { description: head }));
  const body = bodyExcerpt(answer.body, Math.min(BODY_CHARACTERS, room - 2));
  embed.description = body === "" ? head : `${head}\n\n${body}`;
  const message = emptyMessage();
  message.embeds.push(embed);
  return fitMessage(message);
}
