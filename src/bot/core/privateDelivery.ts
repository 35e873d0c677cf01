import { ChannelType, InteractionContextType } from "discord-api-types/v10";
import { PRIVATE_WITHHELD } from "../../format/delivery.js";
import { formatError } from "../../format/error.js";
import type { FormattedMessage } from "../../format/message.js";
import { privateAnswerNote, type AnswerPrivacy } from "../../format/privacy.js";
import type { Logger } from "../../logger.js";

/**
 * Where an interaction happened, as far as who else reads the answer goes: a server's channel
 * (`guild`), the DM between the asker and the bot (`botDm`: nobody else reads it), or another
 * private channel (a group DM: its other members read it, and no server setting applies).
 */
export type AnswerPlace = "guild" | "botDm" | "elsewhere";

/** How an answer is delivered (SPEC section 4, private code). */
export interface DeliveryDecision {
  /** Sent ephemerally, to the asker only. */
  ephemeral: boolean;
  /** A thread may carry the answer (false: in place, whatever was asked). */
  threadAllowed: boolean;
  /** The one line that says why a private answer is shown the way it is. */
  note?: string;
}

/** What an interaction payload tells of its place (its `context`, else its guild and channel). */
export function answerPlaceOf(interaction: {
  context: InteractionContextType | null;
  guildId: string | null;
  channel?: { type: ChannelType } | null;
}): AnswerPlace {
  if (interaction.context === InteractionContextType.BotDM) return "botDm";
  if (interaction.context === InteractionContextType.PrivateChannel) return "elsewhere";
  if (interaction.guildId !== null) return "guild";
  // Older payloads carry no context: a DM channel is the DM with the bot.
  return interaction.channel?.type === ChannelType.DM ? "botDm" : "elsewhere";
}

/**
 * Decides how an answer reaches people. A public answer goes as usual. A private one goes as usual
 * in the DM with the bot (already private) and in a server whose admins turned
 * `/settings private-answers in-channel:true` (marked as private); anywhere else it is ephemeral,
 * to the asker only, in place (an ephemeral message cannot start a thread, and a public thread
 * would show it), with one line saying why.
 */
export function decideDelivery(input: {
  privacy: AnswerPrivacy | undefined;
  place: AnswerPlace;
  /** The server allows private answers in its channels (only read for `guild`). */
  inChannelAllowed: boolean;
  /** The answer was to go into a thread (asked for, or the server's default). */
  wantsThread: boolean;
}): DeliveryDecision {
  const { privacy } = input;
  if (!privacy) return { ephemeral: false, threadAllowed: true };
  if (input.place === "botDm") {
    return { ephemeral: false, threadAllowed: true, note: privateAnswerNote(privacy, "directMessage") };
  }
  if (input.place === "guild" && input.inChannelAllowed) {
    return { ephemeral: false, threadAllowed: true, note: privateAnswerNote(privacy, "inChannel") };
  }
  const delivery =
    input.place !== "guild" ? "onlyYouHere" : input.wantsThread ? "onlyYouNoThread" : "onlyYou";
  return { ephemeral: true, threadAllowed: false, note: privateAnswerNote(privacy, delivery) };
}

/**
 * How a button's new page is delivered: in place of the message the button is on (`update`), or,
 * when the page is private and that message is public and may not show it, to the presser alone
 * (`toPresserOnly`), leaving the public message as it was. A page on an ephemeral message stays
 * there, for the asker alone, and repeats why.
 */
export function decidePageDelivery(input: {
  privacy: AnswerPrivacy | undefined;
  place: AnswerPlace;
  inChannelAllowed: boolean;
  /** The message the button is on is ephemeral. */
  onEphemeralMessage: boolean;
}): { mode: "update" | "toPresserOnly"; note?: string } {
  const { privacy, place } = input;
  if (!privacy) return { mode: "update" };
  if (input.onEphemeralMessage) {
    const { note } = decideDelivery({ privacy, place, inChannelAllowed: false, wantsThread: false });
    return { mode: "update", ...(note ? { note } : {}) };
  }
  const decision = decideDelivery({
    privacy,
    place,
    inChannelAllowed: input.inChannelAllowed,
    wantsThread: false,
  });
  return {
    mode: decision.ephemeral ? "toPresserOnly" : "update",
    ...(decision.note ? { note: decision.note } : {}),
  };
}

/** The part of an interaction's reply that sending an answer needs. */
export interface AnswerableInteraction {
  readonly deferred: boolean;
  reply(message: FormattedMessage, options: { ephemeral: true }): Promise<unknown>;
  deleteReply(): Promise<unknown>;
  editReply(message: FormattedMessage): Promise<unknown>;
  followUp(message: FormattedMessage, options: { ephemeral: true }): Promise<unknown>;
}

/**
 * Sends a private answer to the asker alone. A public deferral already out cannot become
 * ephemeral: it is deleted first, as the error path does, so nothing public remains. Were the
 * deletion refused, the first follow-up would take the deferral's place publicly (Discord's rule),
 * so the answer is then withheld and the placeholder says why instead.
 */
export async function sendToAskerOnly(
  interaction: AnswerableInteraction,
  message: FormattedMessage,
  logger: Logger,
): Promise<void> {
  if (!interaction.deferred) {
    await interaction.reply(message, { ephemeral: true });
    return;
  }
  try {
    await interaction.deleteReply();
  } catch (error) {
    logger.warn({ err: error }, "could not delete the public deferral: the private answer is withheld");
    await interaction.editReply(formatError(PRIVATE_WITHHELD));
    return;
  }
  await interaction.followUp(message, { ephemeral: true });
}
