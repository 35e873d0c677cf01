/**
 * `/owners` and its chart, through the real discord.js client and both stand-ins: a file and a
 * 100-file folder, cold (each pinned to a commit never asked before) and cached, with the GitHub
 * points each answer spent (as its footer says); and the chart's SVG-to-PNG render alone.
 */
import { pathToFileURL } from "node:url";
import { ownersChartSvg } from "../src/format/ownersChart.js";
import { ownersReport } from "../src/owners/ownersReport.js";
import { renderPng } from "../src/owners/renderChart.js";
import type { InteractionRequest } from "../src/sandbox/discord/index.js";
import { DEMO_PARTS, partPath } from "../src/sandbox/github/demoOwnership.js";
import { runGitChecked } from "../src/sandbox/github/gitProcess.js";
import { startSandboxWorld, type SandboxWorld } from "../src/sandbox/harness.js";
import { median, p90, timedRun } from "./sandboxTiming.js";

/** Runs one `/owners`; returns its time and the points its footer says it spent. */
async function timed(
  world: SandboxWorld,
  request: InteractionRequest,
): Promise<{ ms: number; points: number }> {
  const { ms, seen } = await timedRun(world, request, 30_000);
  const footer = seen.messages.at(-1)?.message.embeds[0]?.footer?.text ?? "";
  const points = /(\d+) GitHub points?$/.exec(footer);
  return { ms, points: points ? Number(points[1]) : 0 };
}

const line = (label: string, runs: ReadonlyArray<{ ms: number; points: number }>): string => {
  const samples = runs.map((run) => run.ms);
  const points = [...new Set(runs.map((run) => run.points))].join("/");
  return `${label.padEnd(48)} p50 ${median(samples).toFixed(1)} ms  p90 ${p90(samples).toFixed(1)} ms (n=${samples.length})  ${points} GitHub points`;
};

/** Runs the `/owners` benchmark; returns the lines to print. */
export async function benchOwners(rounds = 15): Promise<string[]> {
  const world = await startSandboxWorld();
  try {
    const gitDir = world.github.world.repository("demo", "widgets")!.gitDir;
    // Commits of main since the parts folder exists: each pins a cold answer.
    const commits = (await runGitChecked(["log", "--format=%H", "main", "--", DEMO_PARTS.folder], { gitDir }))
      .toString("utf8")
      .split("\n")
      .filter(Boolean);
    const owners = (path: string, ref?: string): InteractionRequest => ({
      kind: "slash",
      name: "owners",
      options: { repo: "demo/widgets", path, ...(ref ? { ref } : {}) },
    });
    const file = partPath(42);
    await timed(world, owners(file)); // warm the bot and the stand-in's schema
    const coldFile = [];
    const coldFolder = [];
    // The warm-up read the tip; the next five commits each hold more than 100 files in the folder.
    for (const commit of commits.slice(1, 6)) {
      coldFile.push(await timed(world, owners(file, commit)));
      coldFolder.push(await timed(world, owners(DEMO_PARTS.folder, commit)));
    }
    const cachedFile = [];
    const cachedFolder = [];
    await timed(world, owners(file, commits[0]));
    await timed(world, owners(DEMO_PARTS.folder, commits[0]));
    for (let round = 0; round < rounds; round += 1) {
      cachedFile.push(await timed(world, owners(file, commits[0])));
      cachedFolder.push(await timed(world, owners(DEMO_PARTS.folder, commits[0])));
    }

    // The chart alone, from the folder's answer as the Scout gives it.
    const fetched = await world.running.services.scout.owners(
      { guildId: world.discord.guildId, userId: world.discord.users.admin.id },
      { repo: { owner: "demo", name: "widgets" }, path: DEMO_PARTS.folder, ref: commits[0]! },
    );
    const now = new Date();
    const report = ownersReport(fetched.value, now);
    const renders: number[] = [];
    let bytes = 0;
    for (let round = 0; round < 30; round += 1) {
      const started = performance.now();
      bytes = renderPng(ownersChartSvg(report, now).svg).length;
      renders.push(performance.now() - started);
    }
    return [
      line("cold /owners of a file:", coldFile),
      line("cached /owners of a file:", cachedFile),
      line(`cold /owners of ${DEMO_PARTS.folder} (100 of 150 files):`, coldFolder),
      line(`cached /owners of ${DEMO_PARTS.folder}:`, cachedFolder),
      `${"chart, SVG built and rendered to PNG:".padEnd(48)} p50 ${median(renders).toFixed(1)} ms  p90 ${p90(renders).toFixed(1)} ms (n=${renders.length})  ${(bytes / 1024).toFixed(1)} KiB`,
    ];
  } finally {
    await world.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const text of await benchOwners()) console.log(text);
  process.exit(0);
}
