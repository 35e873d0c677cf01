/**
 * HTTP CPU per interaction (issue 23 item 4): cached /blame at a steady rate to RepoScout in HTTP
 * mode (signature checked) and to the bare HTTP endpoint (no check) sending the very same message,
 * side by side (./sideBySide.ts); the CPU of the bot's process per interaction from /proc. They take
 * turns, in slices of 2 s (RepoScout, bare, bare, RepoScout, ...), at two rates: 200/s, where each
 * interaction meets a process that was idle, and 800/s, where a busy one does. `--profile <dir>`:
 * RepoScout writes a V8 CPU profile there when it stops. Alone: `npx tsx bench/load/httpCpu.ts
 * [--quick] [--profile dir]`.
 */
import type { Measured } from "../figures.js";
import { KINDS, placed } from "./mix.js";
import { placeBots } from "./pinning.js";
import type { BotProcess } from "./processes.js";
import { runAtRate } from "./rates.js";
import { startSideBySide } from "./sideBySide.js";
import type { LoadStandIns } from "./standIns.js";

const GUILDS = 20;
const SLICE_SECONDS = 2;
/** The rates measured: a process idle between interactions, and a busy one. */
const RATES = [200, 800] as const;
/**
 * The warm-up before the slices, {@link WARM_RATE}/s for {@link WARM_SECONDS} s (--quick: a
 * fifth). After 400 interactions only (5 s of slices at 200/s), the slices still paid for V8
 * compiling the path on its helper threads: the bare endpoint's 200/s figure fell from 0.68 to
 * 0.41 ms, RepoScout's from 1.41 to 0.90 ms, once 8,000 more had run first.
 */
const WARM_RATE = 800;
const WARM_SECONDS = 10;

/** A few answers one at a time, then the warm-up: sockets open, the path compiled. */
async function warm(stand: LoadStandIns, bot: BotProcess, seconds: number): Promise<void> {
  const make = placed(stand, GUILDS, () => KINDS["blame (cached)"]);
  for (let n = 0; n < 5; n++)
    await (await stand.discord.interact(make(n))).waitForAnswer({ timeoutMs: 20_000 });
  await runAtRate(stand, bot, make, { rate: WARM_RATE, seconds });
}

type Pair = Awaited<ReturnType<typeof startSideBySide>>;

/**
 * Mean CPU per interaction at `rate` of each bot, RepoScout's and the bare endpoint's, over `slices`
 * slices each, in turns.
 */
async function atRate(pair: Pair, rate: number, slices: number): Promise<{ oursMs: number; bareMs: number }> {
  const turns = [
    { ...pair.ours, ms: [] as number[] },
    { ...pair.bare, ms: [] as number[] },
  ];
  for (let slice = 0; slice < 2 * slices; slice++) {
    // R B B R R B B R: each bot as often first as second.
    const turn = turns[[0, 1, 1, 0][slice % 4]!]!;
    const result = await runAtRate(
      turn.stand,
      turn.bot,
      placed(turn.stand, GUILDS, () => KINDS["blame (cached)"]),
      { rate, seconds: SLICE_SECONDS },
    );
    turn.ms.push(result.cpuMsPerInteraction);
  }
  const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
  return { oursMs: mean(turns[0]!.ms), bareMs: mean(turns[1]!.ms) };
}

/** CPU per cached interaction over HTTP: RepoScout beside the bare endpoint, in turns, at each rate. */
export async function measureHttpCpu(quick = false, profileDir?: string): Promise<Measured> {
  const slices = Math.max(2, Math.round((quick ? 4 : 8) / SLICE_SECONDS));
  const placement = placeBots();
  const cpus = placement.bots[0]!;
  const pair = await startSideBySide({
    transport: "http",
    guilds: GUILDS,
    cpus,
    ...(profileDir ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] } : {}),
  });
  try {
    const warmSeconds = quick ? WARM_SECONDS / 5 : WARM_SECONDS;
    await warm(pair.ours.stand, pair.ours.bot, warmSeconds);
    await warm(pair.bare.stand, pair.bare.bot, warmSeconds);
    const lines = [placement.line];
    const figures: Measured["figures"] = [];
    for (const rate of RATES) {
      const { oursMs, bareMs } = await atRate(pair, rate, slices);
      lines.push(
        `cached /blame over HTTP at ${rate}/s (after ${(WARM_RATE * warmSeconds).toLocaleString("en")} to warm up), ${slices} slices of ${SLICE_SECONDS} s for each bot, in turns, CPU of the bot's process per interaction: RepoScout ${oursMs.toFixed(3)} ms (signature checked)  same-message bare HTTP endpoint ${bareMs.toFixed(3)} ms  ratio ${(oursMs / bareMs).toFixed(2)}×  (before issue 23: 0.44–0.49 ms against 0.09–0.10; goal ≤ 0.2 ms)`,
      );
      figures.push({
        // The 200/s figure keeps the name the earlier runs used.
        name:
          rate === RATES[0]
            ? "HTTP CPU per cached interaction, ms"
            : `HTTP CPU per cached interaction at ${rate}/s, ms`,
        value: oursMs,
        baseline: { name: "same-message bare endpoint", value: bareMs },
        goal: "≤ 0.2 ms",
      });
    }
    return { lines, figures };
  } finally {
    await pair.close();
    placement.release();
  }
}

export async function benchHttpCpu(quick = false, profileDir?: string): Promise<string[]> {
  return (await measureHttpCpu(quick, profileDir)).lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf("--profile");
  for (const line of await benchHttpCpu(
    process.argv.includes("--quick"),
    at > 0 ? process.argv[at + 1] : undefined,
  ))
    console.log(line);
  process.exit(0);
}
