import { describe, expect, it } from "vitest";
import { GitHubOAuthError, type OAuthFailure, type TokenGrant } from "../../src/signin/githubOAuth.js";
import { pollDeviceCode, type PollResult } from "../../src/signin/pollDeviceCode.js";

/**
 * Polling as GitHub asks, on a fake clock: every wait the poller makes is recorded, and GitHub's
 * answers are scripted, so the test reads exactly when each poll would have gone out.
 */

const GRANT: TokenGrant = {
  token: "gho_x",
  refreshToken: null,
  expiresAt: null,
  refreshTokenExpiresAt: null,
};
type Answer = OAuthFailure | "token";

function oauth(code: string, interval?: number): OAuthFailure {
  return { kind: "oauth", code, status: 200, ...(interval !== undefined ? { interval } : {}) };
}

async function run(
  answers: Answer[],
  options: { intervalSeconds?: number; deadlineMs?: number; abortAfterPolls?: number } = {},
): Promise<{ result: PollResult; waits: number[]; polls: number }> {
  let clock = 0;
  const waits: number[] = [];
  let polls = 0;
  const controller = new AbortController();
  const result = await pollDeviceCode({
    intervalSeconds: options.intervalSeconds ?? 5,
    deadline: options.deadlineMs ?? 900_000,
    signal: controller.signal,
    now: () => clock,
    sleep: async (ms, signal) => {
      waits.push(ms);
      clock += ms;
      if (signal.aborted) throw new Error("aborted");
    },
    exchange: async () => {
      polls += 1;
      if (options.abortAfterPolls !== undefined && polls >= options.abortAfterPolls) controller.abort();
      const answer = answers.shift() ?? oauth("authorization_pending");
      if (answer === "token") return GRANT;
      throw new GitHubOAuthError(answer);
    },
  });
  return { result, waits, polls };
}

describe("polling a device code", () => {
  it("waits the interval before the first poll and between polls while authorization is pending", async () => {
    const { result, waits } = await run([
      oauth("authorization_pending"),
      oauth("authorization_pending"),
      "token",
    ]);
    expect(result).toEqual({ kind: "token", grant: GRANT });
    expect(waits).toEqual([5_025, 5_025, 5_025]);
  });

  it("after slow_down polls at the interval GitHub names, or 5 s more when it names none, from then on", async () => {
    const named = await run([oauth("slow_down", 10), oauth("authorization_pending"), "token"]);
    expect(named.waits).toEqual([5_025, 10_025, 10_025]);
    const unnamed = await run([oauth("slow_down"), oauth("slow_down"), "token"]);
    expect(unnamed.waits).toEqual([5_025, 10_025, 15_025]);
    // A named interval lower than the current one never speeds polling up.
    const lower = await run([oauth("slow_down", 1), "token"]);
    expect(lower.waits).toEqual([5_025, 10_025]);
  });

  it("keeps polling through answers that never came, and ends on denial, expiry and other OAuth errors", async () => {
    const flaky = await run([
      { kind: "unavailable", status: 502 },
      { kind: "unavailable", status: null },
      "token",
    ]);
    expect(flaky.result.kind).toBe("token");
    expect((await run([oauth("access_denied")])).result).toEqual({ kind: "denied" });
    expect((await run([oauth("expired_token")])).result).toEqual({ kind: "expired" });
    expect((await run([oauth("device_flow_disabled")])).result).toEqual({
      kind: "failed",
      code: "device_flow_disabled",
    });
  });

  it("stops as expired when the next poll would come after the deadline, without asking", async () => {
    const { result, polls, waits } = await run([], { intervalSeconds: 5, deadlineMs: 12_000 });
    expect(result).toEqual({ kind: "expired" });
    expect(polls).toBe(2);
    expect(waits).toEqual([5_025, 5_025]);
  });

  it("stops when the signal aborts (the bot is stopping)", async () => {
    const { result, polls } = await run([], { abortAfterPolls: 3 });
    expect(result).toEqual({ kind: "stopped" });
    expect(polls).toBe(3);
  });
});
