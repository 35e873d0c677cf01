import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  DEMO_TOKEN,
  parseFaultSpec,
  startGitHubStandIn,
  type GitHubStandIn,
} from "../../../src/sandbox/github/index.js";
import { DOCUMENTS, graphql, rest } from "./helpers.js";

let standIn: GitHubStandIn;

beforeAll(async () => {
  standIn = await startGitHubStandIn();
});

afterAll(async () => {
  await standIn.close();
});

beforeEach(() => {
  standIn.faults.clear();
  standIn.setLatency(0);
  standIn.clearRequests();
});

const viewer = () => graphql(standIn, DOCUMENTS.viewer);
const contributors = () => rest(standIn, "/repos/demo/widgets/contributors");

describe("scripted faults", () => {
  it("answers 401 Bad credentials once, then normally", async () => {
    standIn.faults.inject({ kind: "unauthorized", target: "graphql" });
    const failed = await viewer();
    expect(failed.status).toBe(401);
    expect(failed.body).toEqual({
      message: "Bad credentials",
      documentation_url: "https://docs.github.com/graphql",
    });
    expect((await viewer()).status).toBe(200);
  });

  it("answers a secondary rate limit with 403 and retry-after, on the targeted API only", async () => {
    standIn.faults.inject({ kind: "secondaryRateLimit", target: "rest", retryAfterSeconds: 7 });
    expect((await viewer()).status).toBe(200);
    const limited = await contributors();
    expect(limited.status).toBe(403);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(limited.body.message).toMatch(/^You have exceeded a secondary rate limit/);
    expect(limited.headers.get("x-ratelimit-resource")).toBe("core");
    expect((await contributors()).status).toBe(200);
  });

  it("answers 429 with retry-after", async () => {
    standIn.faults.inject({ kind: "tooManyRequests" });
    const limited = await viewer();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
  });

  it("answers 502 with GitHub's timeout body for the next N requests", async () => {
    standIn.faults.inject({ kind: "badGateway", target: "graphql", times: 2 });
    for (let round = 0; round < 2; round += 1) {
      const answer = await viewer();
      expect(answer.status).toBe(502);
      expect(answer.body.data).toBeNull();
      expect(answer.body.errors[0].message).toMatch(
        /^Something went wrong while executing your query\. This may be the result of a timeout, or it could be a GitHub bug\./,
      );
    }
    expect((await viewer()).status).toBe(200);
    expect(standIn.faults.pending()).toEqual([]);
  });

  it("answers 500 with an HTML page", async () => {
    standIn.faults.inject({ kind: "serverError", target: "rest" });
    const answer = await contributors();
    expect(answer.status).toBe(500);
    expect(answer.headers.get("content-type")).toMatch(/^text\/html/);
    expect(String(answer.body)).toContain("<html");
  });

  it("resets the connection without an answer", async () => {
    standIn.faults.inject({ kind: "reset" });
    await expect(viewer()).rejects.toThrow();
    expect((await viewer()).status).toBe(200);
    expect(standIn.requests[0]).toMatchObject({ fault: "reset", status: 0 });
  });

  it("adds latency, from a fault and from setLatency", async () => {
    standIn.faults.inject({ kind: "latency", latencyMs: 120, target: "graphql" });
    await viewer();
    standIn.setLatency(80);
    await contributors();
    const [slow, delayed] = standIn.requests;
    expect(slow!.durationMs).toBeGreaterThanOrEqual(110);
    expect(delayed!.durationMs).toBeGreaterThanOrEqual(70);
  });

  it("queues faults in order and clears them", async () => {
    standIn.faults.inject({ kind: "badGateway", target: "rest", times: 3 });
    standIn.faults.inject({ kind: "hang", target: "graphql" });
    expect(standIn.faults.pending().map((fault) => [fault.kind, fault.target, fault.times])).toEqual([
      ["badGateway", "rest", 3],
      ["hang", "graphql", 1],
    ]);
    standIn.faults.clear();
    expect(standIn.faults.pending()).toEqual([]);
  });
});

describe("a request that never answers", () => {
  it("hangs until the stand-in closes", async () => {
    const hanging = await startGitHubStandIn();
    hanging.faults.inject({ kind: "hang", target: "graphql" });
    const pending = graphql(hanging, DOCUMENTS.viewer);
    const outcome = pending.then(
      () => "answered",
      () => "failed",
    );
    // Wait until the request has arrived (it is logged with the fault), then close.
    while (!hanging.requests.some((entry) => entry.fault === "hang")) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(hanging.requests[0]!.status).toBe(0);
    await hanging.close();
    expect(await outcome).toBe("failed");
  });
});

describe("the request log", () => {
  it("records method, path, status, operation, variables and a token fingerprint, never the token", async () => {
    await graphql(standIn, DOCUMENTS.repositoryInfo, { owner: "demo", name: "widgets" });
    await rest(standIn, "/repos/demo/widgets/contributors?page=1");
    const [query, listing] = standIn.requests;
    expect(query).toMatchObject({
      method: "POST",
      path: "/graphql",
      api: "graphql",
      status: 200,
      operationName: "RepositoryInfo",
      variables: { owner: "demo", name: "widgets" },
      fault: null,
    });
    expect(query!.tokenFingerprint).toMatch(/^[0-9a-f]{8}$/);
    expect(listing).toMatchObject({
      method: "GET",
      path: "/repos/demo/widgets/contributors?page=1",
      api: "rest",
    });
    expect(JSON.stringify(standIn.requests)).not.toContain(DEMO_TOKEN);
    standIn.clearRequests();
    expect(standIn.requests).toHaveLength(0);
  });
});

describe("fault specs from the command line", () => {
  it("reads KIND[:TARGET[:TIMES]]", () => {
    expect(parseFaultSpec("502")).toEqual({ kind: "badGateway", target: "both", times: 1 });
    expect(parseFaultSpec("502:graphql:3")).toEqual({ kind: "badGateway", target: "graphql", times: 3 });
    expect(parseFaultSpec("403=30:rest")).toEqual({
      kind: "secondaryRateLimit",
      target: "rest",
      times: 1,
      retryAfterSeconds: 30,
    });
    expect(parseFaultSpec("latency=1500:rest:2")).toEqual({
      kind: "latency",
      target: "rest",
      times: 2,
      latencyMs: 1500,
    });
    expect(parseFaultSpec("hang").kind).toBe("hang");
    expect(parseFaultSpec("reset:graphql").target).toBe("graphql");
    expect(() => parseFaultSpec("418")).toThrow(/unknown fault kind/);
    expect(() => parseFaultSpec("502:everywhere")).toThrow(/target/);
    expect(() => parseFaultSpec("502:rest:0")).toThrow(/positive integer/);
  });
});
