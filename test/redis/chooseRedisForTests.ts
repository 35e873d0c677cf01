import { findExecutable } from "./startRedisServer.js";

/**
 * Which Redis the tests use, decided once per run by the global setup from the environment of
 * `npm test` (test code, not the product: only src/config.ts reads the product's variables).
 */

/** Set to `1` (as `.ci/run` does) to fail the Redis tests rather than skip them. */
export const REQUIRE_REDIS_VARIABLE = "REPOSCOUT_REQUIRE_REDIS";
/** A Redis to use instead of starting one (`redis://host:port`); its keys get random prefixes. */
export const REDIS_TEST_URL_VARIABLE = "REDIS_TEST_URL";

/**
 * What the global setup does about Redis: use a given server, start one, or go without; the
 * Redis tests are then skipped, or failed when `required`, with `reason`.
 */
export type RedisForTests =
  | { kind: "given"; url: string }
  | { kind: "start"; binary: string }
  | { kind: "missing"; reason: string; required: boolean };

/** How to get the Redis tests to run, for the skip line and the CI failure. */
export const HOW_TO_RUN_REDIS_TESTS = `install it (apt-get install redis-server) or set ${REDIS_TEST_URL_VARIABLE}=redis://127.0.0.1:PORT to use a Redis you run`;

/**
 * Decides from `env`: `REDIS_TEST_URL` when given, else a redis-server of our own when one is on
 * `PATH`, else none, with the line that says why and how to install it; with
 * `REPOSCOUT_REQUIRE_REDIS=1` the Redis tests then fail instead of being skipped.
 * @throws when the given URL is not a redis:// one.
 */
export function chooseRedisForTests(env: Readonly<Record<string, string | undefined>>): RedisForTests {
  const given = env[REDIS_TEST_URL_VARIABLE]?.trim();
  if (given) {
    if (!/^rediss?:\/\/.+/.test(given))
      throw new Error(`${REDIS_TEST_URL_VARIABLE} must be a redis:// or rediss:// URL, not "${given}".`);
    return { kind: "given", url: given };
  }
  const binary = findExecutable("redis-server", env.PATH);
  if (binary) return { kind: "start", binary };
  if (env[REQUIRE_REDIS_VARIABLE] === "1") {
    return {
      kind: "missing",
      required: true,
      reason: `Redis tests failed: ${REQUIRE_REDIS_VARIABLE}=1 and no redis-server on PATH. To run them, ${HOW_TO_RUN_REDIS_TESTS}.`,
    };
  }
  return {
    kind: "missing",
    required: false,
    reason: `Redis tests skipped: no redis-server on PATH. To run them, ${HOW_TO_RUN_REDIS_TESTS}.`,
  };
}
