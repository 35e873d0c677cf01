import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { DEMO_TOKEN } from "../../src/sandbox/github/index.js";
import { startSandboxWorld, type SandboxWorld } from "../../src/sandbox/harness.js";
import { startPeerProcess, type PeerProcess } from "../../src/sandbox/peerProcess.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { describeWithRedis, redisTestUrl, removeRedisKeys } from "../cache/helpers.js";
import { answerOf, press } from "./helpers.js";

/*
 * Two bot processes behind the local Discord's load balancing (round robin over two interactions
 * endpoints), each with its own services and memory, on one Redis (SPEC section 6), through the
 * real path: signed POSTs, the core, the stand-ins.
 */

describeWithRedis("two bot processes over HTTP on one Redis", () => {
  const prefix = `reposcout-test-${randomBytes(6).toString("hex")}`;
  let world: SandboxWorld;
  let peer: PeerProcess;

  beforeAll(async () => {
    world = await startSandboxWorld({ transport: "http", redisUrl: redisTestUrl(), storePrefix: prefix });
    peer = await startPeerProcess(world, { storePrefix: prefix });
  });
  afterAll(async () => {
    await peer?.close();
    await world?.close();
    await removeRedisKeys(prefix);
  });
  beforeEach(() => {
    world.github.faults.clear();
    world.github.setRateLimit(DEMO_TOKEN, { remaining: 5000 });
  });

  const endpointOf = (record: { delivery: { endpoint?: string } | null }) => record.delivery?.endpoint;

  it("a button pressed on a message the other process answered turns the page", async () => {
    const record = await world.run({ kind: "slash", name: "contributors", options: { repo: "demo/crowd" } });
    const { last } = answerOf(record);
    const { record: pressed, after } = await press(world, { id: last.id, message: last.message }, /Next/);
    expect(endpointOf(pressed)).toBeDefined();
    expect(endpointOf(pressed)).not.toBe(endpointOf(record));
    expect(transcriptOf(pressed).isError).toBe(false);
    expect(after.message.embeds[0]?.description ?? "").toMatch(/^Page 2 of 3\n/);
  });

  it("20 identical concurrent commands, spread over both, make one upstream call of each kind", async () => {
    const before = world.github.requests.length;
    const handles = await Promise.all(
      Array.from({ length: 20 }, () =>
        world.send({
          kind: "slash",
          name: "contents",
          options: { repo: "demo/widgets", path: "src" },
        }),
      ),
    );
    const records = await Promise.all(handles.map((handle) => handle.waitForAnswer({ timeoutMs: 20_000 })));
    for (const record of records) expect(transcriptOf(record).isError, transcriptOf(record).text).toBe(false);
    expect(new Set(records.map(endpointOf)).size).toBe(2);
    const calls = world.github.requests.slice(before);
    const byOperation = new Map<string, number>();
    for (const call of calls) {
      const name = call.operationName ?? `${call.api}`;
      byOperation.set(name, (byOperation.get(name) ?? 0) + 1);
    }
    expect(calls.length).toBeGreaterThan(0);
    for (const [operation, count] of byOperation) expect(count, operation).toBe(1);
  });

  it("a secondary rate limit met by one process holds the other: it asks GitHub nothing", async () => {
    world.github.faults.inject({
      kind: "secondaryRateLimit",
      target: "both",
      times: 1,
      retryAfterSeconds: 60,
    });
    const first = await world.run({ kind: "slash", name: "repos", options: { owner: "alice" } });
    expect(transcriptOf(first).text).toMatch(/secondary rate limit/);
    const before = world.github.requests.length;
    const second = await world.run({ kind: "slash", name: "repos", options: { owner: "demo" } });
    expect(endpointOf(second)).not.toBe(endpointOf(first));
    expect(transcriptOf(second).text).toMatch(/secondary rate limit/);
    expect(world.github.requests.length).toBe(before);
  });

  it("a delivery replayed to the other process is refused", async () => {
    const record = await world.run({ kind: "slash", name: "whoami" });
    const other = [`${world.bot.httpUrl}/interactions`, peer.endpoint].find(
      (url) => url !== endpointOf(record),
    );
    const replay = await world.discord.replayInteractionDelivery(record.id, { url: other! });
    expect(replay.status).toBe(401);
  });
});
