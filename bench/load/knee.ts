/**
 * The knee and the overload (issues 12 and 23): the highest rate of mixed interactions one process
 * holds (p99 first response under 1 s, no late acknowledgement), over the gateway and over HTTP,
 * RepoScout beside the bare discord.js bot; then the overload, 1,600/s for 10 seconds (the issue's
 * goal rate), from a cold start (a new data folder; and a restart, on the folder of a process
 * before it) and after a warm-up apart, RepoScout beside the bare bot sending the very message
 * RepoScout answers a cached /blame with: how every interaction ended, p50 and p99, time in GC and
 * peak RSS; and once more from a cold start with another busy process on the bot's cpu, which
 * halves the cpu the bot gets. Alone: `npx tsx bench/load/knee.ts [--quick]`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import type { Figure, Measured } from "../figures.js";
import { EARLY_MS, holds, runAtRate, type RateResult, type RequestMaker } from "./rates.js";
import { mixed, placed } from "./mix.js";
import { placeBots } from "./pinning.js";
import { keptData, startBareBot, startRepoScout, type BotProcess, type KeptData } from "./processes.js";
import { cachedBlameMessage } from "./sideBySide.js";
import { startLoadStandIns, type LoadStandIns } from "./standIns.js";

type Transport = "gateway" | "http";
type Who = "RepoScout" | "bare discord.js bot";
/**
 * cold: a process just started, its data folder new (a first start: every question's first answer
 * read from GitHub during the run); restart: a process just started on the data folder of the one
 * before it, which answered the same questions (a deploy or a crash: the answers cached, the
 * process's code and memory cold); warm: a process that answered some interactions first.
 */
type Phase = "cold" | "restart" | "warm";
/** A phase as the overload lines name it (a cold start on a cpu shared with a busy process too). */
type PhaseLabel = Phase | "cold, shared cpu";

const GUILDS = 50;

/**
 * Starts a bot of `who` on `transport` against `stand`, pointed at by the local Discord, on `cpus`;
 * the bare bot answers with `message` when given; RepoScout starts on the `kept` data folder when
 * given (a restart).
 */
async function startBot(
  stand: LoadStandIns,
  who: Who,
  transport: Transport,
  { cpus, message, kept }: { cpus: string | null; message?: unknown; kept?: KeptData | undefined },
): Promise<BotProcess> {
  const http = transport === "http";
  const bot =
    who === "RepoScout"
      ? await startRepoScout(stand.at, {
          http,
          cpus,
          ...(kept ? { kept } : {}),
          // The fair-use share would turn a load run's answers into "budget used up" errors.
          env: { DEFAULT_TOKEN_SHARE: "1" },
          ...(http ? {} : { ready: () => stand.discord.waitForGatewaySession({ timeoutMs: 60_000 }) }),
        })
      : await startBareBot(stand.at, { http, cpus, ...(message === undefined ? {} : { message }) });
  if (http) await stand.discord.setInteractionsEndpoint(bot.url!, { verify: who === "RepoScout" });
  return bot;
}

/** Every question once, then a short warm run: JIT, sockets and caches as in a bot that runs. */
async function warm(stand: LoadStandIns, bot: BotProcess, make: RequestMaker): Promise<void> {
  for (let n = 0; n < 8; n++) {
    const handle = await stand.discord.interact(make(n));
    await handle.waitForAnswer({ timeoutMs: 30_000 }).catch(() => undefined);
  }
  await runAtRate(stand, bot, make, { rate: 50, seconds: 2 });
}

const percent = (share: number): string => `${(share * 100).toFixed(0)}%`;

/**
 * How busy the load driver (the local Discord, the GitHub stand-in, the load loop: one process)
 * was while it sent: near 100%, what a line measures is the driver's limit as much as the bot's.
 */
function driverWords(result: RateResult): string {
  const behind = result.sentRate < 0.95 * result.rate ? " (behind its schedule)" : "";
  const waiting = Number.isFinite(result.driverWaiting)
    ? `, waiting for its cpu ${percent(result.driverWaiting)}`
    : "";
  return `driver sent at ${result.sentRate.toFixed(0)}/s${behind}, busy ${percent(result.driverBusy)} (busiest second ${percent(result.driverPeakBusy)}, ${result.driverCpuMsPerInteraction.toFixed(2)} ms/interaction${waiting})`;
}

