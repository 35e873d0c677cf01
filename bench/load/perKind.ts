/**
 * Per kind of question: the CPU RepoScout's process spends per interaction (each kind alone at a
 * steady rate), and the cached answer's time from interaction to reply, beside the bare discord.js
 * bot sending the very same message (its own process and local Discord, asked in alternation with
 * RepoScout), over the gateway and over HTTP. Alone: `npx tsx bench/load/perKind.ts [--quick]`.
 */
import { DEMO_PATHS } from "../../src/sandbox/github/index.js";
import type { Figure, Measured } from "../figures.js";
import { KINDS, placed } from "./mix.js";
import { placeBots } from "./pinning.js";
import { cpuMs, type BotProcess } from "./processes.js";
import { percentile, runAtRate, type RequestMaker } from "./rates.js";
import { startSideBySide } from "./sideBySide.js";
import type { LoadStandIns } from "./standIns.js";

const GUILDS = 20;

/** One interaction, and the time until its answer (the bot's latency, not its throughput). */
async function roundTrip(stand: LoadStandIns, make: RequestMaker, n: number): Promise<number> {
  const started = performance.now();
  const handle = await stand.discord.interact(make(n));
  await handle.waitForAnswer({ timeoutMs: 20_000 });
  return performance.now() - started;
}

/** Blames at commits not asked before (each a first time), as long as the demo history lasts. */
async function uncachedCpu(stand: LoadStandIns, bot: BotProcess, count: number): Promise<number> {
  const repository = stand.github.world.repository("demo", "widgets")!;
  const { execFileSync } = await import("node:child_process");
  const commits = execFileSync(
    "git",
    ["--git-dir", repository.gitDir, "log", "--format=%H", "main", "--", DEMO_PATHS.engine],
    {
      encoding: "utf8",
    },
  )
    .trim()
    .split("\n")
    .slice(0, count);
  const make = placed(stand, GUILDS, (n) => ({
    kind: "slash",
    name: "blame",
    options: {
      repo: "demo/widgets",
      path: DEMO_PATHS.engine,
      ref: commits[n % commits.length]!,
      lines: "1-40",
    },
  }));
  const before = cpuMs(bot.pid);
  for (let n = 0; n < commits.length; n++) {
    const handle = await stand.discord.interact(make(n));
    await handle.waitForAnswer({ timeoutMs: 20_000 });
  }
  return (cpuMs(bot.pid) - before) / commits.length;
}

type Transport = "gateway" | "http";

/** What one transport's cached round trips gave. */
interface CachedRoundTrips {
  ours: number[];
  bare: number[];
  /** RepoScout's cached /blame message, which the bare bot sent (undefined: it sent "ok"). */
  message: unknown;
}

/**
 * Cached /blame, one at a time, to RepoScout over `transport` and to the bare bot (the bare HTTP
 * endpoint, no signature check) sending RepoScout's very message, in alternation: RepoScout, then
 * the bare bot, then the bare bot first, and so on, both up throughout (./sideBySide.ts). Measured
 * one after the other, 220 interactions apart, the same ratio moved from 0.98× to 1.64× between
 * runs minutes apart. Only one bot works at any moment. `withRepoScout` and `withBare` run with
 * each bot once the round trips are done (the CPU figures), each while the other bot is idle or
 * stopped.
 */
async function cachedRoundTrips(
  transport: Transport,
  options: {
    count: number;
    cpus: string | null;
    withRepoScout?: (stand: LoadStandIns, bot: BotProcess) => Promise<void>;
    withBare?: (stand: LoadStandIns, bot: BotProcess) => Promise<void>;
  },
): Promise<CachedRoundTrips> {
  const pair = await startSideBySide({ transport, guilds: GUILDS, cpus: options.cpus });
  const { ours, bare } = pair;
  const oursMake = placed(ours.stand, GUILDS, () => KINDS["blame (cached)"]);
  const bareMake = placed(bare.stand, GUILDS, () => KINDS["blame (cached)"]);
  try {
    const oursTimes: number[] = [];
    const bareTimes: number[] = [];
    // 20 of each first, not counted: sockets open, the first answers' compilation.
    for (let n = 0; n < 20 + options.count; n++) {
      const [oursMs, bareMs] =
        n % 2 === 0
          ? [await roundTrip(ours.stand, oursMake, n), await roundTrip(bare.stand, bareMake, n)]
          : [await roundTrip(bare.stand, bareMake, n), await roundTrip(ours.stand, oursMake, n)].reverse();
      if (n < 20) continue;
      oursTimes.push(oursMs!);
      bareTimes.push(bareMs!);
    }
    await options.withRepoScout?.(ours.stand, ours.bot);
    await pair.stopOurs();
    await options.withBare?.(bare.stand, bare.bot);
    return { ours: oursTimes, bare: bareTimes, message: pair.message };
  } finally {
    await pair.close();
  }
}

