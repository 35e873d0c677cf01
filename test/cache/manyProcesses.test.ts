import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createAnswerCache, type AnswerCache, type CacheRequest } from "../../src/cache/answerCache.js";
import { memoryCoordination } from "../../src/cache/coordination.js";
import { openStores, type Stores } from "../../src/cache/openStores.js";
import { createSharedReplayGuard } from "../../src/bot/http/replayGuard.js";
import { silentLogger } from "../../src/logger.js";
import { createSharedShareCounters } from "../../src/tokens/shareCounters.js";
import { createSharedRecentRepositories } from "../../src/answers/recentRepositories.js";
import { REFUSING_REDIS_URL, describeWithRedis, useTwoProcessStores } from "./helpers.js";

/*
 * Two bot processes on one Redis, each with its own stores and answer cache (its own memory), as two
 * processes behind a load balancer have (SPEC section 6).
 */

const FINGERPRINT = "ab".repeat(16);

/** A request whose upstream call takes `ms` and counts itself. */
function countedRequest(counter: { calls: number }, ms = 150, fail = false): CacheRequest<string> {
  return {
    kind: "blame",
    args: { owner: "demo", name: "widgets", path: "README.md" },
    fingerprint: FINGERPRINT,
    ttl: "pinned",
    fetch: async () => {
      counter.calls += 1;
      await new Promise((resolve) => setTimeout(resolve, ms));
      if (fail) throw new Error("GitHub failed");
      return "the answer";
    },
  };
}

function cacheOn(stores: Stores): AnswerCache {
  return createAnswerCache({
    store: stores.cache,
    logger: silentLogger(),
    shortTtlMs: 60_000,
    coordination: stores.coordination,
  });
}

describe("claims in one process", () => {
  it("are taken once until released or expired", async () => {
    let now = 1_000;
    const claims = memoryCoordination(() => now);
    expect(claims.shared).toBe(false);
    expect(await claims.claim("k", 100)).toBe(true);
    expect(await claims.claim("k", 100)).toBe(false);
    now += 101;
    expect(await claims.claim("k", 100)).toBe(true);
    await claims.release("k");
    expect(await claims.claim("k", 100)).toBe(true);
  });
});

