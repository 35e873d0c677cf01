import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  EndpointVerificationError,
  startDiscordStandIn,
  type DiscordStandIn,
} from "../../../src/sandbox/discord/index.js";
import { json, startTestEndpoint, type TestEndpoint } from "./interactionsEndpoint.js";
import { identifiedRawGateway, type RawGatewayClient } from "./rawGatewayClient.js";

let discord: DiscordStandIn;
let first: TestEndpoint;
let second: TestEndpoint;
let gateway: RawGatewayClient;

beforeAll(async () => {
  discord = await startDiscordStandIn({ identifyWindowMs: 0 });
  discord.registerCommands([{ name: "ping", description: "Answers pong" }]);
  first = await startTestEndpoint(discord.publicKey);
  second = await startTestEndpoint(discord.publicKey);
  ({ client: gateway } = await identifiedRawGateway(discord.gatewayUrl, discord.botToken));
});

afterAll(async () => {
  await gateway?.close();
  await discord?.close();
  await first?.close();
  await second?.close();
});

beforeEach(async () => {
  for (const endpoint of [first, second]) {
    endpoint.received.length = 0;
    endpoint.acceptAnySignature = false;
    endpoint.behave((_interaction, response) => json(response, 200, { type: 4, data: { content: "pong" } }));
  }
  await discord.setInteractionsEndpoint([first.url], { verify: false });
});

const webhook = (token: string, rest = "") =>
  `${discord.apiUrl}/v10/webhooks/${discord.applicationId}/${token}${rest}`;

