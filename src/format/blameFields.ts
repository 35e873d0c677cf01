import type { APIEmbedField } from "discord-api-types/v10";
import type { BlameCommit } from "../github/types.js";
import { ELLIPSIS, escapeLabel, truncate } from "./escape.js";
import { heatMark } from "./heat.js";
import { LIMITS } from "./limits.js";
import { discordTimestamp, formatCount, maskedLink, shortOid } from "./message.js";
import { authorOf, type CommitGroup } from "./blameRanges.js";
import { lineSpan } from "./snippet.js";

/** Characters of a commit headline shown in a field. */
const HEADLINE_WIDTH = 120;
/** Spans listed in one field name before "+N more". */
const SPANS_PER_FIELD = 4;

/** The field of one commit: its spans, heat and short id; its linked headline, author and date. */
export function groupField(group: CommitGroup): APIEmbedField {
  const spans = group.spans.slice(0, SPANS_PER_FIELD).map(([a, b]) => lineSpan(a, b));
  if (group.spans.length > SPANS_PER_FIELD) spans.push(`+${group.spans.length - SPANS_PER_FIELD} more`);
  const commit = group.commit;
  const suffix = ` ${heatMark(group.age)} ${shortOid(commit.oid, commit.abbreviatedOid)}`;
  const name = truncate(spans.join(", "), LIMITS.fieldName - suffix.length) + suffix;
  return { name, value: commitSummary(commit) };
}

/** A commit's linked headline, then its author and date: "[Fix it](url)\nby alice · <t:…:R>". */
function commitSummary(commit: BlameCommit): string {
  const headline = escapeLabel(commit.messageHeadline || "(no commit message)", HEADLINE_WIDTH);
  const when = discordTimestamp(commit.authoredDate) ?? "date unknown";
  const author = escapeLabel(authorOf(commit), 60);
  return `${maskedLink(headline, commit.url)}\nby ${author} · ${when}`;
}

/** The field of a file's last change (a binary file, which has no lines): its commit, headline, author, date. */
export function lastChangeField(commit: BlameCommit): APIEmbedField {
  return {
    name: `Last changed in ${shortOid(commit.oid, commit.abbreviatedOid)}`,
    value: commitSummary(commit),
  };
}

function rangesWord(count: number): string {
  return count === 1 ? "range" : "ranges";
}

/**
 * Fields for the commit groups within `budget` characters and 25 fields; when some do not fit, a
 * last field says how many ranges are left out and where to find them.
 */
export function blameFields(
  groups: readonly CommitGroup[],
  budget: number,
  hasAttachment: boolean,
): APIEmbedField[] {
  const fields: APIEmbedField[] = [];
  const moreValue = hasAttachment
    ? "Every line of the selection, with its commit, is in the attachment."
    : "Each line above shows its commit id and author.";
  const moreReserve = `${ELLIPSIS} and ${formatCount(1e9)} more ranges`.length + moreValue.length;
  let used = 0;
  let shown = 0;
  for (const group of groups) {
    const field = groupField(group);
    const cost = field.name.length + field.value.length;
    const isLast = shown === groups.length - 1;
    const room = isLast ? budget : budget - moreReserve;
    const slots = isLast ? LIMITS.fields : LIMITS.fields - 1;
    if (fields.length >= slots || used + cost > room) break;
    fields.push(field);
    used += cost;
    shown += 1;
  }
  if (shown < groups.length) {
    const hidden = groups.slice(shown).reduce((sum, group) => sum + group.spans.length, 0);
    const name = `${ELLIPSIS} and ${formatCount(hidden)} more ${rangesWord(hidden)}`;
    if (used + name.length + moreValue.length <= budget) fields.push({ name, value: moreValue });
  }
  return fields;
}