const p50Figure = (transport: Transport, trips: CachedRoundTrips): Figure => ({
  name: `cached /blame p50, interaction to reply, ${transport}, ms`,
  value: percentile(trips.ours, 50),
  baseline: { name: "same-message bare bot", value: percentile(trips.bare, 50) },
  goal: transport === "gateway" ? "≤ 1.05× the bare bot's" : "≤ 1.3× the bare endpoint's, signature checked",
});

function gatewayLine(trips: CachedRoundTrips): string {
  const p50 = percentile(trips.ours, 50);
  const bareP50 = percentile(trips.bare, 50);
  return `cached /blame, interaction to reply: RepoScout p50 ${p50.toFixed(1)} ms (p90 ${percentile(trips.ours, 90).toFixed(1)})  ${trips.message === undefined ? "bare bot's 'ok'" : "same-message bare bot's"} reply p50 ${bareP50.toFixed(1)} ms  ratio ${(p50 / bareP50).toFixed(2)}×  (before issue 12: 2.7×; goal ≤ 1.2×)`;
}

function httpLine(trips: CachedRoundTrips): string {
  const p50 = percentile(trips.ours, 50);
  const bareP50 = percentile(trips.bare, 50);
  return `cached /blame over HTTP, interaction to reply: RepoScout p50 ${p50.toFixed(1)} ms (p90 ${percentile(trips.ours, 90).toFixed(1)}, signature checked)  ${trips.message === undefined ? "bare endpoint's 'ok'" : "same-message bare HTTP endpoint's"} reply p50 ${bareP50.toFixed(1)} ms  ratio ${(p50 / bareP50).toFixed(2)}×  (goal of issue 23: ≤ 1.3×)`;
}

/** The cached answer beside the same-message bare bot, gateway and HTTP, alone (the goals runner). */
export async function measureCachedRatios(quick = false): Promise<Measured> {
  const placement = placeBots();
  try {
    const count = quick ? 60 : 200;
    const gateway = await cachedRoundTrips("gateway", { count, cpus: placement.bots[0]! });
    const http = await cachedRoundTrips("http", { count, cpus: placement.bots[0]! });
    return {
      lines: [placement.line, gatewayLine(gateway), httpLine(http)],
      figures: [p50Figure("gateway", gateway), p50Figure("http", http)],
    };
  } finally {
    placement.release();
  }
}

export async function measurePerKind(quick = false): Promise<Measured> {
  const seconds = quick ? 2 : 4;
  const rate = 150;
  const count = quick ? 60 : 200;
  const placement = placeBots();
  const cpus = placement.bots[0]!;
  try {
    const cpu: Array<[string, number]> = [];
    let bareCpu = NaN;
    const gateway = await cachedRoundTrips("gateway", {
      count,
      cpus,
      withRepoScout: async (stand, bot) => {
        for (const [kind, request] of Object.entries(KINDS)) {
          const make = placed(stand, GUILDS, () => request);
          for (let n = 0; n < 3; n++) await roundTrip(stand, make, n);
          const result = await runAtRate(
            stand,
            bot,
            placed(stand, GUILDS, () => request),
            { rate, seconds },
          );
          cpu.push([kind, result.cpuMsPerInteraction]);
        }
        cpu.push([
          "blame (first time, a commit not asked before)",
          await uncachedCpu(stand, bot, quick ? 10 : 30),
        ]);
      },
      withBare: async (stand, bot) => {
        bareCpu = (
          await runAtRate(
            stand,
            bot,
            placed(stand, GUILDS, () => KINDS["blame (cached)"]),
            { rate, seconds },
          )
        ).cpuMsPerInteraction;
      },
    });
    const http = await cachedRoundTrips("http", { count, cpus });
    const lines = [placement.line, gatewayLine(gateway)];
    lines.push(httpLine(http));
    lines.push(
      `CPU per interaction at ${rate}/s (bot process, /proc), bare discord.js bot: ${bareCpu.toFixed(2)} ms  (before issue 12: RepoScout 3.3–4 ms against about 1)`,
    );
    for (const [kind, ms] of cpu)
      lines.push(`  ${kind.padEnd(46)} ${ms.toFixed(2)} ms  ${(ms / bareCpu).toFixed(1)}× the bare bot`);
    return { lines, figures: [p50Figure("gateway", gateway), p50Figure("http", http)] };
  } finally {
    placement.release();
  }
}

export async function benchPerKind(quick = false): Promise<string[]> {
  return (await measurePerKind(quick)).lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchPerKind(process.argv.includes("--quick"))) console.log(line);
  process.exit(0);
}
