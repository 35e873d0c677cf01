import type { CommandAnswer } from "../commandModule.js";

/**
 * Whether an answer held in process (`CommandModule.answerHeld`, `buttonHeld`) is all the steps
 * would send: public, and nothing after it (no private rest, no continuation).
 */
export function goesAlone(answer: CommandAnswer): boolean {
  return !answer.privacy && !answer.privateRest && !answer.continuation;
}

/**
 * Sends the answer `hold` gives, held in process, with `send` as the first response, without the
 * steps of waiting for work (issue 23: no work slot, no deferral timer, no store read). True when
 * it was handled: sent, or told with `fail` when making or sending it failed (as a failure of the
 * steps is told). False when nothing is held: the steps run.
 */
export async function sentHeld(
  hold: () => CommandAnswer | undefined,
  send: (answer: CommandAnswer) => Promise<unknown>,
  fail: (error: unknown) => Promise<void>,
): Promise<boolean> {
  try {
    const held = hold();
    if (!held) return false;
    await send(held);
  } catch (error) {
    await fail(error);
  }
  return true;
}
