/**
 * Resident memory after READY with 1, 1,000 and 5,000 realistic servers (30 channels, 20 roles, 20
 * emojis each), RepoScout beside the bare discord.js bot (Guilds intent, default caches), each in
 * its own process against the local Discord. Alone: `npx tsx bench/load/memory.ts [--quick]`.
 */
import { startGitHubStandIn } from "../../src/sandbox/github/index.js";
import { placeBots } from "./pinning.js";
import { rssMb, startBareBot, startRepoScout, type BotProcess } from "./processes.js";
import { startLoadStandIns } from "./standIns.js";

/** Lets a process finish what READY set off (the bare bot's guild objects, timers) before sampling. */
const SETTLE_MS = 2_000;

async function afterReady(start: () => Promise<BotProcess>): Promise<number> {
  const bot = await start();
  try {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return rssMb(bot.pid);
  } finally {
    await bot.stop();
  }
}

export async function benchMemory(quick = false): Promise<string[]> {
  const counts = quick ? [1, 1_000] : [1, 1_000, 5_000];
  const placement = placeBots();
  const cpus = placement.bots[0]!;
  const github = await startGitHubStandIn();
  const lines: string[] = [placement.line];
  const results: Array<{ guilds: number; repoScout: number; bare: number }> = [];
  try {
    for (const guilds of counts) {
      // One hand-built server is always there; the others are generated.
      const stand = await startLoadStandIns({ guilds: guilds - 1, github });
      const { discord, at } = stand;
      try {
        const repoScout = await afterReady(() =>
          startRepoScout(at, { cpus, ready: () => discord.waitForGatewaySession({ timeoutMs: 60_000 }) }),
        );
        const bare = await afterReady(() => startBareBot(at, { cpus }));
        results.push({ guilds, repoScout, bare });
        lines.push(
          `RSS after READY, ${String(guilds).padStart(5)} servers:  RepoScout ${repoScout.toFixed(0)} MB  bare discord.js bot ${bare.toFixed(0)} MB  ratio ${(repoScout / bare).toFixed(2)}×`,
        );
      } finally {
        await stand.close();
      }
    }
  } finally {
    await github.close();
    placement.release();
  }
  const per1000 = (value: (r: (typeof results)[number]) => number) => perThousandServers(results, value);
  lines.push(
    `memory per 1,000 servers:  RepoScout ${per1000((r) => r.repoScout).toFixed(1)} MB  bare bot ${per1000((r) => r.bare).toFixed(1)} MB  (goal: under 5 MB; before issue 12: about 59 MB)`,
  );
  return lines;
}

/**
 * MB per 1,000 servers: the slope of `value` between the first and the last of `results` (each
 * measured with `guilds` servers).
 */
export function perThousandServers<R extends { guilds: number }>(
  results: readonly R[],
  value: (result: R) => number,
): number {
  const first = results[0]!;
  const last = results[results.length - 1]!;
  return ((value(last) - value(first)) / (last.guilds - first.guilds)) * 1_000;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchMemory(process.argv.includes("--quick"))) console.log(line);
  process.exit(0);
}
