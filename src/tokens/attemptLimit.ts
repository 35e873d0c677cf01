import { LRUCache } from "lru-cache";
import { UserFacingError } from "../errors.js";

/**
 * At most `max` attempts per key in any `windowMs` (a sliding window). Behind this small interface
 * so that several processes can share the count later (a Redis sorted set per key would do).
 */
export interface AttemptLimit {
  /**
   * Takes one attempt for `key`. @returns null when it is allowed (and counted), or when the next
   * attempt will be allowed (nothing counted).
   */
  take(key: string): Promise<Date | null>;
}

/**
 * Creates an in-process {@link AttemptLimit}: the times of the last `max` attempts per key, for
 * up to `maxKeys` keys (the least recently used key is forgotten first, which can only let an
 * idle key start afresh).
 */
export function createAttemptLimit(options: {
  max: number;
  windowMs: number;
  now?: () => number;
  maxKeys?: number;
}): AttemptLimit {
  const now = options.now ?? Date.now;
  const attempts = new LRUCache<string, number[]>({ max: options.maxKeys ?? 10_000 });
  return {
    async take(key) {
      const at = now();
      const recent = (attempts.get(key) ?? []).filter((time) => time > at - options.windowMs);
      if (recent.length >= options.max) {
        attempts.set(key, recent);
        return new Date((recent[0] ?? at) + options.windowMs);
      }
      recent.push(at);
      attempts.set(key, recent);
      return null;
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
