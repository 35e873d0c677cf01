import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { DEMO, TOKEN, clientWith, fakeFetch, json } from "./fakeGitHub.js";

function memoryLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n"))
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ level: "debug", destination, pretty: false }), lines };
}

describe("logging", () => {
  it("writes a debug line per request and per answer the user caused, a warn per retry, and never the token", async () => {
    const { logger, lines } = memoryLogger();
    const github = fakeFetch((_r, index) =>
      index === 0
        ? new Response("bad gateway", { status: 502 })
        : json({ message: "Not Found" }, { status: 404, headers: { "x-ratelimit-remaining": "4998" } }),
    );
    const { client } = clientWith(github.fetch, { logger });
    await client.contributors(TOKEN, { repo: DEMO, page: 1 }).catch(() => {});
    await new Promise((resolve) => setImmediate(resolve));

    const requests = lines.filter((line) => line["msg"] === "github request");
    expect(requests).toHaveLength(2);
    expect(requests[1]).toMatchObject({
      level: 20,
      component: "github",
      operation: "Contributors",
      status: 404,
      attempt: 2,
    });
    expect(requests[1]).toHaveProperty("durationMs");
    expect(requests[1]).toMatchObject({ rateLimitRemaining: "4998" });

    expect(lines.find((line) => line["msg"] === "retrying github request")).toMatchObject({
      level: 40,
      reason: "HTTP 502",
    });
    // A repository that does not exist is the user's answer, not the operator's problem: one debug
    // line here (the router logs what the user read at info), no stack trace.
    const failure = lines.find((line) => line["code"] === "repository_not_found");
    expect(failure).toMatchObject({
      level: 20,
      msg: "github answered with a user-facing error",
      repo: "demo/widgets",
      github: { operation: "Contributors", status: 404 },
    });
    expect(failure).not.toHaveProperty("err");

    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });
});
