import { performance } from "node:perf_hooks";
import type { Logger } from "../../logger.js";
import { snowflakeCreatedAt } from "./deferral.js";

/** The arrivals read: the latest this many interactions that found the bot idle. */
export const CLOCK_SAMPLES = 8;
/**
 * Every one of the latest {@link CLOCK_SAMPLES} idle arrivals this old or older: this machine's
 * clock is taken to be ahead of Discord's. Discord delivers an interaction within a few hundred ms
 * of creating it, and a bot with nothing in hand reads it at once.
 */
export const AHEAD_AFTER_MS = 1_000;
/**
 * The least time over which the {@link CLOCK_SAMPLES} idle arrivals must have come for their ages to
 * say anything of the clock: a gateway RESUME replays what a dropped connection missed, old, in one
 * burst, to a bot that may be idle.
 */
export const CLOCK_SPAN_MS = 1_000;
/** What an interaction is still taken to have spent reaching the bot once the clock is allowed for. */
const DELIVERY_MS = 250;
/** At most one warning per this long that the clock runs ahead. */
const WARNING_EVERY_MS = 60_000;

/** The span over which {@link eventLoopBusy} reads the event loop's use. */
const LOOP_WINDOW_MS = 250;
/** The share of that span the event loop worked, above which the process is taken as busy. */
const LOOP_BUSY_ABOVE = 0.5;
let loopReading = performance.eventLoopUtilization();
let loopReadAt = performance.now();
let loopBusy = false;

/**
 * Whether this process's event loop worked more than half of the last quarter second or so: one
 * far behind (interactions waiting on its sockets) never idles, though each interaction it takes
 * may be done before the next, with none other in hand. Read anew at most every
 * {@link LOOP_WINDOW_MS}; after a long rest, the first reading spans the rest.
 */
export function eventLoopBusy(): boolean {
  const at = performance.now();
  if (at - loopReadAt >= LOOP_WINDOW_MS) {
    const reading = performance.eventLoopUtilization();
    loopBusy = performance.eventLoopUtilization(reading, loopReading).utilization > LOOP_BUSY_ABOVE;
    loopReading = reading;
    loopReadAt = at;
  }
  return loopBusy;
}

/**
 * Discord's time, as well as this process can tell it. The bot reads how old an interaction is from
 * its snowflake (Discord's clock at its creation) and this machine's clock, and acts on it: it defers
 * what will not be ready in time, tells the asker the bot is busy past 2.5 s, and drops what is past
 * Discord's 3 s. A clock ahead of Discord's by 2.5 s or more therefore turned every answer into
 * "busy" or nothing at all, a whole outage from a clock a bot that ignores ages would not notice.
 *
 * So the ages are read against the interactions themselves: when each of the latest
 * {@link CLOCK_SAMPLES} interactions that found the bot idle (none other in hand and its event loop
 * mostly idle, so none waited for it) was {@link AHEAD_AFTER_MS} old or more on arrival, the clock
 * is taken to be ahead by the least of those ages, less a quarter second for the delivery, and
 * every age after is read with that allowance, with a warning; those arrivals must have come over
 * {@link CLOCK_SPAN_MS} at least. One fresh idle arrival ends it. A burst that leaves the bot behind
 * does not trigger it (its arrivals do not find the bot idle), nor does a burst of old ones replayed
 * at once, and a clock behind Discord's needs none (ages that would read negative read as 0).
 */
export interface DiscordClock {
  /** Discord's time now (Unix ms): this machine's, less how far it is known to run ahead. */
  now(): number;
  /** How far this machine's clock is taken to run ahead of Discord's, ms (0: not known to). */
  aheadMs(): number;
  /** An interaction (its snowflake id) reached the bot, which had `inHand` others in hand. */
  arrived(id: string, inHand: number): void;
  /**
   * Whether the bot may be behind: interactions in hand (`inHand`), or an event loop that barely
   * idles. If not, an interaction that reads late says the clock is ahead (or that someone sends
   * old requests), not that the bot is behind.
   */
  mayBeBehind(inHand: number): boolean;
}

export function createDiscordClock(
  options: {
    logger?: Logger;
    now?: () => number;
    /** Whether the event loop is busy (default {@link eventLoopBusy}; tests set it). */
    loopBusy?: () => boolean;
  } = {},
): DiscordClock {
  const localNow = options.now ?? Date.now;
  const busyLoop = options.loopBusy ?? eventLoopBusy;
  const mayBeBehind = (inHand: number): boolean => inHand > 0 || busyLoop();
  // The raw ages (this machine's clock) of the latest idle arrivals and when each came, oldest
  // overwritten first.
  const ages: number[] = [];
  const times: number[] = [];
  let next = 0;
  let ahead = 0;
  let warnedAt = Number.NEGATIVE_INFINITY;
  return {
    now: () => localNow() - ahead,
    aheadMs: () => ahead,
    mayBeBehind,
    arrived(id, inHand) {
      if (mayBeBehind(inHand)) return;
      const created = snowflakeCreatedAt(id);
      if (created === undefined) return;
      const at = localNow();
      const age = at - created;
      ages[next] = age;
      times[next] = at;
      next = (next + 1) % CLOCK_SAMPLES;
      const was = ahead;
      // A fresh arrival ends the allowance at once; old ones set it only when the latest
      // CLOCK_SAMPLES came over CLOCK_SPAN_MS at least (`next` is now the oldest's place).
      if (age < AHEAD_AFTER_MS) ahead = 0;
      else if (ages.length === CLOCK_SAMPLES && at - times[next]! >= CLOCK_SPAN_MS) {
        const least = Math.min(...ages);
        ahead = least >= AHEAD_AFTER_MS ? least - DELIVERY_MS : 0;
      }
      if (ahead > 0 && was === 0 && at - warnedAt >= WARNING_EVERY_MS) {
        warnedAt = at;
        options.logger?.warn(
          { aheadMs: Math.round(ahead) },
          "this machine's clock seems ahead of Discord's: the latest interactions that found the bot idle all arrived over a second old by it. Ages are read with that allowance meanwhile; set the clock right (NTP)",
        );
      } else if (ahead === 0 && was > 0) {
        options.logger?.info("interactions arrive fresh again: ages are read by this machine's clock");
      }
    },
  };
}
