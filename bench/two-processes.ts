/**
 * Many bot processes on one Redis (SPEC section 6), measured as real processes (`node --import tsx
 * src/index.ts`, HTTP mode) behind the local Discord's round robin:
 * - cached answers per CPU-second of the bot processes, two processes beside one, each process
 *   offered the same rate (issue 23: what sharing Redis costs the bot, whatever the load driver's
 *   limit), and what the machine serves flat out with one and with two;
 * - upstream calls for 20 identical concurrent commands across two processes, with Redis beside
 *   two processes on their own stores (no Redis).
 * With a cpu for each bot process and one more for the load driver, each bot runs on its own
 * (./load/pinning.ts); on fewer, nothing is pinned and the first line says so.
 * Numbers only, never assertions.
 */
import { randomBytes } from "node:crypto";
import { availableParallelism as cpuCount } from "node:os";
import { startSandboxWorld, type SandboxWorld } from "../src/sandbox/harness.js";
import { transcriptOf } from "../src/sandbox/transcript.js";
import { findExecutable, startRedisServer } from "../test/redis/startRedisServer.js";
import type { Measured } from "./figures.js";
import { placed } from "./load/mix.js";
import { placeBots } from "./load/pinning.js";
import type { RequestMaker } from "./load/rates.js";
import { cpuMs, startRepoScout, type BotProcess } from "./load/processes.js";

const SHARED_KEY = randomBytes(32).toString("base64");
const CACHED = { kind: "slash", name: "contents", options: { repo: "demo/widgets", path: "src" } } as const;

/** One bot process in HTTP mode, pointed at the world's stand-ins, with the shared key, on `cpus`. */
async function startBotProcess(
  world: SandboxWorld,
  env: Record<string, string>,
  cpus: string | null = null,
): Promise<BotProcess> {
  return startRepoScout(
    {
      discordApiUrl: world.discord.apiUrl,
      botToken: world.discord.botToken,
      publicKey: world.discord.publicKey,
      githubRestUrl: world.github.restUrl,
      githubGraphqlUrl: world.github.graphqlUrl,
      githubToken: world.config.github.defaultToken ?? "",
    },
    // One key for every process, as in production: token fingerprints (and so cache keys) agree.
    { http: true, cpus, env: { TOKEN_ENCRYPTION_KEY: SHARED_KEY, LOG_LEVEL: "error", ...env } },
  );
}

/** Servers the commands come from, member after member (one person would meet the per-person bound). */
const GUILDS = 20;

/** Waits for a cached command's final answer; throws on an error answer. */
async function answered(world: SandboxWorld, make: RequestMaker, n: number): Promise<void> {
  // Through the local Discord directly, not the harness's `run`, which waits 20 ms of quiet after
  // each answer for a test's sake: the bots idled most of the time, and the figure measured the
  // wait (a process answering half as often paid more CPU an answer for its wake-ups), not Redis.
  const handle = await world.discord.interact(make(n));
  const record = await handle.waitForAnswer({ timeoutMs: 30_000 });
  if (transcriptOf(record).isError) throw new Error(transcriptOf(record).text);
}

/** One cached command answered (see {@link answered}), from the next member in turn. */
type Ask = () => Promise<void>;

