import type { RESTPostAPIChannelMessageJSONBody } from "discord-api-types/v10";
import type { BaseMessageOptions } from "discord.js";
import type { FormattedMessage } from "../format/message.js";

/** Converts a formatted message into discord.js message options; mentions never parse. */
export function toMessageOptions(message: FormattedMessage): BaseMessageOptions & { content?: string } {
  return {
    content: message.content ?? "",
    embeds: message.embeds,
    components: message.components,
    files: message.files.map((file) => ({
      attachment: file.data,
      name: file.name,
      ...(file.description ? { description: file.description } : {}),
    })),
    allowedMentions: { parse: [] },
  };
}

/** The same message as a raw REST body plus files, for routes discord.js has no helper for. */
export function toRestMessage(message: FormattedMessage): {
  body: RESTPostAPIChannelMessageJSONBody;
  files: Array<{ name: string; data: Buffer }>;
} {
  return {
    body: {
      content: message.content ?? "",
      embeds: message.embeds,
      components: message.components,
      allowed_mentions: { parse: [] },
      // Discord describes the id as a snowflake string: "n" names the upload files[n].
      attachments: message.files.map((file, index) => ({
        id: String(index),
        filename: file.name,
        ...(file.description ? { description: file.description } : {}),
      })),
    },
    files: message.files.map((file) => ({ name: file.name, data: file.data })),
  };
}

/** Appends a short note (why the answer is in place) to a message's content. */
export function withNote(message: FormattedMessage, note: string | undefined): FormattedMessage {
  if (!note) return message;
  const content = message.content ? `${message.content}\n${note}` : note;
  return { ...message, content: content.slice(0, 2000) };
}
