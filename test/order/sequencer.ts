import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Where the committed durations live: what `npx tsx test/order/refresh.ts` wrote after a whole run. */
export const DURATIONS_FILE = new URL("./durations.json", import.meta.url);

/** The committed durations, by `project:path` (as vitest's own cache keys them), in ms. */
function committedDurations(): Map<string, number> {
  try {
    const parsed = JSON.parse(readFileSync(DURATIONS_FILE, "utf8")) as {
      durations?: Record<string, unknown>;
    };
    return new Map(
      Object.entries(parsed.durations ?? {}).filter(
        (entry): entry is [string, number] => typeof entry[1] === "number",
      ),
    );
  } catch {
    return new Map();
  }
}

/**
 * Longest file first, within each project. Vitest runs a project's files on its workers and waits
 * for the last before the next project starts, so a long file started last runs alone: on a fresh
 * clone (CI), with no cache of durations, vitest orders by file size, and the 44-line file that
 * waits 5 s on Discord's global rate limit started last. The durations come from vitest's cache
 * when this checkout has run the tests, else from the committed `durations.json`; a file known to
 * neither (a new one) runs first, as vitest runs it, and a failed one too.
 */
export class LongestFirst extends BaseSequencer {
  private readonly committed = committedDurations();

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const estimate = (spec: TestSpecification): { failed: boolean; ms: number | undefined } => {
      const key = `${spec.project.name}:${relative(config.root, spec.moduleId)}`;
      const cached = cache.getFileTestResults(key);
      return { failed: cached?.failed ?? false, ms: cached?.duration ?? this.committed.get(key) };
    };
    const known = new Map(files.map((spec) => [spec, estimate(spec)]));
    return [...files].sort((a, b) => {
      const x = known.get(a)!;
      const y = known.get(b)!;
      if (x.failed !== y.failed) return x.failed ? -1 : 1;
      if (x.ms === undefined || y.ms === undefined)
        return (x.ms === undefined ? -1 : 0) - (y.ms === undefined ? -1 : 0);
      return y.ms - x.ms;
    });
  }
}
