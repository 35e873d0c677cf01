import { settleWithin, settlesWithin } from "../../timeouts.js";
import { BusyError, type Admission, type Asking, type Release } from "./admission.js";

/**
 * Discord refuses a first response after 3 s: answers not ready by this point are deferred, which
 * leaves the rest of the 3 s for the deferral itself to reach Discord whatever the network does.
 */
export const DEFER_AFTER_MS = 1_500;

/**
 * How long Discord waits for an interaction's first response, from its creation (DISCORD-FACTS:
 * "within 3 seconds"). An interaction the bot gets to later than this is one Discord stopped
 * waiting for: whatever the bot sends, Discord refuses it (10062), so the bot does none of its work.
 */
export const RESPONSE_DEADLINE_MS = 3_000;

/** The latest age at which an answer may still be awaited before the first response. */
const ACKNOWLEDGE_BY_MS = 2_000;
/**
 * A queued interaction must start its work by this age: its token lets the bot edit the answer for
 * 15 minutes, and the work itself may take a while. Older, it is told the bot is busy.
 */
export const QUEUE_LIMIT_MS = 12 * 60_000;

/** Discord's epoch (the first second of 2015), as in every snowflake's top bits. */
const DISCORD_EPOCH = 1_420_070_400_000;

/** An interaction token lasts 15 minutes: an age past it can only be a clock that is off. */
const TOKEN_LIFETIME_MS = 15 * 60_000;

/** The creation time (Unix ms) in a snowflake id, or undefined when the id is not one. */
export function snowflakeCreatedAt(id: string): number | undefined {
  try {
    return Number(BigInt(id) >> 22n) + DISCORD_EPOCH;
  } catch {
    return undefined;
  }
}

/**
 * How old an interaction is: now minus the creation time in its snowflake id. Clock skew between
 * Discord and this host shows as a wrong age, so the bot passes Discord's time as `now`, which
 * allows for a clock ahead (./discordClock.ts). An age that cannot be (in the future, or past the
 * token's 15 minutes, when this host's clock is far off) reads as 0, unknown, so that a bad clock
 * never turns every answer into a deferral.
 */
export function interactionAgeMs(id: string, now: number = Date.now()): number {
  const created = snowflakeCreatedAt(id);
  if (created === undefined) return 0;
  const age = now - created;
  return age > 0 && age <= TOKEN_LIFETIME_MS ? age : 0;
}

/**
 * How long an answer (or a turn in the queue) may still be awaited before the first response: the
 * configured window, cut short by the interaction's age, so that the deferral still reaches
 * Discord within its 3 s however late the interaction reached the bot. An answer ready at once (an
 * in-process cache hit) is still sent as the first response itself: one request to Discord rather
 * than a deferral and an edit, which matters most when the bot is behind.
 */
export function deferWindowMs(ageMs: number, deferAfterMs: number): number {
  return Math.max(0, Math.min(deferAfterMs, ACKNOWLEDGE_BY_MS - ageMs));
}

/**
 * Runs `work`; when it is not done within `deferAfterMs`, sends `defer` first and then waits for
 * it. `deferred` says which happened; a failure of `work` is thrown either way.
 */
export async function withDeferral<T>(
  work: Promise<T>,
  defer: () => Promise<unknown>,
  deferAfterMs: number,
): Promise<{ value: T; deferred: boolean }> {
  if (await settlesWithin(work, deferAfterMs)) return { value: await work, deferred: false };
  await defer();
  return { value: await work, deferred: true };
}

export interface PacedAnswerOptions {
  /** The interaction's id (its age is read from it). */
  id: string;
  /** Whose interaction it is: one person's or one server's flood waits behind nobody else's. */
  asking?: Asking;
  admission: Admission;
  /** The configured window before deferring (see {@link DEFER_AFTER_MS}). */
  deferAfterMs: number;
  now?: () => number;
}

/**
 * Answers one interaction within Discord's deadline, whatever the load (the deferral goes out
 * before the window ends whenever the answer is not there):
 * - a free slot: the work starts and is deferred only if not ready in the window left (an
 *   in-process cache hit is answered in the first response itself, however late it arrived);
 * - no free slot: it waits its turn in the queue; a turn that comes within the window is a free
 *   slot with the rest of the window, else the deferral goes out when the window ends and the
 *   work still waits its turn (told the bot is busy if its turn comes too late to answer);
 * - a full queue, or the asker (or their server) already at its bound: {@link BusyError} at once,
 *   nothing else done.
 *
 * Waiting for a turn before deferring is what keeps a burst from feeding itself: a deferral and its
 * edit are two requests to Discord where an answer is one, about twice the CPU. Deferring whatever
 * found the slots taken (as this did until 2026-11) turned a queue formed at a cold start into a
 * deferral for nearly every interaction after it, on a cpu shared with another process, and the
 * extra requests kept the queue from draining.
 */
export async function answerInTime<T>(
  options: PacedAnswerOptions,
  start: () => Promise<T>,
  defer: () => Promise<unknown>,
): Promise<{ value: T; deferred: boolean }> {
  const now = options.now ?? Date.now;
  const windowLeft = (): number => deferWindowMs(interactionAgeMs(options.id, now()), options.deferAfterMs);
  const entry = options.admission.enter(options.asking);
  if (entry.kind === "refused") throw new BusyError(entry.reason);
  /** The work, once it holds a slot; the slot is given back when it ends. */
  const run = (release: Release): Promise<T> => {
    let work: Promise<T>;
    try {
      if (interactionAgeMs(options.id, now()) > QUEUE_LIMIT_MS) throw new BusyError("waitedTooLong");
      work = start();
    } catch (error) {
      release();
      throw error;
    }
    void work.then(release, release);
    return work;
  };
  if (entry.kind === "now") return withDeferral(run(entry.release), defer, windowLeft());
  const windowMs = windowLeft();
  if (windowMs > 0) {
    const turn = await settleWithin(entry.slot, windowMs);
    if (!turn.timedOut) return withDeferral(run(turn.value), defer, windowLeft());
  }
  try {
    await defer();
  } catch (error) {
    // The place in the queue is still taken: give the slot back as soon as it comes.
    void entry.slot.then((release) => release());
    throw error;
  }
  return { value: await run(await entry.slot), deferred: true };
}
