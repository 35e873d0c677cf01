import { MessageFlags } from "discord-api-types/v10";
import type { FormattedMessage } from "../../format/message.js";
import type { OutgoingMessage } from "./responder.js";

/**
 * A formatted message as Discord's REST routes take it: the JSON body (mentions never parse) and
 * its uploads. `ephemeral` sets flag 64, which only a first response or a follow-up may carry.
 */
export function toOutgoing(
  message: FormattedMessage,
  options: { ephemeral?: boolean } = {},
): OutgoingMessage {
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
      ...(options.ephemeral ? { flags: MessageFlags.Ephemeral } : {}),
    },
    files: message.files.map((file) => ({ name: file.name, data: file.data })),
  };
}

/** Appends a short note (why the answer is where it is) to a message's content. */
export function withNote(message: FormattedMessage, note: string | undefined): FormattedMessage {
  if (!note) return message;
  const content = message.content ? `${message.content}\n${note}` : note;
  return { ...message, content: content.slice(0, 2000) };
}
