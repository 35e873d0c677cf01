import { connect, type Socket } from "node:net";
import type { APIInteraction } from "discord-api-types/v10";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Responder } from "../../../src/bot/core/responder.js";
import { createBotHttpServer } from "../../../src/bot/http/httpServer.js";
import {
  MAX_UNVERIFIED_BYTES,
  MAX_BODY_BYTES,
  REFUSED_SIGNATURES_BEFORE_WARNING,
} from "../../../src/bot/http/interactionsEndpoint.js";
import { readCappedBody } from "../../../src/bot/http/readBody.js";
import type { InteractionRecord } from "../../../src/sandbox/discord/index.js";
import { DEMO_PATHS } from "../../../src/sandbox/github/index.js";
import { startSandboxWorld, type SandboxWorld } from "../../../src/sandbox/harness.js";
import { formattedOf, transcriptOf } from "../../../src/sandbox/transcript.js";
import { capturingLogger } from "../../cache/helpers.js";
import { buttonId } from "../../e2e/helpers.js";

const captured = capturingLogger("debug");
let world: SandboxWorld;
/** The ids of the interactions the core was handed. */
const routed: string[] = [];

beforeAll(async () => {
  world = await startSandboxWorld({ transport: "http", logger: captured.logger });
  const { core } = world.bot;
  const handle = core.handle.bind(core);
  core.handle = (interaction: APIInteraction, responder: Responder) => {
    routed.push(interaction.id);
    return handle(interaction, responder);
  };
});
afterAll(async () => {
  await world?.close();
});
beforeEach(() => {
  routed.length = 0;
  world.github.setLatency(0);
});

function endpoint(): string {
  return `${world.bot.httpUrl}/interactions`;
}

/** A signed APPLICATION_COMMAND payload as Discord would send it, for the raw requests below. */
async function signedCommandBody(): Promise<string> {
  const handle = await world.send({ kind: "slash", name: "whoami" });
  await handle.waitForAnswer();
  return JSON.stringify({ ...handle.payload, id: String(BigInt(handle.payload.id as string) + 7n) });
}

function expectDeliveredOverHttp(record: InteractionRecord): void {
  expect(record.delivery).toMatchObject({ transport: "http", endpoint: endpoint(), status: 200 });
  expect(record.callbacks[0]?.via).toBe("http");
  expect(record.errors).toEqual([]);
}

