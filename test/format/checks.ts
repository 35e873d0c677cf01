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
