/**
 * The processes of the load figures: RepoScout as production runs it (its own process, the build
 * with plain node, `node dist/src/index.js`, once {@link buildForBench} made it; else the sources
 * through tsx; configured by environment only, with the deployments' malloc settings) and the
 * bare discord.js bot beside it, both pointed at the stand-ins; and what /proc says of a process
 * (resident memory, CPU time). Each carries ./gcMeter.mjs, which tells its time in garbage
 * collection, and runs on the cpus it is given (./pinning.ts), if any.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { imageEnvironment } from "../../test/deploy/replay.js";

/** Time a process spent in garbage collection since it started, and how many collections. */
export interface GcReading {
  gcMs: number;
  count: number;
  /** The heap in use after two full collections, MB: only from a process started with `--expose-gc`. */
  heapUsedMb?: number;
}

export interface BotProcess {
  child: ChildProcess;
  pid: number;
  /** The interactions URL in HTTP mode. */
  url: string | null;
  /** What the process wrote to standard error (its warnings and errors, JSON lines for RepoScout). */
  stderr: () => string;
  /** Its GC time so far (asked with SIGUSR2, see ./gcMeter.mjs). */
  gc(): Promise<GcReading>;
  stop(): Promise<void>;
}

const GC_METER = new URL("./gcMeter.mjs", import.meta.url).href;

/** The variable `npm run bench -- --bot-node <path>` sets, which the bench's child processes inherit. */
const BOT_NODE = "BENCH_BOT_NODE";

/**
 * The node that runs the bots (RepoScout and the bare bot alike) and the bot's own code measured in
 * a process of its own (the first /blame, start-up): `--bot-node`'s, else the bench's. The load
 * driver, the local Discord and the GitHub stand-in run on the bench's node either way. The
 * deployments run the bot on the current LTS (the Dockerfile's `node:24`), which a machine with
 * another node installed measures this way.
 */
export function botNode(): string {
  return process.env[BOT_NODE] || process.execPath;
}

/**
 * Points the bots at another node (see {@link botNode}) and says which: the line the bench prints.
 * @throws Error when `path` does not run as node.
 */
export function useBotNode(path: string | null): string {
  if (path === "") throw new Error("--bot-node takes the path of a node (--bot-node /opt/node-24/bin/node)");
  if (path !== null) process.env[BOT_NODE] = path;
  const node = botNode();
  if (node === process.execPath)
    return `The bots, the load driver and the stand-ins run on node ${process.version}`;
  const ran = spawnSync(node, ["--version"], { encoding: "utf8" });
  if (ran.status !== 0 || !/^v\d+\./.test(ran.stdout))
    throw new Error(
      `--bot-node ${node} does not run as node (${ran.error?.message ?? (ran.stderr.trim() || `exit ${ran.status}`)})`,
    );
  return `The bots run on node ${ran.stdout.trim()} (${node}); the load driver and the stand-ins on node ${process.version}`;
}

/**
 * Node with the GC meter preloaded, under `taskset -c cpus` when given: taskset execs node in its
 * own place, so the child's pid is node's and /proc reads the bot.
 */
function spawnNode(
  args: string[],
  options: {
    cpus: string | null | undefined;
    gcFile: string;
    cwd?: string;
    env: NodeJS.ProcessEnv;
    stdout: "ignore" | "pipe";
  },
): ChildProcess {
  const node = [botNode(), "--import", GC_METER, ...args];
  const [command, ...rest] = options.cpus ? ["taskset", "-c", options.cpus, ...node] : node;
  return spawn(command!, rest, {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: { ...options.env, BENCH_GC_FILE: options.gcFile },
    stdio: ["ignore", options.stdout, "pipe"],
  });
}