describe("the interactions endpoint refuses what Discord did not sign, before anything is routed", () => {
  it("passed Discord's checks when its URL was saved: a PING answered PONG, bad signatures 401", async () => {
    await expect(world.discord.verifyInteractionsEndpoint(endpoint())).resolves.toBeUndefined();
    for (const signature of ["otherKey", "tampered"] as const) {
      const answer = await world.discord.sendToInteractionsEndpoint({ url: endpoint(), signature });
      expect(answer.status).toBe(401);
    }
  });

  it("answers a PING with PONG, as JSON", async () => {
    const answer = await world.discord.sendToInteractionsEndpoint({ url: endpoint() });
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(answer.json).toEqual({ type: 1 });
    expect(routed).toEqual([]);
  });

  it("refuses a command with a bad signature, a missing signature or a missing timestamp: 401", async () => {
    const body = await signedCommandBody();
    routed.length = 0;
    for (const request of [
      { signature: "otherKey" as const },
      { signature: "tampered" as const },
      { signature: "none" as const },
      { omitTimestamp: true },
      { signature: "zz" },
    ]) {
      const answer = await world.discord.sendToInteractionsEndpoint({ url: endpoint(), body, ...request });
      expect(answer.status, JSON.stringify(request)).toBe(401);
    }
    expect(routed).toEqual([]);
  });

  it("warns once when a run of requests signed with another key has no verified one in it (a wrong DISCORD_PUBLIC_KEY)", async () => {
    const warnings = (): number =>
      captured.lines().filter((line) => line.level === 40 && String(line.msg).includes("DISCORD_PUBLIC_KEY"))
        .length;
    const before = warnings();
    const badPing = () =>
      world.discord.sendToInteractionsEndpoint({ url: endpoint(), signature: "otherKey" });
    // Discord's own check of the URL sends bad signatures on purpose; a verified request ends a run.
    expect((await world.discord.sendToInteractionsEndpoint({ url: endpoint() })).status).toBe(200);
    for (let sent = 1; sent < REFUSED_SIGNATURES_BEFORE_WARNING; sent += 1) await badPing();
    // Requests without Discord's headers (a scanner) say nothing about the key.
    for (let sent = 0; sent < REFUSED_SIGNATURES_BEFORE_WARNING; sent += 1)
      await world.discord.sendToInteractionsEndpoint({
        url: endpoint(),
        signature: "none",
        omitTimestamp: true,
      });
    expect(warnings()).toBe(before);
    await badPing();
    expect(warnings()).toBe(before + 1);
    for (let sent = 0; sent < REFUSED_SIGNATURES_BEFORE_WARNING; sent += 1) await badPing();
    expect(warnings()).toBe(before + 1);
    expect((await world.discord.sendToInteractionsEndpoint({ url: endpoint() })).status).toBe(200);
    for (let sent = 1; sent < REFUSED_SIGNATURES_BEFORE_WARNING; sent += 1) await badPing();
    expect(warnings()).toBe(before + 1);
  });

  it("refuses a stale timestamp, even validly signed: 401", async () => {
    const body = await signedCommandBody();
    routed.length = 0;
    const stale = Math.floor(Date.now() / 1000) - 3600;
    const answer = await world.discord.sendToInteractionsEndpoint({
      url: endpoint(),
      body,
      timestamp: stale,
    });
    expect(answer.status).toBe(401);
    const ahead = Math.floor(Date.now() / 1000) + 3600;
    expect(
      (await world.discord.sendToInteractionsEndpoint({ url: endpoint(), body, timestamp: ahead })).status,
    ).toBe(401);
    expect(routed).toEqual([]);
  });

  it("refuses a replayed request: the exact signed bytes of an interaction already answered", async () => {
    const handle = await world.send({ kind: "slash", name: "whoami" });
    expectDeliveredOverHttp(await handle.waitForAnswer());
    routed.length = 0;
    const replay = await world.discord.replayInteractionDelivery(handle);
    expect(replay.status).toBe(401);
    expect(routed).toEqual([]);
    // The same interaction signed afresh (a new signature) is refused too: its id was taken.
    const again = await world.discord.sendToInteractionsEndpoint({ url: endpoint(), body: handle.payload });
    expect(again.status).toBe(401);
    expect(routed).toEqual([]);
  });

  it("refuses a body over the cap (413) and one that is not JSON (400), signed or not", async () => {
    const large = `{"type":1,"pad":"${"x".repeat(MAX_BODY_BYTES)}"}`;
    expect((await world.discord.sendToInteractionsEndpoint({ url: endpoint(), body: large })).status).toBe(
      413,
    );
    const notJson = await world.discord.sendToInteractionsEndpoint({ url: endpoint(), body: "type=1" });
    expect(notJson.status).toBe(400);
    expect(routed).toEqual([]);
  });

  it("refuses a body over the cap sent in chunks without a length (413)", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ > 20) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const response = await fetch(endpoint(), {
      method: "POST",
      body,
      duplex: "half",
      headers: {
        "X-Signature-Ed25519": "00".repeat(64),
        "X-Signature-Timestamp": String(Math.floor(Date.now() / 1000)),
      },
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(routed).toEqual([]);
  });

  it("answers GET /healthz 200 {status: ok}; other methods and paths are refused", async () => {
    const health = await fetch(`${world.bot.httpUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    expect((await fetch(endpoint())).status).toBe(405);
    expect((await fetch(`${world.bot.httpUrl}/nowhere`)).status).toBe(404);
  });

  it("serves no /metrics (the default token's budget) on the public port when METRICS_PORT is not set", async () => {
    expect(world.bot.metricsUrl).toBeNull();
    expect((await fetch(`${world.bot.httpUrl}/metrics`)).status).toBe(404);
    expect((await fetch(`${world.bot.httpUrl}/readyz`)).status).toBe(200);
  });
});

/** A raw client: sends the head of a POST and `body` (not necessarily all it declares), and keeps reading. */
function rawPost(
  base: string,
  headers: Record<string, string>,
  body = "",
): { socket: Socket; response: Promise<string> } {
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname);
  let text = "";
  socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
  const response = new Promise<string>((resolve) => {
    socket.on("data", () => {
      if (text.includes("\r\n\r\n")) resolve(text);
    });
    socket.on("close", () => resolve(text));
    socket.on("error", () => resolve(text));
  });
  const head = Object.entries({ Host: url.host, ...headers }).map(([name, value]) => `${name}: ${value}`);
  socket.write(`POST ${url.pathname} HTTP/1.1\r\n${head.join("\r\n")}\r\n\r\n${body}`);
  return { socket, response };
}

function freshTimestamp(): string {
  return String(Math.floor(Date.now() / 1000));
}

describe("the interactions endpoint gives a stranger neither memory nor time before the signature", () => {
  it("refuses a missing or malformed signature header and a stale timestamp before reading the body, and closes", async () => {
    const refused: Array<Record<string, string>> = [
      { "X-Signature-Timestamp": freshTimestamp() },
      { "X-Signature-Ed25519": "zz", "X-Signature-Timestamp": freshTimestamp() },
      { "X-Signature-Ed25519": "ab".repeat(64) },
      { "X-Signature-Ed25519": "ab".repeat(64), "X-Signature-Timestamp": "soon" },
      { "X-Signature-Ed25519": "ab".repeat(64), "X-Signature-Timestamp": "1" },
    ];
    for (const headers of refused) {
      // 100 KiB declared, none of it sent: the answer comes without waiting for the body.
      const { socket, response } = rawPost(endpoint(), { ...headers, "Content-Length": String(100 * 1024) });
      const text = await response;
      socket.destroy();
      expect(text, JSON.stringify(headers)).toMatch(/^HTTP\/1\.1 401 /);
      expect(text.toLowerCase()).toContain("connection: close");
    }
    expect(routed).toEqual([]);
  });

  it(`holds at most ${MAX_UNVERIFIED_BYTES} bytes of unverified bodies at once: the next request is refused 503`, async () => {
    const signed = { "X-Signature-Ed25519": "ab".repeat(64), "X-Signature-Timestamp": freshTimestamp() };
    // Each declares a whole body's worth (the cap) and sends one byte of it.
    const slow = Array.from({ length: MAX_UNVERIFIED_BYTES / MAX_BODY_BYTES }, () =>
      rawPost(endpoint(), { ...signed, "Content-Length": String(MAX_BODY_BYTES) }, "{"),
    );
    try {
      // Every slow request is being read once a request sent after them is answered.
      await expect
        .poll(async () => {
          const probe = rawPost(endpoint(), { ...signed, "Content-Length": "1000" }, "{");
          const status = (await Promise.race([probe.response, sleep(500).then(() => "")])).slice(0, 12);
          probe.socket.destroy();
          return status;
        })
        .toBe("HTTP/1.1 503");
    } finally {
      for (const request of slow) request.socket.destroy();
    }
    // Once they are gone, the endpoint reads again: a ping goes through.
    await expect
      .poll(async () => (await world.discord.sendToInteractionsEndpoint({ url: endpoint() })).status)
      .toBe(200);
  });

  it("reads a burst of small bodies whole, however many arrive at once (a count of requests refused Discord's own)", async () => {
    const signed = { "X-Signature-Ed25519": "ab".repeat(64), "X-Signature-Timestamp": freshTimestamp() };
    // 300 requests of Discord's size, each still being read, hold about 300 KB: far within the budget.
    const slow = Array.from({ length: 300 }, () =>
      rawPost(endpoint(), { ...signed, "Content-Length": "1000" }, "{"),
    );
    try {
      // A ping sent after them is read, verified and answered, not refused 503; and none of the 300,
      // taken before it, was refused (each is still being read: no answer at all).
      await expect
        .poll(async () => (await world.discord.sendToInteractionsEndpoint({ url: endpoint() })).status)
        .toBe(200);
      const firstAnswer = await Promise.race([
        ...slow.map((request) => request.response),
        sleep(300).then(() => "none"),
      ]);
      expect(firstAnswer).toBe("none");
    } finally {
      for (const request of slow) request.socket.destroy();
    }
  });

  it("drops a request whose body does not arrive within the request timeout (408) and frees its place", async () => {
    const server = createBotHttpServer({
      logger: captured.logger,
      requestTimeoutMs: 300,
      interactions: async (request, reply) => {
        const body = await readCappedBody(request, MAX_BODY_BYTES);
        if (typeof body !== "string") reply.end("read");
      },
    });
    await server.listen(0, "127.0.0.1");
    try {
      const { socket, response } = rawPost(`${server.url}/interactions`, { "Content-Length": "1000" }, "{");
      const text = await response;
      socket.destroy();
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await server.close();
    }
  });

  it("holds at most its bound of sockets: one more connection is closed unanswered", async () => {
    const server = createBotHttpServer({ logger: captured.logger, maxConnections: 2 });
    await server.listen(0, "127.0.0.1");
    const url = new URL(server.url!);
    const open = (): Promise<Socket> =>
      new Promise((resolve) => {
        const socket = connect(Number(url.port), url.hostname, () => resolve(socket));
      });
    const held = [await open(), await open()];
    try {
      const { socket, response } = rawPost(`${server.url}/healthz`, {});
      expect(await response).toBe("");
      socket.destroy();
      // A place freed is taken again.
      held.pop()!.destroy();
      await expect.poll(async () => (await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
      await server.close();
    }
  });
});

describe("interactions over HTTP, end to end", () => {
  it("answers a command in the reply to Discord's POST, opening no gateway connection", async () => {
    const record = await world.run({ kind: "slash", name: "whoami" });
    expectDeliveredOverHttp(record);
    expect(transcriptOf(record).text).toContain("demo\\-user");
    expect(world.discord.gatewaySessions()).toEqual([]);
  });

  it("sends a first response with a file as multipart, the file attached", async () => {
    const request = {
      kind: "slash" as const,
      name: "blame",
      options: { repo: "demo/widgets", path: DEMO_PATHS.wide },
    };
    await world.run(request);
    // Cached now: the answer is ready at once, so the file rides in the first response itself.
    const record = await world.run(request);
    expectDeliveredOverHttp(record);
    expect(record.callbacks[0]?.type).toBe(4);
    expect(formattedOf(record.original!).files.map((file) => file.name)).toEqual([
      "blame-wide.txt-L1-20.txt",
    ]);
  });

  it("defers a slow answer in the HTTP reply, then edits it in over the webhook route", async () => {
    world.github.setLatency(1_800);
    const record = await world.run({ kind: "slash", name: "contents", options: { repo: "demo/sprockets" } });
    expectDeliveredOverHttp(record);
    expect(record.deferred).toBe(true);
    expect(transcriptOf(record).text).toContain("sprockets");
  });

  it("answers in a thread: a 202, then the summary through the callback route, which returns the message to start it from", async () => {
    const record = await world.run(
      { kind: "slash", name: "contents", options: { repo: "demo/widgets", path: "README.md", thread: true } },
      { settleMs: 300 },
    );
    expect(record.delivery).toMatchObject({ transport: "http", status: 202 });
    expect(record.callbacks).toMatchObject([{ type: 4, via: "callback", withResponse: true }]);
    const seen = transcriptOf(record);
    expect(seen.threadName).toBe("contents demo/widgets README.md");
    expect(seen.messages.at(-1)?.place).toBe("thread");
    const reads = world.discord.requests.filter(
      (request) => request.interactionId === record.id && request.method === "GET",
    );
    expect(reads).toEqual([]);
  });

  it("pages with a button", async () => {
    const record = await world.run({
      kind: "slash",
      name: "blame",
      options: { repo: "demo/widgets", path: DEMO_PATHS.engine, lines: "30-39" },
    });
    const first = transcriptOf(record).messages[0]!;
    const next = buttonId(first.message, /Next lines/);
    expect(next).not.toBeNull();
    const pressed = await world.run({ kind: "button", message: first.id, customId: next! });
    expectDeliveredOverHttp(pressed);
    expect(world.discord.message(first.id)?.embeds[0]?.description).toMatch(/^Lines 40–49 of /);
  });

  it("shows a modal and takes its submission", async () => {
    const opened = await world.run({ kind: "slash", name: "token set", user: "admin" });
    expectDeliveredOverHttp(opened);
    expect(opened.modal?.custom_id).toMatch(/^token-set/);
    const submitted = await world.run({
      kind: "modal",
      from: opened.id,
      fields: { token: "ghp_notAValidToken0000000000000000000000" },
    });
    expectDeliveredOverHttp(submitted);
    expect(transcriptOf(submitted).text).toMatch(/did not accept that token/);
  });

  it("offers autocomplete choices", async () => {
    const record = await world.run({
      kind: "autocomplete",
      name: "blame",
      options: { repo: "demo/" },
      focused: "repo",
    });
    expectDeliveredOverHttp(record);
    expect(record.choices?.map((choice) => choice.value)).toContain("demo/widgets");
  });

  it("falls back to the callback route when Discord closed the request before the answer: 10062 logged once at info, no second attempt, no token", async () => {
    world.github.setLatency(300);
    const handle = await world.send({
      kind: "slash",
      name: "contents",
      options: { repo: "demo/gadgets" },
      responseDeadlineMs: 1,
    });
    await expect
      .poll(
        () =>
          captured
            .lines()
            .some(
              (line) =>
                line.interactionId === handle.id && line.msg === "interaction expired before its answer",
            ),
        { timeout: 10_000 },
      )
      .toBe(true);
    const refused = world.discord.requests.filter((request) => request.interactionId === handle.id);
    expect(refused.map((request) => [request.route, request.status])).toEqual([
      ["/interactions/:interaction_id/:interaction_token/callback", 404],
    ]);
    const lines = captured.lines().filter((line) => line.interactionId === handle.id);
    const expired = lines.filter((line) => line.msg === "interaction expired before its answer");
    expect(expired).toHaveLength(1);
    expect(expired[0]).toMatchObject({ level: 30, discordCode: 10062 });
    expect(lines.filter((line) => "err" in line)).toEqual([]);
    expect(captured.text()).not.toContain(handle.token);
  });
});
