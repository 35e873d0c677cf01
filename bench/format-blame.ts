/**
 * How long `formatBlame` takes on a large file: 10,000 lines of 100 characters blamed in 2,000
 * ranges. Two cases: the whole file selected (50 lines shown, the whole selection annotated into
 * the attachment) and a 50-line selection in the middle. Target: p50 and p95 under 10 ms.
 *
 *   npx tsx bench/format-blame.ts
 */
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { formatBlame, type BlameView } from "../src/format/blame.js";
import type { BlameAnswer } from "../src/github/types.js";
import { FRESH, makeBlame, makeLines, makeRanges, NOW } from "../test/format/fixtures.js";

const RUNS = 50;
const WARMUP = 10;
const TARGET_MS = 10;

function percentile(sorted: readonly number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function measure(
  answer: BlameAnswer,
  view: BlameView,
): { p50: number; p95: number; attachmentBytes: number } {
  const meta = { freshness: FRESH, now: NOW, buttons: { previous: "blame:prev", next: "blame:next" } };
  let attachmentBytes = 0;
  for (let run = 0; run < WARMUP; run += 1) formatBlame(answer, view, meta);
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    const message = formatBlame(answer, view, meta);
    times.push(performance.now() - started);
    attachmentBytes = message.files.reduce((sum, file) => sum + file.data.length, 0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), attachmentBytes };
}

/** Runs the benchmark and returns the lines to print. */
export async function benchFormatBlame(): Promise<string[]> {
  const lineCount = 10_000;
  const answer = makeBlame({ lines: makeLines(lineCount, 100), ranges: makeRanges(lineCount, 2_000, 400) });
  const cases: Array<[string, BlameView]> = [
    ["whole file (attachment)", { startLine: 1, endLine: lineCount, requestedLines: true }],
    ["50-line selection", { startLine: 5_000, endLine: 5_049, requestedLines: true }],
  ];
  const lines = [
    `formatBlame: ${lineCount} lines, 2,000 ranges, ${RUNS} runs each (target < ${TARGET_MS} ms)`,
  ];
  for (const [name, view] of cases) {
    const { p50, p95, attachmentBytes } = measure(answer, view);
    const verdict = p95 < TARGET_MS ? "ok" : "SLOW";
    const attachment = attachmentBytes > 0 ? `, attachment ${(attachmentBytes / 1024).toFixed(0)} KiB` : "";
    lines.push(
      `  ${name.padEnd(24)} p50 ${p50.toFixed(2)} ms  p95 ${p95.toFixed(2)} ms  ${verdict}${attachment}`,
    );
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const line of await benchFormatBlame()) console.log(line);
}
