import { randomBytes } from "node:crypto";
import { RESTJSONErrorCodes } from "discord-api-types/v10";
import { errorFacts } from "../../errorFacts.js";
import { isUserFacingError } from "../../errors.js";
import type { Config } from "../../config.js";
import { formatError } from "../../format/error.js";
import type { FormattedMessage } from "../../format/message.js";
import { errorSentence, genericErrorSentence, type ErrorSituation } from "../../format/errorSentence.js";
import type { Logger } from "../../logger.js";
import type { InteractionReply } from "./reply.js";

/** A short random id that ties a generic error line to its log entry. */
export function newErrorId(): string {
  return randomBytes(4).toString("hex");
}

/** What an error's next step may depend on: whether `/login` works here, a server or a DM. */
export function errorSituationOf(config: Config, guildId: string | null): ErrorSituation {
  return {
    signIn: config.github.oauth.clientId !== undefined,
    inServer: guildId !== null,
    webUrl: config.github.webUrl,
  };
}

/** Discord's error code of a failed REST call (`DiscordAPIError.code`), if any. */
export function discordCode(error: unknown): unknown {
  return typeof error === "object" && error !== null && "code" in error
    ? (error as { code: unknown }).code
    : undefined;
}

/**
 * Whether Discord says the interaction is gone: 10062 (Unknown interaction: the first response came
 * after its 3 s) or 10015 (Unknown Webhook: its token no longer exists, as when an HTTP reply came
 * too late and Discord never took it). Nothing more can be sent for it.
 */
export function isGoneInteraction(error: unknown): boolean {
  const code = discordCode(error);
  return code === RESTJSONErrorCodes.UnknownInteraction || code === RESTJSONErrorCodes.UnknownWebhook;
}

/**
 * Ends an interaction Discord no longer takes a response for (see {@link isGoneInteraction}): one
 * info line, no stack, and no second attempt, since any reply would be refused too.
 */
export function noteExpired(reply: InteractionReply, error: unknown, logger: Logger): void {
  reply.outcome = "expired";
  logger.info({ discordCode: discordCode(error) }, "interaction expired before its answer");
}

/**
 * Logs an error and returns the sentence the user reads: a user-facing error's own (one info
 * line, no stack), anything else the generic line with an error id that is also in the log.
 */
export function sentenceFor(error: unknown, logger: Logger, situation: ErrorSituation): string {
  if (isUserFacingError(error)) {
    logger.info(errorFacts(error), "answered with a user-facing error");
    return errorSentence(error, situation);
  }
  const errorId = newErrorId();
  logger.error({ err: error, errorId }, "command failed");
  return genericErrorSentence(errorId);
}

/**
 * Sends a notice only the asker sees, whatever state the interaction is in: the first response,
 * or after a public "thinking…" (which cannot become ephemeral) its deletion and a private
 * follow-up, so no public message is left holding it. Throws what Discord refuses.
 * @param component the interaction is a button press (whose reply is the message it is on).
 */
export async function replyPrivately(
  reply: InteractionReply,
  message: FormattedMessage,
  logger: Logger,
  component: boolean,
): Promise<void> {
  if (!reply.acknowledged) {
    await reply.reply(message, { ephemeral: true });
  } else if (reply.deferral === "public") {
    await reply
      .deleteReply()
      .catch((deleteError: unknown) =>
        logger.warn({ err: deleteError }, "could not delete the deferred reply"),
      );
    await reply.followUp(message, { ephemeral: true });
  } else if (component) {
    await reply.followUp(message, { ephemeral: true });
  } else {
    // Deferred ephemerally (a modal submit, an admin command): the reply is already private.
    await reply.editReply(message);
  }
}

/**
 * The one place an error becomes a reply: an ephemeral message, whatever state the interaction is
 * in. Never throws; a reply Discord refuses is logged.
 * @param component the interaction is a button press (whose reply is the message it is on).
 */
export async function replyWithError(
  reply: InteractionReply,
  error: unknown,
  logger: Logger,
  situation: ErrorSituation,
  component = false,
): Promise<void> {
  reply.outcome = isUserFacingError(error) && error.code === "busy" ? "busy" : "error";
  if (isGoneInteraction(error)) {
    // The interaction is gone (its first response came too late, or it was answered elsewhere).
    noteExpired(reply, error, logger);
    return;
  }
  const message = formatError(sentenceFor(error, logger, situation));
  try {
    await replyPrivately(reply, message, logger, component);
  } catch (replyError) {
    if (isGoneInteraction(replyError)) {
      // The error reply itself came too late (a busy reply on an overloaded machine can).
      noteExpired(reply, replyError, logger);
      return;
    }
    logger.warn(
      { err: replyError, discordCode: discordCode(replyError) },
      "could not deliver the error reply",
    );
  }
}
