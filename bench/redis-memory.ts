/**
 * What `CACHE_MAX_MB` means in Redis: the memory Redis takes (`used_memory`, before and after
 * filling the cache) per megabyte the cache bound books, for small, middling and large answers. A
 * Redis server of its own, so nothing else moves `used_memory`. A figure near 1.0 means the bound
 * is what Redis holds; above, Redis holds more than the operator allowed.
 *
 *   npx tsx bench/redis-memory.ts
 */
import { pathToFileURL } from "node:url";
import { createClient } from "@keyv/redis";
import { openStores } from "../src/cache/openStores.js";
import { silentLogger } from "../src/logger.js";
import { findExecutable, startRedisServer } from "../test/redis/startRedisServer.js";

const CASES = [
  { entries: 20_000, valueBytes: 50 },
  { entries: 10_000, valueBytes: 1_000 },
  { entries: 2_000, valueBytes: 10_000 },
];

async function memoryPerBookedMb(url: string, entries: number, valueBytes: number): Promise<number> {
  const client = createClient({ url });
  await client.connect();
  try {
    await client.flushAll();
    const used = async (): Promise<number> =>
      Number(/used_memory:(\d+)/.exec(await client.info("memory"))?.[1] ?? Number.NaN);
    const prefix = "reposcout";
    const stores = await openStores({
      dataDir: "unused",
      redisUrl: url,
      prefix,
      logger: silentLogger(),
      cacheMaxBytes: 1024 ** 4,
      sweepIntervalMs: 0,
      cacheTimeoutMs: 10_000,
    });
    try {
      // The books' own keys exist before the count starts, as in a cache that has been running.
      await stores.cache("contents").set("warm", { text: "x" }, 3_600_000);
      await stores.trimCache();
      const before = await used();
      const value = { text: "x".repeat(valueBytes) };
      for (let index = 0; index < entries; index += 1) {
        // A key of the length answers' keys have: kind, repository, ref, path, token fingerprint.
        const key = `demo/widgets:main:src/file${index}.ts:0123456789abcdef0123456789abcdef`;
        await stores.cache("contents").set(key, value, 3_600_000);
      }
      await stores.trimCache();
      const grown = (await used()) - before;
      // The warm-up entry was booked before the count started: only what came since counts.
      const warm = Number(await client.hGet(`${prefix}:lru:sizes`, `${prefix}:contents::warm`));
      const booked = Number(await client.get(`${prefix}:lru:total`)) - warm;
      return grown / booked;
    } finally {
      await stores.close();
    }
  } finally {
    await client.close();
  }
}

/** The figure lines. */
export async function benchRedisMemory(): Promise<string[]> {
  const binary = findExecutable("redis-server", process.env.PATH);
  if (!binary) return ["skipped: no redis-server on PATH (apt-get install redis-server)"];
  const redis = await startRedisServer(binary);
  try {
    const lines: string[] = [];
    for (const { entries, valueBytes } of CASES) {
      const ratio = await memoryPerBookedMb(redis.url, entries, valueBytes);
      lines.push(
        `${entries} answers of ${valueBytes} bytes: Redis holds ${ratio.toFixed(2)} MB per MB the cache bound books`,
      );
    }
    return lines;
  } finally {
    await redis.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const text of await benchRedisMemory()) console.log(text);
  process.exit(0);
}
