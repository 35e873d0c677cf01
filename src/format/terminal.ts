import { ButtonStyle, type APIEmbed } from "discord-api-types/v10";
import { formatBytes, type FormattedMessage } from "./message.js";

/**
 * A formatted message drawn for a terminal, the way Discord would show it: the sandbox's terminal
 * chat prints this. Pure: the clock and the colour choice are parameters. Text from repositories
 * can hold escape sequences, so every control character is drawn visibly before any colour of
 * ours is added.
 */

export interface TerminalOptions {
  /** Use ANSI colours and styles. */
  color: boolean;
  /** What "3 years ago" is measured against. */
  now: Date;
  /** Width of the separator lines; 80 by default. */
  width?: number;
  /**
   * The name Discord shows for a user mention (`<@id>` reads as `@Ada`), or undefined for a user
   * it does not know; without it, or for an unknown user, a mention reads `@user:<id>`.
   */
  userName?: (id: string) => string | undefined;
}

/** What prose is read against: the clock and the names of mentioned users. */
interface Reading {
  now: Date;
  mention: (id: string) => string;
}

/** A button as a numbered choice of the terminal chat, in the order the message shows them. */
export interface TerminalChoice {
  /** 1-based, counted over every button of every row. */
  number: number;
  label: string;
  disabled: boolean;
  customId?: string;
  url?: string;
}

interface Styles {
  bold(text: string): string;
  dim(text: string): string;
  code(text: string): string;
  link(text: string): string;
  bar(color: number | undefined): string;
}

const PLAIN: Styles = {
  bold: (text) => text,
  dim: (text) => text,
  code: (text) => text,
  link: (text) => text,
  bar: () => "┃",
};

const ANSI: Styles = {
  bold: (text) => `\u001b[1m${text}\u001b[22m`,
  dim: (text) => `\u001b[2m${text}\u001b[22m`,
  code: (text) => `\u001b[36m${text}\u001b[39m`,
  link: (text) => `\u001b[4;34m${text}\u001b[24;39m`,
  bar: (color) =>
    color === undefined
      ? "┃"
      : `\u001b[38;2;${(color >> 16) & 0xff};${(color >> 8) & 0xff};${color & 0xff}m┃\u001b[39m`,
};

// Zero-width joiners stay: they hold emoji sequences together.
const ZERO_WIDTH = /[\u200b\u2060\ufeff]/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u0080-\u009f]/g;
// Private-use characters stand in for escaped characters and inline code while markup is parsed.
const ESCAPE_BASE = 0xe000;
const TOKEN_OPEN = "\uf000";
const TOKEN_CLOSE = "\uf001";

/** Control characters (escape sequences included) drawn as visible symbols; nothing reaches the terminal raw. */
function defang(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    return code === 0x7f ? "␡" : "�";
  });
}

function plural(value: number, unit: string): string {
  return value === 1 ? `${unit === "hour" ? "an" : "a"} ${unit}` : `${value} ${unit}s`;
}

/**
 * "3 years ago", "in 5 minutes", "a few seconds ago": Discord's relative timestamps, with the same
 * thresholds the Discord client uses (45 seconds, 45 minutes, 22 hours, 26 days, 11 months).
 */
export function relativeTime(then: Date, now: Date): string {
  const delta = then.getTime() - now.getTime();
  if (!Number.isFinite(delta)) return "at an unknown time";
  const seconds = Math.abs(delta) / 1000;
  const minutes = seconds / 60;
  const hours = minutes / 60;
  const days = hours / 24;
  let amount: string;
  if (seconds < 45) amount = "a few seconds";
  else if (seconds < 90) amount = "a minute";
  else if (minutes < 45) amount = plural(Math.round(minutes), "minute");
  else if (minutes < 90) amount = "an hour";
  else if (hours < 22) amount = plural(Math.round(hours), "hour");
  else if (hours < 36) amount = "a day";
  else if (days < 26) amount = plural(Math.round(days), "day");
  else if (days < 45) amount = "a month";
  else if (days < 320) amount = plural(Math.round(days / 30.4), "month");
  else if (days < 548) amount = "a year";
  else amount = plural(Math.round(days / 365.25), "year");
  return delta < 0 ? `${amount} ago` : `in ${amount}`;
}

