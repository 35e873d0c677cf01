import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DefaultUserAgent, DiscordAPIError, REST, Routes } from "discord.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createCallbackRoute,
  LateResponseError,
  type CallbackRoute,
} from "../../../src/bot/core/callbackRoute.js";
import { RESPONSE_DEADLINE_MS } from "../../../src/bot/core/deferral.js";
import { createSnowflakeGenerator } from "../../../src/sandbox/discord/snowflake.js";
import {
  createInteractionsRest,
  DISCORD_CONNECTIONS,
  INTERACTION_QUEUES_SWEEP_MS,
} from "../../../src/bot/core/discordConnections.js";
import { startSandboxWorld, type SandboxWorld } from "../../../src/sandbox/harness.js";
import { transcriptOf } from "../../../src/sandbox/transcript.js";

/*
 * The first response sent by undici itself (issue 23): what Discord refuses reads as REST's
 * refusal, and what REST would have retried (a 429, a 5xx, a reset connection) goes through REST.
 */

interface Seen {
  url: string;
  userAgent: string | undefined;
  body: string;
}

/** A Discord API whose answers the test lists, one per request, in order. */
async function scriptedApi(
  answers: Array<(response: ServerResponse, request: IncomingMessage) => void>,
): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      seen.push({ url: request.url ?? "", userAgent: request.headers["user-agent"], body });
      const answer = answers.shift();
      if (!answer) throw new Error("no answer left for this request");
      answer(response, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, seen, server };
}

const json = (status: number, body: unknown) => (response: ServerResponse) => {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify(body));
};
const noContent = (response: ServerResponse) => {
  response.writeHead(204);
  response.end();
};

