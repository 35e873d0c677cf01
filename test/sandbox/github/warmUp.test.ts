import { afterAll, describe, expect, it } from "vitest";
import { startGitHubStandIn, type GitHubStandIn } from "../../../src/sandbox/github/index.js";
import { githubSchema } from "../../../src/sandbox/github/schema.js";

let standIn: GitHubStandIn | undefined;

afterAll(async () => {
  await standIn?.close();
});

describe("starting the GitHub stand-in", () => {
  it("builds GitHub's schema before it listens, so no first request stalls the process for it", async () => {
    // Nothing in this file built the schema before: building it takes hundreds of milliseconds
    // on an idle machine and seconds on a busy one, and a bot sharing the process would miss
    // Discord's 3 s deadline on its first read.
    standIn = await startGitHubStandIn();
    const started = performance.now();
    githubSchema();
    expect(performance.now() - started).toBeLessThan(50);
  });
});
