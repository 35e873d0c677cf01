import { Keyv } from "keyv";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  PINNED_TTL_MS,
  answerCacheKey,
  createAnswerCache,
  stableArgs,
  type AnswerCache,
} from "../../src/cache/answerCache.js";
import { guardCacheKeyv } from "../../src/cache/guardedStore.js";
import { openStores, type Stores } from "../../src/cache/openStores.js";
import { createOutageReporter } from "../../src/cache/outageReporter.js";
import { silentLogger } from "../../src/logger.js";
import { capturingLogger } from "./helpers.js";

const FP_A = "0123456789abcdef0123456789abcdef";
const FP_B = "fedcba9876543210fedcba9876543210";

/**
 * Waits until no request is in flight. A fetched answer stays shared until its write lands (a
 * request arriving meanwhile joins it rather than missing the store), so a test that wants the
 * next call to read the store waits for that.
 */
async function idle(cache: AnswerCache): Promise<void> {
  await expect.poll(() => cache.inFlight()).toBe(0);
}

describe("answer cache over a memory store", () => {
  let stores: Stores;
  let clock: number;
  let cache: AnswerCache;

  beforeEach(async () => {
    stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    clock = Date.parse("2025-03-01T12:00:00.000Z");
    cache = createAnswerCache({
      store: stores.cache,
      logger: silentLogger(),
      shortTtlMs: 60_000,
      now: () => clock,
    });
  });
  afterEach(async () => {
    await stores.close();
  });

  it("keeps an answer once where the request says it is kept, and reads it there until either entry ends", async () => {
    const pinned = { kind: "commit", args: { oid: "c".repeat(40) }, fingerprint: FP_A };
    const byRef = {
      kind: "commit-by-ref",
      args: { ref: "main" },
      fingerprint: FP_A,
      ttl: "short" as const,
      keptAt: () => pinned,
      fetch: async () => {
        await cache.put({ ...pinned, ttl: "pinned" }, { text: "the answer" });
        return { text: "the answer" };
      },
    };
    await cache.getOrFetch(byRef);
    await idle(cache);
    const raw = (await stores
      .cache("commit-by-ref")
      .get(answerCacheKey("commit-by-ref", FP_A, { ref: "main" }))) as {
      value?: unknown;
      at?: unknown;
    };
    // The by-ref entry holds where the answer is, not a second copy of it.
    expect(raw.value).toBeUndefined();
    expect(raw.at).toEqual({ kind: "commit", key: answerCacheKey("commit", FP_A, pinned.args) });
    expect(await cache.peek(byRef)).toMatchObject({ value: { text: "the answer" }, fromCache: true });
    // The by-ref entry ends with the short lifetime although the answer it names lives on.
    clock += 61_000;
    expect(await cache.peek(byRef)).toBeUndefined();
    expect(await cache.peek(pinned)).toMatchObject({ value: { text: "the answer" } });
  });

  it("reads an entry whose kept answer is gone as a miss", async () => {
    const pinned = { kind: "commit", args: { oid: "d".repeat(40) }, fingerprint: FP_A };
    await cache.put(
      { kind: "commit-by-ref", args: { ref: "dev" }, fingerprint: FP_A, ttl: "short", keptAt: () => pinned },
      1,
    );
    expect(
      await cache.peek({ kind: "commit-by-ref", args: { ref: "dev" }, fingerprint: FP_A }),
    ).toBeUndefined();
  });

  it("fetches on a miss, then answers from the store with the first fetch time", async () => {
    let calls = 0;
    const request = {
      kind: "blame",
      args: { owner: "octo", name: "widgets", oid: "abc123", path: "README.md" },
      fingerprint: FP_A,
      ttl: "pinned" as const,
      fetch: async () => ({ lines: ++calls }),
    };
    const first = await cache.getOrFetch(request);
    expect(first).toEqual({ value: { lines: 1 }, fetchedAt: "2025-03-01T12:00:00.000Z", fromCache: false });
    await idle(cache);

    clock += 5 * 60_000;
    const second = await cache.getOrFetch(request);
    expect(second).toEqual({ value: { lines: 1 }, fetchedAt: "2025-03-01T12:00:00.000Z", fromCache: true });
    expect(calls).toBe(1);
  });

  it("lets short answers expire after the short lifetime and pinned ones after a week", async () => {
    let calls = 0;
    const short = {
      kind: "refs",
      args: { ref: "main" },
      fingerprint: FP_A,
      ttl: "short" as const,
      fetch: async () => ++calls,
    };
    await cache.getOrFetch(short);
    await idle(cache);
    clock += 59_000;
    expect((await cache.getOrFetch(short)).fromCache).toBe(true);
    clock += 2_000;
    const refetched = await cache.getOrFetch(short);
    expect(refetched).toMatchObject({ value: 2, fromCache: false });
    await idle(cache);

    let pinnedCalls = 0;
    const pinned = {
      kind: "contents",
      args: { oid: "abc" },
      fingerprint: FP_A,
      ttl: "pinned" as const,
      fetch: async () => ++pinnedCalls,
    };
    await cache.getOrFetch(pinned);
    await idle(cache);
    clock += PINNED_TTL_MS - 1_000;
    expect((await cache.getOrFetch(pinned)).fromCache).toBe(true);
    clock += 2_000;
    expect((await cache.getOrFetch(pinned)).fromCache).toBe(false);
    expect(pinnedCalls).toBe(2);
  });

  it("keeps answers fetched with one token away from another token", async () => {
    const args = { owner: "octo", name: "private-repo" };
    const a = await cache.getOrFetch({
      kind: "contents",
      args,
      fingerprint: FP_A,
      ttl: "short",
      fetch: async () => "secret of A",
    });
    const b = await cache.getOrFetch({
      kind: "contents",
      args,
      fingerprint: FP_B,
      ttl: "short",
      fetch: async () => "what B sees",
    });
    await idle(cache);
    expect(a.value).toBe("secret of A");
    expect(b).toMatchObject({ value: "what B sees", fromCache: false });
    const aAgain = await cache.getOrFetch({
      kind: "contents",
      args,
      fingerprint: FP_A,
      ttl: "short",
      fetch: async () => "refetched",
    });
    expect(aAgain).toMatchObject({ value: "secret of A", fromCache: true });
  });

  it("makes one upstream call for 20 identical requests in flight", async () => {
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const request = () =>
      cache.getOrFetch({
        kind: "contributors",
        args: { owner: "octo", name: "widgets", page: 1 },
        fingerprint: FP_A,
        ttl: "short",
        fetch: async () => {
          calls += 1;
          await gate;
          return ["alice", "bob"];
        },
      });
    const pending = Array.from({ length: 20 }, request);
    expect(cache.inFlight()).toBe(1);
    release();
    const results = await Promise.all(pending);
    expect(calls).toBe(1);
    for (const result of results) expect(result).toMatchObject({ value: ["alice", "bob"], fromCache: false });
    await idle(cache);
    expect((await request()).fromCache).toBe(true);
    expect(calls).toBe(1);
  });

  it("shares a failed fetch with the requests in flight and never stores it", async () => {
    let calls = 0;
    let fail!: (error: Error) => void;
    const request = (fetch: () => Promise<string>) =>
      cache.getOrFetch({ kind: "viewer", args: {}, fingerprint: FP_A, ttl: "short", fetch });
    const failing = () => {
      calls += 1;
      return new Promise<string>((_resolve, reject) => {
        fail = reject;
      });
    };
    const pending = Array.from({ length: 5 }, () => request(failing));
    await expect.poll(() => calls).toBe(1);
    fail(new Error("GitHub answered 502"));
    const settled = await Promise.allSettled(pending);
    expect(settled.every((result) => result.status === "rejected")).toBe(true);
    expect(calls).toBe(1);
    expect(cache.inFlight()).toBe(0);

    const next = await request(async () => "octocat");
    expect(next).toMatchObject({ value: "octocat", fromCache: false });
  });

  it("does not store an undefined answer", async () => {
    let calls = 0;
    const request = {
      kind: "refs",
      args: { ref: "gone" },
      fingerprint: FP_A,
      ttl: "short" as const,
      fetch: async () => {
        calls += 1;
        return undefined;
      },
    };
    await cache.getOrFetch(request);
    await idle(cache);
    await cache.getOrFetch(request);
    expect(calls).toBe(2);
  });
});

