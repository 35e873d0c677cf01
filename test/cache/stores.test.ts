import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@keyv/redis";
import KeyvSqlite from "@keyv/sqlite";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createButtonStateStore } from "../../src/bot/buttonState.js";
import { createAnswerCache } from "../../src/cache/answerCache.js";
import { createEtagStore } from "../../src/cache/etagStore.js";
import { StoreUnavailableError } from "../../src/cache/guardedStore.js";
import { openStores, type Stores } from "../../src/cache/openStores.js";
import { createOutageReporter } from "../../src/cache/outageReporter.js";
import { silentLogger } from "../../src/logger.js";
import {
  REFUSING_REDIS_URL,
  capturingLogger,
  describeWithRedis,
  redisTestUrl,
  removeRedisKeys,
} from "./helpers.js";

const FP = "0123456789abcdef0123456789abcdef";

describe("SQLite stores in the data dir", () => {
  let dataDir: string;
  const opened: Stores[] = [];
  const open = async (): Promise<Stores> => {
    const stores = await openStores({ dataDir, logger: silentLogger() });
    opened.push(stores);
    return stores;
  };

  beforeAll(async () => {
    dataDir = join(await mkdtemp(join(tmpdir(), "reposcout-stores-")), "nested", "data");
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((stores) => stores.close()));
  });
  afterAll(async () => {
    await rm(join(dataDir, "..", ".."), { recursive: true, force: true });
  });

  it("creates the data dir and one file for the cache, one for the vault", async () => {
    const stores = await open();
    expect(stores.backend).toBe("sqlite");
    expect(existsSync(join(dataDir, "cache.sqlite"))).toBe(true);
    expect(existsSync(join(dataDir, "vault.sqlite"))).toBe(true);
  });

  it("rewrites an entry that exists (an expired answer fetched again), without a constraint failure in the LRU books", async () => {
    const log = capturingLogger("warn");
    const stores = await openStores({ dataDir, logger: log.logger });
    opened.push(stores);
    await stores.cache("blame").set("again", { lines: 1 }, 60_000);
    await stores.cache("blame").set("again", { lines: 2 }, 60_000);
    expect(await stores.cache("blame").get("again")).toEqual({ lines: 2 });
    expect(log.lines()).toEqual([]);
  });

  it("keeps entries across a restart, each namespace apart", async () => {
    const first = await open();
    await first.cache("blame").set("k", { lines: 3 }, 60_000);
    await first.cache("contents").set("k", "other namespace", 60_000);
    await first.durable("vault").set("123", { sealed: true });
    await first.close();

    const second = await open();
    expect(await second.cache("blame").get("k")).toEqual({ lines: 3 });
    expect(await second.cache("contents").get("k")).toBe("other namespace");
    expect(await second.cache("refs").get("k")).toBeUndefined();
    expect(await second.durable("vault").get("123")).toEqual({ sealed: true });
    expect(await second.durable("settings").get("123")).toBeUndefined();
    expect(await second.durable("vault").delete("123")).toBe(true);
    expect(await second.durable("vault").delete("123")).toBe(false);
  });

  it("writes the cache as plain JSON, strings as they are, and the vault as before", async () => {
    const stores = await open();
    await stores.cache("refs").set("colon", { ref: ":main", note: ":base64:AAAA" }, 60_000);
    await stores.durable("settings").set("colon", ":kept");
    const sqlite = new KeyvSqlite({ uri: `sqlite://${join(dataDir, "cache.sqlite")}` });
    try {
      const rows = (await sqlite.query("SELECT value FROM keyv WHERE key = 'refs:colon'")) as Array<{
        value: string;
      }>;
      // The runtime's JSON: no escaped colons, nothing taken for base64 (Keyv's default did both).
      expect(JSON.parse(rows[0]!.value)).toMatchObject({ value: { ref: ":main", note: ":base64:AAAA" } });
    } finally {
      await sqlite.disconnect();
    }
    expect(await stores.cache("refs").get("colon")).toEqual({ ref: ":main", note: ":base64:AAAA" });
    expect(await stores.durable("settings").get("colon")).toBe(":kept");
  });

  it("sweeps expired cache entries", async () => {
    const stores = await open();
    await stores.cache("refs").set("old", 1, 1);
    await stores.cache("refs").set("fresh", 2, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await stores.sweepExpired()).toBeGreaterThanOrEqual(1);
    expect(await stores.cache("refs").get("fresh")).toBe(2);
  });

  it("reads as a miss after close and refuses durable operations", async () => {
    const stores = await open();
    await stores.cache("blame").set("k", 1, 60_000);
    await stores.close();
    expect(await stores.cache("blame").get("k")).toBeUndefined();
    await expect(stores.durable("vault").get("k")).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it("fails the start with a clear error when the data dir cannot be written", async () => {
    const file = join(dataDir, "cache.sqlite");
    await open();
    // A data dir that is a file: neither mkdir nor SQLite can use it.
    await expect(openStores({ dataDir: join(file, "sub"), logger: silentLogger() })).rejects.toThrow();
  });
});

describe("a Redis that refuses connections", () => {
  let stores: Stores;
  const log = capturingLogger("info");

  beforeAll(async () => {
    stores = await openStores({
      dataDir: "unused",
      redisUrl: REFUSING_REDIS_URL,
      logger: log.logger,
      redisConnectWaitMs: 100,
    });
  });
  afterAll(async () => {
    await stores.close();
  });

  it("still answers every command, quickly, by fetching", async () => {
    const cache = createAnswerCache({ store: stores.cache, logger: silentLogger(), shortTtlMs: 60_000 });
    let calls = 0;
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      const result = await cache.getOrFetch({
        kind: "viewer",
        args: {},
        fingerprint: FP,
        ttl: "short",
        fetch: async () => ++calls,
      });
      expect(result).toMatchObject({ value: calls, fromCache: false });
      // Loose on purpose: the point is "not stuck waiting for Redis", not a benchmark.
      expect(Date.now() - started).toBeLessThan(3_000);
      // The answer stays shared until its (failing) write settles; the next command comes after.
      await expect.poll(() => cache.inFlight()).toBe(0);
    }
    expect(calls).toBe(5);
  });

  it("logs the outage once per burst, counting what it kept quiet", async () => {
    const outageWarnings = () =>
      log.lines().filter((line) => line.level === 40 && line.store === "redis" && "operation" in line);
    const before = outageWarnings().length;
    for (let i = 0; i < 10; i++) await stores.cache("blame").get(`k${i}`);
    const after = outageWarnings();
    // The first warning came with the refused connection at start; the gets add none within the window.
    expect(before).toBe(1);
    expect(after).toHaveLength(1);
  });

  it("throws on durable reads instead of answering 'absent'", async () => {
    await expect(stores.durable("vault").get("123")).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

describe("the outage reporter", () => {
  it("warns once when an outage begins, however long it lasts, and says at its end how many failures it kept quiet", () => {
    const log = capturingLogger("info");
    let clock = 0;
    const reporter = createOutageReporter({
      logger: log.logger,
      store: "redis",
      windowMs: 30_000,
      now: () => clock,
    });
    reporter.failure("get", new Error("ECONNREFUSED"));
    for (let i = 0; i < 7; i++) {
      clock += 1_000;
      reporter.failure("get", new Error("ECONNREFUSED"));
    }
    clock += 30_000;
    reporter.failure("set", new Error("ECONNREFUSED"));
    reporter.recovered();
    reporter.recovered();
    const lines = log.lines();
    expect(lines.map((line) => [line.level, line.suppressed])).toEqual([
      [40, 0],
      [30, 8],
    ]);
    expect(lines[0]).toMatchObject({ store: "redis", operation: "get", cause: { message: "ECONNREFUSED" } });
  });
});

describe("the ephemeral view of the cache", () => {
  it("expires entries and throws on failure, so button state can fall back to process memory", async () => {
    const stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    const buttons = stores.ephemeral("buttons");
    await buttons.set("short", { page: 2 }, 1);
    await buttons.set("long", { page: 3 }, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await buttons.get("short")).toBeUndefined();
    expect(await buttons.get("long")).toEqual({ page: 3 });

    const state = createButtonStateStore(buttons);
    const stored = await state.put({ page: 4 });
    await stores.close();
    await expect(buttons.set("x", 1, 60_000)).rejects.toBeInstanceOf(StoreUnavailableError);
    // Written while the store is gone: kept in memory by the button store, still usable.
    const kept = await state.put({ page: 5 });
    expect(await state.get(kept)).toEqual({ page: 5 });
    expect(await state.get(stored)).toBeUndefined();
  });
});

describe("button state under load", () => {
  it("gives the same answer's buttons the same key, stored once", async () => {
    const writes: string[] = [];
    const data = new Map<string, unknown>();
    const state = createButtonStateStore({
      get: async (key) => data.get(key),
      set: async (key, value) => {
        writes.push(key);
        data.set(key, value);
      },
    });
    const first = await state.put({ repo: "demo/widgets", page: 2 });
    const again = await state.put({ repo: "demo/widgets", page: 2 });
    const other = await state.put({ repo: "demo/widgets", page: 3 });
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect(first).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(writes).toEqual([first, other]);
    expect(await state.get(first)).toEqual({ repo: "demo/widgets", page: 2 });
  });
});

describe("the ETag store", () => {
  it("keeps entries, hashes long keys and ignores malformed ones", async () => {
    const stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    try {
      const etags = createEtagStore(stores.cache("etags"));
      const entry = { etag: 'W/"abc"', body: [{ login: "alice" }], link: '<https://x/?page=2>; rel="next"' };
      await etags.set(`${FP}:https://api.github.com/repos/octo/widgets/contributors?page=1`, entry);
      expect(await etags.get(`${FP}:https://api.github.com/repos/octo/widgets/contributors?page=1`)).toEqual(
        entry,
      );
      const longKey = `${FP}:${"x".repeat(500)}`;
      await etags.set(longKey, { etag: '"1"', body: null, link: null });
      expect(await etags.get(longKey)).toEqual({ etag: '"1"', body: null, link: null });
      await stores.cache("etags").set("bad", { etag: 5 }, 60_000);
      expect(await etags.get("bad")).toBeUndefined();
      expect(await etags.get("absent")).toBeUndefined();
    } finally {
      await stores.close();
    }
  });
});

describeWithRedis("Redis stores (the tests' Redis)", () => {
  const prefix = `reposcout-test-${randomBytes(6).toString("hex")}`;
  let stores: Stores;

  beforeAll(async () => {
    stores = await openStores({
      dataDir: "unused",
      redisUrl: redisTestUrl(),
      logger: silentLogger(),
      prefix,
    });
  });
  afterAll(async () => {
    await stores.close();
    await removeRedisKeys(prefix);
  });

  it("stores under the run's prefix, with Redis expiring cache entries", async () => {
    expect(stores.backend).toBe("redis");
    await stores.cache("blame").set("k", { lines: 1 }, 60_000);
    await stores.durable("vault").set("123", { sealed: true });
    expect(await stores.cache("blame").get("k")).toEqual({ lines: 1 });
    expect(await stores.durable("vault").get("123")).toEqual({ sealed: true });

    const client = createClient({ url: redisTestUrl() });
    await client.connect();
    try {
      // The entries, and the books of the cache bound (which never expire, like the vault).
      expect((await client.keys(`${prefix}:*`)).sort()).toEqual([
        `${prefix}:blame::k`,
        `${prefix}:lru:sizes`,
        `${prefix}:lru:ticks`,
        `${prefix}:lru:total`,
        `${prefix}:vault::123`,
      ]);
      const ttl = await client.pTTL(`${prefix}:blame::k`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(await client.pTTL(`${prefix}:vault::123`)).toBe(-1);
    } finally {
      await client.close();
    }
  });

  it("answers through the answer cache, sharing one fetch", async () => {
    const cache = createAnswerCache({ store: stores.cache, logger: silentLogger(), shortTtlMs: 60_000 });
    let calls = 0;
    const request = () =>
      cache.getOrFetch({
        kind: "contributors",
        args: { owner: "octo", name: "widgets", page: 1 },
        fingerprint: FP,
        ttl: "short",
        fetch: async () => {
          calls += 1;
          return ["alice"];
        },
      });
    await Promise.all(Array.from({ length: 10 }, request));
    await expect.poll(() => cache.inFlight()).toBe(0);
    expect(await request()).toMatchObject({ value: ["alice"], fromCache: true });
    expect(calls).toBe(1);
  });
});
