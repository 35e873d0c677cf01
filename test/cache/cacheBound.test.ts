import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@keyv/redis";
import KeyvSqlite from "@keyv/sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCacheBound, type CacheBookkeeping } from "../../src/cache/cacheBound.js";
import { openStores, type OpenStoresOptions, type Stores } from "../../src/cache/openStores.js";
import { silentLogger } from "../../src/logger.js";
import { describeWithRedis, redisTestUrl } from "./helpers.js";

/** A bound of 40,000 bytes holds seven of these entries (about 5,100 bytes each), not eight. */
const BOUND = 40_000;
const ENTRY = { text: "x".repeat(5_000) };
const entries = Array.from({ length: 10 }, (_, index) => `c${index}`);

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "reposcout-bound-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Keys of `entries` still in the cache. */
async function present(stores: Stores): Promise<string[]> {
  const found: string[] = [];
  for (const key of entries) if ((await stores.cache("contents").get(key)) !== undefined) found.push(key);
  return found;
}

/**
 * The same story for every backend: six answers, two of them read again, four more past the bound.
 * @param storedBytes the bytes the backend holds for the cache, measured its own way.
 * @param bound a bound that holds seven entries as the backend counts them, not eight (Redis
 *   counts what it holds for an entry, more than its key and value).
 */
function boundTests(
  name: string,
  open: (options: Partial<OpenStoresOptions>) => Promise<Stores>,
  storedBytes?: () => Promise<number>,
  bound: () => number = () => BOUND,
): void {
  describe(`the cache bound: ${name}`, () => {
    it("evicts the least recently used answers past the bound, keeps the recently read ones and every vault record", async () => {
      const BOUND = bound();
      // A generous bound per operation: on a busy machine a read past the default 400 ms reads as a
      // miss, which would look like an eviction here.
      const stores = await open({ cacheMaxBytes: BOUND, cacheTimeoutMs: 10_000 });
      try {
        for (let guild = 0; guild < 20; guild += 1) {
          await stores.durable("vault").set(`9000000000000000${guild}`, { sealed: "y".repeat(5_000) });
        }
        await stores.durable("settings").set("90000000000000000", { threads: true });
        for (const key of entries.slice(0, 6)) await stores.cache("contents").set(key, ENTRY, 3_600_000);
        // c0 and c1 are read again: now c2 is the least recently used.
        expect(await stores.cache("contents").get("c0")).toEqual(ENTRY);
        expect(await stores.cache("contents").get("c1")).toEqual(ENTRY);
        for (const key of entries.slice(6)) await stores.cache("contents").set(key, ENTRY, 3_600_000);
        await stores.trimCache();

        expect(await present(stores)).toEqual(["c0", "c1", "c5", "c6", "c7", "c8", "c9"]);
        if (storedBytes) expect(await storedBytes()).toBeLessThanOrEqual(BOUND);
        for (let guild = 0; guild < 20; guild += 1) {
          expect(await stores.durable("vault").get(`9000000000000000${guild}`)).toEqual({
            sealed: "y".repeat(5_000),
          });
        }
        expect(await stores.durable("settings").get("90000000000000000")).toEqual({ threads: true });
      } finally {
        await stores.close();
      }
    });

    it("empties the cache rather than touch the vault when nothing fits", async () => {
      const stores = await open({ cacheMaxBytes: 1_000 });
      try {
        await stores.durable("vault").set("91000000000000000", { sealed: true });
        await stores.cache("blame").set("big", ENTRY, 3_600_000);
        await stores.ephemeral("buttons").set("state", ENTRY, 3_600_000);
        await stores.trimCache();
        expect(await stores.cache("blame").get("big")).toBeUndefined();
        expect(await stores.ephemeral("buttons").get("state")).toBeUndefined();
        expect(await stores.durable("vault").get("91000000000000000")).toEqual({ sealed: true });
      } finally {
        await stores.close();
      }
    });
  });
}

boundTests("memory", (options) =>
  openStores({ dataDir: "unused", memory: true, logger: silentLogger(), ...options }),
);

let sqliteDir = "";
boundTests(
  "SQLite",
  async (options) => {
    sqliteDir = join(root, randomBytes(4).toString("hex"));
    return openStores({ dataDir: sqliteDir, logger: silentLogger(), sweepIntervalMs: 0, ...options });
  },
  async () => {
    // Read with a connection of its own: what the cache file holds, keys and values in bytes.
    const file = new KeyvSqlite({ uri: `sqlite://${join(sqliteDir, "cache.sqlite")}` });
    try {
      const rows = (await file.query(
        "SELECT COALESCE(SUM(length(CAST(key AS BLOB)) + length(CAST(value AS BLOB))), 0) AS bytes FROM keyv",
      )) as Array<{ bytes: number }>;
      return rows[0]?.bytes ?? 0;
    } finally {
      await file.disconnect();
    }
  },
);

