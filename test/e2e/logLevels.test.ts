import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import type { SlashInteraction } from "../../src/sandbox/discord/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { useWorld } from "./helpers.js";

/**
 * What an operator reads in the log when people type: a user's typo is one info line (its code and
 * the facts, no stack trace); warn and error are kept for what an operator must look at.
 */

const lines: Array<Record<string, unknown>> = [];
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split("\n")) {
      if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
    }
    done();
  },
});
const world = useWorld({ logger: createLogger({ level: "info", destination, pretty: false }) });

const WARN = 40;

/** Runs a command that must end in an error reply and returns the log lines it wrote. */
async function logOf(request: SlashInteraction): Promise<Array<Record<string, unknown>>> {
  const before = lines.length;
  const record = await world().run(request, { settleMs: 100 });
  expect(transcriptOf(record).isError).toBe(true);
  // pino writes asynchronously: let the lines of this interaction arrive.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return lines.slice(before);
}

describe("log levels of user-facing errors", () => {
  const typos: Array<[string, SlashInteraction, string, Record<string, unknown>]> = [
    [
      "a path that does not exist",
      { kind: "slash", name: "blame", options: { repo: "demo/widgets", path: "READM.md" } },
      "path_not_found",
      { repo: "demo/widgets", path: "READM.md" },
    ],
    [
      "a repository that does not exist",
      { kind: "slash", name: "contents", options: { repo: "demo/widgetz" } },
      "repository_not_found",
      { repo: "demo/widgetz" },
    ],
    [
      "an owner that does not exist",
      { kind: "slash", name: "repos", options: { owner: "nobody-by-this-name" } },
      "owner_not_found",
      { login: "nobody-by-this-name" },
    ],
    [
      "a ref that does not exist",
      { kind: "slash", name: "contents", options: { repo: "demo/widgets", ref: "no-such-branch" } },
      "ref_not_found",
      { repo: "demo/widgets", ref: "no-such-branch" },
    ],
    [
      "an option of the wrong form",
      { kind: "slash", name: "blame", options: { repo: "not a repo", path: "x" } },
      "invalid_option",
      { option: "repo" },
    ],
  ];

  for (const [what, request, code, facts] of typos) {
    it(`logs ${what} as one info line with its code and facts, and no stack trace`, async () => {
      const logged = await logOf(request);
      expect(logged.filter((line) => Number(line["level"]) >= WARN)).toEqual([]);
      const mentions = logged.filter((line) => JSON.stringify(line).includes(code));
      expect(mentions).toHaveLength(1);
      expect(mentions[0]).toMatchObject({ level: 30, code, command: request.name, ...facts });
      expect(mentions[0]).not.toHaveProperty("err");
      expect(JSON.stringify(logged)).not.toMatch(/stack|\n\s+at /);
    });
  }

  it("keeps the GitHub facts an operator correlates by: operation, status and request id", async () => {
    const [line] = (
      await logOf({ kind: "slash", name: "blame", options: { repo: "demo/widgets", path: "READM.md" } })
    ).filter((candidate) => candidate["code"] === "path_not_found");
    expect(line).toMatchObject({ github: { operation: "Blame", status: 200 } });
    expect((line!["github"] as Record<string, unknown>)["requestId"]).toMatch(/\S/);
  });

  it("logs a GitHub outage at warn, one line with the facts and no stack trace", async () => {
    world().github.faults.inject({ kind: "serverError", target: "graphql", times: 2 });
    const logged = await logOf({ kind: "slash", name: "repos", options: { owner: "demo" } });
    const outage = logged.filter((line) => line["code"] === "upstream_error");
    // The client says GitHub is failing (for the operator); the router says what the user read.
    expect(outage.filter((line) => line["level"] === WARN)).toEqual([
      expect.objectContaining({ reason: "server_error", github: expect.objectContaining({ status: 500 }) }),
    ]);
    expect(outage.find((line) => line["level"] === 30)).toMatchObject({ command: "repos" });
    expect(JSON.stringify(outage)).not.toMatch(/stack|\n\s+at /);
  });

  it("logs an autocomplete lookup that fails on a typo without a stack trace", async () => {
    const before = lines.length;
    await world().run({
      kind: "autocomplete",
      name: "contents",
      options: { repo: "demo/widgetz", path: "sr" },
      focused: "path",
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = lines.slice(before);
    expect(logged.filter((line) => Number(line["level"]) >= WARN)).toEqual([]);
    expect(JSON.stringify(logged)).not.toMatch(/stack|\n\s+at /);
  });
});
