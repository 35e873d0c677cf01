import { spawn, type ChildProcess } from "node:child_process";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { createInterface } from "node:readline";

/**
 * How the stand-in runs git. Every git process gets a fixed, minimal environment instead of the
 * caller's: a GIT_DIR, GIT_INDEX_FILE or GIT_* variable of the caller (a git hook running the tests,
 * for example) can never redirect it, and no system or global configuration (user.name, aliases,
 * hooks paths, safe.directory...) can change what it reads or writes.
 */
export interface GitOptions {
  /** The git executable; default `git`, looked up on {@link DEFAULT_GIT_SEARCH_PATH}. */
  gitBinary?: string;
  /** PATH given to git (it runs helpers of its own); default {@link DEFAULT_GIT_SEARCH_PATH}. */
  searchPath?: string;
}

/** Where git is looked for when no absolute `gitBinary` is given. */
export const DEFAULT_GIT_SEARCH_PATH =
  "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/opt/homebrew/bin:/opt/local/bin";

/** Returns the environment every git process of the stand-in runs with. */
export function gitEnvironment(options: GitOptions = {}): Record<string, string> {
  return {
    PATH: options.searchPath ?? DEFAULT_GIT_SEARCH_PATH,
    HOME: tmpdir(),
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    // Readers never take the index or refs lock, so concurrent readers never block a writer.
    GIT_OPTIONAL_LOCKS: "0",
  };
}

/** The result of one finished git process. */
export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** A git process that exited with a non-zero code. */
export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly result: GitResult,
  ) {
    super(`git ${args.join(" ")} exited with ${result.code}: ${result.stderr.trim()}`);
    this.name = "GitCommandError";
  }
}

/**
 * The git runner: a small node process, started at this process's first git command, that spawns
 * the git processes. A fork copies the forking process's page tables, so a spawn from a large
 * process (a test worker holding a bot, the stand-ins and vitest) held its event loop about 16.5 ms:
 * one `/owners` of a folder spawned 101 git processes, 1,667 ms in all, and the bot's deferral due
 * at 1.5 s went out at 1.8-2.0 s, past Discord's 3 s once in a busy test run. Spawned from the
 * runner, a git process costs this process one line written and one read. It reads one JSON request
 * a line on stdin and answers one JSON line on stdout; it ends when its stdin closes.
 */
const RUNNER_SOURCE = `
const { spawn } = require("node:child_process");
const lines = require("node:readline").createInterface({ input: process.stdin, crlfDelay: Infinity });
const answer = (reply) => process.stdout.write(JSON.stringify(reply) + "\\n");
lines.on("line", (line) => {
  const request = JSON.parse(line);
  let done = false;
  const finish = (reply) => { if (!done) { done = true; answer(reply); } };
  let child;
  try {
    child = spawn(request.file, request.argv, { cwd: request.cwd, env: request.env, stdio: ["pipe", "pipe", "pipe"] });
  } catch (error) {
    finish({ id: request.id, error: String(error && error.message), code: error && error.code });
    return;
  }
  const out = [];
  const err = [];
  child.stdout.on("data", (chunk) => out.push(chunk));
  child.stderr.on("data", (chunk) => err.push(chunk));
  child.on("error", (error) => finish({ id: request.id, error: error.message, code: error.code }));
  child.stdin.on("error", () => undefined);
  child.on("close", (code) =>
    finish({ id: request.id, code: code === null ? 1 : code, stdout: Buffer.concat(out).toString("base64"), stderr: Buffer.concat(err).toString("utf8") }),
  );
  child.stdin.end(Buffer.from(request.input, "base64"));
});
lines.on("close", () => process.exit(0));
`;

interface RunnerReply {
  id: number;
  code?: number | string;
  stdout?: string;
  stderr?: string;
  error?: string;
}

interface Runner {
  child: ChildProcess;
  pending: Map<number, { resolve: (result: GitResult) => void; reject: (error: Error) => void }>;
  next: number;
}

let runner: Runner | null = null;

/** The running git runner, started when there is none (or the last one ended). */
function gitRunner(): Runner {
  if (runner) return runner;
  // No environment: node needs none, and each git process is given its own (gitEnvironment).
  const child = spawn(process.execPath, ["-e", RUNNER_SOURCE], {
    stdio: ["pipe", "pipe", "inherit"],
    env: {},
  });
  const started: Runner = { child, pending: new Map(), next: 1 };
  runner = started;
  // Kept alive by the commands waiting on it, not by the runner itself.
  child.unref();
  (child.stdout as Socket).unref();
  (child.stdin as Socket).unref();
  const ended = (why: string): void => {
    if (runner === started) runner = null;
    for (const waiting of started.pending.values()) waiting.reject(new Error(`the git runner ${why}`));
    started.pending.clear();
  };
  child.on("error", (error) => ended(`did not start: ${error.message}`));
  // "close", not "exit": the replies still in its stdout are read first.
  child.on("close", (code, signal) => ended(`ended (${signal ?? code})`));
  child.stdin!.on("error", () => undefined);
  createInterface({ input: child.stdout!, crlfDelay: Infinity }).on("line", (line) => {
    const reply = JSON.parse(line) as RunnerReply;
    const waiting = started.pending.get(reply.id);
    if (!waiting) return;
    started.pending.delete(reply.id);
    if (started.pending.size === 0) (child.stdout as Socket).unref();
    if (reply.error !== undefined) {
      waiting.reject(Object.assign(new Error(reply.error), { code: reply.code }));
    } else {
      waiting.resolve({
        code: typeof reply.code === "number" ? reply.code : 1,
        stdout: Buffer.from(reply.stdout ?? "", "base64"),
        stderr: reply.stderr ?? "",
      });
    }
  });
  return started;
}

/**
 * Runs one git command to completion and collects its output. `args` go to git as an argv array
 * (no shell); callers put revisions and paths where git cannot read them as options. The git
 * process is spawned by the git runner ({@link RUNNER_SOURCE}), not by this process.
 */
export function runGit(
  args: readonly string[],
  options: GitOptions & { gitDir?: string; cwd?: string; input?: Buffer | string } = {},
): Promise<GitResult> {
  const argv = options.gitDir === undefined ? [...args] : [`--git-dir=${options.gitDir}`, ...args];
  return new Promise((resolve, reject) => {
    const current = gitRunner();
    const id = current.next++;
    current.pending.set(id, { resolve, reject });
    (current.child.stdout as Socket).ref();
    const input = options.input === undefined ? "" : Buffer.from(options.input).toString("base64");
    const request = {
      id,
      file: options.gitBinary ?? "git",
      argv,
      cwd: options.cwd ?? tmpdir(),
      env: gitEnvironment(options),
      input,
    };
    current.child.stdin!.write(`${JSON.stringify(request)}\n`);
  });
}

/** Like {@link runGit}, but a non-zero exit becomes a {@link GitCommandError}. */
export async function runGitChecked(
  args: readonly string[],
  options: GitOptions & { gitDir?: string; cwd?: string; input?: Buffer | string } = {},
): Promise<Buffer> {
  const result = await runGit(args, options);
  if (result.code !== 0) throw new GitCommandError(args, result);
  return result.stdout;
}
