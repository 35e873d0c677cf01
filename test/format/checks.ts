import { expect } from "vitest";
import {
  assertWithinLimits,
  countFences,
  markdownProblems,
  messageMarkdownProblems,
} from "../../src/format/limits.js";
import type { FormattedMessage } from "../../src/format/message.js";

/** Every text of a message that Discord renders as markdown. */
export function renderedTexts(message: FormattedMessage): string[] {
  const texts: string[] = [];
  if (message.content) texts.push(message.content);
  for (const embed of message.embeds) {
    if (embed.title) texts.push(embed.title);
    if (embed.description) texts.push(embed.description);
    if (embed.footer) texts.push(embed.footer.text);
    if (embed.author) texts.push(embed.author.name);
    for (const field of embed.fields ?? []) texts.push(field.name, field.value);
  }
  return texts;
}

/** The bodies of the code blocks of a text, in order. */
export function codeBlocks(text: string): string[] {
  return text.split("```").filter((_, index) => index % 2 === 1);
}

/**
 * What every message must satisfy: all of Discord's limits, every code block closed by its own
 * fence (content never holds ```), and no mention or @everyone rendering outside code.
 */
export function expectValidMessage(
  message: FormattedMessage,
  options: { allowedUserMentions?: readonly string[] } = {},
): void {
  assertWithinLimits(message);
  if (messageMarkdownProblems(message, options).length > 0) {
    // Name the text at fault, so a failure of the random tests can be read.
    const faulty = renderedTexts(message).filter((text) => markdownProblems(text, options).length > 0);
    expect(faulty.map((text) => [markdownProblems(text, options), JSON.stringify(text)])).toEqual([]);
  }
  for (const text of renderedTexts(message)) {
    expect(countFences(text) % 2).toBe(0);
    for (const block of codeBlocks(text)) {
      // A block opens with "```lang\n" and its closing fence sits on its own line.
      expect(block).toMatch(/^[a-z0-9+#-]*\n/);
      expect(block.endsWith("\n")).toBe(true);
    }
  }
  expect(message.allowedMentions).toEqual({ parse: [] });
}

/** The description of the first embed, which every formatter has. */
export function descriptionOf(message: FormattedMessage): string {
  return message.embeds[0]?.description ?? "";
}

/** The text of the only attachment. */
export function attachmentText(message: FormattedMessage, index = 0): string {
  const file = message.files[index];
  expect(file).toBeDefined();
  return file!.data.toString("utf8");
}

/**
 * What Discord renders as markdown outside code in `text`, read as Discord reads it: an escaped
 * punctuation character is inert, a run of backticks opens a code span that the next run of the
 * same length closes (an unclosed run is plain text). Each escape and each span becomes a space.
 */
export function outsideCode(text: string): string {
  let out = "";
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (char === "\\" && at + 1 < text.length && /[^\p{L}\p{N}\s]/u.test(text[at + 1]!)) {
      out += " ";
      at += 2;
      continue;
    }
    if (char !== "`") {
      out += char;
      at += 1;
      continue;
    }
    let length = 0;
    while (text[at + length] === "`") length += 1;
    let close = -1;
    for (let next = text.indexOf("`", at + length); next !== -1; next = text.indexOf("`", next)) {
      let run = 0;
      while (text[next + run] === "`") run += 1;
      if (run === length) {
        close = next;
        break;
      }
      next += run;
    }
    if (close === -1) {
      out += "`".repeat(length);
      at += length;
    } else {
      out += " ";
      at = close + length;
    }
  }
  return out;
}

/**
 * What would go wrong in a sentence (an error, a note) that quotes hostile text: more lines than the
 * sentence has (a line of its own could be a heading or a quote), a code block left open, or,
 * outside code, a mention, `@everyone`, a masked link to anywhere but GitHub's web host, or a
 * Discord timestamp that renders.
 */
export function sentenceProblems(sentence: string, lines = 1): string[] {
  // Not markdownProblems: its quick reading of inline code takes an escaped backtick for one.
  const problems: string[] = [];
  if (countFences(sentence) % 2 !== 0) problems.push("a code block is left open");
  const count = sentence.split(/\r\n|[\n\r\u2028\u2029\u0085]/).length;
  if (count > lines) problems.push(`${count} lines instead of ${lines}`);
  const outside = outsideCode(sentence);
  if (/@(everyone|here)/i.test(outside)) problems.push("@everyone or @here renders");
  if (/<(@[!&]?|#)\d+>|<t:-?\d+(:[a-zA-Z])?>/.test(outside)) problems.push("a mention or timestamp renders");
  // The sentence's own links go to GitHub's web host; any other is hostile text rendering as a link.
  if (/\[[^\]]*\]\((?!https:\/\/github\.com\/)/.test(outside)) problems.push("a masked link renders");
  return problems;
}