describeWithRedis("the cache bound in Redis (the tests' Redis)", () => {
  let redisPrefix = "";
  const redisPrefixes: string[] = [];
  /** What the bound books for one of the story's entries in this Redis. */
  let entryCost = 0;
  beforeAll(async () => {
    const prefix = `test-bound-${randomBytes(6).toString("hex")}`;
    redisPrefixes.push(prefix);
    const stores = await openStores({
      dataDir: "unused",
      redisUrl: redisTestUrl(),
      prefix,
      logger: silentLogger(),
      sweepIntervalMs: 0,
    });
    try {
      await stores.cache("contents").set("c0", ENTRY, 3_600_000);
      await stores.trimCache();
    } finally {
      await stores.close();
    }
    const client = createClient({ url: redisTestUrl() });
    await client.connect();
    try {
      entryCost = Number(await client.get(`${prefix}:lru:total`));
    } finally {
      await client.close();
    }
  });
  afterAll(async () => {
    const client = createClient({ url: redisTestUrl() });
    await client.connect();
    try {
      for (const prefix of redisPrefixes) {
        const keys = await client.keys(`${prefix}:*`);
        if (keys.length > 0) await client.del(keys);
      }
    } finally {
      await client.close();
    }
  });
  boundTests(
    "Redis",
    async (options) => {
      redisPrefix = `test-bound-${randomBytes(6).toString("hex")}`;
      redisPrefixes.push(redisPrefix);
      return openStores({
        dataDir: "unused",
        redisUrl: redisTestUrl(),
        prefix: redisPrefix,
        logger: silentLogger(),
        sweepIntervalMs: 0,
        ...options,
      });
    },
    async () => {
      const client = createClient({ url: redisTestUrl() });
      await client.connect();
      try {
        let bytes = 0;
        for (const key of await client.keys(`${redisPrefix}:contents::*`)) {
          bytes += key.length + (await client.strLen(key));
        }
        // The vault's keys carry no TTL: a `volatile-*` maxmemory-policy can never evict them.
        for (const key of await client.keys(`${redisPrefix}:vault::*`))
          expect(await client.pTTL(key)).toBe(-1);
        return bytes;
      } finally {
        await client.close();
      }
    },
    // Seven entries fit within 90% of it (what eviction goes down to), eight are past it.
    () => Math.floor(7.9 * entryCost),
  );

  it("keeps what Redis holds for the cache under the bound, however small the entries", async () => {
    const prefix = `test-bound-${randomBytes(6).toString("hex")}`;
    redisPrefixes.push(prefix);
    const bound = 60_000;
    const stores = await openStores({
      dataDir: "unused",
      redisUrl: redisTestUrl(),
      prefix,
      logger: silentLogger(),
      sweepIntervalMs: 0,
      cacheMaxBytes: bound,
      cacheTimeoutMs: 10_000,
    });
    try {
      // Answers anyone can make the bot cache by asking: small ones, many.
      for (let index = 0; index < 600; index += 1) {
        await stores.cache("contents").set(`demo/widgets:main:src/${index}`, { lines: index }, 3_600_000);
      }
      await stores.trimCache();
    } finally {
      await stores.close();
    }
    const client = createClient({ url: redisTestUrl() });
    await client.connect();
    try {
      // What Redis says the cache and its books take, key by key (their expiries and the main
      // dictionary's tables come on top, so this is the least of it).
      let held = 0;
      const keys = [
        ...(await client.keys(`${prefix}:contents::*`)),
        `${prefix}:lru:ticks`,
        `${prefix}:lru:sizes`,
      ];
      for (const key of keys) held += Number(await client.memoryUsage(key, { SAMPLES: 0 }));
      expect(held).toBeLessThanOrEqual(bound);
      // And the bound is used, not emptied.
      expect(held).toBeGreaterThan(bound / 3);
    } finally {
      await client.close();
    }
  });
});

describe("the bound's order of bookkeeping", () => {
  it("books the reads made while a check of the bound waits, before it chooses what to evict", async () => {
    const calls: string[] = [];
    let releaseTotal: (bytes: number) => void = () => undefined;
    const books: CacheBookkeeping = {
      flushReads: async (keys) => void calls.push(`reads ${keys.join(",")}`),
      written: async () => undefined,
      removed: async () => undefined,
      // The total of a busy store comes late: reads and writes land meanwhile.
      totalBytes: () => new Promise((resolve) => (releaseTotal = resolve)),
      evict: async () => {
        calls.push("evict");
        return 1;
      },
      reconcile: async () => undefined,
    };
    const bound = createCacheBound(books, {
      maxBytes: 100,
      onError: () => undefined,
      flushIntervalMs: 60_000,
    });
    try {
      // A check queued by an earlier write, then a read, then a flush queued behind the check
      // (as the one-second timer queues it): the check must not evict the entry just read.
      const trimmed = bound.trim();
      await new Promise((resolve) => setImmediate(resolve));
      bound.read("contents:c0");
      releaseTotal(500);
      expect(await trimmed).toBe(1);
      expect(calls).toEqual(["reads contents:c0", "evict"]);
    } finally {
      await bound.close();
    }
  });
});
