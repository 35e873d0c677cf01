import type { InteractionRequest } from "../src/sandbox/discord/index.js";
import type { SandboxWorld } from "../src/sandbox/harness.js";
import { transcriptOf, type Transcript } from "../src/sandbox/transcript.js";

/** The middle sample (p50). */
export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The sample 90% of the others are at or below. */
export function p90(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.9 * sorted.length))] ?? Number.NaN;
}

/**
 * One benchmark line: the label padded to `width`, p50 and p90 in ms, the count, and beside a
 * baseline the ratio of the two medians.
 */
export function timingLine(
  label: string,
  width: number,
  samples: readonly number[],
  baseline?: readonly number[],
): string {
  const ratio = baseline ? `  ratio ${(median(samples) / median(baseline)).toFixed(2)}×` : "";
  return `${label.padEnd(width)} p50 ${median(samples).toFixed(1)} ms  p90 ${p90(samples).toFixed(1)} ms (n=${samples.length})${ratio}`;
}

/**
 * Runs one interaction in the sandbox world, interaction to last reply; returns the time it took
 * and what the person saw. An error answer fails the benchmark: a timing of a failure is no timing.
 */
export async function timedRun(
  world: SandboxWorld,
  request: InteractionRequest,
  timeoutMs = 20_000,
): Promise<{ ms: number; seen: Transcript }> {
  const started = performance.now();
  const record = await world.run(request, { settleMs: 0, timeoutMs });
  const ms = performance.now() - started;
  const seen = transcriptOf(record);
  if (seen.isError) throw new Error(`benchmark interaction failed: ${JSON.stringify(request)}: ${seen.text}`);
  return { ms, seen };
}
