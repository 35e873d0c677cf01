import { parse, type OperationDefinitionNode } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_TOKEN,
  OTHER_TOKEN,
  startGitHubStandIn,
  type GitHubStandIn,
} from "../../../src/sandbox/github/index.js";
import { queryCost } from "../../../src/sandbox/github/queryCost.js";
import { DOCUMENTS, graphql, rest } from "./helpers.js";

let standIn: GitHubStandIn;
let clock = Date.UTC(2025, 0, 1, 12);

beforeAll(async () => {
  standIn = await startGitHubStandIn({ rateLimit: 10, now: () => clock });
});

afterAll(async () => {
  await standIn.close();
});

describe("x-ratelimit headers", () => {
  it("are on every answer, counted per token and per resource", async () => {
    const first = await graphql(standIn, DOCUMENTS.viewer, {}, OTHER_TOKEN);
    expect(first.headers.get("x-ratelimit-limit")).toBe("10");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("9");
    expect(first.headers.get("x-ratelimit-used")).toBe("1");
    expect(first.headers.get("x-ratelimit-resource")).toBe("graphql");
    expect(Number(first.headers.get("x-ratelimit-reset"))).toBe(clock / 1000 + 3600);
    expect(first.body.data.rateLimit).toMatchObject({
      limit: 10,
      remaining: 9,
      used: 1,
      cost: 1,
      resetAt: "2025-01-01T13:00:00Z",
    });

    const second = await graphql(standIn, DOCUMENTS.viewer, {}, OTHER_TOKEN);
    expect(second.headers.get("x-ratelimit-remaining")).toBe("8");
    const listing = await rest(standIn, "/repos/demo/widgets/contributors", OTHER_TOKEN);
    expect(listing.headers.get("x-ratelimit-resource")).toBe("core");
    expect(listing.headers.get("x-ratelimit-remaining")).toBe("9");
    const refused = await graphql(standIn, DOCUMENTS.viewer, {}, "ghp_unknown");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("x-ratelimit-limit")).not.toBeNull();
  });
});

describe("an exhausted budget", () => {
  it("gets GitHub's GraphQL RATE_LIMIT answer, and REST's 403", async () => {
    standIn.setRateLimit(DEMO_TOKEN, { remaining: 1 });
    expect((await graphql(standIn, DOCUMENTS.viewer)).body.data.viewer.login).toBe("demo-user");
    const limited = await graphql(standIn, DOCUMENTS.viewer);
    expect(limited.status).toBe(200);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(limited.body).toEqual({
      errors: [
        {
          type: "RATE_LIMIT",
          code: "graphql_rate_limit",
          message: "API rate limit already exceeded for user ID 90001.",
        },
      ],
    });

    const listing = await rest(standIn, "/repos/demo/widgets/contributors");
    expect(listing.status).toBe(200);
    const limitedListing = await rest(standIn, "/repos/demo/widgets/contributors?page=2");
    expect(limitedListing.status).toBe(403);
    expect(limitedListing.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(limitedListing.body.message).toMatch(/^API rate limit exceeded for user ID 90001\./);
    expect(limitedListing.body.documentation_url).toBe(
      "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
    );

    // A 304 is still answered and costs nothing.
    const etag = listing.headers.get("etag")!;
    const conditional = await rest(standIn, "/repos/demo/widgets/contributors", DEMO_TOKEN, {
      "if-none-match": etag,
    });
    expect(conditional.status).toBe(304);
  });

  it("refills an hour after the window opened", async () => {
    standIn.addToken("ghp_refill", "alice");
    standIn.setRateLimit("ghp_refill", { limit: 2, remaining: 0, resource: "graphql" });
    expect((await graphql(standIn, DOCUMENTS.viewer, {}, "ghp_refill")).body.errors[0].type).toBe(
      "RATE_LIMIT",
    );
    clock += 3601_000;
    const refilled = await graphql(standIn, DOCUMENTS.viewer, {}, "ghp_refill");
    expect(refilled.body.data.viewer.login).toBe("alice");
    expect(refilled.headers.get("x-ratelimit-limit")).toBe("2");
    expect(refilled.headers.get("x-ratelimit-remaining")).toBe("1");
  });

  it("limits REST without a token to 60 an hour per address", async () => {
    const anonymous = await rest(standIn, "/repos/demo/widgets/contributors", null);
    expect(anonymous.headers.get("x-ratelimit-limit")).toBe("60");
  });
});

describe("query cost", () => {
  function cost(query: string, variables: Record<string, unknown> = {}) {
    const document = parse(query);
    return queryCost(document, document.definitions[0] as OperationDefinitionNode, variables);
  }

  it("follows GitHub's documented calculation", () => {
    expect(cost("{ viewer { login } }")).toEqual({ cost: 1, nodeCount: 0 });
    expect(cost("query($n: Int!) { a(first: $n) { nodes { b(first: 50) { x } } } }", { n: 100 })).toEqual({
      cost: 1,
      nodeCount: 100 + 100 * 50,
    });
    expect(cost("{ a(first: 100) { b(last: 100) { c(first: 10) { x } } } }").cost).toBe(101);
  });
});

describe("GET /rate_limit", () => {
  it("answers the caller's budgets by resource without charging them, with or without a token", async () => {
    standIn.setRateLimit("ghp_ratecheck", { limit: 10, remaining: 7 });
    standIn.addToken("ghp_ratecheck", "demo-user");
    const first = await rest(standIn, "/rate_limit", "ghp_ratecheck");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      resources: {
        core: { limit: 10, remaining: 7, used: 3 },
        graphql: { limit: 10, remaining: 7, used: 3 },
      },
      rate: { limit: 10, remaining: 7, used: 3 },
    });
    const again = await rest(standIn, "/rate_limit", "ghp_ratecheck");
    expect((again.body as { rate: { remaining: number } }).rate.remaining).toBe(7);
    const anonymous = await rest(standIn, "/rate_limit", null);
    expect(anonymous.status).toBe(200);
    expect((anonymous.body as { rate: { limit: number } }).rate.limit).toBe(60);
    expect((await rest(standIn, "/rate_limit", "ghp_unknown")).status).toBe(401);
  });
});