/** Reads a process's GC meter: signals it, then waits for a reading newer than the last one. */
function gcMeterOf(child: ChildProcess, file: string): () => Promise<GcReading> {
  let seq = 0;
  return async () => {
    child.kill("SIGUSR2");
    const deadline = Date.now() + 30_000;
    for (;;) {
      const text = await readFile(file, "utf8").catch(() => "");
      const reading = text ? (JSON.parse(text) as GcReading & { seq: number }) : null;
      if (reading && reading.seq > seq) {
        seq = reading.seq;
        return {
          gcMs: reading.gcMs,
          count: reading.count,
          ...(reading.heapUsedMb !== undefined ? { heapUsedMb: reading.heapUsedMb } : {}),
        };
      }
      // A bot busy with a burst reads the signal when its event loop comes round to it.
      if (Date.now() > deadline || child.exitCode !== null) return { gcMs: NaN, count: NaN };
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Resident memory of a process, in MB (VmRSS of /proc/<pid>/status). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** CPU time (user + system) in ms of a /proc stat file (in clock ticks of 10 ms). */
function statCpuMs(path: string): number {
  const fields = readFileSync(path, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time a process used so far (user + system), in ms (/proc/<pid>/stat, in clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/**
 * CPU time a process's main thread used so far, in ms (/proc/<pid>/task/<pid>/stat): JavaScript
 * runs there; V8's helper threads (optimizing compilation, concurrent marking and sweeping) and
 * libuv's pool are the rest of {@link cpuMs}.
 */
export function mainThreadCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

/**
 * How long this process's main thread has waited, runnable, for a cpu so far, in ms
 * (/proc/self/schedstat: time on a cpu, time waiting on a run queue, in ns): the time another thread
 * held the cpu it may run on, such as its own V8 helper threads or another process pinned there.
 * NaN where the kernel keeps no such figure.
 */
export function waitedForCpuMs(): number {
  try {
    const waitedNs = Number(readFileSync("/proc/self/schedstat", "utf8").split(" ")[1]);
    return waitedNs / 1e6;
  } catch {
    return NaN;
  }
}

function collect(child: ChildProcess): () => string {
  let text = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    if (text.length < 4_000_000) text += String(chunk);
  });
  return () => text;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 12_000);
  await exited;
  clearTimeout(timer);
}

/** Set (to "1") once {@link buildForBench} built RepoScout; load drivers started later inherit it. */
const BUILT = "REPOSCOUT_BENCH_BUILT";
const BUILT_ENTRY = "dist/src/index.js";

/**
 * Builds RepoScout (`npm run build`) so that the bot processes run as production runs them: the
 * Dockerfile's `node dist/src/index.js`, which `npm start` also runs when the build is there. The
 * sources through tsx held about 65 MB more and spent more CPU on a cold start (1,600/s over HTTP:
 * peak RSS 283 MB through tsx, 216 MB built). Says whether it built, and the line that says which one runs.
 */
export function buildForBench(): { built: boolean; line: string } {
  // Once per bench process: the start-up section asks too, and load drivers inherit the variable.
  if (process.env[BUILT] === "1") {
    return { built: true, line: "RepoScout runs as production runs it: the build, plain node" };
  }
  const started = performance.now();
  const built = spawnSync("npm", ["run", "build"], {
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    encoding: "utf8",
  });
  if (built.status !== 0) {
    const why = (built.stderr || built.stdout).trim().slice(-300);
    return { built: false, line: `RepoScout runs from its sources through tsx: the build failed (${why})` };
  }
  process.env[BUILT] = "1";
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  return {
    built: true,
    line: `RepoScout runs as production runs it: the build (npm run build, ${seconds} s), plain node`,
  };
}

/**
 * The environment the deployments give the bot beyond its configuration: the run stage's
 * `GLIBC_TUNABLES` and `NODE_OPTIONS` in the Dockerfile (the systemd unit sets the same;
 * test/deploy checks it), how glibc's malloc keeps freed memory and how large V8's young
 * generation grows. RepoScout's processes in the bench run with it, as production runs them; the
 * bare bot runs with Node's defaults, as someone would run it.
 */
export function deployedEnvironment(): Record<string, string> {
  const image = imageEnvironment("run");
  const deployed: Record<string, string> = {};
  for (const name of ["GLIBC_TUNABLES", "NODE_OPTIONS"]) {
    const value = image.get(name);
    if (value !== undefined) deployed[name] = value;
  }
  return deployed;
}

/** What RepoScout needs to reach the stand-ins. */
export interface StandInAddresses {
  discordApiUrl: string;
  botToken: string;
  publicKey: string;
  githubRestUrl: string;
  githubGraphqlUrl: string;
  githubToken: string;
}

/** A data folder kept across RepoScout processes, with the key its tokens are sealed with. */
export interface KeptData {
  dataDir: string;
  tokenKey: string;
  /** Removes the folder. */
  remove(): Promise<void>;
}

/** A new data folder to keep across processes ({@link startRepoScout}'s `kept`). */
export async function keptData(): Promise<KeptData> {
  const dataDir = await mkdtemp(join(tmpdir(), "reposcout-bench-kept-"));
  return {
    dataDir,
    tokenKey: randomBytes(32).toString("base64"),
    remove: () => rm(dataDir, { recursive: true, force: true }),
  };
}

/**
 * Starts RepoScout in its own process, gateway mode (or HTTP with `http`), and resolves once it
 * serves: `/healthz` answers and, over the gateway, the gateway session is ready (`ready`).
 */
export async function startRepoScout(
  at: StandInAddresses,
  options: {
    http?: boolean;
    env?: Record<string, string>;
    ready?: () => Promise<void>;
    /** Node's own flags, such as `--cpu-prof` (a profile is written when the process exits). */
    nodeArgs?: string[];
    /** The cpus to run on (./pinning.ts), or none: wherever the system puts it. */
    cpus?: string | null;
    /**
     * A data folder and token key of the caller's, kept when this process stops: the next process
     * started with them finds what this one stored (a restart). Otherwise a new folder each time,
     * removed at stop.
     */
    kept?: KeptData;
  } = {},
): Promise<BotProcess> {
  const port = await freePort();
  const dataDir = options.kept?.dataDir ?? (await mkdtemp(join(tmpdir(), "reposcout-bench-load-")));
  // Beside the data folder, not in it: the meter's file is the bench's, not RepoScout's.
  const meterDir = await mkdtemp(join(tmpdir(), "reposcout-bench-gc-"));
  const gcFile = join(meterDir, "gc.json");
  const entry = process.env[BUILT] === "1" ? [BUILT_ENTRY] : ["--import", "tsx", "src/index.ts"];
  const args = [...(options.nodeArgs ?? []), ...entry];
  const child = spawnNode(args, {
    cpus: options.cpus,
    gcFile,
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    env: {
      PATH: process.env.PATH ?? "",
      DISCORD_TOKEN: at.botToken,
      DISCORD_API_URL: at.discordApiUrl,
      HTTP_PORT: String(port),
      GITHUB_API_URL: at.githubRestUrl,
      GITHUB_GRAPHQL_URL: at.githubGraphqlUrl,
      GITHUB_TOKEN: at.githubToken,
      TOKEN_ENCRYPTION_KEY: options.kept?.tokenKey ?? randomBytes(32).toString("base64"),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...deployedEnvironment(),
      ...(options.http ? { DISCORD_PUBLIC_KEY: at.publicKey } : {}),
      ...options.env,
    },
    stdout: "ignore",
  });
  const stderr = collect(child);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const healthy = await fetch(`${base}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      // Not left running behind the bench (it would hold a cpu through every later figure).
      child.kill("SIGKILL");
      throw new Error(`RepoScout did not start: ${stderr().slice(-2_000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await options.ready?.();
  return {
    child,
    pid: child.pid!,
    url: options.http ? `${base}/interactions` : null,
    stderr,
    gc: gcMeterOf(child, gcFile),
    async stop() {
      await stopChild(child);
      if (!options.kept) await rm(dataDir, { recursive: true, force: true });
      await rm(meterDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts the bare discord.js bot (./bareBot.ts): over the gateway, or as an HTTP endpoint; it
 * answers "ok", or `message` (a message's data, such as RepoScout's own cached answer).
 */
export async function startBareBot(
  at: StandInAddresses,
  options: { http?: boolean; message?: unknown; cpus?: string | null } = {},
): Promise<BotProcess> {
  const port = options.http ? await freePort() : 0;
  const dir = await mkdtemp(join(tmpdir(), "reposcout-bench-bare-"));
  const gcFile = join(dir, "gc.json");
  const args = [at.discordApiUrl, at.botToken, ...(options.http ? ["http", String(port)] : [])];
  if (options.message !== undefined) {
    const file = join(dir, "message.json");
    await writeFile(file, JSON.stringify(options.message));
    args.push("--message", file);
  }
  const child = spawnNode(
    ["--import", "tsx", fileURLToPath(new URL("./bareBot.ts", import.meta.url)), ...args],
    { cpus: options.cpus, gcFile, env: process.env, stdout: "pipe" },
  );
  const stderr = collect(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (String(chunk).includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the bare bot exited ${code}: ${stderr().slice(-2_000)}`)));
  });
  return {
    child,
    pid: child.pid!,
    url: options.http ? `http://127.0.0.1:${port}/` : null,
    stderr,
    gc: gcMeterOf(child, gcFile),
    async stop() {
      await stopChild(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
