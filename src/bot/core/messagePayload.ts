import { MessageFlags, type APIInteractionResponse } from "discord-api-types/v10";
import type { FormattedMessage } from "../../format/message.js";
import type { OutgoingMessage } from "./responder.js";
import { withFields } from "../../withFields.js";

/**
 * The bodies made of kept messages (frozen whole by the rendered answers' store, see
 * ../renderedAnswers.ts), by message and placement: a repeat of a cached answer sends the same
 * body, and so the same JSON bytes ({@link encodedResponse}), instead of building and serializing it
 * again (the serialization alone was about 30 KB of garbage per cached answer).
 */
const keptBodies = new WeakMap<FormattedMessage, { plain?: OutgoingMessage; ephemeral?: OutgoingMessage }>();
/** The responses carrying frozen bodies, as bytes, by body and response type. */
const encodedResponses = new WeakMap<object, Map<number, Buffer>>();

/**
 * A formatted message as Discord's REST routes take it: the JSON body (mentions never parse) and
 * its uploads. `ephemeral` sets flag 64, which only a first response or a follow-up may carry. A
 * frozen message (a kept one) gives the same frozen body every time.
 */
export function toOutgoing(
  message: FormattedMessage,
  options: { ephemeral?: boolean } = {},
): OutgoingMessage {
  if (!Object.isFrozen(message)) return outgoing(message, options);
  const placement = options.ephemeral ? "ephemeral" : "plain";
  let kept = keptBodies.get(message);
  const known = kept?.[placement];
  if (known) return known;
  const made = outgoing(message, options);
  Object.freeze(made.body);
  if (!kept) keptBodies.set(message, (kept = {}));
  kept[placement] = made;
  return made;
}

/**
 * An interaction response as JSON: text, or for a kept message's body (frozen: nothing in it can
 * change) its UTF-8 bytes, made once per kind of response and sent as they are, with no copy, no
 * re-encoding and no garbage.
 */
export function encodedResponse(response: APIInteractionResponse): string | Buffer {
  const data = (response as { data?: unknown }).data;
  if (typeof data !== "object" || data === null || !Object.isFrozen(data)) return JSON.stringify(response);
  let byType = encodedResponses.get(data);
  if (!byType) encodedResponses.set(data, (byType = new Map()));
  let bytes = byType.get(response.type);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(response));
    byType.set(response.type, bytes);
  }
  return bytes;
}

function outgoing(message: FormattedMessage, options: { ephemeral?: boolean }): OutgoingMessage {
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
  return withFields(message, { content: content.slice(0, 2000) });
}