function stepLine(who: Who, result: RateResult): string {
  return `  ${who.padEnd(20)} ${String(result.rate).padStart(4)}/s: p50 ${result.p50.toFixed(0).padStart(4)} ms  p99 ${result.p99.toFixed(0).padStart(5)} ms  late ${String(result.late).padStart(4)}/${result.sent}  CPU ${result.cpuMsPerInteraction.toFixed(2)} ms/interaction  peak RSS ${result.peakRssMb.toFixed(0)} MB  ${driverWords(result)}${holds(result) ? "" : "  (does not hold)"}`;
}

async function steps(
  who: Who,
  transport: Transport,
  rates: number[],
  seconds: number,
  cpus: string | null,
): Promise<{ lines: string[]; knee: number }> {
  const stand = await startLoadStandIns({ guilds: GUILDS });
  const bot = await startBot(stand, who, transport, { cpus });
  const make = placed(stand, GUILDS, mixed);
  const lines: string[] = [];
  let knee = 0;
  try {
    await warm(stand, bot, make);
    for (const rate of rates) {
      const result = await runAtRate(stand, bot, make, { rate, seconds });
      lines.push(stepLine(who, result));
      if (holds(result)) knee = Math.max(knee, rate);
      else if (result.late > result.sent / 2) break; // far past the knee: the next steps say nothing more
    }
  } finally {
    await bot.stop();
    await stand.close();
  }
  return { lines, knee };
}

/**
 * One overload run: a bot just started (cold: the run's first interaction is the first it ever
 * gets; restart: the same, on the data folder of a process before it) or warmed up first (warm),
 * then `rate` mixed interactions a second for `seconds`, from a load driver warmed first
 * ({@link warmDriver}). A warm RepoScout also says what it answers a cached /blame with, for the
 * bare bot to send.
 */
async function overload(
  who: Who,
  transport: Transport,
  phase: Phase,
  options: { rate: number; seconds: number; cpus: string | null; message?: unknown; shared?: boolean },
): Promise<{ result: RateResult; message?: unknown }> {
  if (phase === "restart" && who !== "RepoScout")
    throw new Error("only RepoScout keeps a cache to restart on");
  const stand = await startLoadStandIns({ guilds: GUILDS, maxInteractions: 30_000 });
  const make = placed(stand, GUILDS, mixed);
  // A restart's data folder is the driver's warm-up bot's: what it answered is what the run asks.
  const kept = phase === "restart" ? await keptData() : undefined;
  await warmDriver(stand, who, transport, options, make, kept);
  const neighbour = options.shared && options.cpus ? busyNeighbour(options.cpus) : null;
  const bot = await startBot(stand, who, transport, { ...options, kept });
  try {
    let message: unknown;
    if (phase === "warm") {
      await warm(stand, bot, make);
      if (who === "RepoScout") message = await cachedBlameMessage(stand, GUILDS);
    }
    collectDriverGarbage();
    const result = await runAtRate(stand, bot, make, {
      rate: options.rate,
      seconds: options.seconds,
      judge: true,
      drainMs: 120_000,
    });
    return { result, message };
  } finally {
    neighbour?.kill("SIGKILL");
    await bot.stop();
    await kept?.remove();
    await stand.close();
  }
}

/**
 * Collects the load driver's garbage before a measured run: what its warm-up left (some 3,000
 * interactions, the bot it warmed with, their connections) was otherwise collected in the run's
 * first seconds, while the driver's cpu was already full (87-99% of it in the first 2 s, cold, both
 * transports), and the driver's pauses read as the bot's latency. Five cold runs over HTTP, with
 * against without: p99 of the first 2 s 349-532 ms against 759-999; three over the gateway 165-234
 * against 249-455. The overload's driver runs with `--expose-gc` ({@link overloadApart}).
 */
function collectDriverGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("the overload's load driver must run with --expose-gc");
  gc();
}

/** How long the load driver is warmed before each overload run ({@link warmDriver}). */
const DRIVER_WARM_SECONDS = 4;

