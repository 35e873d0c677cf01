import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GitHubClient, TokenSpend } from "../../src/github/index.js";
import { DEMO_TOKEN, startGitHubStandIn, type GitHubStandIn } from "../../src/sandbox/github/index.js";
import { standInClient } from "./standInClient.js";

describe("what each call costs the token, as the GitHub stand-in reports it", () => {
  let standIn: GitHubStandIn;
  let client: GitHubClient;
  const spends: TokenSpend[] = [];
  const metered = { token: DEMO_TOKEN, onSpend: (spend: TokenSpend) => spends.push(spend) };

  beforeAll(async () => {
    standIn = await startGitHubStandIn();
    client = standInClient(standIn);
  });
  afterAll(async () => {
    await standIn.close();
  });

  it("reports GraphQL's points (the cost GitHub gives, else 1) and REST's 1, and 0 for a 304", async () => {
    spends.length = 0;
    await client.viewer(metered);
    await client.repositories(metered, { login: "demo", first: 100, sort: "pushed" });
    await client.contributors(metered, { repo: { owner: "demo", name: "widgets" }, page: 1 });
    // Asked again: conditional, answered 304, free of rate-limit points.
    await client.contributors(metered, { repo: { owner: "demo", name: "widgets" }, page: 1 });
    expect(spends).toEqual([
      { resource: "graphql", points: 1 },
      { resource: "graphql", points: 1 },
      { resource: "core", points: 1 },
      { resource: "core", points: 0 },
    ]);
    const graphql = standIn.requests.filter((request) => request.api === "graphql").length;
    expect(graphql).toBe(2);
  });

  it("reports a call that failed at GitHub too: it was still spent", async () => {
    spends.length = 0;
    await expect(
      client.repositories(metered, { login: "no-such-owner-1", first: 10, sort: "name" }),
    ).rejects.toThrow();
    expect(spends).toEqual([{ resource: "graphql", points: 1 }]);
  });

  it("reports nothing for a plain token (nobody meters it)", async () => {
    spends.length = 0;
    await client.viewer(DEMO_TOKEN);
    expect(spends).toEqual([]);
  });
});
