import { escapeLabel, sanitizeSingleLine, truncate } from "./escape.js";
import { fitMessage, LIMITS } from "./limits.js";
import { COLORS, emptyMessage, type FormattedMessage } from "./message.js";

/** Discord's limit on a thread's name. */
export const THREAD_NAME_MAX = 100;

/**
 * An error reply: a red embed holding the sentence the user reads (one or two sentences that say
 * what to do next). Ready to be sent ephemeral; the router sets the flag. The sentence is the
 * bot's own markdown, so it is not escaped (errors quote user input with `inlineCode`).
 */
export function formatError(sentence: string): FormattedMessage {
  const message = emptyMessage();
  const text = String(sentence).trim() || "Something went wrong.";
  message.embeds.push({ color: COLORS.error, description: `⚠️ ${text}` });
  return fitMessage(message);
}

function subjectText(args: string | readonly string[]): string {
  return sanitizeSingleLine(typeof args === "string" ? args : args.join(" "));
}

function commandText(commandName: string): string {
  return sanitizeSingleLine(commandName)
    .replace(/[^\p{L}\p{N}_-]/gu, "")
    .slice(0, 32);
}

/**
 * The one line posted in the channel when the answer goes into a thread, such as
 * "🧵 blame octo/widgets src/app.ts — answer in the thread". The subject comes from the user, so it
 * is escaped (no markup, no mention).
 */
export function formatThreadSummary(commandName: string, args: string | readonly string[]): string {
  const command = commandText(commandName);
  const suffix = " — answer in the thread";
  const prefix = `🧵 ${command ? `**/${command}** ` : ""}`;
  const subject = escapeLabel(subjectText(args), LIMITS.content - prefix.length - suffix.length);
  return `${prefix}${subject}${suffix}`;
}

/**
 * A thread's name for an answer, such as `blame octo/widgets src/app.ts`: one line of 1..100
 * characters, cut with "…" when longer. Thread names render no markdown, so nothing is escaped.
 */
export function threadName(commandName: string, args: string | readonly string[]): string {
  const name = truncate(
    sanitizeSingleLine(`${commandText(commandName)} ${subjectText(args)}`),
    THREAD_NAME_MAX,
  );
  return name || "answer";
}
