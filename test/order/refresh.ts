/**
 * Writes `durations.json` from vitest's cache of this checkout's last whole run, so that a fresh
 * clone (CI) starts the long files first too. Run it after `npm test` when files were added or
 * their durations moved a lot: an outdated figure only costs some seconds, never a result.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DURATIONS_FILE } from "./sequencer.js";

const cacheRoot = fileURLToPath(new URL("../../node_modules/.vite/vitest", import.meta.url));
const runs = readdirSync(cacheRoot, { withFileTypes: true }).filter((entry) => entry.isDirectory());
const durations: Record<string, number> = {};
for (const run of runs) {
  const cached = JSON.parse(readFileSync(join(cacheRoot, run.name, "results.json"), "utf8")) as {
    results: [string, { duration?: number }][];
  };
  for (const [key, result] of cached.results) {
    if (typeof result.duration === "number") durations[key] = Math.round(result.duration / 10) * 10;
  }
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(DURATIONS_FILE, `${JSON.stringify({ durations: sorted }, null, 2)}\n`);
process.stdout.write(
  `${Object.keys(sorted).length} files' durations written to ${fileURLToPath(DURATIONS_FILE)}\n`,
);
