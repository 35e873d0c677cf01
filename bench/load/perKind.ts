/**
 * Per kind of question: the CPU RepoScout's process spends per interaction (each kind alone at a
 * steady rate), and the cached answer's time from interaction to reply, beside the bare discord.js
 * bot sending the very same message (its own process and local Discord, asked in alternation with
 * RepoScout), over the gateway and over HTTP. Alone: `npx tsx bench/load/perKind.ts [--quick]`.
 */
import type { InteractionRequest } from "../../src/sandbox/discord/index.js";
import { DEMO_PATHS } from "../../src/sandbox/github/index.js";
import type { Figure, Measured } from "../figures.js";
import { KINDS, placed } from "./mix.js";
import { placeBots } from "./pinning.js";
import { cpuMs, startBareBot, startRepoScout, type BotProcess } from "./processes.js";
import { percentile, runAtRate } from "./rates.js";
import { startLoadStandIns, type LoadStandIns } from "./standIns.js";

const GUILDS = 20;

/** Interaction to final answer, one at a time (the bot's latency, not its throughput). */
async function roundTrips(
  stand: LoadStandIns,
  request: InteractionRequest,
  count: number,
): Promise<number[]> {
  const make = placed(stand, GUILDS, () => request);
  const times: number[] = [];
  for (let n = 0; n < count; n++) {
    const started = performance.now();
    const handle = await stand.discord.interact(make(n));
    await handle.waitForAnswer({ timeoutMs: 20_000 });
    times.push(performance.now() - started);
  }
  return times;
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

/** One interaction, and the time until its answer (the bot's latency, not its throughput). */
async function roundTrip(stand: LoadStandIns, request: InteractionRequest, n: number): Promise<number> {
  const make = placed(stand, GUILDS, () => request);
  const started = performance.now();
  const handle = await stand.discord.interact(make(n));
  await handle.waitForAnswer({ timeoutMs: 20_000 });
  return performance.now() - started;
}

/**
 * Cached /blame, one at a time, to RepoScout over `transport` and to the bare bot (the bare HTTP
 * endpoint, no signature check) sending RepoScout's very message, in alternation: RepoScout, then
 * the bare bot, then the bare bot first, and so on. Each bot has a local Discord of its own (one
 * application each, the same GitHub), and both processes run through the whole measure, so what
 * the machine does meanwhile falls on both alike: measured one after the other, 220 interactions
 * apart, the same ratio moved from 0.98× to 1.64× between runs minutes apart. Only one bot works at
 * any moment. `withRepoScout` and `withBare` run with each bot once the round trips are done (the
 * CPU figures), each while the other bot is idle or stopped.
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
  const http = transport === "http";
  const cached = KINDS["blame (cached)"];
  const ourStand = await startLoadStandIns({ guilds: GUILDS });
  let bareStand: LoadStandIns | null = null;
  let ours: BotProcess | null = null;
  let bare: BotProcess | null = null;
  try {
    ours = await startRepoScout(ourStand.at, {
      http,
      cpus: options.cpus,
      env: { DEFAULT_TOKEN_SHARE: "1" },
      ...(http ? {} : { ready: () => ourStand.discord.waitForGatewaySession({ timeoutMs: 60_000 }) }),
    });
    if (http) await ourStand.discord.setInteractionsEndpoint(ours.url!, { verify: true });
    // The very message RepoScout answers a cached /blame with (its first response, type 4): the
    // bare bot sends the same (issue 23), so the ratio is the bot's overhead, not the message's size.
    const record = await (
      await ourStand.discord.interact(placed(ourStand, GUILDS, () => cached)(0))
    ).waitForAnswer({ timeoutMs: 20_000 });
    const first = record.callbacks[0];
    const message = first?.type === 4 ? first.data : undefined;
    bareStand = await startLoadStandIns({ guilds: GUILDS, github: ourStand.github });
    bare = await startBareBot(bareStand.at, { http, message, cpus: options.cpus });
    if (http) await bareStand.discord.setInteractionsEndpoint(bare.url!, { verify: false });
    const oursTimes: number[] = [];
    const bareTimes: number[] = [];
    // 20 of each first, not counted: sockets open, the first answers' compilation.
    for (let n = 0; n < 20 + options.count; n++) {
      const pair =
        n % 2 === 0
          ? [await roundTrip(ourStand, cached, n), await roundTrip(bareStand, cached, n)]
          : [await roundTrip(bareStand, cached, n), await roundTrip(ourStand, cached, n)].reverse();
      if (n < 20) continue;
      oursTimes.push(pair[0]!);
      bareTimes.push(pair[1]!);
    }
    await options.withRepoScout?.(ourStand, ours);
    await ours.stop();
    ours = null;
    await options.withBare?.(bareStand, bare);
    return { ours: oursTimes, bare: bareTimes, message };
  } finally {
    await ours?.stop();
    await bare?.stop();
    await bareStand?.close();
    await ourStand.close();
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
          await roundTrips(stand, request, 3);
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
