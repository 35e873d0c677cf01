/**
 * Interactions at a fixed rate through the local Discord, to a bot in its own process: how late the
 * first responses are (the local Discord refuses one after 3 s, as Discord does: a "late
 * acknowledgement", the user reads "The application did not respond"), how each interaction ended,
 * and what the bot's process spent (CPU from /proc, time in GC from its meter) and held (peak RSS).
 */
import type { InteractionHandle, InteractionRequest } from "../../src/sandbox/discord/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { cpuMs, rssMb, type BotProcess } from "./processes.js";
import type { LoadStandIns } from "./standIns.js";

/** A request for the n-th interaction of a run (its server, channel and user chosen by the caller). */
export type RequestMaker = (n: number) => InteractionRequest;

export interface RateResult {
  rate: number;
  sent: number;
  /** First responses the local Discord refused or never got within 3 s. */
  late: number;
  p50: number;
  p99: number;
  /** By the end: answered, told busy, another error, or no final answer in time. */
  outcomes: { answered: number; busy: number; error: number; unanswered: number };
  cpuMsPerInteraction: number;
  /** The bot's time in garbage collection over the run and its drain (NaN: the meter did not answer). */
  gcMs: number;
  peakRssMb: number;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const BUSY_WORDS = [
  "more requests than it can take",
  "too busy",
  "several requests running or waiting",
  "as many requests running or waiting",
];

/** How an interaction ended, read from what the local Discord holds of it. */
function outcomeOf(handle: InteractionHandle): keyof RateResult["outcomes"] {
  const transcript = transcriptOf(handle.record());
  // Every reason the bot gives for not taking a request under load (errorSentence.ts's busySentence):
  // the whole bot full, too long a wait, one person's or one server's share taken.
  if (BUSY_WORDS.some((words) => transcript.text.includes(words))) return "busy";
  return transcript.isError ? "error" : "answered";
}

/**
 * Sends `rate` interactions a second for `seconds` to whichever bot serves the stand-in, then
 * waits (up to `drainMs`) for every final answer. `judge`: also read how each ended (costs the
 * generator CPU: off for the knee's steps, on for the overload).
 */
export async function runAtRate(
  stand: LoadStandIns,
  bot: BotProcess,
  make: RequestMaker,
  options: { rate: number; seconds: number; judge?: boolean; drainMs?: number },
): Promise<RateResult> {
  const { rate, seconds } = options;
  const total = Math.round(rate * seconds);
  const times: number[] = [];
  let late = 0;
  let peak = rssMb(bot.pid);
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(bot.pid));
    } catch {
      // The process ended: the run's figures say so.
    }
  }, 200);
  const gcBefore = await bot.gc();
  const cpuBefore = cpuMs(bot.pid);
  const handles: InteractionHandle[] = [];
  const settled: Array<Promise<void>> = [];
  const started = performance.now();
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1_000) / rate;
    const wait = due - performance.now();
    // Yield to I/O even when behind: a loop that only awaits promises starves the sockets.
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    else await new Promise((resolve) => setImmediate(resolve));
    const sending = stand.discord.interact(make(n));
    settled.push(
      sending.then(async (handle) => {
        if (options.judge) handles.push(handle);
        try {
          times.push((await handle.waitForResponse({ timeoutMs: 0 })).afterMs);
        } catch {
          late++;
        }
      }),
    );
  }
  await Promise.all(settled);
  const outcomes = { answered: 0, busy: 0, error: 0, unanswered: 0 };
  if (options.judge) {
    await Promise.all(
      handles.map((handle) =>
        handle.waitForAnswer({ timeoutMs: options.drainMs ?? 60_000 }).then(
          () => void outcomes[outcomeOf(handle)]++,
          () => void outcomes.unanswered++,
        ),
      ),
    );
  } else {
    // Let the answers finish before the next step starts.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  clearInterval(sampler);
  const cpu = cpuMs(bot.pid) - cpuBefore;
  const gcAfter = await bot.gc();
  return {
    rate,
    sent: total,
    late,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    outcomes,
    cpuMsPerInteraction: cpu / total,
    gcMs: gcAfter.gcMs - gcBefore.gcMs,
    peakRssMb: peak,
  };
}

/** Whether a step holds: p99 time to first response under 1 s and no late acknowledgement. */
export const holds = (result: RateResult): boolean => result.late === 0 && result.p99 < 1_000;
