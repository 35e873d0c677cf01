import { Keyv } from "keyv";
import { describe, expect, it } from "vitest";
import { createAnswerCache, type AnswerCache } from "../../src/cache/answerCache.js";
import { guardCacheKeyv, type CacheStore } from "../../src/cache/guardedStore.js";
import { createOutageReporter } from "../../src/cache/outageReporter.js";
import { approximateBytes, createHotTier } from "../../src/cache/hotTier.js";
import { silentLogger } from "../../src/logger.js";

const FP = "0123456789abcdef0123456789abcdef";

/** A store that works until `broken` is set, then fails every call as SQLite or Redis would. */
function switchableStore(): { store: CacheStore; reads: () => number; breakIt: () => void } {
  let broken = false;
  let reads = 0;
  const data = new Map<string, unknown>();
  const keyv = new Keyv<unknown>({
    store: {
      get: async (key: string) => {
        reads++;
        if (broken) throw new Error("connection lost");
        return data.get(key);
      },
      set: async (key: string, value: unknown) => {
        if (broken) throw new Error("connection lost");
        data.set(key, value);
        return true;
      },
      delete: async (key: string) => data.delete(key),
      clear: async () => data.clear(),
    },
  });
  const reporter = createOutageReporter({ logger: silentLogger(), store: "switchable" });
  return {
    store: guardCacheKeyv(keyv, { store: "switchable", reporter, timeoutMs: 200 }),
    reads: () => reads,
    breakIt: () => {
      broken = true;
    },
  };
}

/** An answer cache with a 1 MB in-process tier over `store`, on a clock the test moves. */
function tieredCache(store: CacheStore, clock: { now: number }): AnswerCache {
  return createAnswerCache({
    store: () => store,
    logger: silentLogger(),
    shortTtlMs: 60_000,
    now: () => clock.now,
    hotTierBytes: 1024 * 1024,
  });
}

async function idle(cache: AnswerCache): Promise<void> {
  await expect.poll(() => cache.inFlight()).toBe(0);
}