/** A Discord timestamp `<t:UNIX:STYLE>` as text, in UTC (the terminal has no reader's time zone). */
function timestampText(unix: number, style: string, now: Date): string {
  const date = new Date(unix * 1000);
  if (!Number.isFinite(date.getTime())) return `<t:${unix}:${style}>`;
  const iso = date.toISOString();
  switch (style) {
    case "R":
      return relativeTime(date, now);
    case "d":
    case "D":
      return iso.slice(0, 10);
    case "t":
      return `${iso.slice(11, 16)} UTC`;
    case "T":
      return `${iso.slice(11, 19)} UTC`;
    default:
      return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  }
}

/** Markdown outside code blocks, drawn: escapes resolved, links spelled out, timestamps read, bold styled. */
function renderProse(text: string, styles: Styles, reading: Reading): string {
  // Escapes first: an escaped backtick or bracket is plain text, never the edge of code or a link.
  let out = text.replace(/\\([^\p{L}\p{N}\s])/gu, (_, c: string) =>
    c.length === 1 && c.charCodeAt(0) < 128 ? String.fromCharCode(ESCAPE_BASE + c.charCodeAt(0)) : c,
  );
  const codes: string[] = [];
  out = out.replace(/``\s?([\s\S]*?)\s?``|`([^`\n]+)`/g, (_, double?: string, single?: string) => {
    codes.push(double ?? single ?? "");
    return `${TOKEN_OPEN}${codes.length - 1}${TOKEN_CLOSE}`;
  });
  out = out
    .replace(/<t:(-?\d{1,13})(?::([tTdDfFR]))?>/g, (_, unix: string, style?: string) =>
      timestampText(Number(unix), style ?? "f", reading.now),
    )
    .replace(/<@!?(\d+)>/g, (_, id: string) => reading.mention(id))
    .replace(/<@&(\d+)>/g, "@role:$1")
    .replace(/<#(\d+)>/g, "#channel:$1")
    .replace(
      /\[([^\]\n]+)\]\((https?:\/\/[^)\s]+)\)/g,
      (_, label: string, url: string) => `${label} ${styles.link(`<${url}>`)}`,
    )
    .replace(/\*\*([^*\n]+)\*\*/g, (_, inner: string) => styles.bold(inner))
    .replace(/^-# (.*)$/gm, (_, inner: string) => styles.dim(inner))
    .replace(/^#{1,3} (.*)$/gm, (_, inner: string) => styles.bold(inner));
  out = out.replace(new RegExp(`${TOKEN_OPEN}(\\d+)${TOKEN_CLOSE}`, "g"), (_, index: string) =>
    styles.code(codes[Number(index)] ?? ""),
  );
  return out.replace(/[\ue000-\ue07f]/g, (c) => String.fromCharCode(c.charCodeAt(0) - ESCAPE_BASE));
}

/** Markdown with code blocks: prose drawn by `renderProse`, code shown in a gutter, fences gone. */
function renderMarkdown(text: string, styles: Styles, reading: Reading): string[] {
  const parts = defang(text).split("```");
  const lines: string[] = [];
  parts.forEach((part, index) => {
    // An odd part is inside a block; a last odd part with no closing fence is shown as prose.
    const isCode = index % 2 === 1 && index < parts.length - 1;
    if (!isCode) {
      const prose = renderProse(index > 0 && index % 2 === 1 ? `\`\`\`${part}` : part, styles, reading);
      const trimmed = prose.replace(/^\n/, "").replace(/\n$/, "");
      if (trimmed !== "") lines.push(...trimmed.split("\n"));
      return;
    }
    const match = /^([a-z0-9+#-]*)\n/i.exec(part);
    const language = match?.[1] ?? "";
    const body = (match ? part.slice(match[0].length) : part).replace(/\n$/, "");
    lines.push(styles.dim(`╭─ code${language ? ` (${language})` : ""}`));
    for (const line of body.split("\n")) lines.push(`${styles.dim("│")} ${line}`);
    lines.push(styles.dim("╰─"));
  });
  return lines;
}

function renderEmbed(embed: APIEmbed, styles: Styles, reading: Reading): string[] {
  const lines: string[] = [];
  if (embed.author?.name) lines.push(styles.dim(renderProse(defang(embed.author.name), styles, reading)));
  if (embed.title) lines.push(styles.bold(renderProse(defang(embed.title), styles, reading)));
  if (embed.url) lines.push(styles.link(defang(embed.url)));
  if (embed.description) {
    if (lines.length > 0) lines.push("");
    lines.push(...renderMarkdown(embed.description, styles, reading));
  }
  for (const field of embed.fields ?? []) {
    lines.push("");
    lines.push(styles.bold(renderProse(defang(field.name), styles, reading)));
    lines.push(...renderMarkdown(field.value, styles, reading).map((line) => `  ${line}`));
  }
  if (embed.footer?.text) {
    lines.push("");
    lines.push(styles.dim(renderProse(defang(embed.footer.text), styles, reading)));
  }
  const bar = styles.bar(embed.color);
  return lines.map((line) => `${bar} ${line}`);
}

/** The buttons of a message as numbered choices, counted over every row in order. */
export function listChoices(message: FormattedMessage): TerminalChoice[] {
  const choices: TerminalChoice[] = [];
  for (const row of message.components) {
    for (const button of row.components) {
      const choice: TerminalChoice = {
        number: choices.length + 1,
        label: ("label" in button ? button.label : undefined) ?? "(no label)",
        disabled: button.disabled === true,
      };
      if ("custom_id" in button) choice.customId = button.custom_id;
      if (button.style === ButtonStyle.Link && "url" in button) choice.url = button.url;
      choices.push(choice);
    }
  }
  return choices;
}

/**
 * Draws a message for a terminal: content, each embed (title, URL, description with code blocks,
 * fields, footer) behind a bar in the embed's colour, attachments by name and size, and buttons as
 * numbered choices (`[1] ◀ Previous lines`). `<t:UNIX:R>` reads as "3 years ago" against `now`;
 * zero-width spaces are removed; ANSI colours only when `color` is true.
 */
export function renderForTerminal(message: FormattedMessage, options: TerminalOptions): string {
  const styles = options.color ? ANSI : PLAIN;
  const width = Math.max(20, Math.min(400, Math.floor(options.width ?? 80)));
  const reading: Reading = {
    now: options.now,
    // A name is text from elsewhere (a person chose it): drawn as it is, its `**` or `[x](y)` as
    // plain characters (held as escapes, which the end of renderProse turns back) and its control
    // characters visible.
    mention: (id) => {
      const name = options.userName?.(id);
      if (name === undefined) return `@user:${id}`;
      return `@${defang(name).replace(/[!-/:-@[-`{-~]/g, (c) => String.fromCharCode(ESCAPE_BASE + c.charCodeAt(0)))}`;
    },
  };
  const out: string[] = [];
  if (message.content) out.push(...renderMarkdown(message.content, styles, reading));
  for (const embed of message.embeds) {
    if (out.length > 0) out.push("");
    out.push(...renderEmbed(embed, styles, reading));
  }
  if (message.files.length > 0) {
    out.push("");
    for (const file of message.files) {
      const description = file.description ? ` — ${defang(file.description)}` : "";
      out.push(`📎 ${defang(file.name)} (${formatBytes(file.data.length)})${description}`);
    }
  }
  const choices = listChoices(message);
  if (choices.length > 0) {
    out.push("");
    for (const choice of choices) {
      const label = `[${choice.number}] ${defang(choice.label)}`;
      if (choice.url) out.push(`${label} ${styles.link(`→ ${defang(choice.url)}`)}`);
      else if (choice.disabled) out.push(styles.dim(`${label} (unavailable)`));
      else out.push(label);
    }
  }
  const rule = styles.dim("─".repeat(width));
  return [rule, ...out, rule].join("\n").replace(ZERO_WIDTH, "");
}
