/**
 * The load figures of issue 12, each beside its baseline measured in the same run, with the goal.
 * Alone: `npx tsx bench/load/index.ts [--quick]` (or one file of this folder, see each one's head).
 */
import { benchHttpCpu } from "./httpCpu.js";
import { benchHttpSteps } from "./httpSteps.js";
import { benchKnee } from "./knee.js";
import { benchMemory } from "./memory.js";
import { benchPerKind } from "./perKind.js";
import { benchSoak } from "./soak.js";
import { benchUpstream } from "./upstream.js";

/** The sections, in order: each a title and what prints its lines. */
export function loadSections(quick: boolean): Array<[string, () => Promise<string[]>]> {
  return [
    [
      "Load: the knee and the overload (RepoScout in its own process beside a bare discord.js bot)",
      () => benchKnee(quick),
    ],
    ["Load: the cached answer and CPU per interaction, by kind", () => benchPerKind(quick)],
    ["Load: HTTP CPU per interaction, RepoScout beside the bare endpoint", () => benchHttpCpu(quick)],
    ["Load: the interactions endpoint's steps, beside a bare handler", () => benchHttpSteps(quick)],
    ["Load: resident memory after READY, by number of servers", () => benchMemory(quick)],
    ["Load: upstream calls of a mix over three servers", () => benchUpstream()],
    ["Load: heap over many distinct people", () => benchSoak(quick)],
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [title, run] of loadSections(process.argv.includes("--quick"))) {
    console.log(`\n== ${title}`);
    for (const line of await run()) console.log(line);
  }
  process.exit(0);
}
