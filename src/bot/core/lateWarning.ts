import type { Logger } from "../../logger.js";

/** At most one warning per this long that interactions came too late to answer (the metrics count each). */
export const LATE_WARNING_EVERY_MS = 60_000;

/**
 * Says, at most once per {@link LATE_WARNING_EVERY_MS}, that interactions reached the bot after
 * Discord's 3 s and were left unanswered, with how many since the last warning: one line per late
 * interaction would be thousands of lines a second from a bot already behind. The returned function
 * is called once per late interaction.
 */
export function lateWarning(logger: Logger, now: () => number = Date.now): () => void {
  let lateSinceWarning = 0;
  let warnedAt = Number.NEGATIVE_INFINITY;
  return () => {
    lateSinceWarning++;
    const at = now();
    if (at - warnedAt < LATE_WARNING_EVERY_MS) return;
    logger.warn(
      { late: lateSinceWarning },
      "interactions reached the bot after Discord's 3 s and were left unanswered: the bot is behind (give it more processes or cpu), or this machine's clock is ahead of Discord's",
    );
    lateSinceWarning = 0;
    warnedAt = at;
  };
}