describe("the callback route", () => {
  let route: CallbackRoute | undefined;
  let server: Server | undefined;
  const open = async (answers: Parameters<typeof scriptedApi>[0]) => {
    const api = await scriptedApi(answers);
    server = api.server;
    const rest = new REST({ api: api.url, retries: 1, globalRequestsPerSecond: Number.POSITIVE_INFINITY });
    route = createCallbackRoute({ apiUrl: api.url, fallback: rest });
    return { route, seen: api.seen };
  };
  afterEach(async () => {
    await route?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("posts the response as it is, with REST's user agent, and gives the created message when asked", async () => {
    const { route, seen } = await open([
      noContent,
      json(200, { interaction: { id: "1" }, resource: { type: 4, message: { id: "99" } } }),
    ]);
    const body = JSON.stringify({ type: 4, data: { content: "hello" } });
    expect(await route.post("1", "tok", body, false)).toBeUndefined();
    expect(await route.post("2", "tok2", Buffer.from(body), true)).toEqual({
      interaction: { id: "1" },
      resource: { type: 4, message: { id: "99" } },
    });
    expect(seen.map((request) => request.url)).toEqual([
      "/api/v10/interactions/1/tok/callback",
      "/api/v10/interactions/2/tok2/callback?with_response=true",
    ]);
    expect(seen.every((request) => request.body === body)).toBe(true);
    expect(seen[0]!.userAgent).toMatch(
      new RegExp(`^${DefaultUserAgent.replace(/[().]/g, "\\$&")} Node\\.js/`),
    );
  });

  it("reads the response after an informational one, and a body that comes in several pieces", async () => {
    const message = {
      interaction: { id: "1" },
      resource: { type: 4, message: { id: "99", content: "é".repeat(40_000) } },
    };
    const { route } = await open([
      (response) => {
        response.writeEarlyHints({ link: "</x>; rel=preload" });
        noContent(response);
      },
      (response) => {
        response.writeEarlyHints({ link: "</x>; rel=preload" });
        response.writeHead(200, { "Content-Type": "application/json" });
        // Split inside a two-byte character: the body is decoded whole, not piece by piece.
        const bytes = Buffer.from(JSON.stringify(message));
        response.write(bytes.subarray(0, 1_000));
        setTimeout(() => response.end(bytes.subarray(1_000)), 20);
      },
    ]);
    expect(await route.post("1", "tok", "{}", false)).toBeUndefined();
    expect(await route.post("2", "tok", "{}", true)).toEqual(message);
  });

  it("throws Discord's refusal as REST does, with its code", async () => {
    const { route } = await open([
      json(400, { code: 40060, message: "Interaction has already been acknowledged." }),
      json(404, { code: 10062, message: "Unknown interaction" }),
    ]);
    const refused = await route.post("1", "tok", "{}", false).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DiscordAPIError);
    expect(refused).toMatchObject({ code: 40060, status: 400, method: "POST" });
    await expect(route.post("1", "tok", "{}", false)).rejects.toMatchObject({ code: 10062, status: 404 });
  });

  it("hands a 5xx, a 429 and a reset connection to REST, which sends it again", async () => {
    const { route, seen } = await open([
      json(502, { message: "Bad Gateway" }),
      noContent,
      (response) => {
        response.writeHead(429, { "Content-Type": "application/json", "Retry-After": "0" });
        response.end(
          JSON.stringify({ message: "You are being rate limited.", retry_after: 0.01, global: false }),
        );
      },
      noContent,
      (_response, request) => request.socket.destroy(),
      noContent,
    ]);
    await expect(route.post("1", "tok", "{}", false)).resolves.toBeUndefined();
    await expect(route.post("2", "tok", "{}", false)).resolves.toBeUndefined();
    await expect(route.post("3", "tok", "{}", false)).resolves.toBeUndefined();
    expect(seen.map((request) => request.url)).toEqual([
      "/api/v10/interactions/1/tok/callback",
      "/api/v10/interactions/1/tok/callback",
      "/api/v10/interactions/2/tok/callback",
      "/api/v10/interactions/2/tok/callback",
      "/api/v10/interactions/3/tok/callback",
      "/api/v10/interactions/3/tok/callback",
    ]);
  });
});

/**
 * Sends `waiting` requests at once through `send` to a Discord that holds every one until as many
 * arrived as may be sent at once, then answers them all (and each one after at once); resolves to
 * the requests held at that moment and the connections opened in all.
 */
async function heldBurst(
  send: (apiUrl: string, n: number) => Promise<unknown>,
  close: () => Promise<void>,
  apiUrl: (url: string) => void,
  waiting: number,
): Promise<{ held: number; connections: number }> {
  const held: ServerResponse[] = [];
  let holding = true;
  let connections = 0;
  let arrivedAll: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (arrivedAll = resolve));
  const answer = (response: ServerResponse): void => {
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end("{}");
  };
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (!holding) return answer(response);
      held.push(response);
      if (held.length === DISCORD_CONNECTIONS) arrivedAll();
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  apiUrl(url);
  try {
    const sent = Array.from({ length: waiting }, (_, n) => send(url, n + 1));
    await arrived;
    // Every connection carries a request; one more request would have meant one more connection.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const heldThen = held.length;
    holding = false;
    for (const response of held.splice(0)) answer(response);
    await expect(Promise.all(sent)).resolves.toHaveLength(waiting);
    return { held: heldThen, connections };
  } finally {
    await close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("connections to Discord for interactions", () => {
  const waiting = DISCORD_CONNECTIONS + 40;

  it("are at most DISCORD_CONNECTIONS for first responses however many wait: the rest queue for one", async () => {
    let route: CallbackRoute | undefined;
    const seen = await heldBurst(
      (_url, n) => route!.post(String(n), "tok", "{}", false),
      () => route!.close(),
      (url) => (route = createCallbackRoute({ apiUrl: url, fallback: new REST({ api: url }) })),
      waiting,
    );
    expect(seen).toEqual({ held: DISCORD_CONNECTIONS, connections: DISCORD_CONNECTIONS });
  });

  it("are at most DISCORD_CONNECTIONS again for edits of answers, however many wait", async () => {
    let interactions: ReturnType<typeof createInteractionsRest> | undefined;
    const seen = await heldBurst(
      (_url, n) =>
        interactions!.rest.patch(Routes.webhookMessage("1", `token${n}`, "@original"), {
          auth: false,
          body: { content: "edited" },
        }),
      () => interactions!.close(),
      (url) => (interactions = createInteractionsRest({ apiUrl: url })),
      waiting,
    );
    expect(seen).toEqual({ held: DISCORD_CONNECTIONS, connections: DISCORD_CONNECTIONS });
  });
});

describe("the interactions' REST over time", () => {
  it("forgets the queue of each interaction's webhook once idle, instead of keeping it (and its token) for an hour", async () => {
    // Discord holds every edit until all five have arrived: a queue with a request in flight is
    // busy, so no sweep can take one early however slow the machine is.
    const held: ServerResponse[] = [];
    const hold = (response: ServerResponse) => held.push(response);
    const api = await scriptedApi(Array.from({ length: 5 }, () => hold));
    const interactions = createInteractionsRest({ apiUrl: api.url, queuesSweepMs: 25 });
    try {
      const edits = Array.from({ length: 5 }, (_, n) =>
        interactions.rest.patch(Routes.webhookMessage("1", `token${n}`, "@original"), {
          auth: false,
          body: { content: "edited" },
        }),
      );
      await expect.poll(() => held.length, { timeout: 5_000, interval: 10 }).toBe(5);
      // One queue per interaction token: REST keys webhook routes by the token.
      expect(interactions.rest.handlers.size).toBe(5);
      for (const response of held) json(200, { id: "1" })(response);
      await Promise.all(edits);
      await expect.poll(() => interactions.rest.handlers.size, { timeout: 5_000, interval: 20 }).toBe(0);
    } finally {
      await interactions.close();
      api.server.closeAllConnections();
      await new Promise((resolve) => api.server.close(resolve));
    }
  });

  it("sweeps every minute by default, far below REST's hour", () => {
    const interactions = createInteractionsRest({ apiUrl: "http://127.0.0.1:9/api" });
    try {
      expect(interactions.rest.options.handlerSweepInterval).toBe(INTERACTION_QUEUES_SWEEP_MS);
      expect(INTERACTION_QUEUES_SWEEP_MS).toBeLessThanOrEqual(60_000);
    } finally {
      void interactions.close();
    }
  });
});

describe("closing at a stop", () => {
  /** A Discord that takes requests and never answers them. */
  async function silentDiscord(): Promise<{ url: string; arrived: Promise<void>; close(): Promise<void> }> {
    let arrivedOne: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (arrivedOne = resolve));
    const server = createServer((request) => {
      request.resume();
      request.on("end", () => arrivedOne());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
      arrived,
      async close() {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it.each([
    [
      "the callback route",
      (url: string) => {
        const route = createCallbackRoute({
          apiUrl: url,
          fallback: new REST({ api: url }),
          closeGraceMs: 50,
        });
        return { send: () => route.post("1", "tok", "{}", false), close: () => route.close() };
      },
    ],
    [
      "the interactions' REST",
      (url: string) => {
        const interactions = createInteractionsRest({ apiUrl: url, closeGraceMs: 50 });
        return {
          send: () =>
            interactions.rest.patch(Routes.webhookMessage("1", "tok", "@original"), {
              auth: false,
              body: { content: "edited" },
            }),
          close: () => interactions.close(),
        };
      },
    ],
  ])(
    "%s does not wait out a request Discord never answers: its connection is cut after the grace",
    async (_name, make) => {
      const discord = await silentDiscord();
      try {
        const client = make(discord.url);
        const pending = client.send().then(
          () => null,
          (error: unknown) => error,
        );
        await discord.arrived;
        await client.close();
        // Cut by the close, not ended by REST's own 15 s timeout (a timeout or an abort).
        expect(await pending).toMatchObject({ code: "UND_ERR_DESTROYED" });
      } finally {
        await discord.close();
      }
    },
  );
});

describe("the callback route with the local Discord", () => {
  let world: SandboxWorld;
  beforeAll(async () => {
    world = await startSandboxWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  it("answers through REST after Discord's 429 on the callback", async () => {
    world.discord.injectRateLimit({
      method: "POST",
      route: "/interactions/:interaction_id/:interaction_token/callback",
      retryAfterSeconds: 0.2,
    });
    const record = await world.run({
      kind: "slash",
      name: "contents",
      options: { repo: "demo/widgets", path: "README.md" },
    });
    expect(transcriptOf(record).text).toContain("README.md");
    const callbacks = world.discord.requests.filter(
      // A refused request names no interaction: its path does.
      (request) => request.path.startsWith(`/interactions/${record.id}/`),
    );
    expect(callbacks.map((request) => request.status)).toEqual([429, 204]);
  });
});

describe("a first response whose turn on a connection comes after the interaction's 3 s", () => {
  it("is not sent: it fails with Discord's code for a late response (10062), and the next in line is sent", async () => {
    const idAt = (ms: number): string => createSnowflakeGenerator(() => ms)();
    const held: ServerResponse[] = [];
    const reached: string[] = [];
    let arrivedAll: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (arrivedAll = resolve));
    const server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        reached.push(request.url ?? "");
        held.push(response);
        if (held.length === DISCORD_CONNECTIONS) arrivedAll();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    const route = createCallbackRoute({ apiUrl: url, fallback: new REST({ api: url }) });
    try {
      // Every connection taken by a response Discord holds; two more wait their turn: one whose
      // interaction is 2.8 s old now (past 3 s when its turn comes), and a fresh one.
      const first = Array.from({ length: DISCORD_CONNECTIONS }, (_, n) =>
        route.post(String(n + 1), "t", "{}", false),
      );
      await arrived;
      const lateId = idAt(Date.now() - RESPONSE_DEADLINE_MS + 200);
      const late = route.post(lateId, "t", "{}", false);
      const freshId = idAt(Date.now());
      const fresh = route.post(freshId, "t", "{}", false);
      const lateSettled = late.then(
        () => "sent",
        (error: unknown) => error,
      );
      await new Promise((resolve) => setTimeout(resolve, 400));
      for (const response of held.splice(0, 2)) response.writeHead(204).end();
      const error = await lateSettled;
      expect(error).toBeInstanceOf(LateResponseError);
      expect(error).toMatchObject({ code: 10062 });
      await vi.waitFor(() => expect(held).toHaveLength(DISCORD_CONNECTIONS - 1));
      expect(reached.some((path) => path.includes(lateId))).toBe(false);
      expect(reached.some((path) => path.includes(freshId))).toBe(true);
      for (const response of held.splice(0)) response.writeHead(204).end();
      await Promise.all([...first, fresh]);
    } finally {
      await route.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
