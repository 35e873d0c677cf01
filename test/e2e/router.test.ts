import { Writable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import type { SandboxWorld } from "../../src/sandbox/harness.js";
import { startWorld } from "./helpers.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, callback) {
    logLines.push(String(chunk));
    callback();
  },
});

let world: SandboxWorld;
beforeAll(async () => {
  world = await startWorld({
    logger: createLogger({ level: "info", destination: logStream, pretty: false }),
    client: { holdWhileLimited: false },
  });
});
afterAll(async () => {
  await world?.close();
});
beforeEach(() => {
  world.github.faults.clear();
  world.github.setLatency(0);
});

describe("the one error path", () => {
  it("answers a bad option at once, ephemerally, naming the option, with nothing sent upstream", async () => {
    world.github.clearRequests();
    const record = await world.run({
      kind: "slash",
      name: "blame",
      options: { repo: "not a repo", path: "x" },
    });
    const seen = transcriptOf(record);
    expect(record.deferred).toBe(false);
    expect(seen.isError).toBe(true);
    expect(seen.messages).toHaveLength(1);
    expect(seen.messages[0]!.ephemeral).toBe(true);
    expect(seen.text).toContain("`repo`");
    expect(world.github.requests).toEqual([]);
  });

  it("turns an unexpected failure into a generic line whose error id is also in the log", async () => {
    const scout = world.running.services.scout;
    const original = scout.viewer;
    scout.viewer = async () => {
      throw new Error("a bug deep inside");
    };
    try {
      const record = await world.run({ kind: "slash", name: "whoami" });
      const seen = transcriptOf(record);
      expect(seen.isError).toBe(true);
      expect(seen.text).not.toContain("a bug deep inside");
      const errorId = /error id `([0-9a-f]+)`/.exec(seen.text)?.[1];
      expect(errorId).toBeDefined();
      const logged = logLines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.errorId === errorId);
      expect(logged?.msg).toBe("command failed");
      expect(JSON.stringify(logged)).toContain("a bug deep inside");
    } finally {
      scout.viewer = original;
    }
  });

  it("defers a slow answer within Discord's 3 seconds, then edits it in", async () => {
    world.github.setLatency(2_200);
    const record = await world.run(
      { kind: "slash", name: "contents", options: { repo: "demo/gadgets" } },
      { timeoutMs: 15_000 },
    );
    expect(record.deferred).toBe(true);
    expect(record.errors).toEqual([]);
    const seen = transcriptOf(record);
    expect(seen.isError).toBe(false);
    expect(seen.messages[0]!.ephemeral).toBe(false);
  });

  it("leaves no public message holding an error when a deferred answer fails", async () => {
    world.github.faults.inject({ kind: "latency", latencyMs: 2_000, target: "graphql" });
    world.github.faults.inject({ kind: "serverError", target: "graphql", times: 3 });
    const record = await world.run(
      { kind: "slash", name: "blame", options: { repo: "demo/gadgets", path: "README.md" } },
      { timeoutMs: 15_000, settleMs: 300 },
    );
    expect(record.deferred).toBe(true);
    expect(record.originalDeleted).toBe(true);
    const seen = transcriptOf(record);
    expect(seen.isError).toBe(true);
    expect(seen.messages.every((message) => message.ephemeral)).toBe(true);
    expect(seen.text).toMatch(/try again/i);
    const channel = world.discord.messagesIn(world.discord.channels.text, { includeEphemeral: false });
    expect(channel.some((message) => message.interactionId === record.id)).toBe(false);
  });

  it("never lets a message ping: every write carries allowed_mentions with nothing to parse", async () => {
    await world.run({
      kind: "slash",
      name: "contents",
      options: { repo: "demo/widgets", path: "docs/hostile.md" },
    });
    const writes = world.discord.requests.filter(
      (request) =>
        request.method !== "GET" &&
        request.body !== null &&
        typeof request.body === "object" &&
        ("content" in request.body || "embeds" in request.body),
    );
    expect(writes.length).toBeGreaterThan(0);
    for (const write of writes)
      expect((write.body as { allowed_mentions?: unknown }).allowed_mentions).toEqual({ parse: [] });
  });
});