/**
 * Warms the load driver before a run, with a bot of the same kind that is then stopped: the run's
 * bot (cold or warm) meets a driver whose local Discord and GitHub stand-in have compiled their
 * code, as the real services have. A driver started cold was the limit for the first 2-2.5 s of
 * every cold 1,600/s run: its cpu read 92-100% and it fell up to 0.74 s behind its schedule (then
 * sending in bursts), while the bot's read 63-82%. That is where the run's p99 came from (p99 of
 * 150-400 ms in those seconds, 2-50 ms after them). The warm-up sends at half the run's rate for
 * {@link DRIVER_WARM_SECONDS}, which holds on one cpu, through the same mix.
 */
async function warmDriver(
  stand: LoadStandIns,
  who: Who,
  transport: Transport,
  options: { rate: number; cpus: string | null; message?: unknown },
  make: RequestMaker,
  kept?: KeptData,
): Promise<void> {
  const bot = await startBot(stand, who, transport, { ...options, kept });
  try {
    await warm(stand, bot, make);
    await runAtRate(stand, bot, make, { rate: options.rate / 2, seconds: DRIVER_WARM_SECONDS });
  } finally {
    await bot.stop();
  }
}

/**
 * Another busy process on the bot's cpu (`cpus`), from before the bot starts to the end of the run:
 * the machine a bot shares with others, which halves the cpu the bot gets. Where 1,600/s is then past
 * what the bot answers, what is measured is how it degrades: late answers, or slower ones.
 */
function busyNeighbour(cpus: string): ChildProcess {
  const child = spawn("taskset", ["-c", cpus, process.execPath, "-e", "for (;;);"], { stdio: "ignore" });
  child.on("error", (error) => console.error(`the busy neighbour did not start: ${error.message}`));
  return child;
}

const OVERLOAD_CHILD = "--overload-child";

/**
 * The overload's load driver collects its garbage on its main thread alone when it has one cpu (a
 * two-cpu machine, the bot pinned to the other: ./pinning.ts). There V8's parallel collection
 * splits each pause among four helper threads that take turns on that one cpu, and its concurrent
 * marking takes the cpu from the thread that answers. The driver's main thread then waited,
 * runnable, 15.5-18.0% of a cold 1,600/s run over HTTP (/proc/self/schedstat), up to 156-162 ms of
 * a 200 ms reading, while the bot's responses waited to be read. With this flag, three runs against
 * three alternating: 4.9-5.6%, at most 78-93 ms, and 0.62-0.67 ms of the driver's cpu per
 * interaction against 0.69-0.80; over the gateway, three pairs, 6.5-6.7% against 15.0-18.2%. (The
 * bot runs with V8's defaults, as an operator runs it.)
 */
function driverNodeFlags(): string[] {
  return availableParallelism() === 1 ? ["--single-threaded-gc"] : [];
}

/**
 * {@link overload} in a load driver of its own (a new process running this file, on the cpus this
 * one was given): each run meets a driver and stand-ins in the same state, not one grown and
 * collecting garbage from every run before it, whose pauses read as the bot's latency.
 */
async function overloadApart(
  ...args: Parameters<typeof overload>
): Promise<{ result: RateResult; message?: unknown }> {
  const child = spawn(
    process.execPath,
    [
      "--expose-gc",
      ...driverNodeFlags(),
      "--import",
      "tsx",
      fileURLToPath(import.meta.url),
      OVERLOAD_CHILD,
      JSON.stringify(args),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += String(chunk)));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const last = output.trim().split("\n").at(-1) ?? "";
  if (code !== 0 || !last.startsWith("{"))
    throw new Error(`an overload run failed (exit ${code}): ${output.slice(-2_000)}`);
  const parsed = JSON.parse(last) as { result: RateResult; message?: unknown };
  // JSON writes NaN (a percentile of nothing: every first response late, say) as null.
  for (const [key, value] of Object.entries(parsed.result))
    if (value === null) Object.assign(parsed.result, { [key]: NaN });
  return parsed;
}

