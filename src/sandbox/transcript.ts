import { ComponentType, type APIActionRowComponent, type APIButtonComponent } from "discord-api-types/v10";
import { COLORS, type FormattedMessage } from "../format/message.js";
import {
  listChoices,
  renderForTerminal,
  type TerminalChoice,
  type TerminalOptions,
} from "../format/terminal.js";
import type { InteractionRecord, MessageView } from "./discord/index.js";

/** A message as a person sees it, with its buttons as numbered choices. */
export interface SeenMessage {
  id: string;
  channelId: string;
  ephemeral: boolean;
  /** Where it is: in the channel, or in the thread the answer started. */
  place: "channel" | "thread";
  message: FormattedMessage;
  choices: TerminalChoice[];
}

/** What a person sees after an interaction: the messages in order, and whether it was an error. */
export interface Transcript {
  messages: SeenMessage[];
  /** The thread the answer went into, by name. */
  threadName: string | null;
  /** A modal the bot opened instead of answering. */
  modal: { customId: string; title: string; inputs: Array<{ customId: string; label: string }> } | null;
  /** The answer was an error reply (ephemeral, in the error colour). */
  isError: boolean;
  /** Every text a person can read, joined: for tests. */
  text: string;
}

/** A stored Discord message back as a formatted message (what the bot sent, as Discord keeps it). */
export function formattedOf(view: MessageView): FormattedMessage {
  return {
    content: view.content,
    embeds: view.embeds,
    components: view.components.filter(
      (row): row is APIActionRowComponent<APIButtonComponent> => row.type === ComponentType.ActionRow,
    ),
    files: view.attachments.map((file) => ({
      name: file.filename,
      data: file.bytes,
      ...(file.description ? { description: file.description } : {}),
    })),
    allowedMentions: { parse: [] },
  };
}

function seen(view: MessageView, place: SeenMessage["place"]): SeenMessage {
  const message = formattedOf(view);
  return {
    id: view.id,
    channelId: view.channelId,
    ephemeral: view.ephemeral,
    place,
    message,
    choices: listChoices(message),
  };
}

function plainText(message: FormattedMessage): string {
  const parts = [message.content ?? ""];
  for (const embed of message.embeds) {
    parts.push(embed.title ?? "", embed.description ?? "", embed.footer?.text ?? "");
    for (const field of embed.fields ?? []) parts.push(field.name, field.value);
  }
  return parts.filter(Boolean).join("\n");
}

/** Messages of a channel (an automatic preview: no interaction made them) as a person sees them. */
export function transcriptOfMessages(views: readonly MessageView[]): Transcript {
  const messages = views.filter((view) => !view.deleted).map((view) => seen(view, "channel"));
  return {
    messages,
    threadName: null,
    modal: null,
    isError: false,
    text: messages.map((message) => plainText(message.message)).join("\n\n"),
  };
}

/** Reads an interaction's record the way a person would see it in Discord. */
export function transcriptOf(record: InteractionRecord): Transcript {
  const messages: SeenMessage[] = [];
  const ids = new Set<string>();
  const push = (view: MessageView | null, place: SeenMessage["place"]): void => {
    if (!view || view.deleted || view.loading || ids.has(view.id)) return;
    ids.add(view.id);
    messages.push(seen(view, place));
  };
  push(record.original, "channel");
  for (const followup of record.followups) push(followup, "channel");
  for (const threadMessage of record.threadMessages) push(threadMessage, "thread");
  const modal = record.modal
    ? {
        customId: record.modal.custom_id,
        title: record.modal.title,
        inputs: record.modal.components.flatMap((row) =>
          "components" in row
            ? row.components.flatMap((input) =>
                "custom_id" in input && "label" in input && typeof input.label === "string"
                  ? [{ customId: input.custom_id, label: input.label }]
                  : [],
              )
            : [],
        ),
      }
    : null;
  const last = messages.at(-1);
  const isError =
    last !== undefined && last.ephemeral && last.message.embeds.some((embed) => embed.color === COLORS.error);
  return {
    messages,
    threadName: record.thread?.name ?? null,
    modal,
    isError,
    text: messages.map((message) => plainText(message.message)).join("\n\n"),
  };
}

/** Draws a transcript for the terminal chat. */
export function renderTranscript(transcript: Transcript, options: TerminalOptions): string {
  const out: string[] = [];
  let inThread = false;
  for (const item of transcript.messages) {
    if (item.place === "thread" && !inThread) {
      inThread = true;
      out.push("", `🧵 Thread «${transcript.threadName ?? "answer"}»`, "");
    }
    if (item.ephemeral) out.push("👁  only you can see this");
    out.push(renderForTerminal(item.message, options), "");
  }
  if (transcript.modal) {
    out.push(`📝 The bot opened a form: ${transcript.modal.title}`);
    for (const input of transcript.modal.inputs) out.push(`   • ${input.label}`);
  }
  return out.join("\n").trimEnd();
}
