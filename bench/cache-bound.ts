/**
 * What the LRU bookkeeping of the cache bound (CACHE_MAX_MB) costs: reads and writes of a SQLite
 * cache file and of Redis, with the books and without. Reads batch their recency (one UPDATE or
 * one ZADD per 256 reads), writes book their size in the same step (SQLite triggers, one Lua script
 * on Redis).
 *
 *   npx tsx bench/cache-bound.ts
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import KeyvRedis, { createClient } from "@keyv/redis";
import KeyvSqlite from "@keyv/sqlite";
import { Keyv } from "keyv";
import { createCacheBound, type CacheBookkeeping } from "../src/cache/cacheBound.js";
import { guardCacheKeyv, type CacheStore, type GuardOptions } from "../src/cache/guardedStore.js";
import { createOutageReporter } from "../src/cache/outageReporter.js";
import { redisCacheBookkeeping, type RedisScripting } from "../src/cache/redisCacheBookkeeping.js";
import { sqliteCacheBookkeeping } from "../src/cache/sqliteCacheBookkeeping.js";
import { silentLogger } from "../src/logger.js";

const ENTRIES = 1_000;
const READS = 20_000;
const VALUE = { text: "x".repeat(2_000) };

interface Figures {
  readUs: number;
  writeUs: number;
  /** With the books: what one batched recency write costs, divided by the reads it covers. */
  flushUsPerRead?: number;
}

const FLUSHES = 20;
const FLUSH_SIZE = 256;

/** The cost the books add to reads: one batched flush of 256 reads, per read. */
async function flushCostUs(books: CacheBookkeeping, storedKey: (key: string) => string): Promise<number> {
  const started = performance.now();
  for (let flush = 0; flush < FLUSHES; flush += 1) {
    const keys = Array.from({ length: FLUSH_SIZE }, () =>
      storedKey(`k${Math.floor(Math.random() * ENTRIES)}`),
    );
    await books.flushReads(keys);
  }
  return ((performance.now() - started) * 1000) / (FLUSHES * FLUSH_SIZE);
}

async function measure(store: CacheStore, flush: () => Promise<unknown>): Promise<Figures> {
  let started = performance.now();
  for (let index = 0; index < ENTRIES; index += 1) await store.set(`k${index}`, VALUE, 3_600_000);
  await flush();
  const writeUs = ((performance.now() - started) * 1000) / ENTRIES;
  started = performance.now();
  for (let index = 0; index < READS; index += 1) await store.get(`k${Math.floor(Math.random() * ENTRIES)}`);
  await flush();
  const readUs = ((performance.now() - started) * 1000) / READS;
  return { readUs, writeUs };
}

function guardOf(name: string): GuardOptions {
  return {
    store: name,
    reporter: createOutageReporter({ logger: silentLogger(), store: name }),
    timeoutMs: 5_000,
  };
}

/** A cache namespace over `keyv`, booked by `books` when given (keys as Keyv stores them). */
function namespaceOver(
  keyv: Keyv<unknown>,
  storedKey: (key: string) => string,
  books?: CacheBookkeeping,
): { store: CacheStore; flush: () => Promise<unknown> } {
  const guard = guardOf("bench");
  if (!books) return { store: guardCacheKeyv(keyv, guard), flush: async () => undefined };
  const bound = createCacheBound(books, { maxBytes: 1024 ** 3, onError: () => undefined });
  const store = guardCacheKeyv(keyv, {
    ...guard,
    track: {
      read: (key) => bound.read(storedKey(key)),
      written: (key) => bound.written(storedKey(key)),
      removed: (key) => bound.removed(storedKey(key)),
    },
  });
  return { store, flush: () => bound.trim() };
}

async function sqliteFigures(dir: string, booked: boolean): Promise<Figures> {
  const name = `${booked ? "booked" : "plain"}-${randomBytes(4).toString("hex")}.sqlite`;
  const file = new KeyvSqlite({ uri: `sqlite://${join(dir, name)}` });
  await file.query("PRAGMA journal_mode = WAL");
  await file.query("PRAGMA synchronous = NORMAL");
  const books = booked ? await sqliteCacheBookkeeping(file) : undefined;
  const keyv = new Keyv<unknown>(file, { namespace: "bench" });
  const { store, flush } = namespaceOver(keyv, (key) => `bench:${key}`, books);
  try {
    const figures = await measure(store, flush);
    if (books) figures.flushUsPerRead = await flushCostUs(books, (key) => `bench:${key}`);
    return figures;
  } finally {
    await file.disconnect();
  }
}

async function redisFigures(url: string, booked: boolean): Promise<Figures | null> {
  const client = createClient({ url, disableOfflineQueue: true, socket: { reconnectStrategy: false } });
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch {
    return null;
  }
  const prefix = `bench-${randomBytes(4).toString("hex")}`;
  const full = `${prefix}:bench`;
  const keyv = new Keyv<unknown>(new KeyvRedis(client, { namespace: full }), {
    namespace: full,
    useKeyPrefix: false,
  });
  const books = booked ? redisCacheBookkeeping(client as unknown as RedisScripting, prefix) : undefined;
  const { store, flush } = namespaceOver(keyv, (key) => `${full}::${key}`, books);
  try {
    const figures = await measure(store, flush);
    if (books) figures.flushUsPerRead = await flushCostUs(books, (key) => `${full}::${key}`);
    return figures;
  } finally {
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length > 0) await client.del(keys);
    await client.close();
  }
}

const line = (name: string, plain: Figures, booked: Figures): string =>
  `${name}: read ${plain.readUs.toFixed(1)} -> ${booked.readUs.toFixed(1)} µs, write ${plain.writeUs.toFixed(0)} -> ${booked.writeUs.toFixed(0)} µs (without -> with the books; ${ENTRIES} entries of 2 KB, ${READS} reads); the batched recency write adds ${(booked.flushUsPerRead ?? Number.NaN).toFixed(2)} µs per read (${FLUSH_SIZE} reads a batch)`;

/** The figures, one line per store. */
export async function benchCacheBound(redisUrl = "redis://127.0.0.1:6379"): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), "reposcout-bench-bound-"));
  try {
    // Each case twice, alternating, the better run kept: a busy machine makes single runs jump.
    const best = async (run: (booked: boolean) => Promise<Figures | null>) => {
      const runs = [await run(false), await run(true), await run(false), await run(true)];
      if (runs.some((figures) => figures === null)) return null;
      const [a, b, c, d] = runs as Figures[];
      const better = (x: Figures, y: Figures): Figures => ({
        readUs: Math.min(x.readUs, y.readUs),
        writeUs: Math.min(x.writeUs, y.writeUs),
        flushUsPerRead: Math.min(x.flushUsPerRead ?? Infinity, y.flushUsPerRead ?? Infinity),
      });
      return { plain: better(a!, c!), booked: better(b!, d!) };
    };
    const sqlite = (await best((booked) => sqliteFigures(dir, booked)))!;
    const redis = await best((booked) => redisFigures(redisUrl, booked));
    return [
      line("SQLite", sqlite.plain, sqlite.booked),
      redis ? line("Redis", redis.plain, redis.booked) : `Redis: not reachable at ${redisUrl}`,
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const text of await benchCacheBound()) console.log(text);
  process.exit(0);
}
