// Over 300 lines: Discord's limits and the one pass that fits a message to them, in the order Discord checks them; the pass reads best whole.
import { ButtonStyle, type APIButtonComponent, type APIEmbed } from "discord-api-types/v10";
import { ELLIPSIS, sanitizeSingleLine, truncate, ZWSP } from "./escape.js";
import type { FormattedMessage } from "./message.js";
import { withFields } from "../withFields.js";

/**
 * Discord's limits for a message (DISCORD-FACTS.md). Lengths are checked in UTF-16 units, which
 * is never fewer than the characters Discord counts, so a message within these is within Discord's.
 */
export const LIMITS = {
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  /** Title, description, field names and values, footer and author over ALL embeds. */
  embedTotal: 6000,
  actionRows: 5,
  buttonsPerRow: 5,
  customId: 100,
  buttonLabel: 80,
  /** Discord's limit on a Link button's URL. */
  buttonUrl: 512,
  files: 10,
  /** Per file, on servers without boosts. */
  fileBytes: 10 * 1024 * 1024,
  fileDescription: 1024,
} as const;

const FENCE = "```";

/** The characters of one embed that count towards the 6,000 total. */
export function measureEmbed(embed: APIEmbed): number {
  let total = (embed.title?.length ?? 0) + (embed.description?.length ?? 0);
  total += (embed.footer?.text.length ?? 0) + (embed.author?.name.length ?? 0);
  for (const field of embed.fields ?? []) total += field.name.length + field.value.length;
  return total;
}

/** The characters over all embeds of a message that count towards the 6,000 total. */
export function measureEmbeds(embeds: readonly APIEmbed[]): number {
  return embeds.reduce((sum, embed) => sum + measureEmbed(embed), 0);
}

/** Non-overlapping ``` runs, as Discord's code block rule finds them. */
export function countFences(text: string): number {
  let count = 0;
  let index = text.indexOf(FENCE);
  while (index !== -1) {
    count += 1;
    index = text.indexOf(FENCE, index + FENCE.length);
  }
  return count;
}

/**
 * Every way a message breaks Discord's message and component limits, as readable lines; empty when
 * the message is valid.
 */