describeWithRedis("two processes on one Redis", () => {
  const stores = useTwoProcessStores();
  let first: Stores;
  let second: Stores;
  beforeAll(() => {
    [first, second] = stores();
  });

  it("share claims: one process's claim is held for the other, and only its owner frees it", async () => {
    expect(first.coordination.shared).toBe(true);
    const key = `claim-${randomBytes(4).toString("hex")}`;
    expect(await first.coordination.claim(key, 5_000)).toBe(true);
    expect(await second.coordination.claim(key, 5_000)).toBe(false);
    await second.coordination.release(key);
    expect(await second.coordination.claim(key, 5_000)).toBe(false);
    await first.coordination.release(key);
    expect(await second.coordination.claim(key, 5_000)).toBe(true);
  });

  it("make ONE upstream call for 20 identical concurrent requests split across them", async () => {
    const counter = { calls: 0 };
    const caches = [cacheOn(first), cacheOn(second)];
    const request = { ...countedRequest(counter), args: { run: randomBytes(4).toString("hex") } };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => caches[index % 2]!.getOrFetch(request)),
    );
    expect(counter.calls).toBe(1);
    expect(new Set(answers.map((answer) => answer.value))).toEqual(new Set(["the answer"]));
  });

  it("without shared claims, each process makes its own call (the baseline)", async () => {
    const counter = { calls: 0 };
    const caches = [first, second].map((stores) =>
      createAnswerCache({
        store: stores.cache,
        logger: silentLogger(),
        shortTtlMs: 60_000,
        coordination: memoryCoordination(),
      }),
    );
    const request = { ...countedRequest(counter), args: { run: randomBytes(4).toString("hex") } };
    await Promise.all(Array.from({ length: 20 }, (_, index) => caches[index % 2]!.getOrFetch(request)));
    expect(counter.calls).toBe(2);
  });

  it("when the process making the call fails, the other makes its own instead of waiting out the bound", async () => {
    const failing = { calls: 0 };
    const working = { calls: 0 };
    const run = randomBytes(4).toString("hex");
    const started = Date.now();
    const [firstAnswer, secondAnswer] = await Promise.allSettled([
      cacheOn(first).getOrFetch({ ...countedRequest(failing, 150, true), args: { run } }),
      // Starts once the first holds the claim.
      new Promise((resolve) => setTimeout(resolve, 30)).then(() =>
        cacheOn(second).getOrFetch({ ...countedRequest(working, 10), args: { run } }),
      ),
    ]);
    expect(firstAnswer.status).toBe("rejected");
    expect(secondAnswer).toMatchObject({ status: "fulfilled", value: { value: "the answer" } });
    expect([failing.calls, working.calls]).toEqual([1, 1]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("share the default token's counters: what one process charges, the other sees", async () => {
    const counters = [
      createSharedShareCounters(first.coordination),
      createSharedShareCounters(second.coordination),
    ];
    const window = `w-${randomBytes(4).toString("hex")}`;
    const endsAt = new Date(Date.now() + 60_000);
    await counters[0]!.add(window, ["guild:1", "user:2"], 30, endsAt);
    await counters[1]!.add(window, ["guild:1", "user:3"], 12, endsAt);
    expect(await counters[0]!.get(window, ["guild:1", "user:2", "user:3", "user:4"])).toEqual([
      42, 30, 12, 0,
    ]);
    expect(await counters[1]!.get(window, ["guild:1"])).toEqual([42]);
    // A window that ended is forgotten by Redis itself.
    const past = `w-${randomBytes(4).toString("hex")}`;
    await counters[0]!.add(past, ["guild:1"], 5, new Date(Date.now() - 1));
    expect(await counters[1]!.get(past, ["guild:1"])).toEqual([0]);
  });

  it("share the recent repositories of a token: read through one process, suggested by the other", async () => {
    const lists = [
      createSharedRecentRepositories(first.cache("recents")),
      createSharedRecentRepositories(second.cache("recents")),
    ];
    const scope = "cd".repeat(16);
    lists[0]!.remember(scope, "demo/widgets");
    // Remembering writes in the background: the other process reads it once it landed.
    await expect.poll(() => lists[1]!.list(scope)).toEqual(["demo/widgets"]);
    lists[1]!.remember(scope, "demo/gadgets");
    await expect.poll(() => lists[0]!.list(scope)).toEqual(["demo/gadgets", "demo/widgets"]);
    expect(await lists[1]!.list("ef".repeat(16))).toEqual([]);
  });

  it("refuse a replayed interaction whichever process it reaches", async () => {
    const guards = [
      createSharedReplayGuard(first.coordination),
      createSharedReplayGuard(second.coordination),
    ];
    const key = `signature:${randomBytes(16).toString("hex")}`;
    expect(await guards[0]!.claim(key, 60_000, Date.now())).toBe(true);
    expect(await guards[1]!.claim(key, 60_000, Date.now())).toBe(false);
    expect(await guards[0]!.claim(key, 60_000, Date.now())).toBe(false);
  });
});

describe("a Redis that is down", () => {
  it("leaves every process answering: a claim it cannot ask means fetching here", async () => {
    const stores = await openStores({
      dataDir: "unused",
      redisUrl: REFUSING_REDIS_URL,
      logger: silentLogger(),
      prefix: "down",
      redisConnectWaitMs: 50,
    });
    try {
      const counter = { calls: 0 };
      const answer = await cacheOn(stores).getOrFetch(countedRequest(counter, 5));
      expect(answer.value).toBe("the answer");
      expect(counter.calls).toBe(1);
      // The default token's share still counts, in this process's memory.
      const counters = createSharedShareCounters(stores.coordination);
      await counters.add("w", ["guild:1"], 7, new Date(Date.now() + 60_000));
      expect(await counters.get("w", ["guild:1"])).toEqual([7]);
      // The replay guard still refuses a replay to this process, from its own memory.
      const guard = createSharedReplayGuard(stores.coordination);
      expect(await guard.claim("signature:abc", 60_000, Date.now())).toBe(true);
      expect(await guard.claim("signature:abc", 60_000, Date.now())).toBe(false);
    } finally {
      await stores.close();
    }
  });
});
