import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/**
 * A throwaway redis-server for the tests: its own port on loopback, its own temporary folder, no
 * persistence (`--save ""`, `--appendonly no`), so the tests never touch a Redis someone runs.
 */

/** A running test server. */
export interface RedisServer {
  /** `redis://127.0.0.1:PORT`. */
  url: string;
  port: number;
  /** The server's working folder (removed by `stop`). */
  dir: string;
  /** Stops the server and removes its folder; safe to call twice. */
  stop(): Promise<void>;
}

/** The path of an executable named `name` in the folders of `path` (a PATH value), or null. */
export function findExecutable(name: string, path: string | undefined): string | null {
  for (const folder of (path ?? "").split(delimiter)) {
    if (folder === "") continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; try the next folder.
    }
  }
  return null;
}

/** A port nothing listens on right now (the kernel's pick); redis-server may still lose a race. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Waits until the server says it is ready; rejects with its output when it exits first. */
function whenReady(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const done = (error?: Error) => {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.stderr?.off("data", onData);
      child.off("exit", onExit);
      child.off("error", onError);
      if (error) reject(error);
      else resolve();
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("Ready to accept connections")) done();
    };
    const onExit = (code: number | null) =>
      done(new Error(`redis-server exited (${String(code)}) before it was ready:\n${output.slice(-2000)}`));
    const onError = (error: Error) => done(error);
    const timer = setTimeout(
      () => done(new Error(`redis-server was not ready within ${timeoutMs} ms:\n${output.slice(-2000)}`)),
      timeoutMs,
    );
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", onExit);
    child.once("error", onError);
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  // No pid: the program never started (ENOENT), so there is nothing to stop.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts `binary` (a redis-server) on a free loopback port in a new temporary folder and waits
 * until it accepts connections. The server dies with this process, however it ends: through
 * `setpriv --pdeathsig` (util-linux, on every Debian) when there is one, which also covers SIGKILL
 * and unhandled signals, else through an exit handler. `stop` ends it sooner.
 * @param options.setpriv the setpriv to use (default: the one on PATH); null for none.
 */
export async function startRedisServer(
  binary: string,
  options: { attempts?: number; setpriv?: string | null } = {},
): Promise<RedisServer> {
  const setpriv =
    options.setpriv === undefined ? findExecutable("setpriv", process.env.PATH) : options.setpriv;
  const dir = await mkdtemp(join(tmpdir(), "reposcout-test-redis-"));
  let lastError: unknown;
  for (let attempt = 0; attempt < (options.attempts ?? 5); attempt += 1) {
    const port = await freePort();
    const args = [
      ...["--port", String(port), "--bind", "127.0.0.1", "--protected-mode", "yes"],
      ...["--save", "", "--appendonly", "no", "--dir", dir, "--logfile", "", "--daemonize", "no"],
    ];
    // setpriv sets the parent-death signal and execs redis-server in its place (same pid).
    const child = setpriv
      ? spawn(setpriv, ["--pdeathsig", "KILL", "--", binary, ...args], {
          cwd: dir,
          stdio: ["ignore", "pipe", "pipe"],
        })
      : spawn(binary, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    // The last resort when no teardown runs (a crash, process.exit): never leave a server behind.
    const killOnExit = () => child.kill("SIGKILL");
    process.once("exit", killOnExit);
    try {
      await whenReady(child, 10_000);
    } catch (error) {
      lastError = error;
      process.off("exit", killOnExit);
      await stopChild(child);
      // Another process took the port between our pick and redis-server's bind: pick again.
      if (error instanceof Error && /Address already in use/i.test(error.message)) continue;
      break;
    }
    child.stdout?.resume();
    child.stderr?.resume();
    let stopped = false;
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      dir,
      async stop() {
        if (stopped) return;
        stopped = true;
        await stopChild(child);
        process.off("exit", killOnExit);
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  await rm(dir, { recursive: true, force: true });
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}
