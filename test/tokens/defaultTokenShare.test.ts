import { describe, expect, it } from "vitest";
import { sentenceOf } from "../sentenceOf.js";
import type { RateLimitSnapshot } from "../../src/github/types.js";
import { DefaultShareUsedUpError, createDefaultTokenShare } from "../../src/tokens/defaultTokenShare.js";
import { createMemoryShareCounters, type ShareCounters } from "../../src/tokens/shareCounters.js";

const T0 = Date.parse("2030-01-01T10:00:00Z");
const inServer = { guildId: "100000000000000001", userId: "200000000000000001" };
const sameServerOtherUser = { guildId: "100000000000000001", userId: "200000000000000002" };
const inDm = { guildId: null, userId: "200000000000000003" };

function snapshot(limit: number, resetAt: number): RateLimitSnapshot {
  return {
    resource: "graphql",
    limit,
    remaining: limit,
    used: 0,
    resetAt: new Date(resetAt).toISOString(),
    observedAt: new Date(T0).toISOString(),
  };
}

function setup(brokenCounters?: ShareCounters) {
  const clock = { now: T0, budget: snapshot(100, T0 + 30 * 60_000) as RateLimitSnapshot | undefined };
  const share = createDefaultTokenShare({
    share: 0.2,
    counters: brokenCounters ?? createMemoryShareCounters({ now: () => clock.now }),
    budget: () => clock.budget,
    now: () => clock.now,
  });
  return { clock, share };
}

const spend = (points: number) => [{ resource: "graphql", points }];

describe("fair use of the default token", () => {
  it("refuses a server past its share of the limit GitHub reports, until GitHub's window resets", async () => {
    const { clock, share } = setup();
    await share.check(inServer, "graphql");
    await share.charge(inServer, spend(20));
    const refused = await share.check(sameServerOtherUser, "graphql").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DefaultShareUsedUpError);
    expect((refused as DefaultShareUsedUpError).scope).toBe("server");
    expect((refused as DefaultShareUsedUpError).until.getTime()).toBe(T0 + 30 * 60_000);
    // Another place and person still has theirs.
    await share.check(inDm, "graphql");
    // GitHub's window rolls over: counting starts again.
    clock.now = T0 + 31 * 60_000;
    clock.budget = snapshot(100, T0 + 91 * 60_000);
    await share.check(sameServerOtherUser, "graphql");
  });

  it("refuses an answer whose known cost passes what is left of the share, before it spends anything", async () => {
    const { share } = setup();
    await share.charge(inServer, spend(12));
    // 20 allowed, 12 spent: 8 more points fit, 9 do not.
    await share.check(inServer, "graphql", 8);
    await expect(share.check(inServer, "graphql", 9)).rejects.toMatchObject({ scope: "server" });
    await share.check(inServer, "graphql");
  });

  it("refuses a user past their share wherever they ask, and counts each resource apart", async () => {
    const { share } = setup();
    await share.charge(inDm, spend(19));
    await share.check(inDm, "graphql");
    await share.charge(inDm, [{ resource: "core", points: 5 }, ...spend(1)]);
    await expect(share.check(inDm, "graphql")).rejects.toMatchObject({ scope: "user" });
    await expect(
      share.check({ guildId: "100000000000000009", userId: inDm.userId }, "graphql"),
    ).rejects.toMatchObject({ scope: "user" });
    await share.check(inDm, "core");
  });

  it("uses 5,000 and clock hours when GitHub has reported no budget", async () => {
    const { clock, share } = setup();
    clock.budget = undefined;
    await share.charge(inServer, spend(999));
    await share.check(inServer, "graphql");
    await share.charge(inServer, spend(1));
    const refused = (await share
      .check(inServer, "graphql")
      .catch((error: unknown) => error)) as DefaultShareUsedUpError;
    expect(refused.until.toISOString()).toBe("2030-01-01T11:00:00.000Z");
    expect(sentenceOf(refused)).toMatch(/used up for this server until <t:\d+:t> \(<t:\d+:R>\)/);
    expect(sentenceOf(refused)).toContain("`/login`");
  });

  it("lets calls through when its counters fail: fair use never fails a command", async () => {
    const broken: ShareCounters = {
      get: () => Promise.reject(new Error("counter store down")),
      add: () => Promise.reject(new Error("counter store down")),
    };
    const { share } = setup(broken);
    await share.charge(inServer, spend(1000));
    await share.check(inServer, "graphql");
  });
});

describe("the in-process share counters", () => {
  it("keep at most maxScopes scopes a window, forgetting the least recently charged first", async () => {
    const counters = createMemoryShareCounters({ maxScopes: 3, now: () => T0 });
    const endsAt = new Date(T0 + 60 * 60_000);
    for (const scope of ["a", "b", "c"]) await counters.add("w", [scope], 10, endsAt);
    await counters.add("w", ["a"], 5, endsAt);
    await counters.add("w", ["d"], 1, endsAt);
    expect(await counters.get("w", ["a", "b", "c", "d"])).toEqual([15, 0, 10, 1]);
  });

  it("forget a window once past its end", async () => {
    let now = T0;
    const counters = createMemoryShareCounters({ now: () => now });
    await counters.add("w1", ["a"], 7, new Date(T0 + 1_000));
    now = T0 + 2_000;
    await counters.add("w2", ["a"], 1, new Date(T0 + 60_000));
    expect(await counters.get("w1", ["a"])).toEqual([0]);
    expect(await counters.get("w2", ["a"])).toEqual([1]);
  });
});
