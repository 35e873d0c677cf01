import { createClient } from "@keyv/redis";
import type { TestProject } from "vitest/node";
import { chooseRedisForTests } from "./chooseRedisForTests.js";
import { startRedisServer, type RedisServer } from "./startRedisServer.js";

/**
 * Vitest's global setup: one Redis for the whole run, shared by both forks. It runs in vitest's
 * main process, so the server it starts is stopped by the teardown whether tests pass or fail (and
 * killed when that process exits, as a last resort). Tests read it with `inject("redisForTests")`
 * (see test/cache/helpers.ts).
 */

/** What the tests learn about the run's Redis. */
export interface ProvidedRedis {
  /** The Redis the tests may use; null when there is none. */
  url: string | null;
  /** Without a Redis: why, and how to get one (the line printed at the end of the run). */
  reason: string | null;
  /** Without a Redis: fail the Redis tests (true) or skip them. */
  required: boolean;
}

declare module "vitest" {
  export interface ProvidedContext {
    redisForTests: ProvidedRedis;
  }
}

/** Why a given Redis cannot be used, or null when it answers PING. */
async function whyNotAnswering(url: string): Promise<string | null> {
  const client = createClient({ url, socket: { connectTimeout: 3_000, reconnectStrategy: false } });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return `Redis tests failed: REDIS_TEST_URL=${url} does not answer (${(error as Error).message}).`;
  } finally {
    if (client.isOpen) await client.close();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const plan = chooseRedisForTests(process.env);
  let server: RedisServer | undefined;
  let provided: ProvidedRedis;
  if (plan.kind === "missing") {
    provided = { url: null, reason: plan.reason, required: plan.required };
  } else if (plan.kind === "given") {
    const reason = await whyNotAnswering(plan.url);
    provided =
      reason === null ? { url: plan.url, reason, required: true } : { url: null, reason, required: true };
  } else {
    server = await startRedisServer(plan.binary);
    provided = { url: server.url, reason: null, required: true };
  }
  project.provide("redisForTests", provided);
  return async () => {
    await server?.stop();
    // Printed at the end, under vitest's summary and its count of skipped (or failed) tests.
    if (provided.reason !== null) console.warn(provided.reason);
  };
}
