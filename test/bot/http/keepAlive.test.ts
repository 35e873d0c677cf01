import { connect, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import pino from "pino";
import type { APIInteraction } from "discord-api-types/v10";
import { afterEach, describe, expect, it } from "vitest";
import type { InteractionCore } from "../../../src/bot/core/interactionCore.js";
import type { DiscordRest } from "../../../src/bot/core/responder.js";
import {
  createBotHttpServer,
  KEEP_ALIVE_TIMEOUT_MS,
  type BotHttpServer,
} from "../../../src/bot/http/httpServer.js";
import { createInteractionsEndpoint } from "../../../src/bot/http/interactionsEndpoint.js";
import { createMemoryReplayGuard } from "../../../src/bot/http/replayGuard.js";
import { createSignatureVerifier } from "../../../src/bot/http/signature.js";
import { InteractionSigner } from "../../../src/sandbox/discord/interactionSigner.js";

const signer = new InteractionSigner();
const logger = pino({ level: "silent" });
let server: BotHttpServer | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server?.close();
  server = undefined;
});

/** A bot's HTTP server whose core answers every command with one message. */
async function start(options: { keepAliveTimeoutMs?: number; requestTimeoutMs?: number } = {}): Promise<URL> {
  const core = {
    async handle(
      _interaction: APIInteraction,
      responder: { respond(response: unknown, files: []): Promise<unknown> },
    ) {
      await responder.respond({ type: 4, data: { content: "answered" } }, []);
    },
  } as unknown as InteractionCore;
  const refuseRest = (): never => {
    throw new Error("this core never calls Discord's REST");
  };
  server = createBotHttpServer({
    logger,
    ...options,
    readiness: async () => ({ stores: true }),
    interactions: createInteractionsEndpoint({
      verify: createSignatureVerifier(signer.publicKeyHex),
      core,
      rest: { bot: refuseRest, interactions: refuseRest, callbacks: refuseRest } as unknown as DiscordRest,
      replayGuard: createMemoryReplayGuard(),
      logger,
    }),
  });
  await server.listen(0, "127.0.0.1");
  return new URL(server.url!);
}

/** One connection, its requests written and its answers read one after another. */
function open(url: URL): {
  socket: Socket;
  closed: Promise<void>;
  next(): Promise<{ head: string; body: string }>;
} {
  const socket = connect(Number(url.port), url.hostname);
  sockets.push(socket);
  let received = "";
  let wake: (() => void) | undefined;
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
    wake?.();
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  void closed.then(() => wake?.());
  return {
    socket,
    closed,
    async next() {
      for (;;) {
        const end = received.indexOf("\r\n\r\n");
        if (end >= 0) {
          const head = received.slice(0, end);
          const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
          if (received.length >= end + 4 + length) {
            const body = received.slice(end + 4, end + 4 + length);
            received = received.slice(end + 4 + length);
            return { head, body };
          }
        }
        if (socket.destroyed)
          throw new Error(`the connection closed before an answer: ${JSON.stringify(received)}`);
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}

let nextId = 1n;

/** A request as Discord sends it: a PING or a slash command, signed now (or with another key). */
function signedRequest(url: URL, type: 1 | 2, options: { badSignature?: boolean } = {}): string {
  const id = String(1_300_000_000_000_000_000n + nextId++);
  const body = JSON.stringify({
    id,
    type,
    application_id: "1",
    token: `token-${id}`,
    version: 1,
    data: { name: "whoami" },
  });
  const at = String(Math.floor(Date.now() / 1000));
  const signature = options.badSignature ? new InteractionSigner().sign(at, body) : signer.sign(at, body);
  return [
    "POST /interactions HTTP/1.1",
    `Host: ${url.host}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Signature-Ed25519: ${signature}`,
    `X-Signature-Timestamp: ${at}`,
    "",
    body,
  ].join("\r\n");
}

describe("connections behind a load balancer", () => {
  it("keeps a connection that carried a signed interaction longer than any load balancer keeps one idle", async () => {
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(900_000);
    const url = await start();
    const connection = open(url);
    connection.socket.write(signedRequest(url, 1));
    const { head, body } = await connection.next();
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(body)).toEqual({ type: 1 });
    expect(head).toMatch(
      new RegExp(`\\r\\nKeep-Alive: timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}(\\r\\n|$)`, "i"),
    );
    expect(head).not.toMatch(/connection: close/i);
  });

  it("answers the next interaction on a kept connection that idled past the request timeout", async () => {
    const url = await start({ requestTimeoutMs: 200, keepAliveTimeoutMs: 10_000 });
    const connection = open(url);
    connection.socket.write(signedRequest(url, 2));
    expect(JSON.parse((await connection.next()).body)).toEqual({ type: 4, data: { content: "answered" } });
    // Idle for more than the headers and request timeouts (200 ms, looked at every 200 ms): they
    // bound a request being received, not the wait between two (a load balancer's pooled connection).
    await sleep(700);
    connection.socket.write(signedRequest(url, 2));
    const second = await connection.next();
    expect(second.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(second.body)).toEqual({ type: 4, data: { content: "answered" } });
  });

  it("closes a kept connection once it has idled for the keep-alive timeout", async () => {
    const url = await start({ keepAliveTimeoutMs: 300 });
    const connection = open(url);
    connection.socket.write(signedRequest(url, 1));
    expect((await connection.next()).head).toMatch(/^HTTP\/1\.1 200 /);
    await connection.closed;
    expect(connection.socket.destroyed).toBe(true);
  });

  it("closes the connection after a refused request and after any other route: a stranger holds no idle socket", async () => {
    const url = await start();
    const requests = [
      signedRequest(url, 2, { badSignature: true }),
      `POST /interactions HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: 2\r\n\r\n{}`,
      `GET /healthz HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`,
      `GET /readyz HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`,
      `GET /nowhere HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`,
      `GET /interactions HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`,
    ];
    const statuses: string[] = [];
    for (const request of requests) {
      const connection = open(url);
      connection.socket.write(request);
      const { head } = await connection.next();
      statuses.push(head.split(" ")[1]!);
      expect(head).toMatch(/\r\nConnection: close/i);
      await connection.closed;
    }
    expect(statuses).toEqual(["401", "401", "200", "200", "404", "405"]);
  });

  it("closes the connection after a replayed interaction", async () => {
    const url = await start();
    const request = signedRequest(url, 2);
    const first = open(url);
    first.socket.write(request);
    expect((await first.next()).head).toMatch(/^HTTP\/1\.1 200 /);
    const replay = open(url);
    replay.socket.write(request);
    const { head, body } = await replay.next();
    expect(head).toMatch(/^HTTP\/1\.1 401 /);
    expect(JSON.parse(body)).toEqual({ error: "the request was already received" });
    await replay.closed;
  });
});
