import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseRedisForTests } from "./chooseRedisForTests.js";

describe("which Redis the tests use", () => {
  let withRedis: string;
  let withoutRedis: string;
  let notExecutable: string;

  beforeAll(async () => {
    withRedis = await mkdtemp(join(tmpdir(), "reposcout-path-"));
    withoutRedis = await mkdtemp(join(tmpdir(), "reposcout-path-"));
    notExecutable = await mkdtemp(join(tmpdir(), "reposcout-path-"));
    await writeFile(join(withRedis, "redis-server"), "#!/bin/sh\n");
    await chmod(join(withRedis, "redis-server"), 0o755);
    await writeFile(join(notExecutable, "redis-server"), "not a program\n");
    await chmod(join(notExecutable, "redis-server"), 0o644);
  });
  afterAll(async () => {
    for (const dir of [withRedis, withoutRedis, notExecutable])
      await rm(dir, { recursive: true, force: true });
  });

  it("starts the redis-server found on PATH, never assuming one on 6379", () => {
    const PATH = [withoutRedis, notExecutable, withRedis].join(delimiter);
    expect(chooseRedisForTests({ PATH })).toEqual({ kind: "start", binary: join(withRedis, "redis-server") });
  });

  it("uses REDIS_TEST_URL when given, whatever PATH holds", () => {
    expect(chooseRedisForTests({ PATH: withoutRedis, REDIS_TEST_URL: " redis://10.0.0.5:6390 " })).toEqual({
      kind: "given",
      url: "redis://10.0.0.5:6390",
    });
    expect(() => chooseRedisForTests({ PATH: withRedis, REDIS_TEST_URL: "http://127.0.0.1:6379" })).toThrow(
      /REDIS_TEST_URL must be a redis:\/\/ or rediss:\/\/ URL/,
    );
  });

  it("skips with one line saying why and how to install redis-server when none is on PATH", () => {
    const plan = chooseRedisForTests({ PATH: [withoutRedis, notExecutable].join(delimiter) });
    expect(plan).toMatchObject({ kind: "missing", required: false });
    const reason = plan.kind === "missing" ? plan.reason : "";
    expect(reason).not.toContain("\n");
    expect(reason).toMatch(/^Redis tests skipped: no redis-server on PATH\./);
    expect(reason).toContain("apt-get install redis-server");
    expect(reason).toContain("REDIS_TEST_URL=");
    expect(chooseRedisForTests({})).toMatchObject({ kind: "missing", required: false });
  });

  it("fails the Redis tests instead of skipping them when REPOSCOUT_REQUIRE_REDIS=1, as in CI", () => {
    const plan = chooseRedisForTests({ PATH: withoutRedis, REPOSCOUT_REQUIRE_REDIS: "1" });
    expect(plan).toMatchObject({ kind: "missing", required: true });
    expect(plan.kind === "missing" && plan.reason).toMatch(
      /^Redis tests failed: REPOSCOUT_REQUIRE_REDIS=1 and no redis-server on PATH\..*apt-get install redis-server/,
    );
    expect(chooseRedisForTests({ PATH: withRedis, REPOSCOUT_REQUIRE_REDIS: "1" }).kind).toBe("start");
  });
});
