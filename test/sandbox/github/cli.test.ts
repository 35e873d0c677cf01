import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN } from "../../../src/sandbox/github/index.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

let child: ChildProcessWithoutNullStreams;
const lines: string[] = [];
let waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];

/** Resolves with the first output line (past or future) that matches. */
function lineMatching(pattern: RegExp): Promise<string> {
  const seen = lines.find((line) => pattern.test(line));
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve) => waiters.push({ pattern, resolve }));
}

beforeAll(async () => {
  child = spawn(
    process.execPath,
    ["--import", "tsx", "src/sandbox/github/cli.ts", "--port", "0", "--fault", "502:graphql"],
    { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] },
  );
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    waiters = waiters.filter((waiter) => {
      if (!waiter.pattern.test(line)) return true;
      waiter.resolve(line);
      return false;
    });
  });
  await lineMatching(/Token:/);
});

afterAll(() => {
  if (child.exitCode === null) child.kill("SIGKILL");
});

describe("npm run standin", () => {
  it("prints the GraphQL URL, the REST base and the demo token, and serves them", async () => {
    const graphqlLine = await lineMatching(/GraphQL:/);
    const graphqlUrl = /GraphQL:\s+(\S+)/.exec(graphqlLine)![1]!;
    const restUrl = /REST:\s+(\S+)/.exec(await lineMatching(/REST:/))![1]!;
    expect(await lineMatching(/Token:/)).toContain(DEMO_TOKEN);

    const ask = () =>
      fetch(graphqlUrl, {
        method: "POST",
        headers: { authorization: `bearer ${DEMO_TOKEN}` },
        body: JSON.stringify({ query: "{ viewer { login } }" }),
      });
    // The fault given on the command line hits the first GraphQL request.
    expect((await ask()).status).toBe(502);
    expect(await (await ask()).json()).toEqual({ data: { viewer: { login: "demo-user" } } });

    // Faults typed on stdin while it runs.
    child.stdin.write("fault 401:rest\n");
    await lineMatching(/queued: 401:rest/);
    const listing = await fetch(`${restUrl}/repos/demo/widgets/contributors`);
    expect(listing.status).toBe(401);
  });

  it("stops cleanly on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