describe("answer cache keys", () => {
  it("serializes arguments stably: sorted, undefined dropped, types kept", () => {
    expect(stableArgs({ b: 2, a: "x", c: undefined, d: null })).toBe('{"a":"x","b":2,"d":null}');
    expect(stableArgs({ a: "x", b: 2 })).toBe(stableArgs({ b: 2, a: "x", z: undefined }));
    expect(stableArgs({ page: 1 })).not.toBe(stableArgs({ page: "1" }));
    expect(() => stableArgs({ page: Number.NaN })).toThrow(/finite/);
  });

  it("builds kind:version:fingerprint:args and hashes long arguments", () => {
    expect(answerCacheKey("blame", FP_A, { path: "a.ts" })).toBe(`blame:v1:${FP_A}:{"path":"a.ts"}`);
    expect(answerCacheKey("blame", FP_A, { path: "a.ts" }, 2)).toBe(`blame:v2:${FP_A}:{"path":"a.ts"}`);
    const long = answerCacheKey("contents", FP_A, { path: "x/".repeat(300) });
    expect(long).toMatch(new RegExp(`^contents:v1:${FP_A}:#[0-9a-f]{64}$`));
    expect(long).not.toBe(answerCacheKey("contents", FP_A, { path: "y/".repeat(300) }));
  });

  it("refuses anything but a hex fingerprint, so a raw token can never end up in a key", () => {
    expect(() => answerCacheKey("blame", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", {})).toThrow(
      /fingerprint/,
    );
    expect(() => answerCacheKey("Blame!", FP_A, {})).toThrow(/kind/);
  });
});

describe("answer cache over a failing store", () => {
  it("reads a store that throws as a miss and still answers", async () => {
    const broken = new Keyv<unknown>({
      store: {
        get: async () => {
          throw new Error("SQLITE_BUSY: database is locked");
        },
        set: async () => {
          throw new Error("SQLITE_BUSY: database is locked");
        },
        delete: async () => false,
        clear: async () => undefined,
      },
    });
    const log = capturingLogger("warn");
    const reporter = createOutageReporter({ logger: log.logger, store: "broken" });
    const store = guardCacheKeyv(broken, { store: "broken", reporter, timeoutMs: 200 });
    const cache = createAnswerCache({ store: () => store, logger: silentLogger(), shortTtlMs: 60_000 });
    let calls = 0;
    for (let i = 0; i < 3; i++) {
      const result = await cache.getOrFetch({
        kind: "viewer",
        args: {},
        fingerprint: FP_A,
        ttl: "short",
        fetch: async () => ++calls,
      });
      expect(result).toMatchObject({ value: i + 1, fromCache: false });
      await idle(cache);
    }
    const warnings = log.lines().filter((line) => line.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ store: "broken", operation: "get" });
  });

  it("gives up on a store that never answers after its timeout", async () => {
    const hanging = new Keyv<unknown>({
      store: {
        get: () => new Promise(() => undefined),
        set: () => new Promise(() => undefined),
        delete: async () => false,
        clear: async () => undefined,
      },
    });
    const reporter = createOutageReporter({ logger: silentLogger(), store: "hanging" });
    const store = guardCacheKeyv(hanging, { store: "hanging", reporter, timeoutMs: 50 });
    const cache = createAnswerCache({ store: () => store, logger: silentLogger(), shortTtlMs: 60_000 });
    const result = await cache.getOrFetch({
      kind: "viewer",
      args: {},
      fingerprint: FP_A,
      ttl: "short",
      fetch: async () => "octocat",
    });
    expect(result).toMatchObject({ value: "octocat", fromCache: false });
    // The write hangs too: the request stays shared until the write's timeout, then leaves.
    await idle(cache);
  });
});
