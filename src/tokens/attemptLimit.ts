import type { Coordination } from "../cache/coordination.js";
import type { DurableStore } from "../cache/guardedStore.js";
import { UserFacingError } from "../errors.js";
import { TokenStoreUnavailableError } from "./tokenVault.js";

/**
 * At most `max` attempts per key in any `windowMs` (a sliding window): in the stores every process
 * shares ({@link createSharedAttemptLimit}, Redis), or in the durable store of one process
 * ({@link createStoredAttemptLimit}, SQLite), where a restart does not reset it.
 */
export interface AttemptLimit {
  /**
   * Takes one attempt for `key`. @returns null when it is allowed (and counted), or when the next
   * attempt will be allowed (nothing counted).
   */
  take(key: string): Promise<Date | null>;
}

/**
 * An {@link AttemptLimit} every process on the shared stores counts in (a sorted set per key in
 * Redis, on Redis's clock): N processes allow `max` in all, not `max` each, and a restart forgets
 * nothing. When the store cannot be asked, the attempt is refused with
 * {@link TokenStoreUnavailableError}: what it guards (storing a server token) needs that store anyway.
 */
export function createSharedAttemptLimit(
  coordination: Pick<Coordination, "attempt">,
  options: { max: number; windowMs: number; prefix: string },
): AttemptLimit {
  return {
    async take(key) {
      let retryAt: number | null;
      try {
        retryAt = await coordination.attempt(`${options.prefix}:${key}`, options.max, options.windowMs);
      } catch (error) {
        throw new TokenStoreUnavailableError("write", { cause: error });
      }
      return retryAt === null ? null : new Date(retryAt);
    },
  };
}

/**
 * An {@link AttemptLimit} kept in a durable store (the SQLite file of the vault: one process owns
 * it), so a restart does not hand a server five fresh attempts. Attempts on one key are taken one
 * at a time in this process, so two at once cannot both read four and both write five. A store
 * failure refuses the attempt ({@link TokenStoreUnavailableError}).
 */
export function createStoredAttemptLimit(
  store: DurableStore,
  options: { max: number; windowMs: number; now?: () => number },
): AttemptLimit {
  const now = options.now ?? Date.now;
  const pending = new Map<string, Promise<unknown>>();

  async function takeNow(key: string): Promise<Date | null> {
    const at = now();
    let stored: unknown;
    try {
      stored = await store.get(key);
    } catch (error) {
      throw new TokenStoreUnavailableError("read", { cause: error });
    }
    const times = Array.isArray(stored)
      ? stored.filter((time): time is number => typeof time === "number")
      : [];
    const recent = times.filter((time) => time > at - options.windowMs);
    if (recent.length >= options.max) return new Date((recent[0] ?? at) + options.windowMs);
    recent.push(at);
    try {
      await store.set(key, recent, options.windowMs);
    } catch (error) {
      throw new TokenStoreUnavailableError("write", { cause: error });
    }
    return null;
  }

  return {
    take(key) {
      const previous = pending.get(key) ?? Promise.resolve();
      const taken = previous.then(
        () => takeNow(key),
        () => takeNow(key),
      );
      const settled = taken.catch(() => undefined);
      pending.set(key, settled);
      void settled.then(() => {
        if (pending.get(key) === settled) pending.delete(key);
      });
      return taken;
    },
  };
}

/** `/token set` verifications a server may run in {@link TOKEN_CHECK_WINDOW_MS} (SPEC section 4). */
export const TOKEN_CHECKS_PER_WINDOW = 5;
export const TOKEN_CHECK_WINDOW_MS = 10 * 60_000;

/**
 * A sixth `/token set` within ten minutes: refused before anything is sent to GitHub, so a server
 * cannot use the bot to try tokens against GitHub (or spend GitHub's patience with the bot).
 */
export class TokenChecksExhaustedError extends UserFacingError {
  readonly code = "token_checks_exhausted";
  /** How many checks a server may make in a window, and the window's length in minutes. */
  readonly checksPerWindow = TOKEN_CHECKS_PER_WINDOW;
  readonly windowMinutes = TOKEN_CHECK_WINDOW_MS / 60_000;
  constructor(readonly retryAt: Date) {
    super();
  }
}