describe("admin commands", () => {
  it("refuses a member without Manage Server, whatever the server's overrides", async () => {
    const record = await world.run({ kind: "slash", name: "token status", user: "member" });
    const seen = transcriptOf(record);
    expect(seen.isError).toBe(true);
    expect(seen.text).toContain("Manage Server");
  });

  it("offers admin commands in servers only (contexts), so a DM cannot even send them", async () => {
    await expect(
      world.run({ kind: "slash", name: "settings threads", options: { enabled: true }, channel: "dm" }),
    ).rejects.toThrow(/not available in DMs/);
  });

  it("lets an admin see the token status, ephemerally", async () => {
    const record = await world.run({ kind: "slash", name: "token status", user: "admin" });
    const seen = transcriptOf(record);
    expect(seen.isError).toBe(false);
    expect(seen.messages.every((message) => message.ephemeral)).toBe(true);
  });
});

describe("threads", () => {
  it("answers in a thread named after the question, with a one-line summary in the channel", async () => {
    const record = await world.run({
      kind: "slash",
      name: "contents",
      options: { repo: "demo/widgets", path: "README.md", thread: true },
    });
    const seen = transcriptOf(record);
    expect(record.errors).toEqual([]);
    expect(seen.threadName).toBe("contents demo/widgets README.md");
    expect(seen.messages[0]!.place).toBe("channel");
    expect(seen.messages[0]!.message.content).toMatch(/answer in the thread/);
    expect(seen.messages[0]!.message.embeds).toEqual([]);
    expect(seen.messages.at(-1)!.place).toBe("thread");
    expect(seen.messages.at(-1)!.message.embeds.length).toBeGreaterThan(0);
  });

  it("answers in place inside a thread", async () => {
    const record = await world.run({
      kind: "slash",
      name: "contents",
      options: { repo: "demo/widgets", thread: true },
      channel: "thread",
    });
    const seen = transcriptOf(record);
    expect(seen.threadName).toBeNull();
    expect(seen.messages[0]!.message.embeds.length).toBeGreaterThan(0);
    expect(seen.messages[0]!.message.content ?? "").toBe("");
  });

  it("answers in place and says why where it may not start threads", async () => {
    const record = await world.run({
      kind: "slash",
      name: "contents",
      options: { repo: "demo/widgets", thread: true },
      channel: "noThreads",
    });
    const seen = transcriptOf(record);
    expect(record.errors).toEqual([]);
    expect(seen.threadName).toBeNull();
    expect(seen.messages[0]!.message.content).toMatch(/could not start a thread/i);
    expect(seen.messages[0]!.message.embeds.length).toBeGreaterThan(0);
  });

  it("answers in place in a DM and says threads cannot be started there", async () => {
    const record = await world.run({
      kind: "slash",
      name: "repos",
      options: { owner: "demo", thread: true },
      channel: "dm",
    });
    const seen = transcriptOf(record);
    expect(seen.threadName).toBeNull();
    expect(seen.messages[0]!.message.content).toMatch(/direct messages/);
  });

  it("follows the server setting when `thread` is not given, and `thread:false` overrides it", async () => {
    await world.run({ kind: "slash", name: "settings threads", options: { enabled: true }, user: "admin" });
    try {
      const byDefault = await world.run({ kind: "slash", name: "repos", options: { owner: "demo" } });
      expect(transcriptOf(byDefault).threadName).toBe("repos demo");
      const inPlace = await world.run({
        kind: "slash",
        name: "repos",
        options: { owner: "demo", thread: false },
      });
      expect(transcriptOf(inPlace).threadName).toBeNull();
    } finally {
      await world.run({
        kind: "slash",
        name: "settings threads",
        options: { enabled: false },
        user: "admin",
      });
    }
  });
});
