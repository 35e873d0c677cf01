import { randomBytes } from "node:crypto";
import { createClient } from "@keyv/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PATHS, OTHER_LOGIN, OTHER_TOKEN } from "../../src/sandbox/github/index.js";
import type { SandboxWorld } from "../../src/sandbox/harness.js";
import { startWorld } from "./helpers.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { describeWithRedis, redisTestUrl } from "../cache/helpers.js";

function footerOf(record: Awaited<ReturnType<SandboxWorld["run"]>>): string {
  return transcriptOf(record).messages.at(-1)?.message.embeds[0]?.footer?.text ?? "";
}

function calls(world: SandboxWorld, operation: string): number {
  return world.github.requests.filter((entry) => entry.operationName === operation).length;
}

const blame = { kind: "slash", name: "blame", options: { repo: "demo/widgets", path: "README.md" } } as const;

describe("the answer cache, end to end", () => {
  let world: SandboxWorld;
  beforeAll(async () => {
    // The default token may read private repositories here (GITHUB_TOKEN_ALLOW_PRIVATE): the test
    // of cache scoping reads demo/secret with it, then with a token that cannot see it.
    world = await startWorld({ shortTtlSeconds: 1, allowPrivate: true });
  });
  afterAll(async () => {
    await world?.close();
  });

  it("answers a repeat from the cache: no upstream call, and the footer says so", async () => {
    world.github.clearRequests();
    const first = await world.run(blame);
    expect(footerOf(first)).toMatch(/fetched now · main · pinned to [0-9a-f]{7}/);
    expect(calls(world, "Blame")).toBe(1);
    const second = await world.run(blame);
    expect(footerOf(second)).toMatch(/cached/);
    expect(calls(world, "Blame")).toBe(1);
  });

  it.each([
    [
      "/contents",
      { kind: "slash", name: "contents", options: { repo: "demo/widgets", path: DEMO_PATHS.nestedFile } },
    ],
    ["/contributors", { kind: "slash", name: "contributors", options: { repo: "demo/crowd", page: 2 } }],
    ["/repos", { kind: "slash", name: "repos", options: { owner: "demo", sort: "name" } }],
    ["/whoami", { kind: "slash", name: "whoami", options: {} }],
  ] as const)(
    "formats a repeat of a cached %s answer once: the same message is sent again",
    async (_name, ask) => {
      // Questions no other test of this file asks, so the footer's minute cannot turn between repeats.
      const rendered = world.running.services.rendered;
      await world.run(ask); // fetched now
      const second = await world.run(ask); // cached just now: its own message
      const before = rendered.counts();
      const third = await world.run(ask);
      expect(rendered.counts()).toEqual({ rendered: before.rendered, reused: before.reused + 1 });
      expect(footerOf(third)).toMatch(/^cached just now/);
      expect(transcriptOf(third).messages.at(-1)?.message.embeds).toEqual(
        transcriptOf(second).messages.at(-1)?.message.embeds,
      );
    },
  );

  it("keeps an answer pinned to a commit after the branch's short lifetime has passed", async () => {
    await world.run(blame);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    world.github.clearRequests();
    const byCommit = await world.run({
      ...blame,
      options: {
        ...blame.options,
        ref: transcriptOf(await world.run(blame))
          .messages[0]!.message.embeds[0]!.url!.split("/blob/")[1]!
          .split("/")[0]!,
      },
    });
    expect(transcriptOf(byCommit).isError).toBe(false);
    // Only the branch was resolved again (one Blame call by branch); the commit's answer was kept.
    expect(calls(world, "Blame")).toBeLessThanOrEqual(1);
  });

  it("shares one upstream call among identical commands in flight", async () => {
    world.github.setLatency(400);
    world.github.clearRequests();
    try {
      const handles = await Promise.all(
        Array.from({ length: 6 }, () =>
          world.send({ kind: "slash", name: "contents", options: { repo: "demo/sprockets", path: "" } }),
        ),
      );
      const records = await Promise.all(handles.map((handle) => handle.waitForAnswer({ timeoutMs: 10_000 })));
      expect(records.every((record) => !transcriptOf(record).isError)).toBe(true);
      expect(calls(world, "Contents")).toBe(1);
    } finally {
      world.github.setLatency(0);
    }
  });

  it("revalidates contributors with If-None-Match: GitHub answers 304 and the page is reused", async () => {
    const ask = { kind: "slash", name: "contributors", options: { repo: "demo/crowd", page: 2 } } as const;
    const first = await world.run(ask);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    world.github.clearRequests();
    const second = await world.run(ask);
    const rest = world.github.requests.filter((entry) => entry.api === "rest");
    expect(rest.map((entry) => entry.status)).toEqual([304]);
    expect(transcriptOf(second).text).toBe(
      transcriptOf(first).text.replace(
        /fetched now/,
        transcriptOf(second).text.match(/fetched now|cached[^\n]*/)![0],
      ),
    );
  });

  it("never shows one server's cached answer to a token that may not see it", async () => {
    const secret = { kind: "slash", name: "contents", options: { repo: "demo/secret" } } as const;
    const asDemo = await world.run(secret);
    expect(transcriptOf(asDemo).isError).toBe(false);
    world.github.addToken(OTHER_TOKEN, OTHER_LOGIN);
    const opened = await world.run({ kind: "slash", name: "token set", user: "admin" });
    await world.run({ kind: "modal", from: opened.id, fields: { token: OTHER_TOKEN } });
    try {
      const asOther = await world.run(secret);
      const seen = transcriptOf(asOther);
      expect(seen.isError).toBe(true);
      expect(seen.text).toMatch(/not found/i);
      // A DM uses the default token, whose answer is still cached and still visible there.
      const inDm = await world.run({ ...secret, channel: "dm" });
      expect(transcriptOf(inDm).isError).toBe(false);
    } finally {
      await world.run({ kind: "slash", name: "token clear", user: "admin" });
    }
  });
});

