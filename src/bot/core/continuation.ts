import { formatError } from "../../format/error.js";
import type { ErrorSituation } from "../../format/errorSentence.js";
import type { FormattedMessage } from "../../format/message.js";
import type { Logger } from "../../logger.js";
import type { Continuation } from "../commandModule.js";
import { discordCode, sentenceFor } from "./errorReply.js";
import type { InteractionReply } from "./reply.js";

/**
 * The continuations running now (a sign-in waiting for its approval): each edits its interaction's
 * reply with what it resolves to, within the 15 minutes the token lives (the command keeps to the
 * request's `editBy`). A stop aborts them all, so each leaves its last word at once.
 */
export class Continuations {
  private readonly running = new Set<AbortController>();
  private stopped = false;

  /** Runs a continuation and edits the reply with its result, or with its error line. Never throws. */
  async run(
    reply: InteractionReply,
    continuation: Continuation,
    logger: Logger,
    situation: ErrorSituation,
  ): Promise<void> {
    const controller = new AbortController();
    this.running.add(controller);
    if (this.stopped) controller.abort();
    let message: FormattedMessage;
    try {
      message = await continuation({ signal: controller.signal });
    } catch (error) {
      message = formatError(sentenceFor(error, logger, situation));
    } finally {
      this.running.delete(controller);
    }
    try {
      await reply.editReply(message);
    } catch (error) {
      logger.warn(
        { err: error, discordCode: discordCode(error) },
        "could not edit the reply after the continuation",
      );
    }
  }

  /** Aborts every running continuation, and any started from now on. */
  stop(): void {
    this.stopped = true;
    for (const controller of this.running) controller.abort();
  }
}
