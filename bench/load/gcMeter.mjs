/*
 * Preloaded (`node --import`) into the bot processes of the load figures, RepoScout and the bare
 * bot alike: sums the time the process spent in garbage collection (V8's 'gc' performance entries)
 * and, on SIGUSR2, writes `{"seq":…,"gcMs":…,"count":…}` to the file named by BENCH_GC_FILE, so the
 * bench reads a bot's GC time before and after a run without a channel of its own into the bot.
 * In a process started with `--expose-gc` (the heap soak, ./soak.ts), the reading also holds the
 * heap in use after two full collections, taken after the GC figures (its own collections are not
 * counted in them). Plain JavaScript: it loads before tsx does. RepoScout itself does not use
 * SIGUSR2.
 */
import { renameSync, writeFileSync } from "node:fs";
import { PerformanceObserver, performance } from "node:perf_hooks";
import process from "node:process";

const file = process.env.BENCH_GC_FILE;

if (file) {
  let gcMs = 0;
  let count = 0;
  let seq = 0;
  /** The spans of the collections the meter forced (a heap reading), left out of the figures. */
  const forced = [];
  const add = (entries) => {
    for (const entry of entries) {
      if (forced.some(([from, to]) => entry.startTime >= from && entry.startTime <= to)) continue;
      gcMs += entry.duration;
      count += 1;
    }
  };
  const observer = new PerformanceObserver((list) => add(list.getEntries()));
  observer.observe({ entryTypes: ["gc"] });
  process.on("SIGUSR2", () => {
    // Entries not yet delivered to the callback count too: the reading is of now.
    add(observer.takeRecords());
    seq += 1;
    const reading = { seq, gcMs, count };
    if (typeof globalThis.gc === "function") {
      const from = performance.now();
      globalThis.gc();
      globalThis.gc();
      // Not the process's own collections: their entries (delivered later) are not counted.
      forced.push([from, performance.now()]);
      reading.heapUsedMb = process.memoryUsage().heapUsed / 1024 / 1024;
    }
    // Written whole under another name, then renamed: the bench never reads half a reading.
    writeFileSync(`${file}.part`, JSON.stringify(reading));
    renameSync(`${file}.part`, file);
  });
}
