import { GitHubOAuthError, type OAuthFailure, type TokenGrant } from "./githubOAuth.js";

/** How polling a device code ended. */
export type PollResult =
  | { kind: "token"; grant: TokenGrant }
  | { kind: "denied" }
  | { kind: "expired" }
  | { kind: "stopped" }
  /** GitHub refused the flow with another OAuth error (`device_flow_disabled`...): `code` is it. */
  | { kind: "failed"; code: string };

/**
 * Waited on top of the interval, so clock rounding never brings a poll in a hair early: GitHub
 * counts the interval between its own receipts, and a poll that comes early costs 5 more seconds.
 */
const POLL_MARGIN_MS = 25;
/** RFC 8628: what `slow_down` adds when GitHub's answer does not carry the new interval. */
const SLOW_DOWN_MS = 5_000;

/**
 * Polls GitHub for the token of a device code exactly as GitHub asks (GITHUB-FACTS.md "Sign-in"):
 * first after `interval`, then never sooner than `interval` after the previous answer; after each
 * `slow_down`, at GitHub's new interval (or 5 s more when it names none). `authorization_pending`
 * and answers that never came (network, 5xx) mean poll again; `expired_token`, `access_denied` and
 * other OAuth errors end it. Polling also ends, as expired, when the next poll would come after
 * `deadline` (the code's expiry, or the end of the time the reply can be edited), and as stopped
 * when `signal` aborts. Never throws.
 */
export async function pollDeviceCode(options: {
  exchange: (signal: AbortSignal) => Promise<TokenGrant>;
  intervalSeconds: number;
  /** Epoch ms. */
  deadline: number;
  signal: AbortSignal;
  now?: () => number;
  /** Resolves after `ms`, or rejects once `signal` aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A poll that got no usable answer (for the log). */
  onUnanswered?: (failure: OAuthFailure) => void;
}): Promise<PollResult> {
  const now = options.now ?? Date.now;
  const { signal } = options;
  let intervalMs = Math.max(0, options.intervalSeconds * 1000);
  for (;;) {
    const wait = intervalMs + POLL_MARGIN_MS;
    if (now() + wait >= options.deadline) return { kind: "expired" };
    try {
      await options.sleep(wait, signal);
    } catch {
      if (signal.aborted) return { kind: "stopped" };
    }
    if (signal.aborted) return { kind: "stopped" };
    let failure: OAuthFailure;
    try {
      return { kind: "token", grant: await options.exchange(signal) };
    } catch (error) {
      failure = error instanceof GitHubOAuthError ? error.failure : { kind: "unavailable", status: null };
    }
    if (failure.kind === "aborted") return { kind: "stopped" };
    if (failure.kind === "unavailable") {
      options.onUnanswered?.(failure);
      continue;
    }
    switch (failure.code) {
      case "authorization_pending":
        break;
      case "slow_down": {
        // GitHub's answer names the new interval; never poll faster than before because of it.
        const named = failure.interval !== undefined ? failure.interval * 1000 : undefined;
        intervalMs = named !== undefined && named > intervalMs ? named : intervalMs + SLOW_DOWN_MS;
        break;
      }
      case "expired_token":
        return { kind: "expired" };
      case "access_denied":
        return { kind: "denied" };
      default:
        return { kind: "failed", code: failure.code };
    }
  }
}