describe("a cache outage", () => {
  let world: SandboxWorld;
  beforeAll(async () => {
    world = await startWorld({ redisUrl: "redis://127.0.0.1:1", storePrefix: "outage" });
  });
  afterAll(async () => {
    await world?.close();
  });

  it("makes answers slower, never failing them", async () => {
    const requests: Parameters<SandboxWorld["run"]>[0][] = [
      blame,
      { kind: "slash", name: "repos", options: { owner: "demo" } },
      { kind: "slash", name: "contributors", options: { repo: "demo/widgets" } },
      { kind: "slash", name: "whoami" },
    ];
    for (const request of requests) {
      const record = await world.run(request);
      expect(transcriptOf(record).isError, JSON.stringify(request)).toBe(false);
      expect(footerOf(record)).toMatch(/fetched now/);
    }
  });

  it("refuses to store a server token rather than pretend, and says so", async () => {
    const opened = await world.run({ kind: "slash", name: "token set", user: "admin" });
    const submitted = await world.run({ kind: "modal", from: opened.id, fields: { token: OTHER_TOKEN } });
    const seen = transcriptOf(submitted);
    expect(seen.isError).toBe(true);
    expect(seen.text).toMatch(/token store/i);
  });
});

describeWithRedis("the Redis-backed cache and vault", () => {
  let world: SandboxWorld;
  const prefix = `e2e-${randomBytes(4).toString("hex")}`;
  beforeAll(async () => {
    world = await startWorld({ redisUrl: redisTestUrl(), storePrefix: prefix });
  });
  afterAll(async () => {
    await world?.close();
    // Leave nothing behind, also in a Redis given with REDIS_TEST_URL.
    const client = createClient({ url: redisTestUrl() });
    await client.connect();
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length > 0) await client.del(keys);
    await client.quit();
  });

  it("caches answers in Redis and keeps a server token there, encrypted", async () => {
    world.github.clearRequests();
    await world.run(blame);
    const again = await world.run(blame);
    expect(footerOf(again)).toMatch(/cached/);
    expect(calls(world, "Blame")).toBe(1);
    world.github.addToken(OTHER_TOKEN, OTHER_LOGIN);
    const opened = await world.run({ kind: "slash", name: "token set", user: "admin" });
    const submitted = await world.run({ kind: "modal", from: opened.id, fields: { token: OTHER_TOKEN } });
    expect(transcriptOf(submitted).text).toContain("other\\-user");
    const status = await world.run({ kind: "slash", name: "token status", user: "admin" });
    expect(transcriptOf(status).text).toContain("other\\-user");
    expect(transcriptOf(status).text).not.toContain(OTHER_TOKEN);
    await world.run({ kind: "slash", name: "token clear", user: "admin" });
  });
});
