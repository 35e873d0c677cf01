import { describe, expect, it } from "vitest";
import {
  createRateLimitBook,
  rateLimitFromHeaders,
  retryAfterFromHeaders,
} from "../../src/github/rateLimits.js";
import { DEMO, NOW, TOKEN, clientWith, fakeFetch, json } from "./fakeGitHub.js";

const reset = Math.floor(NOW.getTime() / 1000) + 3600;
const headers = (resource: string, remaining: number) => ({
  "x-ratelimit-limit": "5000",
  "x-ratelimit-remaining": String(remaining),
  "x-ratelimit-used": String(5000 - remaining),
  "x-ratelimit-reset": String(reset),
  "x-ratelimit-resource": resource,
});

describe("rate-limit bookkeeping", () => {
  it("keeps the last figures per token fingerprint, from GraphQL and REST headers", async () => {
    const github = fakeFetch((request) =>
      request.method === "POST"
        ? json({ data: { viewer: { login: "a" }, rateLimit: null } }, { headers: headers("graphql", 4321) })
        : json([], { headers: headers("core", 4800) }),
    );
    const { client } = clientWith(github.fetch, { fingerprint: (token) => `fp:${token.slice(-3)}` });
    const otherToken = "ghp_another_token_xyz";

    expect(client.rateLimit(`fp:${TOKEN.slice(-3)}`)).toBeUndefined();
    await client.viewer(TOKEN);
    expect(client.rateLimit(`fp:${TOKEN.slice(-3)}`)).toEqual({
      resource: "graphql",
      limit: 5000,
      remaining: 4321,
      used: 679,
      resetAt: new Date(reset * 1000).toISOString(),
      observedAt: NOW.toISOString(),
    });

    await client.contributors(otherToken, { repo: DEMO, page: 1 });
    expect(client.rateLimit("fp:xyz")).toMatchObject({ resource: "core", remaining: 4800 });
    // The first token's figures are its own.
    expect(client.rateLimit(`fp:${TOKEN.slice(-3)}`)).toMatchObject({ resource: "graphql", remaining: 4321 });

    await client.contributors(TOKEN, { repo: DEMO, page: 1 });
    expect(client.rateLimit(`fp:${TOKEN.slice(-3)}`)).toMatchObject({ resource: "core", remaining: 4800 });
    expect(client.rateLimit(`fp:${TOKEN.slice(-3)}`, "graphql")).toMatchObject({ remaining: 4321 });
  });

  it("fills the figures from the Viewer query's rateLimit field when there are no headers", async () => {
    const github = fakeFetch(() =>
      json({
        data: {
          viewer: { login: "a" },
          rateLimit: { limit: 5000, remaining: 4000, used: 1000, resetAt: "2025-01-01T13:00:00Z", cost: 1 },
        },
      }),
    );
    const { client } = clientWith(github.fetch);
    const viewer = await client.viewer(TOKEN);
    expect(viewer.rateLimit).toMatchObject({ remaining: 4000, resource: "graphql" });
    expect(client.rateLimit("fp-test")).toEqual(viewer.rateLimit);
  });

  it("records the figures of error answers too", async () => {
    const github = fakeFetch(() =>
      json({ message: "Not Found" }, { status: 404, headers: headers("core", 12) }),
    );
    const { client } = clientWith(github.fetch);
    await client.contributors(TOKEN, { repo: DEMO, page: 1 }).catch(() => {});
    expect(client.rateLimit("fp-test")).toMatchObject({ remaining: 12 });
  });

  it("reads headers: used defaults to limit - remaining; missing figures give nothing", () => {
    const h = new Headers({
      "x-ratelimit-limit": "60",
      "x-ratelimit-remaining": "50",
      "x-ratelimit-reset": "1700000000",
    });
    expect(rateLimitFromHeaders(h, NOW)).toMatchObject({
      used: 10,
      resource: "unknown",
      resetAt: "2023-11-14T22:13:20.000Z",
    });
    expect(rateLimitFromHeaders(new Headers({ "x-ratelimit-limit": "60" }), NOW)).toBeUndefined();
  });

  it("reads retry-after as seconds or as an HTTP date", () => {
    expect(retryAfterFromHeaders(new Headers({ "retry-after": "30" }), NOW)).toEqual(
      new Date(NOW.getTime() + 30_000),
    );
    const date = new Date(NOW.getTime() + 90_000);
    expect(retryAfterFromHeaders(new Headers({ "retry-after": date.toUTCString() }), NOW)).toEqual(date);
    expect(retryAfterFromHeaders(new Headers({ "retry-after": "soon" }), NOW)).toBeUndefined();
  });

  it("backs off secondary limits in a row, up to 15 minutes, and starts over after a success", () => {
    const book = createRateLimitBook();
    const waits = Array.from(
      { length: 6 },
      () => book.noteSecondaryLimit("fp", NOW).getTime() - NOW.getTime(),
    );
    expect(waits).toEqual([60_000, 120_000, 240_000, 480_000, 900_000, 900_000]);
    expect(book.blocked("fp", NOW)).toMatchObject({ reason: "secondary" });
    expect(book.blocked("other", NOW)).toBeUndefined();
    book.noteSuccess("fp");
    expect(book.noteSecondaryLimit("fp", NOW).getTime() - NOW.getTime()).toBe(60_000);
  });

  it("forgets the least recently used tokens past its bound", () => {
    const book = createRateLimitBook({ maxTokens: 2 });
    const snap = { resource: "core", limit: 1, remaining: 1, used: 0, resetAt: "x", observedAt: "y" };
    book.record("a", snap);
    book.record("b", snap);
    book.record("c", snap);
    expect(book.latest("a")).toBeUndefined();
    expect(book.latest("c")).toEqual(snap);
  });
});