/** `total` cached commands, `concurrency` at a time (each lane sends when answered): seconds taken. */
async function closedLoop(ask: Ask, total: number, concurrency: number): Promise<number> {
  let sent = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (sent < total) {
      sent += 1;
      await ask();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (performance.now() - started) / 1000;
}

/** Cached commands at `rate` a second for `seconds`, on schedule, then every answer awaited. */
async function openLoop(ask: Ask, rate: number, seconds: number): Promise<void> {
  const started = performance.now();
  const waits: Array<Promise<void>> = [];
  for (let n = 0; n < rate * seconds; n++) {
    const wait = started + (n * 1_000) / rate - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    waits.push(ask());
  }
  await Promise.all(waits);
}

/**
 * The rate each process is offered when their CPU per answer is compared: the same for one process
 * and for each of two (so twice this in all), and low enough that the two bots, the local Discord,
 * the GitHub stand-in and this driver do not fill the machine's two cpus. Offered the same total
 * instead, each of two processes answers half as often as one, and an event loop woken for fewer
 * requests at a time spends more CPU on each (the HTTP CPU section: 0.55 ms an interaction at
 * 200/s against 0.37 at 800/s): the figure would measure that, not what sharing Redis costs.
 */
const PER_PROCESS_RATE = 400;
/** Seconds of each turn, and the turns of each setup, in alternation. */
const TURN_SECONDS = 3;
const TURNS = 3;
/** The closed loop's commands in flight, and how many it sends for each setup. */
const IN_FLIGHT = 16;
const CLOSED_TOTAL = 3_000;

/** Upstream calls for 20 identical concurrent commands of a never-asked question. */
async function identicalCalls(world: SandboxWorld, path: string): Promise<number> {
  const before = world.github.requests.length;
  const handles = await Promise.all(
    Array.from({ length: 20 }, () =>
      world.send({ kind: "slash", name: "contents", options: { repo: "demo/widgets", path } }),
    ),
  );
  await Promise.all(handles.map((handle) => handle.waitForAnswer({ timeoutMs: 30_000 })));
  const calls = world.github.requests.slice(before);
  return calls.length;
}

/**
 * Throughput of two processes on one Redis beside one, per CPU-second of the bot processes; with
 * `upstream`, also the upstream calls of identical commands with and without Redis.
 */
export async function measureTwoProcesses(upstream = true): Promise<Measured> {
  const binary = findExecutable("redis-server", process.env.PATH);
  if (!binary)
    return { lines: ["skipped: no redis-server on PATH (apt-get install redis-server)"], figures: [] };
  const placement = placeBots(2);
  const redis = await startRedisServer(binary);
  const world = await startSandboxWorld({
    transport: "http",
    discord: { generatedGuilds: { count: GUILDS }, requestLog: "counts", maxInteractions: 10_000 },
  });
  const make = placed(world, GUILDS, () => CACHED);
  let asked = 0;
  const ask: Ask = () => answered(world, make, asked++);
  const shared = { REDIS_URL: redis.url };
  const processes: Array<Awaited<ReturnType<typeof startBotProcess>>> = [];
  try {
    const [a, b] = await Promise.all([
      startBotProcess(world, shared, placement.bots[0]),
      startBotProcess(world, shared, placement.bots[1]),
    ]);
    processes.push(a!, b!);
    const lines: string[] = [placement.line];

    const one = [a!.url!];
    const both = [a!.url!, b!.url!];
    // Warm: every path compiled in both processes, each with the answer in its own memory.
    await world.discord.setInteractionsEndpoint(both, { verify: false });
    await world.run(CACHED, { timeoutMs: 30_000 });
    await closedLoop(ask, CLOSED_TOTAL, IN_FLIGHT);
    /** CPU ms of the bot processes (both: the idle one's share counts too, as it does on a host). */
    const botCpu = (): number => cpuMs(a!.pid) + cpuMs(b!.pid);
    const cpuSeconds = { one: 0, two: 0 };
    // In turns, one two two one one two: what the machine does meanwhile falls on both alike.
    for (let turn = 0; turn < 2 * TURNS; turn++) {
      const setup = [0, 3].includes(turn % 4) ? "one" : "two";
      await world.discord.setInteractionsEndpoint(setup === "one" ? one : both, { verify: false });
      const cpuBefore = botCpu();
      await openLoop(ask, setup === "one" ? PER_PROCESS_RATE : 2 * PER_PROCESS_RATE, TURN_SECONDS);
      cpuSeconds[setup] += (botCpu() - cpuBefore) / 1000;
    }
    const answers = {
      one: PER_PROCESS_RATE * TURN_SECONDS * TURNS,
      two: 2 * PER_PROCESS_RATE * TURN_SECONDS * TURNS,
    };
    const onePerCpu = answers.one / cpuSeconds.one;
    const twoPerCpu = answers.two / cpuSeconds.two;
    const msEach = (setup: "one" | "two"): string => ((1000 * cpuSeconds[setup]) / answers[setup]).toFixed(2);
    // What the machine serves flat out: here the two cpus bound it, not the bot.
    await world.discord.setInteractionsEndpoint(one, { verify: false });
    const oneRate = CLOSED_TOTAL / (await closedLoop(ask, CLOSED_TOTAL, IN_FLIGHT));
    await world.discord.setInteractionsEndpoint(both, { verify: false });
    const twoRate = CLOSED_TOTAL / (await closedLoop(ask, CLOSED_TOTAL, IN_FLIGHT));
    lines.push(
      `cached /contents at ${PER_PROCESS_RATE}/s for each process (${TURNS} turns of ${TURN_SECONDS} s for each setup, in alternation, after ${CLOSED_TOTAL.toLocaleString("en")} to warm both), per CPU-second of the bot processes: one process ${onePerCpu.toFixed(0)} answers (${msEach("one")} ms each)  two processes ${twoPerCpu.toFixed(0)} (${msEach("two")} ms)  ratio ${(twoPerCpu / onePerCpu).toFixed(2)}×  (goal of issue 23: within 10%, ≥ 0.90×)`,
      `flat out, ${IN_FLIGHT} in flight, ${CLOSED_TOTAL.toLocaleString("en")} each:  one process ${oneRate.toFixed(0)}/s  two processes ${twoRate.toFixed(0)}/s  ratio ${(twoRate / oneRate).toFixed(2)}×`,
    );
    if (placement.bots[0] === null)
      lines.push(
        `  (${cpuCount()} cpus here run both bot processes, the local Discord, the GitHub stand-in and this load generator:`,
        "   flat out, the cpus bound the ratio, not the bot; on a machine with a core per process expect close to 2×)",
      );
    const figures = [
      {
        name: "answers per CPU-second of the bot processes, on one Redis",
        who: "two processes",
        value: twoPerCpu,
        baseline: { name: "one process", value: onePerCpu },
        goal: "within 10% of one process (≥ 0.90×)",
      },
    ];
    if (!upstream) return { lines, figures };

    const withRedis = await identicalCalls(world, "docs");
    const [c, d] = await Promise.all([startBotProcess(world, {}), startBotProcess(world, {})]);
    processes.push(c!, d!);
    await world.discord.setInteractionsEndpoint([c!.url!, d!.url!], { verify: false });
    const withoutRedis = await identicalCalls(world, "docs/guide");
    lines.push(
      `upstream calls, 20 identical concurrent /contents across 2 processes: on one Redis ${withRedis}  on their own stores ${withoutRedis}`,
      "  (each /contents of a branch makes one request to GitHub when nothing is cached)",
    );
    return { lines, figures };
  } finally {
    await Promise.all(processes.map((process) => process.stop()));
    await world.close();
    await redis.stop();
    placement.release();
  }
}

export async function benchTwoProcesses(): Promise<string[]> {
  return (await measureTwoProcesses()).lines;
}
