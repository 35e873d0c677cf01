import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { sentenceOf } from "../sentenceOf.js";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  GitHubUnauthorizedError,
  RepositoryNotFoundError,
  SecondaryRateLimitError,
  UpstreamError,
  UpstreamTimeoutError,
} from "../../src/github/errors.js";
import { DEMO, TOKEN, caught, clientWith, fakeFetch, json } from "./fakeGitHub.js";

const VIEWER = { data: { viewer: { login: "octo" }, rateLimit: null } };

function resetError(): Error {
  // What undici throws when the server drops the connection.
  return new TypeError("fetch failed", {
    cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
  });
}

describe("retries (fake fetch)", () => {
  it("retries a 502 once, after a jittered pause, and succeeds", async () => {
    const github = fakeFetch((_r, index) =>
      index === 0 ? new Response("<html>Bad gateway</html>", { status: 502 }) : json(VIEWER),
    );
    const { client, sleeps } = clientWith(github.fetch);
    expect(await client.viewer(TOKEN)).toMatchObject({ login: "octo" });
    expect(github.requests).toHaveLength(2);
    expect(sleeps).toEqual([250]); // 100 + 0.5 * 300
  });

  it("retries a 503 once; a second 503 is an upstream error", async () => {
    const github = fakeFetch(() => new Response("unavailable", { status: 503 }));
    const { client } = clientWith(github.fetch);
    const error = await caught(client.contributors(TOKEN, { repo: DEMO, page: 1 }));
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).reason).toBe("server_error");
    expect(github.requests).toHaveLength(2);
  });

  it("a 502 twice is a timeout after two calls", async () => {
    const github = fakeFetch(() => new Response("bad gateway", { status: 502 }));
    const { client } = clientWith(github.fetch);
    expect(await caught(client.viewer(TOKEN))).toBeInstanceOf(UpstreamTimeoutError);
    expect(github.requests).toHaveLength(2);
  });

  it("never retries a 4xx: 404 and 401 are one call", async () => {
    const notFound = fakeFetch(() => json({ message: "Not Found" }, { status: 404 }));
    expect(
      await caught(clientWith(notFound.fetch).client.contributors(TOKEN, { repo: DEMO, page: 1 })),
    ).toBeInstanceOf(RepositoryNotFoundError);
    expect(notFound.requests).toHaveLength(1);

    const unauthorized = fakeFetch(() => json({ message: "Bad credentials" }, { status: 401 }));
    expect(await caught(clientWith(unauthorized.fetch).client.viewer(TOKEN))).toBeInstanceOf(
      GitHubUnauthorizedError,
    );
    expect(unauthorized.requests).toHaveLength(1);
  });

  it("never retries a secondary limit", async () => {
    const github = fakeFetch(() =>
      json({ message: "You have exceeded a secondary rate limit." }, { status: 403 }),
    );
    const { client, sleeps } = clientWith(github.fetch);
    expect(await caught(client.viewer(TOKEN))).toBeInstanceOf(SecondaryRateLimitError);
    expect(github.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("retries a reset connection once and succeeds", async () => {
    let calls = 0;
    const flaky: typeof fetch = async (input, init) => {
      calls++;
      if (calls === 1) throw resetError();
      return fakeFetch(() => json(VIEWER)).fetch(input, init);
    };
    const { client } = clientWith(flaky);
    expect(await client.viewer(TOKEN)).toMatchObject({ login: "octo" });
    expect(calls).toBe(2);
  });

  it("a connection reset twice, or refused, means GitHub could not be reached", async () => {
    let calls = 0;
    const { client } = clientWith(async () => {
      calls++;
      throw resetError();
    });
    expect(await caught(client.viewer(TOKEN))).toMatchObject({
      code: "upstream_error",
      reason: "unreachable",
    });
    expect(calls).toBe(2);

    let refusedCalls = 0;
    const refused = clientWith(async () => {
      refusedCalls++;
      throw new TypeError("fetch failed", {
        cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
      });
    }).client;
    const error = await caught(refused.viewer(TOKEN));
    expect(error).toMatchObject({ reason: "unreachable" });
    expect(sentenceOf(error)).toBe("GitHub could not be reached. Try again in a moment.");
    expect(refusedCalls).toBe(1);
  });

  it("does not retry when the pause would pass the deadline", async () => {
    const github = fakeFetch(() => new Response("bad gateway", { status: 502 }));
    // random() = 1 makes the pause 400 ms; the deadline is 300 ms.
    const { client, sleeps } = clientWith(github.fetch, { timeoutMs: 300, random: () => 0.999 });
    expect(await caught(client.viewer(TOKEN))).toBeInstanceOf(UpstreamTimeoutError);
    expect(github.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("lets a programming error through as it is", async () => {
    const { client } = clientWith(async () => {
      throw new RangeError("a bug");
    });
    await expect(client.viewer(TOKEN)).rejects.toThrow(RangeError);
  });
});

describe("over a real loopback socket", () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  async function listen(
    handler: (request: IncomingMessage, response: ServerResponse) => void,
  ): Promise<string> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  }

  it("retries when the server destroys the socket, then succeeds", async () => {
    let seen = 0;
    const base = await listen((request, response) => {
      seen++;
      if (seen === 1) {
        request.socket.destroy();
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(VIEWER));
    });
    const { client, sleeps } = clientWith(globalThis.fetch, { graphqlUrl: `${base}/graphql`, restUrl: base });
    expect(await client.viewer(TOKEN)).toMatchObject({ login: "octo" });
    expect(seen).toBe(2);
    expect(sleeps).toHaveLength(1);
  });

  it("a server that never answers is a timeout within the deadline", async () => {
    const base = await listen(() => {
      // Never answers.
    });
    const { client } = clientWith(globalThis.fetch, {
      graphqlUrl: `${base}/graphql`,
      restUrl: base,
      timeoutMs: 200,
    });
    const started = Date.now();
    const error = await caught(client.blame(TOKEN, { repo: DEMO, path: "a" }));
    expect(error).toBeInstanceOf(UpstreamTimeoutError);
    // Generous bound: the point is that it does not wait for a default (10 s) or forever.
    expect(Date.now() - started).toBeLessThan(5_000);

    const restError = await caught(client.contributors(TOKEN, { repo: DEMO, page: 1 }));
    expect(restError).toBeInstanceOf(UpstreamTimeoutError);
  });

  it("a body that stalls halfway is a timeout too", async () => {
    const base = await listen((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"data": {"viewer": ');
    });
    const { client } = clientWith(globalThis.fetch, {
      graphqlUrl: `${base}/graphql`,
      restUrl: base,
      timeoutMs: 200,
    });
    expect(await caught(client.viewer(TOKEN))).toBeInstanceOf(UpstreamTimeoutError);
  });

  it("sends what GitHub expects over the wire", async () => {
    let seen: { method?: string; headers?: IncomingMessage["headers"]; body?: string } = {};
    const base = await listen((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        seen = { method: request.method, headers: request.headers, body };
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(VIEWER));
      });
    });
    const { client } = clientWith(globalThis.fetch, { graphqlUrl: `${base}/graphql`, restUrl: base });
    await client.viewer(TOKEN);
    expect(seen.method).toBe("POST");
    expect(seen.headers?.authorization).toBe(`bearer ${TOKEN}`);
    expect(seen.headers?.["user-agent"]).toBe("RepoScout/1.2.3 (+https://github.com/reposcout)");
    expect(JSON.parse(seen.body!)).toMatchObject({ operationName: "Viewer", variables: {} });
  });
});
