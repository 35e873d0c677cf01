import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkGitHubEndpoints, createGitHubEndpointsCheck } from "../../src/github/endpointCheck.js";
import { startGitHubStandIn, type GitHubStandIn } from "../../src/sandbox/github/index.js";
import { capturingLogger } from "../cache/helpers.js";

/** A URL on a port nothing listens on now (a wrong host, as far as the bot can tell). */
function closedUrl(): Promise<string> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(`http://127.0.0.1:${port}`));
    });
  });
}

let github: GitHubStandIn;
beforeAll(async () => {
  github = await startGitHubStandIn();
});
afterAll(async () => {
  await github?.close();
});

describe("the start-up check of GITHUB_API_URL and GITHUB_GRAPHQL_URL", () => {
  it("finds nothing wrong with github.com's URLs or Enterprise Server's, and spends no budget", async () => {
    github.clearRequests();
    expect(
      await checkGitHubEndpoints({
        apiUrl: github.restUrl,
        graphqlUrl: github.graphqlUrl,
        graphqlUrlSet: false,
      }),
    ).toEqual([]);
    expect(
      await checkGitHubEndpoints({
        apiUrl: github.enterpriseRestUrl,
        graphqlUrl: github.enterpriseGraphqlUrl,
        graphqlUrlSet: false,
      }),
    ).toEqual([]);
    // No token is sent: nothing is charged, nothing secret leaves.
    expect(github.requests.every((request) => request.tokenFingerprint === null)).toBe(true);
  });

  it("names GITHUB_API_URL for a wrong path, and the GraphQL URL derived from it", async () => {
    const apiUrl = `${github.baseUrl}/v3`;
    const problems = await checkGitHubEndpoints({
      apiUrl,
      graphqlUrl: `${apiUrl}/graphql`,
      graphqlUrlSet: false,
    });
    expect(problems.map((problem) => problem.variable)).toEqual(["GITHUB_API_URL", "GITHUB_GRAPHQL_URL"]);
    expect(problems[0]!.message).toBe(
      `${apiUrl}/rate_limit answered 404, not as GitHub's REST API does: the base is https://api.github.com, or https://HOST/api/v3 on GitHub Enterprise Server`,
    );
    expect(problems[1]!.message).toContain("(derived from GITHUB_API_URL) answered 404");
  });

  it("names GITHUB_API_URL alone for a host that does not answer", async () => {
    const apiUrl = await closedUrl();
    const problems = await checkGitHubEndpoints({
      apiUrl,
      graphqlUrl: `${apiUrl}/graphql`,
      graphqlUrlSet: false,
    });
    expect(problems).toEqual([
      {
        variable: "GITHUB_API_URL",
        message: `${apiUrl} could not be reached (ECONNREFUSED): check the host, or whether this machine may reach it`,
      },
    ]);
  });

  it("names GITHUB_GRAPHQL_URL alone when only it is wrong", async () => {
    const problems = await checkGitHubEndpoints({
      apiUrl: github.restUrl,
      graphqlUrl: `${github.baseUrl}/api/v4/graphql`,
      graphqlUrlSet: true,
    });
    expect(problems.map((problem) => problem.variable)).toEqual(["GITHUB_GRAPHQL_URL"]);
  });

  it("warns once per problem at start, is not ready meanwhile, and says once when GitHub answers", async () => {
    const log = capturingLogger("info");
    let clock = 0;
    github.faults.inject({ kind: "reset", times: 2 });
    const check = createGitHubEndpointsCheck({
      apiUrl: github.restUrl,
      graphqlUrl: github.graphqlUrl,
      graphqlUrlSet: false,
      logger: log.logger,
      now: () => clock,
    });
    await check.run();
    expect(await check.ready()).toBe(false);
    expect(log.lines().map((line) => [line.level, line.variable])).toEqual([[40, "GITHUB_API_URL"]]);
    expect(String(log.lines()[0]!.msg)).toMatch(/^GITHUB_API_URL: .* could not be reached/);
    clock += 30_000;
    expect(await check.ready()).toBe(true);
    expect(await check.ready()).toBe(true);
    expect(log.lines().map((line) => line.level)).toEqual([40, 30]);
  });
});