export function limitProblems(message: FormattedMessage): string[] {
  const problems: string[] = [];
  const over = (what: string, length: number, max: number) => {
    if (length > max) problems.push(`${what} is ${length} long (max ${max})`);
  };
  if (message.content !== undefined) over("content", message.content.length, LIMITS.content);
  over("embed count", message.embeds.length, LIMITS.embeds);
  message.embeds.forEach((embed, e) => {
    if (embed.title !== undefined) {
      over(`embed ${e} title`, embed.title.length, LIMITS.title);
      if (/[\n\r]/.test(embed.title)) problems.push(`embed ${e} title has a line break`);
    }
    if (embed.description !== undefined) {
      over(`embed ${e} description`, embed.description.length, LIMITS.description);
      if (embed.description.length === 0) problems.push(`embed ${e} description is empty`);
    }
    over(`embed ${e} field count`, embed.fields?.length ?? 0, LIMITS.fields);
    embed.fields?.forEach((field, f) => {
      over(`embed ${e} field ${f} name`, field.name.length, LIMITS.fieldName);
      over(`embed ${e} field ${f} value`, field.value.length, LIMITS.fieldValue);
      if (field.name.length === 0) problems.push(`embed ${e} field ${f} name is empty`);
      if (field.value.length === 0) problems.push(`embed ${e} field ${f} value is empty`);
    });
    if (embed.footer) over(`embed ${e} footer`, embed.footer.text.length, LIMITS.footer);
    if (embed.author) over(`embed ${e} author`, embed.author.name.length, LIMITS.author);
  });
  over("embeds in total", measureEmbeds(message.embeds), LIMITS.embedTotal);
  over("action rows", message.components.length, LIMITS.actionRows);
  const customIds = new Set<string>();
  message.components.forEach((row, r) => {
    over(`row ${r} buttons`, row.components.length, LIMITS.buttonsPerRow);
    if (row.components.length === 0) problems.push(`row ${r} is empty`);
    row.components.forEach((button, b) => {
      const where = `row ${r} button ${b}`;
      if ("label" in button && button.label !== undefined)
        over(`${where} label`, button.label.length, LIMITS.buttonLabel);
      if (button.style === ButtonStyle.Link) {
        if (!("url" in button) || !/^https?:\/\//.test(button.url))
          problems.push(`${where} is a link without a URL`);
        else over(`${where} url`, button.url.length, LIMITS.buttonUrl);
        if ("custom_id" in button) problems.push(`${where} is a link with a custom_id`);
      } else if (button.style !== ButtonStyle.Premium) {
        const id = "custom_id" in button ? button.custom_id : "";
        if (id.length === 0) problems.push(`${where} has no custom_id`);
        over(`${where} custom_id`, id.length, LIMITS.customId);
        if (customIds.has(id)) problems.push(`${where} repeats custom_id ${id}`);
        customIds.add(id);
      }
    });
  });
  over("files", message.files.length, LIMITS.files);
  const names = new Set<string>();
  for (const file of message.files) {
    over(`file ${file.name}`, file.data.length, LIMITS.fileBytes);
    if (file.description !== undefined)
      over(`file ${file.name} description`, file.description.length, LIMITS.fileDescription);
    if (file.name.length === 0 || /[\\/\n]/.test(file.name))
      problems.push(`file name "${file.name}" is not a plain name`);
    if (names.has(file.name)) problems.push(`file name ${file.name} is repeated`);
    names.add(file.name);
  }
  if (message.allowedMentions.parse.length !== 0) problems.push("allowed_mentions parses something");
  const hasBody = (message.content?.length ?? 0) > 0 || message.embeds.length > 0 || message.files.length > 0;
  if (!hasBody) problems.push("the message has no content, embed or file");
  return problems;
}

/** Throws an Error listing every broken limit; for tests and for a last check before sending. */
export function assertWithinLimits(message: FormattedMessage): void {
  const problems = limitProblems(message);
  if (problems.length > 0) throw new Error(`message breaks Discord's limits:\n- ${problems.join("\n- ")}`);
}

/**
 * Markdown that would misbehave in Discord: an odd number of ``` fences (an open code block), or a
 * mention or masked link that renders outside code. `allowedUserMentions` lists user ids the bot
 * itself put in on purpose (`/token status` shows who set the token).
 */
export function markdownProblems(
  text: string,
  options: { allowedUserMentions?: readonly string[] } = {},
): string[] {
  const problems: string[] = [];
  if (countFences(text) % 2 !== 0) problems.push("a code block is left open");
  // What renders as markup is what is left outside code blocks and inline code.
  const outside = text
    .split(FENCE)
    .filter((_, index) => index % 2 === 0)
    .join(" ")
    .replace(/``[^`]*?``|`[^`\n]*`/g, " ");
  if (/@(everyone|here)/i.test(outside)) problems.push("@everyone or @here renders");
  for (const match of outside.matchAll(/<(@!?|@&|#)(\d+)>/g)) {
    if (match[1] === "@" && options.allowedUserMentions?.includes(match[2] ?? "")) continue;
    problems.push(`mention ${match[0]} renders`);
  }
  return problems;
}

/** Every markdown problem of every text of a message (content, embeds, fields, footer). */
export function messageMarkdownProblems(
  message: FormattedMessage,
  options: { allowedUserMentions?: readonly string[] } = {},
): string[] {
  const texts: string[] = [];
  if (message.content) texts.push(message.content);
  for (const embed of message.embeds) {
    texts.push(
      embed.title ?? "",
      embed.description ?? "",
      embed.footer?.text ?? "",
      embed.author?.name ?? "",
    );
    for (const field of embed.fields ?? []) texts.push(field.name, field.value);
  }
  return texts.flatMap((text) => markdownProblems(text, options));
}

/**
 * Cuts markdown to at most `max` characters, visibly: the cut prefers a line end near the limit,
 * a code block left open is closed, and "…" (or the given note) marks where the text stops.
 */
export function cutMarkdown(text: string, max: number, note: string = ELLIPSIS): string {
  if (text.length <= max) return text;
  const marker = note.length < max / 2 ? note : ELLIPSIS;
  // Room for "\n```" (closing an open block) and "\n" + the marker.
  const room = Math.max(0, max - marker.length - FENCE.length - 2);
  // Too small for a closing fence: drop backticks so no fence can be left open.
  if (room === 0) return truncate(text.replace(/`+/g, ""), max);
  let cut = room;
  const lastBreak = text.lastIndexOf("\n", cut);
  if (lastBreak > room * 0.75) cut = lastBreak;
  const before = text.charCodeAt(cut - 1);
  if (before >= 0xd800 && before <= 0xdbff) cut -= 1;
  // Trailing backticks could be half a fence; they are lost in the cut anyway.
  let kept = text.slice(0, cut).replace(/`+$/, "");
  if (countFences(kept) % 2 !== 0) {
    const open = kept.lastIndexOf(FENCE);
    // Cut right after an opening fence (nothing of the block kept): drop the fence instead.
    const afterFence = kept.slice(open + FENCE.length);
    const lineEnd = afterFence.indexOf("\n");
    if (lineEnd === -1 || afterFence.slice(lineEnd).trim() === "")
      kept = kept.slice(0, open).replace(/\n+$/, "");
    else kept += `\n${FENCE}`;
  }
  return `${kept}\n${marker}`;
}

function fitButton(button: APIButtonComponent): APIButtonComponent | null {
  if (button.style === ButtonStyle.Link) {
    if (!("url" in button) || button.url.length > LIMITS.buttonUrl || !/^https?:\/\//.test(button.url))
      return null;
  }
  const fitted = { ...button };
  if ("label" in fitted && fitted.label !== undefined)
    fitted.label = truncate(sanitizeSingleLine(fitted.label), LIMITS.buttonLabel);
  // A custom id that is too long is a caller's bug; cutting it keeps the message valid, and the
  // router then treats the press as an expired button.
  if ("custom_id" in fitted) fitted.custom_id = fitted.custom_id.slice(0, LIMITS.customId);
  return fitted;
}

function fitEmbed(embed: APIEmbed): APIEmbed {
  const fitted: APIEmbed = { ...embed };
  if (fitted.title !== undefined) fitted.title = truncate(sanitizeSingleLine(fitted.title), LIMITS.title);
  if (fitted.description !== undefined) {
    fitted.description = cutMarkdown(fitted.description, LIMITS.description);
    if (fitted.description === "") delete fitted.description;
  }
  if (fitted.footer)
    fitted.footer = withFields(fitted.footer, { text: truncate(fitted.footer.text, LIMITS.footer) });
  if (fitted.author)
    fitted.author = withFields(fitted.author, {
      name: truncate(sanitizeSingleLine(fitted.author.name), LIMITS.author),
    });
  if (fitted.fields) {
    let fields = fitted.fields.map((field) =>
      withFields(field, {
        name: truncate(field.name, LIMITS.fieldName) || ZWSP,
        value: cutMarkdown(field.value, LIMITS.fieldValue) || ZWSP,
      }),
    );
    if (fields.length > LIMITS.fields) {
      const hidden = fields.length - (LIMITS.fields - 1);
      fields = [...fields.slice(0, LIMITS.fields - 1), { name: ELLIPSIS, value: `${hidden} more not shown` }];
    }
    fitted.fields = fields;
  }
  return fitted;
}

/** Shrinks one embed by at least `excess` characters: fields from the end first, then the description. */
function shrinkEmbed(embed: APIEmbed, excess: number): APIEmbed {
  const shrunk: APIEmbed = { ...embed };
  let toSave = excess;
  const fields = [...(shrunk.fields ?? [])];
  let dropped = 0;
  while (toSave > 0 && fields.length > 0) {
    const last = fields.pop();
    if (!last) break;
    toSave -= last.name.length + last.value.length;
    dropped += 1;
  }
  if (dropped > 0) {
    // Say how many went; the marker costs room, which the description pays for below if needed.
    const marker = { name: ELLIPSIS, value: `${dropped} more not shown` };
    toSave += marker.name.length + marker.value.length;
    fields.push(marker);
  }
  shrunk.fields = fields;
  const description = shrunk.description;
  if (toSave > 0 && description) {
    const cut = cutMarkdown(description, Math.max(0, description.length - toSave));
    toSave -= description.length - cut.length;
    if (cut === "") delete shrunk.description;
    else shrunk.description = cut;
  }
  if (toSave > 0) {
    toSave -= fields.reduce((sum, field) => sum + field.name.length + field.value.length, 0);
    shrunk.fields = [];
  }
  if (toSave > 0 && shrunk.title) {
    shrunk.title = truncate(shrunk.title, Math.max(1, shrunk.title.length - toSave));
  }
  return shrunk;
}

/**
 * The last step of every formatter: returns a message within every limit of DISCORD-FACTS.md.
 * Cuts are visible ("…", "N more not shown"), a code block is never left open, extra embeds,
 * fields, rows, buttons and files are dropped, and mentions never parse. A message that already
 * fits is returned unchanged (as a copy).
 */
export function fitMessage(message: FormattedMessage): FormattedMessage {
  let embeds = message.embeds.slice(0, LIMITS.embeds).map(fitEmbed);
  let excess = measureEmbeds(embeds) - LIMITS.embedTotal;
  // Later embeds go first; the first one always fits once its fields and description are cut,
  // since title + footer + author alone are at most 2,560 characters.
  for (let index = embeds.length - 1; excess > 0 && index >= 0; index -= 1) {
    const embed = embeds[index]!;
    if (index > 0 && measureEmbed(embed) <= excess + 200) {
      embeds = embeds.filter((_, i) => i !== index);
    } else {
      embeds[index] = shrinkEmbed(embed, excess);
    }
    excess = measureEmbeds(embeds) - LIMITS.embedTotal;
  }
  const components = message.components.slice(0, LIMITS.actionRows).flatMap((row) => {
    const buttons = row.components
      .slice(0, LIMITS.buttonsPerRow)
      .map(fitButton)
      .filter((button): button is APIButtonComponent => button !== null);
    return buttons.length > 0 ? [withFields(row, { components: buttons })] : [];
  });
  const usedNames = new Set<string>();
  const files = message.files.slice(0, LIMITS.files).map((file) => {
    let name = file.name.replace(/[\\/\n\r]/g, "_") || "attachment.txt";
    while (usedNames.has(name)) name = `_${name}`;
    usedNames.add(name);
    const fitted: { name: string; data: Buffer; description?: string } = { name, data: file.data };
    if (file.data.length > LIMITS.fileBytes) {
      const note = Buffer.from("\n… cut: the file was larger than Discord accepts\n");
      fitted.data = Buffer.concat([file.data.subarray(0, LIMITS.fileBytes - note.length), note]);
    }
    if (file.description !== undefined)
      fitted.description = truncate(file.description, LIMITS.fileDescription);
    return fitted;
  });
  const fitted: FormattedMessage = { embeds, components, files, allowedMentions: { parse: [] } };
  if (message.content !== undefined) fitted.content = cutMarkdown(message.content, LIMITS.content);
  if (!fitted.content && embeds.length === 0 && files.length === 0) fitted.content = ELLIPSIS;
  return fitted;
}