/** Milliseconds, whole, or "–" when there were none to measure. */
const wholeMs = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(0)} ms` : "–");

const ratio = (ours: number, theirs: number): string => `${(ours / theirs).toFixed(2)}×`;

function overloadLine(phase: PhaseLabel, who: Who, result: RateResult, bare?: RateResult): string {
  const { answered, busy, error, unanswered } = result.outcomes;
  const beside = bare
    ? `  GC ${ratio(result.gcMs, bare.gcMs)} and peak RSS ${ratio(result.peakRssMb, bare.peakRssMb)} the bare bot's`
    : "";
  return `  ${phase}  ${who.padEnd(20)} late ${result.late}/${result.sent}  answered ${answered}  busy ${busy}  error ${error}  no answer ${unanswered}  p50 ${wholeMs(result.p50)}  p99 ${wholeMs(result.p99)} (sent in the first ${EARLY_MS / 1_000} s ${wholeMs(result.p99Early)}, after ${wholeMs(result.p99After)}; cpu in the first ${EARLY_MS / 1_000} s: bot ${percent(result.botBusyEarly)} (its main thread ${percent(result.botMainBusyEarly)}), driver ${percent(result.driverBusyEarly)})  deferred ${result.deferred}  answer p50 ${wholeMs(result.answerP50)}  p99 ${wholeMs(result.answerP99)}  GC ${wholeMs(result.gcMs)}  peak RSS ${result.peakRssMb.toFixed(0)} MB${beside}  ${driverWords(result)}`;
}

/** The figures of one overload line of RepoScout's, each beside the bare bot's. */
function overloadFigures(label: string, ours: RateResult, bare: RateResult): Figure[] {
  const figure = (name: string, value: (r: RateResult) => number, goal: string): Figure => ({
    name: `${label}: ${name}`,
    value: value(ours),
    baseline: { name: "same-message bare bot", value: value(bare) },
    goal,
  });
  return [
    figure("late acknowledgements", (r) => r.late, "0"),
    figure("p99 first response, ms", (r) => r.p99, "< 250 ms"),
    figure(
      `p99 first response of the first ${EARLY_MS / 1_000} s, ms`,
      (r) => r.p99Early,
      "informative: the start's tail apart",
    ),
    figure(
      `p99 first response after the first ${EARLY_MS / 1_000} s, ms`,
      (r) => r.p99After,
      "informative: the steady state's",
    ),
    figure("GC, ms", (r) => r.gcMs, "≤ 1.5× the bare bot's"),
    figure("peak RSS, MB", (r) => r.peakRssMb, "≤ 1.5× the bare bot's"),
    figure(
      "rate the load driver sent at, /s",
      (r) => r.sentRate,
      "the asked rate (below it, the driver could not keep its schedule and set the pace: issue 23 item 6)",
    ),
    figure(
      `load driver's cpu in the first ${EARLY_MS / 1_000} s, %`,
      (r) => r.driverBusyEarly * 100,
      "informative: near 100%, the driver's queue is in the first responses' times",
    ),
    figure(`bot's cpu in the first ${EARLY_MS / 1_000} s, %`, (r) => r.botBusyEarly * 100, "informative"),
    figure(
      `bot's main thread's cpu in the first ${EARLY_MS / 1_000} s, %`,
      (r) => r.botMainBusyEarly * 100,
      "informative: the rest of the bot's is V8's helper threads (compilation, GC) on the same cpu",
    ),
    figure(
      "load driver's main thread waiting for its cpu, % of the run",
      (r) => r.driverWaiting * 100,
      "informative: while it waits, the bot's responses wait to be read, and the wait is in their times",
    ),
    figure(
      "load driver's busiest second, % of its cpu",
      (r) => r.driverPeakBusy * 100,
      "well under 100% (near it, the driver and not the bot sets the figures: issue 23 item 6)",
    ),
  ];
}

/**
 * The overload (issue 23 goals): 1,600/s for 10 s (--quick: 800/s for 4 s), over each transport,
 * cold and warm apart, RepoScout beside the bare bot sending RepoScout's cached /blame message.
 */
