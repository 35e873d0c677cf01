import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseSandboxArguments, SANDBOX_USAGE } from "../../src/sandbox/cliArguments.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
// The loader `tsx` exports for `node --import`, as an absolute path.
const TSX = createRequire(import.meta.url).resolve("tsx");

describe("npm run sandbox arguments", () => {
  it("takes several --command lines, in order, and --as", () => {
    expect(parseSandboxArguments(["--as", "member", "-c", "/token status", "--command", "2"])).toEqual({
      kind: "run",
      commands: ["/token status", "2"],
      invoker: "member",
    });
    expect(parseSandboxArguments([])).toEqual({ kind: "run" });
  });

  it("answers --help with the usage", () => {
    expect(parseSandboxArguments(["--help"])).toEqual({ kind: "help" });
    expect(SANDBOX_USAGE).toMatch(
      /^Usage: npm run sandbox \[-- \[--as member\|admin\] \[--command LINE\]\.\.\.\]/,
    );
  });

  it("refuses an unknown flag, a stray argument, a missing value and an unknown --as", () => {
    expect(parseSandboxArguments(["--comand", "/help"])).toEqual({
      kind: "usage-error",
      problem: "Unknown option --comand.",
    });
    expect(parseSandboxArguments(["/help"])).toMatchObject({ problem: /^Unexpected argument \/help/ });
    expect(parseSandboxArguments(["--command"])).toMatchObject({ kind: "usage-error" });
    expect(parseSandboxArguments(["--as", "owner"])).toEqual({
      kind: "usage-error",
      problem: '--as takes member or admin, not "owner".',
    });
  });

  it("refuses an empty --command and lines after /quit, saying which", () => {
    expect(parseSandboxArguments(["--command", ""])).toEqual({
      kind: "usage-error",
      problem:
        '--command number 1 is empty: give a slash command (--command "/whoami"), a button\'s number, or /as, /help, /demo.',
    });
    expect(parseSandboxArguments(["-c", "/whoami", "-c", "  "])).toMatchObject({
      problem: /^--command number 2 is empty/,
    });
    expect(parseSandboxArguments(["--command", "/quit", "--command", "/whoami"])).toEqual({
      kind: "usage-error",
      problem:
        '/quit ends the run, so the line after it ("/whoami") would never run: put /quit last or leave it out.',
    });
    expect(parseSandboxArguments(["-c", "/exit", "-c", "/help", "-c", "/demo"])).toMatchObject({
      problem: /^\/exit ends the run, so the 2 lines after it \("\/help", "\/demo"\)/,
    });
    expect(parseSandboxArguments(["-c", "/whoami", "-c", "/quit"])).toEqual({
      kind: "run",
      commands: ["/whoami", "/quit"],
    });
  });

  it("prints the usage for an unknown flag and exits 2, without a stack trace, before starting anything", async () => {
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ["--import", TSX, "src/sandbox/cli.ts", "--bogus"],
        { cwd: ROOT, env: { PATH: process.env.PATH ?? "" }, timeout: 60_000 },
        (error, _stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stderr: String(stderr) }),
      );
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Unknown option --bogus\.\n\nUsage: npm run sandbox/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 on --command "" instead of 0 with nothing run, before starting anything', async () => {
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ["--import", TSX, "src/sandbox/cli.ts", "--command", ""],
        { cwd: ROOT, env: { PATH: process.env.PATH ?? "" }, timeout: 60_000 },
        (error, _stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stderr: String(stderr) }),
      );
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^--command number 1 is empty: .*\n\nUsage: npm run sandbox/);
  });
});
