import { Writable } from "node:stream";
import { createClient } from "@keyv/redis";
import { describe, inject, it } from "vitest";
import { createLogger, type Logger } from "../../src/logger.js";

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
