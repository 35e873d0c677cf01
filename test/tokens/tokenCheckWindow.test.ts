import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createServices, TokenRejectedError, type RunningServices } from "../../src/createServices.js";
import { silentLogger } from "../../src/logger.js";
import { TokenChecksExhaustedError } from "../../src/tokens/attemptLimit.js";
import { describeWithRedis, redisTestUrl, removeRedisKeys } from "../cache/helpers.js";

/*
 * `/token set` verifies a token with GitHub at most 5 times per server per 10 minutes (SPEC
 * section 4), counted where every process and the next start see it.
 */

const GUILD = "123456789012345678";
const KEY = randomBytes(32).toString("base64");

/** GitHub as a token tester sees it: every request it receives, each refused (a made-up token). */
function refusingGitHub(): { requests: () => number; fetch: typeof fetch } {
  let requests = 0;
  return {
    requests: () => requests,
    fetch: async () => {
      requests += 1;
      return new Response(JSON.stringify({ message: "Bad credentials" }), {
        status: 401,
        headers: { "content-type": "application/json" },
      });
    },
  };
}

async function start(
  env: Record<string, string>,
  github: { fetch: typeof fetch },
  storePrefix?: string,
): Promise<RunningServices> {
  const config = loadConfig({ TOKEN_ENCRYPTION_KEY: KEY, ...env });
  return createServices(config, silentLogger(), {
    client: { fetch: github.fetch },
    ...(storePrefix ? { storePrefix } : {}),
  });
}

/** One `/token set` check: what the admin is told, by kind. */
async function check(running: RunningServices, attempt: number): Promise<string> {
  const token = `ghp_madeUp${String(attempt).padStart(30, "0")}`;
  const error = await running.services.tokenAdmin
    .verifyAndStore(GUILD, token, "1")
    .catch((caught: unknown) => caught);
  if (error instanceof TokenRejectedError) return "rejected by GitHub";
  if (error instanceof TokenChecksExhaustedError) return "limit reached";
  throw new Error(`unexpected outcome ${String(error)}`);
}

describeWithRedis("/token set's limit on one Redis", () => {
  const prefix = `reposcout-test-${randomBytes(6).toString("hex")}`;
  const running: RunningServices[] = [];
  afterAll(async () => {
    await Promise.all(running.map((services) => services.close()));
    await removeRedisKeys(prefix);
  });

  it("holds 5 checks per server for every process together, and through a restart", async () => {
    const github = refusingGitHub();
    const env = { REDIS_URL: redisTestUrl(), DATA_DIR: "unused" };
    const [first, second] = await Promise.all([start(env, github, prefix), start(env, github, prefix)]);
    running.push(first!, second!);
    const outcomes = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      outcomes.push(await check(attempt % 2 === 0 ? first! : second!, attempt));
    }
    expect(outcomes).toEqual(Array(5).fill("rejected by GitHub"));
    expect(await check(second!, 5)).toBe("limit reached");
    expect(await check(first!, 6)).toBe("limit reached");
    // A process started afresh (a restart, or a third behind the load balancer) counts them too.
    const third = await start(env, github, prefix);
    running.push(third);
    expect(await check(third, 7)).toBe("limit reached");
    // GitHub saw the five checks and nothing after them.
    expect(github.requests()).toBe(5);
  });
});

describe("/token set's limit on SQLite", () => {
  it("survives a restart of the process", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "reposcout-token-checks-"));
    const github = refusingGitHub();
    try {
      const before = await start({ DATA_DIR: dataDir }, github);
      try {
        for (let attempt = 0; attempt < 5; attempt += 1) {
          expect(await check(before, attempt)).toBe("rejected by GitHub");
        }
      } finally {
        await before.close();
      }
      const after = await start({ DATA_DIR: dataDir }, github);
      try {
        expect(await check(after, 5)).toBe("limit reached");
      } finally {
        await after.close();
      }
      expect(github.requests()).toBe(5);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