describe("interactions over HTTP", () => {
  it("shows the public key as the portal does: 64 hex digits, also in GET /applications/@me", async () => {
    expect(discord.publicKey).toMatch(/^[0-9a-f]{64}$/);
    const response = await fetch(`${discord.apiUrl}/v10/applications/@me`, {
      headers: { Authorization: `Bot ${discord.botToken}` },
    });
    expect(await response.json()).toMatchObject({
      verify_key: discord.publicKey,
      interactions_endpoint_url: first.url,
    });
  });

  it("checks an endpoint before saving it: a valid PING answered PONG, bad signatures answered 401", async () => {
    await discord.setInteractionsEndpoint(first.url);
    expect(first.received.map((request) => request.verified)).toEqual([true, false, false]);
    expect(first.received.map((request) => (JSON.parse(request.body) as { type: number }).type)).toEqual([
      1, 1, 1,
    ]);
    expect(first.received[0]!.headers["user-agent"]).toMatch(/^Discord-Interactions/);
  });

  it("refuses to save an endpoint that accepts a bad signature, and keeps the one it had", async () => {
    second.acceptAnySignature = true;
    const attempt = discord.setInteractionsEndpoint(second.url);
    await expect(attempt).rejects.toBeInstanceOf(EndpointVerificationError);
    await expect(attempt).rejects.toThrow(
      /The specified interactions endpoint url could not be verified: .* answered 200 to a PING with a bad signature/,
    );
    expect(discord.interactionsEndpoints().urls).toEqual([first.url]);
    // The REST route the portal uses answers Discord's form error.
    const response = await fetch(`${discord.apiUrl}/v10/applications/@me`, {
      method: "PATCH",
      headers: { Authorization: `Bot ${discord.botToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ interactions_endpoint_url: second.url }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 50035,
      errors: {
        interactions_endpoint_url: {
          _errors: [{ message: "The specified interactions endpoint url could not be verified." }],
        },
      },
    });
  });

  it("POSTs a signed interaction instead of INTERACTION_CREATE, and takes the reply as the first response", async () => {
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    const record = await handle.waitForAnswer();
    expect(record.original?.content).toBe("pong");
    expect(record.callbacks).toEqual([expect.objectContaining({ type: 4, via: "http" })]);
    expect(record.delivery).toMatchObject({ transport: "http", endpoint: first.url, status: 200 });
    const request = first.received.at(-1)!;
    expect(request.verified).toBe(true);
    expect(JSON.parse(request.body)).toMatchObject({ id: handle.id, type: 2, data: { name: "ping" } });
    expect(Number(request.headers["x-signature-timestamp"])).toBeCloseTo(Date.now() / 1000, -1);
    await expect(gateway.next((payload) => payload.t === "INTERACTION_CREATE", 200)).rejects.toThrow();
  });

  it("spreads interactions over several endpoints in turn, and records which one served each", async () => {
    await discord.setInteractionsEndpoint([first.url, second.url]);
    const handles = [];
    for (let index = 0; index < 4; index++)
      handles.push(await discord.interact({ kind: "slash", name: "ping" }));
    const records = await Promise.all(handles.map((handle) => handle.waitForAnswer()));
    expect(records.map((record) => record.delivery?.endpoint)).toEqual([
      first.url,
      second.url,
      first.url,
      second.url,
    ]);
    expect(discord.interactionsEndpoints().stats[second.url]).toMatchObject({
      delivered: 2,
      accepted: 2,
      failed: 0,
    });
  });

  it("accepts a deferral in the reply and the answer through the webhook routes", async () => {
    first.behave(async (interaction, response) => {
      json(response, 200, { type: 5, data: { flags: 64 } });
      await fetch(webhook(interaction.token, "/messages/@original"), {
        method: "PATCH",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ content: "thought about it" }),
      });
    });
    const record = await (await discord.interact({ kind: "slash", name: "ping" })).waitForAnswer();
    expect(record).toMatchObject({
      deferred: true,
      ephemeral: true,
      original: { content: "thought about it" },
    });
  });

  it("accepts a 202 without a body followed by the callback route, as Discord documents", async () => {
    first.behave(async (interaction, response) => {
      response.writeHead(202);
      response.end();
      await fetch(`${discord.apiUrl}/v10/interactions/${interaction.id}/${interaction.token}/callback`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ type: 4, data: { content: "by callback" } }),
      });
    });
    const record = await (await discord.interact({ kind: "slash", name: "ping" })).waitForAnswer();
    expect(record.original?.content).toBe("by callback");
    expect(record.callbacks).toEqual([expect.objectContaining({ via: "callback" })]);
  });

  it("takes a multipart reply with a file", async () => {
    first.behave((_interaction, response) => {
      const boundary = "stand-in-test";
      const parts = [
        `--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\nContent-Type: application/json\r\n\r\n` +
          JSON.stringify({
            type: 4,
            data: { content: "see file", attachments: [{ id: "0", filename: "a.txt" }] },
          }),
        `--${boundary}\r\nContent-Disposition: form-data; name="files[0]"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello`,
        `--${boundary}--\r\n`,
      ].join("\r\n");
      response.writeHead(200, { "Content-Type": `multipart/form-data; boundary=${boundary}` }).end(parts);
    });
    const record = await (await discord.interact({ kind: "slash", name: "ping" })).waitForAnswer();
    expect(record.original?.attachments).toEqual([
      expect.objectContaining({ filename: "a.txt", text: "hello" }),
    ]);
  });

  it("counts the deadline from the interaction's creation: a reply after it is no response", async () => {
    first.behave(async (_interaction, response) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      json(response, 200, { type: 4, data: { content: "too late" } });
    });
    const handle = await discord.interact({ kind: "slash", name: "ping", responseDeadlineMs: 150 });
    const record = await handle.waitFor((current) => (current.delivery?.status ?? 0) !== 0, {
      timeoutMs: 3000,
    });
    expect(record.callbacks).toEqual([]);
    expect(record.delivery).toMatchObject({ status: -1, error: expect.stringMatching(/deadline/) });
  });

  it("says why a reply was refused: an invalid body, a wrong Content-Type, a 401", async () => {
    first.behave((_interaction, response) => json(response, 200, { type: 4, data: { content: "" } }));
    const empty = await (
      await discord.interact({ kind: "slash", name: "ping" })
    ).waitFor((record) => (record.delivery?.status ?? 0) !== 0);
    expect(empty.delivery?.error).toMatch(/refused: 400 .*50006/);
    first.behave((_interaction, response) => {
      response.writeHead(200, { "Content-Type": "text/plain" }).end("{}");
    });
    const plain = await (
      await discord.interact({ kind: "slash", name: "ping" })
    ).waitFor((record) => (record.delivery?.status ?? 0) !== 0);
    expect(plain.delivery?.error).toMatch(/Content-Type "text\/plain"/);
  });

  it("sends the requests a bot's defences are tested with: stale, unsigned, not JSON, replayed", async () => {
    const stale = await discord.sendToInteractionsEndpoint({
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect(stale.status).toBe(200); // this test endpoint has no freshness check; the header is what matters
    expect(first.received.at(-1)!).toMatchObject({ verified: true });
    expect(Number(first.received.at(-1)!.headers["x-signature-timestamp"])).toBeLessThan(
      Date.now() / 1000 - 3000,
    );
    expect((await discord.sendToInteractionsEndpoint({ signature: "none" })).status).toBe(401);
    expect(first.received.at(-1)!.headers["x-signature-ed25519"]).toBeUndefined();
    expect((await discord.sendToInteractionsEndpoint({ omitTimestamp: true })).status).toBe(401);
    const notJson = await discord.sendToInteractionsEndpoint({ body: "not json" });
    expect(notJson).toMatchObject({ status: 400, text: "not JSON" });
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    await handle.waitForAnswer();
    const delivered = first.received.at(-1)!;
    await discord.replayInteractionDelivery(handle);
    const replayed = first.received.at(-1)!;
    expect(replayed.body).toBe(delivered.body);
    expect(replayed.headers["x-signature-ed25519"]).toBe(delivered.headers["x-signature-ed25519"]);
    expect(replayed.headers["x-signature-timestamp"]).toBe(delivered.headers["x-signature-timestamp"]);
    // The stand-in does not take a replay's answer: the interaction keeps its one response.
    expect(handle.record().callbacks).toHaveLength(1);
  });

  it("sends every object's fields in order, as Discord does, over HTTP and the gateway alike", async () => {
    discord.registerCommands([
      { name: "ping", description: "Answers pong" },
      {
        name: "echo",
        description: "Says it back",
        options: [
          { type: 3, name: "text", description: "What to say" },
          { type: 4, name: "times", description: "How often" },
        ],
      },
    ]);
    const unsorted: string[] = [];
    let objects = 0;
    const check = (value: unknown, path: string): void => {
      if (Array.isArray(value)) return value.forEach((item, index) => check(item, `${path}[${index}]`));
      if (typeof value !== "object" || value === null) return;
      objects += 1;
      const keys = Object.keys(value);
      if (keys.join() !== [...keys].sort().join()) unsorted.push(`${path}: ${keys.join(", ")}`);
      for (const key of keys) check((value as Record<string, unknown>)[key], `${path}.${key}`);
    };
    const request = { kind: "slash", name: "echo", options: { text: "hi", times: 2 } } as const;
    await (await discord.interact(request)).waitForAnswer();
    const overHttp = JSON.parse(first.received.at(-1)!.body) as Record<string, unknown>;
    await discord.setInteractionsEndpoint(null);
    await discord.interact(request);
    const overGateway = (await gateway.next((payload) => payload.t === "INTERACTION_CREATE")).d;
    for (const payload of [overHttp, overGateway]) check(payload, "interaction");
    expect(unsorted).toEqual([]);
    // The server's interaction, whole: its member, user, channel, guild, data and options.
    expect(overHttp).toMatchObject({
      member: { user: {} },
      channel: {},
      guild: {},
      data: { options: [{}, {}] },
    });
    expect(objects).toBeGreaterThanOrEqual(2 * 8);
  });

  it("goes back to the gateway when the endpoint is unset", async () => {
    await discord.setInteractionsEndpoint(null);
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    const received = await gateway.next((payload) => payload.t === "INTERACTION_CREATE");
    expect(received.d).toMatchObject({ id: handle.id });
    expect(handle.record().delivery).toMatchObject({ transport: "gateway", shard: [0, 1], queued: false });
  });
});