async function overloads(quick: boolean, cpus: string | null): Promise<Measured> {
  const rate = quick ? 800 : 1_600;
  const seconds = quick ? 4 : 10;
  const lines: string[] = [];
  const figures: Figure[] = [];
  for (const transport of ["gateway", "http"] as const) {
    lines.push(
      `overload, ${transport}: ${rate.toLocaleString("en")}/s mixed interactions for ${seconds} s, from a cold start (a new data folder: every question's first answer read from GitHub in the run), from a restart (a new process on the data folder of one that answered the same questions: the cache kept), after a warm-up, and from a cold start on a cpu shared with a busy process; the bare bot sends RepoScout's cached /blame message  (goal: 0 late, p99 < 250 ms, GC ≤ 1.5× and peak RSS ≤ 1.5× the bare bot's)`,
    );
    const run = { rate, seconds, cpus };
    const cold = (await overloadApart("RepoScout", transport, "cold", run)).result;
    const restart = (await overloadApart("RepoScout", transport, "restart", run)).result;
    const { result: warmed, message } = await overloadApart("RepoScout", transport, "warm", run);
    if (message === undefined)
      lines.push("  (RepoScout's cached /blame was not a message at once: the bare bot answers 'ok')");
    const bare = { ...run, message };
    const bareCold = (await overloadApart("bare discord.js bot", transport, "cold", bare)).result;
    const bareWarm = (await overloadApart("bare discord.js bot", transport, "warm", bare)).result;
    lines.push(
      overloadLine("cold", "RepoScout", cold, bareCold),
      overloadLine("cold", "bare discord.js bot", bareCold),
      overloadLine("restart", "RepoScout", restart, bareCold),
      overloadLine("warm", "RepoScout", warmed, bareWarm),
      overloadLine("warm", "bare discord.js bot", bareWarm),
    );
    figures.push(
      ...overloadFigures(`overload cold, ${transport}`, cold, bareCold),
      ...overloadFigures(`overload restart (cache kept), ${transport}`, restart, bareCold),
      ...overloadFigures(`overload warm, ${transport}`, warmed, bareWarm),
    );
    if (cpus === null) {
      lines.push("  shared cpu: not measured (the bot has no cpu of its own to share)");
      continue;
    }
    const shared = { ...run, shared: true };
    const sharedOurs = (await overloadApart("RepoScout", transport, "cold", shared)).result;
    const sharedBare = (await overloadApart("bare discord.js bot", transport, "cold", { ...shared, message }))
      .result;
    lines.push(
      overloadLine("cold, shared cpu", "RepoScout", sharedOurs, sharedBare),
      overloadLine("cold, shared cpu", "bare discord.js bot", sharedBare),
    );
    figures.push({
      name: `overload cold on a shared cpu, ${transport}: late acknowledgements`,
      value: sharedOurs.late,
      baseline: { name: "same-message bare bot", value: sharedBare.late },
      goal: "0 (another busy process on the bot's cpu: past capacity, answers slow down rather than come late)",
    });
  }
  return { lines, figures };
}

/** The overload alone, its bot pinned away from the driver when the machine allows (the goals runner). */
export async function measureOverload(quick = false): Promise<Measured> {
  const placement = placeBots();
  try {
    const measured = await overloads(quick, placement.bots[0]!);
    return { lines: [placement.line, ...measured.lines], figures: measured.figures };
  } finally {
    placement.release();
  }
}

export async function benchKnee(quick = false): Promise<string[]> {
  const placement = placeBots();
  const cpus = placement.bots[0]!;
  try {
    const rates = quick ? [100, 300] : [150, 300, 450, 600, 800];
    const seconds = quick ? 3 : 5;
    const lines: string[] = [placement.line];
    for (const transport of ["gateway", "http"] as const) {
      lines.push(
        `${transport}: mixed interactions (cached and first-time blame, contents, repos, contributors, whoami; ${GUILDS} servers, their members)`,
      );
      const ours = await steps("RepoScout", transport, rates, seconds, cpus);
      const bare = await steps("bare discord.js bot", transport, rates, seconds, cpus);
      lines.push(...ours.lines, ...bare.lines);
      lines.push(
        `  knee (p99 < 1 s, no late acknowledgement): RepoScout ${ours.knee || "<" + rates[0]!}/s  bare bot ${bare.knee || "<" + rates[0]!}/s${bare.knee ? `  ratio ${(ours.knee / bare.knee).toFixed(2)}×` : ""}  (before issue 12: about 300/s; goal 600/s)`,
      );
    }
    lines.push(...(await overloads(quick, cpus)).lines);
    return lines;
  } finally {
    placement.release();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const child = process.argv.indexOf(OVERLOAD_CHILD);
  if (child > 0) {
    // One overload run for the parent (see overloadApart): its figures as the last line.
    const [who, transport, phase, options] = JSON.parse(process.argv[child + 1]!) as Parameters<
      typeof overload
    >;
    console.log(JSON.stringify(await overload(who, transport, phase, options)));
  } else {
    for (const line of await benchKnee(process.argv.includes("--quick"))) console.log(line);
  }
  process.exit(0);
}
