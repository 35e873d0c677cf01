/**
 * Interactions at a fixed rate through the local Discord, to a bot in its own process: how late the
 * first responses are (the local Discord refuses one after 3 s, as Discord does: a "late
 * acknowledgement", the user reads "The application did not respond"), how each interaction ended,
 * and what the bot's process spent (CPU from /proc, time in GC from its meter) and held (peak RSS).
 */
import type {
  InteractionHandle,
  InteractionRecord,
  InteractionRequest,
} from "../../src/sandbox/discord/index.js";
import { snowflakeTimestamp } from "../../src/sandbox/discord/snowflake.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { cpuMs, mainThreadCpuMs, rssMb, waitedForCpuMs, type BotProcess } from "./processes.js";
import type { LoadStandIns } from "./standIns.js";

/** A request for the n-th interaction of a run (its server, channel and user chosen by the caller). */
export type RequestMaker = (n: number) => InteractionRequest;

export interface RateResult {
  rate: number;
  sent: number;
  /** First responses the local Discord refused or never got within 3 s. */
  late: number;
  /** Time from each interaction's creation to its first response, ms. */
  p50: number;
  p99: number;
  /**
   * p99 of the first responses to the interactions sent in the run's first {@link EARLY_MS}, and of
   * the rest: a cold start's tail apart from the steady state's.
   */
  p99Early: number;
  p99After: number;
  /**
   * Time from each interaction's creation to its final visible answer (its first response, or the
   * edit or follow-up after a deferral), ms; NaN when not judged. What the person waits to read.
   */
  answerP50: number;
  answerP99: number;
  /** Interactions whose first response was a deferral (0 when not judged). */
  deferred: number;
  /** By the end: answered, told busy, another error, or no final answer in time. */
  outcomes: { answered: number; busy: number; error: number; unanswered: number };
  cpuMsPerInteraction: number;
  /**
   * The load driver's own CPU (this process: the load loop, the local Discord, the GitHub stand-in)
   * while it sent, a share of one cpu: near 1, the driver is the limit and its queue reads as the
   * bot's latency (issue 23 item 6).
   */
  driverBusy: number;
  /** The load driver's CPU over the same time, per interaction sent, ms. */
  driverCpuMsPerInteraction: number;
  /** The driver's busiest second of the same time (a share of one cpu, read every 200 ms). */
  driverPeakBusy: number;
  /**
   * The share of the same time the driver's main thread, where the local Discord answers and the
   * first responses are timed, waited runnable for its cpu while another thread held it (its own
   * V8 helper threads, on the one cpu it runs on): a response that came then was read late, and
   * the wait is in the first responses' times. NaN where the kernel keeps no such figure.
   */
  driverWaiting: number;
  /**
   * The driver's CPU and the bot's over the run's first {@link EARLY_MS}, each a share of one cpu:
   * who was full while the first responses ({@link p99Early}) were read. A driver near 100% then
   * reads its own queue as the bot's latency.
   */
  driverBusyEarly: number;
  botBusyEarly: number;
  /**
   * The part of {@link botBusyEarly} on the bot's main thread, where its JavaScript runs; the rest
   * is V8's helper threads (optimizing compilation, concurrent GC) and libuv's pool, which in a
   * cold process take the same cpu while the first responses are due.
   */
  botMainBusyEarly: number;
  /**
   * The rate the interactions actually went out at, a second: `rate` when the driver kept its
   * schedule, less when it could not (its cpu full, it sends the next as soon as it can). The run
   * then lasted longer than `seconds`, at a lower rate than asked.
   */
  sentRate: number;
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
function outcomeOf(record: InteractionRecord): keyof RateResult["outcomes"] {
  const transcript = transcriptOf(record);
  // Every reason the bot gives for not taking a request under load (errorSentence.ts's busySentence):
  // the whole bot full, too long a wait, one person's or one server's share taken.
  if (BUSY_WORDS.some((words) => transcript.text.includes(words))) return "busy";
  return transcript.isError ? "error" : "answered";
}

const SAMPLE_MS = 200;

/** The start of a run whose first responses are read apart ({@link RateResult.p99Early}). */
export const EARLY_MS = 2_000;

/**
 * This process's busiest second: its CPU read every {@link SAMPLE_MS}, the most over any five
 * readings in a row, as a share of one cpu. An average over a whole run hides a driver that was the
 * limit for its first second only.
 */
function busiestSecond(): { sample(): void; peak(): number } {
  const readings: Array<{ at: number; cpuMs: number }> = [];
  let peak = 0;
  const read = () => {
    const { user, system } = process.cpuUsage();
    readings.push({ at: performance.now(), cpuMs: (user + system) / 1_000 });
    if (readings.length > 1_000 / SAMPLE_MS) {
      const first = readings.shift()!;
      const last = readings[readings.length - 1]!;
      peak = Math.max(peak, (last.cpuMs - first.cpuMs) / (last.at - first.at));
    }
  };
  read();
  return { sample: read, peak: () => peak };
}

/**
 * Sends `rate` interactions a second for `seconds` to whichever bot serves the stand-in, then
 * waits (up to `drainMs`) for every final answer. `judge`: also read how each ended (costs the
 * generator CPU, after the run: off for the knee's steps, on for the overload, whose local Discord
 * holds every interaction of the run).
 */
export async function runAtRate(
  stand: LoadStandIns,
  bot: BotProcess,
  make: RequestMaker,
  options: { rate: number; seconds: number; judge?: boolean; drainMs?: number },
): Promise<RateResult> {
  const { rate, seconds } = options;
  const total = Math.round(rate * seconds);
  /** First responses to the interactions sent in the first {@link EARLY_MS}, and after (ms). */
  const early: number[] = [];
  const after: number[] = [];
  let late = 0;
  let peak = rssMb(bot.pid);
  const driverSeconds = busiestSecond();
  const sampler = setInterval(() => {
    driverSeconds.sample();
    try {
      peak = Math.max(peak, rssMb(bot.pid));
    } catch {
      // The process ended: the run's figures say so.
    }
  }, SAMPLE_MS);
  const gcBefore = await bot.gc();
  const cpuBefore = cpuMs(bot.pid);
  const mainBefore = mainThreadCpuMs(bot.pid);
  const outcomes = { answered: 0, busy: 0, error: 0, unanswered: 0 };
  const answerTimes: number[] = [];
  let deferred = 0;
  /** Each judged interaction's wait for its final answer, whose time is counted as it comes. */
  const judged: Array<Promise<void>> = [];
  /** The judged interactions that got their final answer, read once the run is over. */
  const answered: InteractionHandle[] = [];
  const settled: Array<Promise<void>> = [];
  const started = performance.now();
  let lastSentAt = started;
  const driverBefore = process.cpuUsage();
  const waitedBefore = waitedForCpuMs();
  const busyEarly = { driver: NaN, bot: NaN, botMain: NaN };
  // Read when the first EARLY_MS are over, against the time that actually passed (a busy loop runs
  // the timer late).
  const earlyTimer = setTimeout(() => {
    const elapsed = performance.now() - started;
    const driver = process.cpuUsage(driverBefore);
    busyEarly.driver = (driver.user + driver.system) / 1_000 / elapsed;
    try {
      busyEarly.bot = (cpuMs(bot.pid) - cpuBefore) / elapsed;
      busyEarly.botMain = (mainThreadCpuMs(bot.pid) - mainBefore) / elapsed;
    } catch {
      // The process ended: the run's figures say so.
    }
  }, EARLY_MS);
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1_000) / rate;
    const wait = due - performance.now();
    // Yield to I/O even when behind: a loop that only awaits promises starves the sockets.
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    else await new Promise((resolve) => setImmediate(resolve));
    lastSentAt = performance.now();
    const sentEarly = lastSentAt - started < EARLY_MS;
    const sending = stand.discord.interact(make(n));
    settled.push(
      sending.then(async (handle) => {
        if (options.judge) {
          // Waited for from the start, so that the time read is when the answer came, not when
          // the run ended (the interaction's creation time is in its id). How it ended is read
          // once the run is over: a record and its transcript cost the load driver 42 µs each,
          // about 7% of its cpu at 1,600/s, on the cpu the local Discord shares.
          judged.push(
            handle.waitForAnswerTime({ timeoutMs: options.drainMs ?? 60_000 }).then(
              (at) => {
                answerTimes.push(at - snowflakeTimestamp(handle.id));
                answered.push(handle);
              },
              () => void outcomes.unanswered++,
            ),
          );
        }
        try {
          const { afterMs } = await handle.waitForResponse({ timeoutMs: 0 });
          (sentEarly ? early : after).push(afterMs);
        } catch {
          late++;
        }
      }),
    );
  }
  await Promise.all(settled);
  const driver = process.cpuUsage(driverBefore);
  const driverMs = (driver.user + driver.system) / 1_000;
  const sendingMs = performance.now() - started;
  const driverBusy = driverMs / sendingMs;
  const driverWaiting = (waitedForCpuMs() - waitedBefore) / sendingMs;
  const driverPeakBusy = driverSeconds.peak();
  if (options.judge) {
    await Promise.all(judged);
  } else {
    // Let the answers finish before the next step starts.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  clearInterval(sampler);
  clearTimeout(earlyTimer);
  const cpu = cpuMs(bot.pid) - cpuBefore;
  const gcAfter = await bot.gc();
  // Read once the bot's figures are: the bot idles meanwhile, and would collect its garbage then.
  for (const handle of answered) {
    if (!stand.discord.interaction(handle.id))
      throw new Error("the local Discord forgot an interaction of the run: raise its maxInteractions");
    const record = handle.record();
    outcomes[outcomeOf(record)]++;
    if (record.deferred) deferred++;
  }
  const times = early.concat(after);
  return {
    rate,
    sent: total,
    late,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    p99Early: percentile(early, 99),
    p99After: percentile(after, 99),
    answerP50: percentile(answerTimes, 50),
    answerP99: percentile(answerTimes, 99),
    deferred,
    outcomes,
    cpuMsPerInteraction: cpu / total,
    driverBusy,
    driverCpuMsPerInteraction: driverMs / total,
    driverPeakBusy,
    driverWaiting,
    driverBusyEarly: busyEarly.driver,
    botBusyEarly: busyEarly.bot,
    botMainBusyEarly: busyEarly.botMain,
    // The first went out at once and the last was due (total - 1) intervals later.
    sentRate: total > 1 ? ((total - 1) * 1_000) / (lastSentAt - started) : rate,
    gcMs: gcAfter.gcMs - gcBefore.gcMs,
    peakRssMb: peak,
  };
}

/** Whether a step holds: p99 time to first response under 1 s and no late acknowledgement. */
export const holds = (result: RateResult): boolean => result.late === 0 && result.p99 < 1_000;
