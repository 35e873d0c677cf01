import { UserFacingError } from "../errors.js";
import type { TokenSpend } from "../github/tokenSpend.js";
import type { RateLimitSnapshot } from "../github/types.js";
import type { Logger } from "../logger.js";
import type { ShareCounters } from "./shareCounters.js";
import type { TokenAsker } from "./tokenResolver.js";

/** GitHub's hourly budget of a token when it has not said otherwise (5,000 points an hour). */
export const DEFAULT_HOURLY_LIMIT = 5_000;
const HOUR_MS = 60 * 60_000;

/** Who is counted: the server (when there is one) and the user. */
type ShareScope = "server" | "user";

/**
 * A server or a user has spent its share of the default token's hourly budget (SPEC sections 2 and
 * 4). Nothing was sent to GitHub.
 */
export class DefaultShareUsedUpError extends UserFacingError {
  readonly code = "default_share_used_up";
  constructor(
    readonly scope: ShareScope,
    readonly until: Date,
    /** The share (0..1) of the default token's hourly budget each server or user may spend. */
    readonly share: number,
  ) {
    super();
  }
}

/**
 * Fair use of the default token (SPEC section 4): no single server or user spends more than its
 * share of the token's hourly budget, so one busy server (autocomplete on every keystroke
 * included) cannot use it up, or get it secondary-limited, for everyone else.
 */
export interface DefaultTokenShare {
  /**
   * Before an upstream call with the default token on `resource` (`graphql`, `core`), of `points`
   * (default 1; an answer of several calls whose cost is known checks it whole before the first).
   * @throws DefaultShareUsedUpError when the asker's server or the asker cannot spend that much.
   */
  check(asker: TokenAsker, resource: string, points?: number): Promise<void>;
  /** After the call: counts what GitHub said it cost against the server and the user. */
  charge(asker: TokenAsker, spends: readonly TokenSpend[]): Promise<void>;
}

/** One window of GitHub's hourly budget of a resource. */
interface BudgetWindow {
  id: string;
  endsAt: number;
  limit: number;
}

/**
 * Creates the fair-use policy over `counters`.
 *
 * The window and the limit are GitHub's: `budget` gives the default token's last `x-ratelimit-*`
 * figures for a resource (the client's rate-limit book), so the counters reset when GitHub's
 * hourly window does, and the share is of the limit GitHub reports (5,000 when it has reported
 * nothing, such as a GitHub Enterprise Server with rate limits off: then local clock hours).
 *
 * Calls in flight are checked before they cost anything, so a burst can pass its share by the
 * calls already in flight (a handful, not a budget). A counter store that fails lets calls
 * through (logged): fair use is a guard against one hog, not a reason to fail commands.
 */
export function createDefaultTokenShare(options: {
  /** 0..1 (config `DEFAULT_TOKEN_SHARE`). */
  share: number;
  counters: ShareCounters;
  budget: (resource: string) => RateLimitSnapshot | undefined;
  logger?: Logger;
  now?: () => number;
}): DefaultTokenShare {
  const now = options.now ?? Date.now;

  function windowOf(resource: string): BudgetWindow {
    const at = now();
    const snapshot = options.budget(resource);
    const resetAt = snapshot ? Date.parse(snapshot.resetAt) : Number.NaN;
    const limit = snapshot && snapshot.limit > 0 ? snapshot.limit : DEFAULT_HOURLY_LIMIT;
    if (resetAt > at) return { id: `${resource}@${Math.round(resetAt / 1000)}`, endsAt: resetAt, limit };
    // GitHub's window has passed (or was never told): count in clock hours until it says again.
    const hour = Math.floor(at / HOUR_MS);
    return { id: `${resource}@h${hour}`, endsAt: (hour + 1) * HOUR_MS, limit };
  }

  function scopesOf(asker: TokenAsker): Array<{ scope: ShareScope; key: string }> {
    const scopes: Array<{ scope: ShareScope; key: string }> = [];
    if (asker.guildId !== null) scopes.push({ scope: "server", key: `guild:${asker.guildId}` });
    scopes.push({ scope: "user", key: `user:${asker.userId}` });
    return scopes;
  }

  return {
    async check(asker, resource, points = 1) {
      const window = windowOf(resource);
      const allowed = Math.floor(options.share * window.limit);
      const scopes = scopesOf(asker);
      let spent: number[];
      try {
        spent = await options.counters.get(
          window.id,
          scopes.map((scope) => scope.key),
        );
      } catch (error) {
        options.logger?.warn({ err: error }, "fair-use counters unavailable: not enforcing the share");
        return;
      }
      const over = scopes.find((_scope, index) => (spent[index] ?? 0) + Math.max(1, points) > allowed);
      if (over) throw new DefaultShareUsedUpError(over.scope, new Date(window.endsAt), options.share);
    },
    async charge(asker, spends) {
      const byResource = new Map<string, number>();
      for (const spend of spends) {
        byResource.set(spend.resource, (byResource.get(spend.resource) ?? 0) + spend.points);
      }
      const keys = scopesOf(asker).map((scope) => scope.key);
      for (const [resource, points] of byResource) {
        if (points <= 0) continue;
        const window = windowOf(resource);
        try {
          await options.counters.add(window.id, keys, points, new Date(window.endsAt));
        } catch (error) {
          options.logger?.warn({ err: error }, "fair-use counters unavailable: a spend was not counted");
        }
      }
    },
  };
}
