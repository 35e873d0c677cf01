import { ApplicationCommandType, type APIApplicationCommand, type APIUser } from "discord-api-types/v10";
import type { MessageView } from "./discord/index.js";

/**
 * The terminal's stand-in for right-clicking a message: `/messages` lists the messages of
 * #code-links by number, `/menu <Apps entry> <number>` uses a message menu on one of them.
 */

/** What the chat needs of the local Discord for it. */
export interface HistorySource {
  messagesIn(channelId: string, options?: { includeEphemeral?: boolean }): MessageView[];
  commands(): APIApplicationCommand[];
  users: Readonly<Record<string, APIUser>>;
  channels: { codeLinks: string };
}

/** Characters of a message shown per line of `/messages`. */
const PREVIEW_WIDTH = 160;

/** The channel's messages everyone sees, oldest first: `/messages` numbers them from 1. */
function history(source: HistorySource): MessageView[] {
  return source.messagesIn(source.channels.codeLinks, { includeEphemeral: false });
}

/** The names of the registered message menus (`Show code`, `Blame lines`). */
export function menuNames(source: Pick<HistorySource, "commands">): string[] {
  return source
    .commands()
    .filter((command) => command.type === ApplicationCommandType.Message)
    .map((command) => command.name);
}

/** What `/messages` prints: each message of #code-links with its number, author and text (one line). */
export function formatHistory(source: HistorySource): string {
  const byId = new Map(Object.values(source.users).map((user) => [user.id, user]));
  const lines = history(source).map((message, index) => {
    const author = byId.get(message.authorId);
    const name = author ? (author.global_name ?? author.username) : message.authorId;
    const text = (message.content || message.embeds[0]?.title || "(an embed)").replace(/\s+/g, " ");
    const preview = text.length > PREVIEW_WIDTH ? `${text.slice(0, PREVIEW_WIDTH - 1)}…` : text;
    return `  [m${index + 1}] ${name}: ${preview}`;
  });
  const menus = menuNames(source);
  return [
    "#code-links, oldest first:",
    ...lines,
    menus.length > 0
      ? `Right-click one: /menu ${menus[0]} <number>${menus.length > 1 ? ` (menus: ${menus.join(", ")})` : ""}.`
      : "The bot registered no message menu.",
  ].join("\n");
}

/**
 * Reads `/menu <name> <number>`: the menu (its name as registered, any case) and the message
 * `/messages` shows under that number (`3` or `m3`).
 * @throws Error saying what to type instead.
 */
export function parseMenuLine(line: string, source: HistorySource): { name: string; messageId: string } {
  const match = /^\/menu\s+(.+?)\s+m?(\d+)$/i.exec(line.trim());
  const menus = menuNames(source);
  const usage = `type /menu <${menus.join(" | ") || "menu"}> <message number>; /messages lists the numbers`;
  if (!match) throw new Error(usage);
  const name = menus.find((menu) => menu.toLowerCase() === match[1]!.toLowerCase());
  if (!name) throw new Error(`no message menu «${match[1]}»: ${usage}`);
  const messages = history(source);
  const message = messages[Number(match[2]) - 1];
  if (!message) {
    throw new Error(
      `no message [m${match[2]}] in #code-links: it has ${messages.length}; /messages lists them`,
    );
  }
  return { name, messageId: message.id };
}
