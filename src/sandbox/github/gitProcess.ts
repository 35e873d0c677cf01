import { spawn } from "node:child_process";
import { tmpdir } from "node:os";

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
 * Runs one git command to completion and collects its output. `args` go to git as an argv array
 * (no shell); callers put revisions and paths where git cannot read them as options.
 */
export function runGit(
  args: readonly string[],
  options: GitOptions & { gitDir?: string; cwd?: string; input?: Buffer | string } = {},
): Promise<GitResult> {
  const argv = options.gitDir === undefined ? [...args] : [`--git-dir=${options.gitDir}`, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(options.gitBinary ?? "git", argv, {
      cwd: options.cwd ?? tmpdir(),
      env: gitEnvironment(options),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    // A git that exits early (bad arguments) closes its stdin; the EPIPE is reported by "close".
    child.stdin.on("error", () => undefined);
    child.on("close", (code) => {
      resolve({ code: code ?? 1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") });
    });
    child.stdin.end(options.input ?? "");
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
