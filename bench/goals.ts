/**
 * `npm run bench -- --goals [--runs 3] [--quick]`: only the figures of issue 23's goals, measured
 * `runs` times over (a single run moves with whatever else the machine does), each run's lines
 * printed as they come, then for each figure its min / median / max over the runs beside its
 * baseline's (measured in the same runs) and the ratio's. Numbers only: the goals are printed
 * beside them, never checked.
 */
import type { Figure, Measured } from "./figures.js";
import { measureFirstBlameApart } from "./first-blame.js";
import { measureHttpCpu } from "./load/httpCpu.js";
import { measureOverload } from "./load/knee.js";
import { measureCachedRatios } from "./load/perKind.js";
import { measureTwoProcesses } from "./two-processes.js";

const SECTIONS: Array<[string, (quick: boolean) => Promise<Measured>]> = [
  ["Cached /blame beside the same-message bare bot, gateway and HTTP", measureCachedRatios],
  ["HTTP CPU per interaction, RepoScout beside the bare endpoint", measureHttpCpu],
  ["The overload, cold and warm, RepoScout beside the same-message bare bot", measureOverload],
  ["First /blame: CPU and bytes stored", () => measureFirstBlameApart([2_000, 10_000])],
  ["Two processes on one Redis, per CPU-second of the bots", () => measureTwoProcesses(false)],
];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A number with the digits that matter at its size. */
function shown(value: number): string {
  const size = Math.abs(value);
  return value.toFixed(size >= 100 || Number.isInteger(value) ? 0 : size >= 10 ? 1 : size >= 1 ? 2 : 3);
}

const spread = (values: readonly number[], unit = ""): string =>
  [Math.min(...values), median(values), Math.max(...values)].map((value) => shown(value) + unit).join(" / ");

/** One line per figure: its spread over the runs, the baseline's, and the ratio's. */
function summary(runs: Figure[][]): string[] {
  const names = [...new Set(runs.flat().map((figure) => figure.name))];
  return names.map((name) => {
    const each = runs.flatMap((figures) => figures.filter((figure) => figure.name === name));
    const first = each[0]!;
    let line = `${name}: ${first.who ?? "RepoScout"} ${spread(each.map((figure) => figure.value))}`;
    const baselines = each.flatMap((figure) => (figure.baseline ? [figure.baseline.value] : []));
    if (first.baseline && baselines.length === each.length) {
      line += `  ${first.baseline.name} ${spread(baselines)}`;
      // A ratio to nothing (0 late beside 0 late) says nothing: left out then.
      if (baselines.every((value) => value > 0))
        line += `  ratio ${spread(
          each.map((figure) => figure.value / figure.baseline!.value),
          "×",
        )}`;
    }
    return `${line}  goal: ${first.goal}`;
  });
}

/** Runs the goal figures `runs` times, printing as it goes, then their spread over the runs. */
export async function benchGoals(options: { runs: number; quick: boolean }): Promise<void> {
  const started = performance.now();
  const runs: Figure[][] = [];
  for (let run = 1; run <= options.runs; run++) {
    const figures: Figure[] = [];
    for (const [title, measure] of SECTIONS) {
      console.log(`\n== Run ${run} of ${options.runs}: ${title}`);
      const measured = await measure(options.quick);
      for (const line of measured.lines) console.log(line);
      figures.push(...measured.figures);
    }
    runs.push(figures);
  }
  const minutes = (performance.now() - started) / 60_000;
  console.log(
    `\n== Issue 23 goals over ${options.runs} run${options.runs === 1 ? "" : "s"}${options.quick ? " (--quick forms)" : ""}: min / median / max, the baseline's measured in the same runs (${minutes.toFixed(1)} min in all)`,
  );
  for (const line of summary(runs)) console.log(line);
}
