import { DEFAULT_THREAD_SUMMARY } from "../../format/delivery.js";
import type { FormattedMessage } from "../../format/message.js";
import type { Logger } from "../../logger.js";
import type { CommandAnswer } from "../commandModule.js";
import type { Services } from "../services.js";
import { discordCode } from "./errorReply.js";
import { toOutgoing, withNote } from "./messagePayload.js";
import { decideDelivery, sendToAskerOnly } from "./privateDelivery.js";
import type { InteractionReply } from "./reply.js";
import type { InteractionFacts } from "./request.js";
import { answerInThread, decidePlacement, threadFailureNote, type Placement } from "./threads.js";

/** What the channel reads when an answer went into a thread and the command named no summary. */

/**
 * Whether the server allows private answers in its channels (SPEC section 4), read only when an
 * answer is private and the interaction is in a server.
 */
export async function inChannelAllowed(
  services: Services,
  facts: InteractionFacts,
  privacy: CommandAnswer["privacy"],
): Promise<boolean> {
  const { guildId } = facts.request;
  return privacy !== undefined && facts.place === "guild" && guildId !== null
    ? services.settings.getPrivateAnswersInChannel(guildId)
    : false;
}

/**
 * Where an answer that may go into a thread goes: the `thread` option when `given`, else the
 * server's setting; then whether a thread can be started there (SPEC section 3).
 */
export async function placementFor(
  services: Services,
  facts: InteractionFacts,
  given: boolean | undefined,
): Promise<Placement> {
  const { guildId } = facts.request;
  const wantsThread = given ?? (guildId !== null ? await services.settings.getThreads(guildId) : false);
  return decidePlacement({
    wantsThread,
    inGuild: facts.inGuild,
    userInstallOnly: facts.userInstallOnly,
    channelType: facts.channelType,
    appPermissions: facts.appPermissions,
  });
}

/** One command answer on its way: the reply it goes through and where it was asked. */
export interface AnswerDelivery {
  services: Services;
  reply: InteractionReply;
  facts: InteractionFacts;
  /** The command's name: the thread's name when the answer names none. */
  commandName: string;
  /** The command answers ephemerally (admin commands). */
  ephemeral: boolean;
  logger: Logger;
}

/**
 * Delivers a command's answer: to the asker alone when it is private and the place may not show it
 * (SPEC section 4), else in place (the reply, or the deferral filled in) or in a new thread started
 * from a one-line summary. A thread Discord refuses leaves the answer in place, saying why.
 */
export async function deliverAnswer(
  target: AnswerDelivery,
  answer: CommandAnswer,
  placement: Placement,
): Promise<void> {
  const threadId = await deliverOne(target, answer, placement);
  if (answer.privateRest) await deliverPrivateRest(target, answer.privateRest, threadId);
}

/**
 * The private part of an answer whose main part is public, after it: to the asker alone (an
 * ephemeral follow-up) unless the place may show private code, then beside the main part (in its
 * thread when it went into one), marked private.
 */
async function deliverPrivateRest(
  target: AnswerDelivery,
  rest: CommandAnswer,
  threadId: string | undefined,
): Promise<void> {
  const { reply, facts, logger } = target;
  const decision = decideDelivery({
    privacy: rest.privacy,
    place: facts.place,
    inChannelAllowed: await inChannelAllowed(target.services, facts, rest.privacy),
    wantsThread: threadId !== undefined,
  });
  const message = withNote(rest.message, decision.note);
  if (decision.ephemeral) {
    logger.info({ private: rest.privacy?.kind }, "private part of the answer sent to the asker only");
    await reply.followUp(message, { ephemeral: true });
  } else if (threadId !== undefined) {
    await reply.via.sendToChannel(threadId, toOutgoing(message));
  } else {
    await reply.followUp(message);
  }
}

/** Delivers one answer; returns the id of the thread it went into, if any. */
async function deliverOne(
  target: AnswerDelivery,
  answer: CommandAnswer,
  placement: Placement,
): Promise<string | undefined> {
  const { reply, facts, logger } = target;
  const wantsThread = placement.mode === "thread" || placement.note !== undefined;
  const decision = decideDelivery({
    privacy: answer.privacy,
    place: facts.place,
    inChannelAllowed: await inChannelAllowed(target.services, facts, answer.privacy),
    wantsThread,
  });
  if (decision.ephemeral && !target.ephemeral) {
    logger.info({ private: answer.privacy?.kind }, "private answer sent to the asker only");
    await sendToAskerOnly(reply, withNote(answer.message, decision.note), logger);
    return undefined;
  }
  const message = withNote(answer.message, decision.note);
  if (placement.mode === "inPlace") {
    const shown = withNote(message, placement.note);
    if (reply.deferred) await reply.editReply(shown);
    else await reply.reply(shown, { ephemeral: target.ephemeral });
    return undefined;
  }
  const summary: FormattedMessage = {
    content: answer.summary ?? DEFAULT_THREAD_SUMMARY,
    embeds: [],
    components: [],
    files: [],
    allowedMentions: { parse: [] },
  };
  const starter = reply.deferred
    ? await reply.editReply(summary)
    : await reply.reply(summary, { wantMessage: true });
  const channelId = facts.request.channelId;
  if (!starter || !channelId) throw new Error("the summary reply has no message to start a thread from");
  try {
    const threadId = await answerInThread(reply.via, {
      channelId,
      messageId: starter.id,
      name: answer.threadName ?? target.commandName,
      message,
    });
    logger.info({ threadId }, "answered in a thread");
    return threadId;
  } catch (error) {
    logger.warn(
      { err: error, discordCode: discordCode(error) },
      "could not answer in a thread; answering in place",
    );
    await reply.editReply(withNote(message, threadFailureNote(error)));
    return undefined;
  }
}