describe("the in-process tier", () => {
  it("stays within its bytes, evicting the least recently used, and keeps no answer over an eighth of it", () => {
    const tier = createHotTier(64 * 1024);
    const record = (text: string) => ({
      value: { text },
      fetchedAt: "2025-03-01T12:00:00.000Z",
      expiresAt: Infinity,
    });
    for (let i = 0; i < 100; i++) tier.set(`k${i}`, record("x".repeat(1_000)));
    expect(tier.bytes()).toBeLessThanOrEqual(64 * 1024);
    expect(tier.size()).toBeLessThan(100);
    expect(tier.get("k99", 0)).toBeDefined();
    expect(tier.get("k0", 0)).toBeUndefined();
    tier.set("huge", record("y".repeat(10_000)));
    expect(tier.get("huge", 0)).toBeUndefined();
  });

  it("weighs an answer by what it holds: a commit named by many ranges counts once", () => {
    const commit = { oid: "a".repeat(40), messageHeadline: "x".repeat(2_000) };
    const shared = { ranges: Array.from({ length: 100 }, (_, i) => ({ startingLine: i, commit })) };
    const copied = { ranges: shared.ranges.map((range) => ({ ...range, commit: { ...commit } })) };
    expect(approximateBytes(shared)).toBeLessThan(approximateBytes(copied) / 10);
    // Strings weigh two bytes a code unit, as the JSON length weighed them before.
    expect(approximateBytes({ text: "y".repeat(10_000) })).toBeGreaterThanOrEqual(20_000);
    // A blame whose commits are shared fits where its JSON would not.
    const tier = createHotTier(8 * 8 * 1024 * 4);
    tier.set("blame", { value: shared, fetchedAt: "2025-03-01T12:00:00.000Z", expiresAt: Infinity });
    expect(JSON.stringify(shared).length * 2).toBeGreaterThan((8 * 8 * 1024 * 4) / 8);
    expect(tier.get("blame", 0)?.value).toBe(shared);
  });

  it("drops an answer once it expires on the cache's clock", () => {
    const tier = createHotTier(64 * 1024);
    tier.set("k", { value: 1, fetchedAt: "2025-03-01T12:00:00.000Z", expiresAt: 1_000 });
    expect(tier.get("k", 999)?.value).toBe(1);
    expect(tier.get("k", 1_000)).toBeUndefined();
    expect(tier.size()).toBe(0);
  });

  it("serves repeats without reading the store, and still answers while the store is down", async () => {
    const { store, reads, breakIt } = switchableStore();
    const clock = { now: Date.parse("2025-03-01T12:00:00.000Z") };
    const cache = tieredCache(store, clock);
    let calls = 0;
    const request = {
      kind: "blame",
      args: { owner: "octo", name: "widgets", oid: "abc", path: "a.ts" },
      fingerprint: FP,
      ttl: "pinned" as const,
      fetch: async () => ({ lines: ++calls }),
    };
    await cache.getOrFetch(request);
    await idle(cache);
    const readsBefore = reads();
    const repeat = await cache.getOrFetch(request);
    expect(repeat).toMatchObject({ value: { lines: 1 }, fromCache: true });
    expect(reads()).toBe(readsBefore);
    breakIt();
    clock.now += 60 * 60_000;
    expect(await cache.getOrFetch(request)).toMatchObject({ value: { lines: 1 }, fromCache: true });
    expect(calls).toBe(1);
    expect(cache.hotTier().answers).toBe(1);
  });

  it("answers a repeat held in memory at once, never in flight, following a pointer to the shared copy there", async () => {
    const { store, reads } = switchableStore();
    const lookups: string[] = [];
    const cache = createAnswerCache({
      store: () => store,
      logger: silentLogger(),
      shortTtlMs: 60_000,
      hotTierBytes: 1024 * 1024,
      onLookup: (kind, result) => lookups.push(`${kind} ${result}`),
    });
    const args = { owner: "octo", name: "widgets", oid: "abc", path: "a.ts" };
    const shared = { kind: "blame", args, fingerprint: "fedcba9876543210fedcba9876543210" };
    let calls = 0;
    const request = {
      kind: "blame",
      args,
      fingerprint: FP,
      ttl: "pinned" as const,
      // A public answer: kept once, in the shared scope; this token's key points there.
      fetch: async () => {
        const value = { lines: ++calls };
        await cache.put({ ...shared, ttl: "pinned" }, value);
        return value;
      },
      keptAt: () => shared,
    };
    await cache.getOrFetch(request);
    await idle(cache);
    const readsBefore = reads();
    const repeat = cache.getOrFetch(request);
    expect(cache.inFlight()).toBe(0);
    expect(await repeat).toMatchObject({ value: { lines: 1 }, fromCache: true });
    expect(reads()).toBe(readsBefore);
    expect(calls).toBe(1);
    expect(lookups).toEqual(["blame miss", "blame hit"]);
  });

  it("lets a short answer expire in memory as in the store: the next request fetches again", async () => {
    const { store } = switchableStore();
    const clock = { now: Date.parse("2025-03-01T12:00:00.000Z") };
    const cache = tieredCache(store, clock);
    let calls = 0;
    const request = {
      kind: "refs",
      args: { ref: "main" },
      fingerprint: FP,
      ttl: "short" as const,
      fetch: async () => ++calls,
    };
    await cache.getOrFetch(request);
    await idle(cache);
    clock.now += 59_000;
    expect(await cache.getOrFetch(request)).toMatchObject({ value: 1, fromCache: true });
    clock.now += 2_000;
    expect(await cache.getOrFetch(request)).toMatchObject({ value: 2, fromCache: false });
  });

  it("keeps answers scoped by token: another fingerprint's request misses", async () => {
    const { store } = switchableStore();
    const cache = createAnswerCache({
      store: () => store,
      logger: silentLogger(),
      shortTtlMs: 60_000,
      hotTierBytes: 1024 * 1024,
    });
    await cache.getOrFetch({
      kind: "viewer",
      args: {},
      fingerprint: FP,
      ttl: "short",
      fetch: async () => "a",
    });
    await idle(cache);
    const other = await cache.getOrFetch({
      kind: "viewer",
      args: {},
      fingerprint: "fedcba9876543210fedcba9876543210",
      ttl: "short",
      fetch: async () => "b",
    });
    expect(other).toMatchObject({ value: "b", fromCache: false });
  });
});
