import type { APIEmbed } from "discord-api-types/v10";
import type { BlameAnswer } from "../github/types.js";
import { lastChangeField } from "./blameFields.js";
import { newestCommit } from "./blameRanges.js";
import { fitMessage } from "./limits.js";
import {
  COLORS,
  embedUrl,
  emptyMessage,
  encodePath,
  formatBytes,
  linkButton,
  maskedLink,
  objectUrl,
  rowOf,
  type FormattedMessage,
} from "./message.js";

/** The file's history on GitHub's web host: the commits that changed it, up to the pinned one. */
function historyUrl(answer: BlameAnswer): string {
  const base = answer.repository.url.replace(/\/+$/, "");
  return `${base}/commits/${encodePath(answer.commit.oid)}/${encodePath(answer.path)}`;
}

/**
 * The answer of `/blame` for a binary file. Git splits any content at its newline bytes, so GitHub's
 * ranges of a binary file are "lines" that mean nothing: none is shown, nor the heat key. The file's
 * last change is shown instead (the newest commit among the ranges, see `newestCommit`: no request
 * more), with buttons to the file and its history; without ranges, the description links the history.
 * `head.note` is a line said first (which path was blamed).
 */
export function formatBinaryBlame(
  answer: BlameAnswer,
  byteSize: number,
  head: { title: string; footer: string; note?: string },
): FormattedMessage {
  const fileUrl = objectUrl(answer.repository.url, "blob", answer.commit.oid, answer.path);
  const history = historyUrl(answer);
  const last = newestCommit(answer.ranges);
  const binary = `This is a binary file (${formatBytes(byteSize)}): it has no lines to blame.`;
  const said = last
    ? `${binary} Its last change:`
    : `${binary} Its changes are in ${maskedLink("its history on GitHub", history)}.`;
  const description = head.note ? `${head.note}\n${said}` : said;
  const embed: APIEmbed = {
    title: head.title,
    color: COLORS.blame,
    description,
    footer: { text: head.footer },
  };
  const link = embedUrl(fileUrl);
  if (link) embed.url = link;
  if (last) embed.fields = [lastChangeField(last)];
  const message = emptyMessage();
  message.embeds.push(embed);
  const row = rowOf([linkButton("Open on GitHub", fileUrl), linkButton("History on GitHub", history)]);
  if (row) message.components.push(row);
  return fitMessage(message);
}
