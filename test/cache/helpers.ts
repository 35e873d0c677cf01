import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { createClient } from "@keyv/redis";
import { afterAll, beforeAll, describe, inject, it } from "vitest";
import { openStores, type Stores } from "../../src/cache/openStores.js";
import { createLogger, silentLogger, type Logger } from "../../src/logger.js";

/** A JSON logger whose lines the test can read. */
export function capturingLogger(level: "debug" | "info" | "warn" = "debug"): {
  logger: Logger;
  text: () => string;
  lines: () => Array<Record<string, unknown>>;
} {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  const logger = createLogger({ level, destination: stream, pretty: false });
  const text = (): string => chunks.join("");
  return {
    logger,
    text,
    lines: () =>
      text()
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** A Redis URL where nothing listens: every connection is refused at once. */
export const REFUSING_REDIS_URL = "redis://127.0.0.1:1";

/**
 * The Redis of this run (a redis-server the global setup started on a free port, or
 * REDIS_TEST_URL), or none: then the Redis tests are skipped, or fail when the run requires Redis
 * (REPOSCOUT_REQUIRE_REDIS=1, as in CI). See test/redis/globalSetup.ts.
 */
const REDIS = inject("redisForTests");

/**
 * `describe` for tests that need Redis. Without one, the block is skipped; or, when the run
 * requires Redis, it holds one failing test that says why instead of its own.
 */
export function describeWithRedis(name: string, body: () => void): void {
  if (REDIS.url !== null) describe(name, body);
  else if (!REDIS.required) describe.skip(name, body);
  else
    describe(name, () => {
      it("has a Redis to run against", () => {
        throw new Error(REDIS.reason ?? "no Redis in this run");
      });
    });
}

/** The Redis of this run, inside a `describeWithRedis` block. */
export function redisTestUrl(): string {
  if (REDIS.url === null) throw new Error(REDIS.reason ?? "no Redis in this run");
  return REDIS.url;
}

/** Deletes every key under `prefix` in the tests' Redis (what a test's stores left there). */
export async function removeRedisKeys(prefix: string): Promise<void> {
  const client = createClient({ url: redisTestUrl() });
  await client.connect();
  try {
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length > 0) await client.del(keys);
  } finally {
    await client.close();
  }
}

/**
 * The stores of two processes on the tests' Redis, as two bot processes behind a load balancer
 * have them (each its own connection and memory, one key prefix), opened before the tests of the
 * enclosing block and closed, their keys deleted, after them.
 */
export function useTwoProcessStores(): () => [Stores, Stores] {
  const prefix = `reposcout-test-${randomBytes(6).toString("hex")}`;
  let pair: [Stores, Stores] | undefined;
  beforeAll(async () => {
    const open = () =>
      openStores({ dataDir: "unused", redisUrl: redisTestUrl(), logger: silentLogger(), prefix });
    pair = await Promise.all([open(), open()]);
  });
  afterAll(async () => {
    await Promise.all((pair ?? []).map((stores) => stores.close()));
    await removeRedisKeys(prefix);
  });
  return () => {
    if (!pair) throw new Error("the stores are not open");
    return pair;
  };
}
