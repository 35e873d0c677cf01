import type { APIEmbed, APIEmbedField } from "discord-api-types/v10";
import type { CommitAnswer, CommitFile, CommitPerson } from "../github/issueTypes.js";
import { codeBlock, escapeLabel, sanitizeSingleLine, truncate } from "./escape.js";
import { bodyExcerpt, changesText, checksText, COMMIT_COLOR, referenceText } from "./itemWords.js";
import { fitMessage, LIMITS, measureEmbed } from "./limits.js";
import {
  discordTimestamp,
  embedRoom,
  embedUrl,
  emptyMessage,
  footerText,
  formatCount,
  shortOid,
  type FormattedMessage,
  type Freshness,
} from "./message.js";

/** What the commit answer needs besides its data. */
export interface CommitMeta {
  freshness: Freshness;
  now: Date;
  /** The ref it was asked at (a branch, a tag), shown in the footer before the commit. */
  ref?: string | undefined;
  embedBudget?: number | undefined;
}

/** Files listed at most (SPEC section 1); the rest are counted. */
export const MAX_COMMIT_FILES_SHOWN = 20;
/** Characters of the message body shown at most. */
const BODY_CHARACTERS = 500;
/** Characters of a path in the file list. */
const PATH_WIDTH = 70;

/** "**Carol Danvers** (carol)", or the name alone for an email with no account. */
export function personText(person: CommitPerson): string {
  const name = person.name ? `**${escapeLabel(person.name, 80)}**` : null;
  const login = person.login ? escapeLabel(person.login, 78) : null;
  if (name && login) return `${name} (${login})`;
  return name ?? (login ? `**${login}**` : "unknown");
}

const STATUS_MARKS: Record<string, string> = {
  added: "A",
  removed: "D",
  modified: "M",
  renamed: "R",
  copied: "C",
  changed: "T",
};

/** One file a line, in a code block (paths are text there): `M +12 −3 src/a.ts`. */
function fileLines(files: readonly CommitFile[], total: number, width: number): string {
  const shown = files.slice(0, MAX_COMMIT_FILES_SHOWN);
  const lines = shown.map((file) => {
    const mark = STATUS_MARKS[file.status] ?? "?";
    const path = file.previousPath ? `${file.previousPath} → ${file.path}` : file.path;
    return `${mark} ${changesText(file.additions, file.deletions).padEnd(12)} ${truncate(sanitizeSingleLine(path), width)}`;
  });
  const block = codeBlock(lines.join("\n"));
  const more = total - shown.length;
  return more > 0 ? `${block}… and ${formatCount(more)} more ${more === 1 ? "file" : "files"}` : block;
}

function fields(answer: CommitAnswer): APIEmbedField[] {
  const list: APIEmbedField[] = [
    { name: "Author", value: answer.author ? personText(answer.author) : "unknown", inline: true },
  ];
  if (answer.coAuthors.length > 0) {
    list.push({
      name: "Co-authors",
      value: answer.coAuthors.slice(0, 10).map(personText).join(", ").slice(0, LIMITS.fieldValue),
      inline: true,
    });
  }
  list.push(
    { name: "Date", value: discordTimestamp(answer.authoredDate, "f") ?? "unknown", inline: true },
    {
      name: "Changes",
      value: changesText(answer.additions, answer.deletions, answer.changedFiles),
      inline: true,
    },
    { name: "Checks", value: checksText(answer.checks), inline: true },
  );
  if (answer.pullRequests.length > 0) {
    const lines = answer.pullRequests.map((pull) => referenceText(pull, "pullRequest"));
    const more = answer.pullRequestCount - answer.pullRequests.length;
    if (more > 0) lines.push(`and ${formatCount(more)} more`);
    list.push({ name: "Pull requests", value: lines.join("\n").slice(0, LIMITS.fieldValue), inline: false });
  }
  return list;
}

/**
 * The answer of `/commit`: the headline linked, the start of the message (escaped), author and
 * `Co-authored-by` co-authors, date, `+/-`, checks, the pull requests it belongs to, and the
 * changed files (up to 20 with their `+/-`, the rest counted); pinned to the commit in the footer.
 */
export function formatCommit(answer: CommitAnswer, meta: CommitMeta): FormattedMessage {
  const embed: APIEmbed = {
    title: escapeLabel(
      answer.headline === "" ? shortOid(answer.oid, answer.abbreviatedOid) : answer.headline,
      LIMITS.title,
    ),
    color: COMMIT_COLOR,
    author: { name: escapeLabel(answer.repository.nameWithOwner, LIMITS.author) },
    fields: fields(answer),
    footer: { text: footerText(meta.freshness, meta.now, answer.oid, meta.ref) },
  };
  const url = embedUrl(answer.url);
  if (url) embed.url = url;
  const authorUrl = embedUrl(answer.repository.url);
  if (authorUrl && embed.author) embed.author.url = authorUrl;
  const total = answer.changedFiles ?? answer.files.length;
  const room = embedRoom(meta) - measureEmbed(embed);
  // The file list first, narrower when room is short; the message body gets what is left.
  let files = answer.files.length > 0 ? fileLines(answer.files, total, PATH_WIDTH) : "";
  if (files.length > room / 2)
    files = answer.files.length > 0 ? fileLines(answer.files.slice(0, 5), total, 40) : "";
  if (files.length > room - 4) files = "";
  // The co-authors' trailers are in their own field already.
  const message = answer.body.replace(/^co-authored-by:.*$/gim, "").trim();
  const body = bodyExcerpt(message, Math.min(BODY_CHARACTERS, room - files.length - 4));
  const description = [answer.isMerge ? "*A merge commit.*" : "", body, files]
    .filter((part) => part !== "")
    .join("\n\n");
  if (description !== "") embed.description = description;
  const reply = emptyMessage();
  reply.embeds.push(embed);
  return fitMessage(reply);
}
