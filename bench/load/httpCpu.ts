/**
 * HTTP CPU per interaction (issue 23 item 4): cached /blame at a steady rate to RepoScout in HTTP
 * mode (signature checked) and to the bare HTTP endpoint (no check) sending the very same message,
 * each in its own process; the
 * CPU of the bot's process per interaction from /proc. `--profile <dir>`: RepoScout writes a V8 CPU
 * profile there when it stops. Alone: `npx tsx bench/load/httpCpu.ts [--quick] [--profile dir]`.
 */
import type { Measured } from "../figures.js";
import { KINDS, placed } from "./mix.js";
import { placeBots } from "./pinning.js";
import { startBareBot, startRepoScout, type BotProcess } from "./processes.js";
import { runAtRate } from "./rates.js";
import { startLoadStandIns, type LoadStandIns } from "./standIns.js";

const GUILDS = 20;

async function cpuPerInteraction(
  stand: LoadStandIns,
  bot: BotProcess,
  rate: number,
  seconds: number,
): Promise<number> {
  const make = placed(stand, GUILDS, () => KINDS["blame (cached)"]);
  for (let n = 0; n < 5; n++)
    await (await stand.discord.interact(make(n))).waitForAnswer({ timeoutMs: 20_000 });
  await runAtRate(stand, bot, make, { rate, seconds: 2 });
  return (await runAtRate(stand, bot, make, { rate, seconds })).cpuMsPerInteraction;
}

/** CPU per cached interaction over HTTP: RepoScout beside the bare endpoint, one stand-in world. */
export async function measureHttpCpu(quick = false, profileDir?: string): Promise<Measured> {
  const rate = 200;
  const seconds = quick ? 4 : 8;
  const placement = placeBots();
  const cpus = placement.bots[0]!;
  const stand = await startLoadStandIns({ guilds: GUILDS });
  try {
    const ours = await startRepoScout(stand.at, {
      http: true,
      cpus,
      env: { DEFAULT_TOKEN_SHARE: "1" },
      ...(profileDir ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] } : {}),
    });
    let oursMs: number;
    let message: unknown;
    try {
      await stand.discord.setInteractionsEndpoint(ours.url!, { verify: true });
      oursMs = await cpuPerInteraction(stand, ours, rate, seconds);
      // The very message RepoScout answers a cached /blame with: the bare endpoint sends it too.
      const make = placed(stand, GUILDS, () => KINDS["blame (cached)"]);
      const record = await (await stand.discord.interact(make(0))).waitForAnswer({ timeoutMs: 20_000 });
      message = record.callbacks[0]?.data;
    } finally {
      await ours.stop();
    }
    const bare = await startBareBot(stand.at, { http: true, message, cpus });
    let bareMs: number;
    try {
      await stand.discord.setInteractionsEndpoint(bare.url!, { verify: false });
      bareMs = await cpuPerInteraction(stand, bare, rate, seconds);
    } finally {
      await bare.stop();
    }
    return {
      lines: [
        placement.line,
        `cached /blame over HTTP at ${rate}/s for ${seconds} s, CPU of the bot's process per interaction: RepoScout ${oursMs.toFixed(3)} ms (signature checked)  same-message bare HTTP endpoint ${bareMs.toFixed(3)} ms  ratio ${(oursMs / bareMs).toFixed(2)}×  (before issue 23: 0.44–0.49 ms against 0.09–0.10; goal ≤ 0.2 ms)`,
      ],
      figures: [
        {
          name: "HTTP CPU per cached interaction, ms",
          value: oursMs,
          baseline: { name: "same-message bare endpoint", value: bareMs },
          goal: "≤ 0.2 ms",
        },
      ],
    };
  } finally {
    await stand.close();
    placement.release();
  }
}

export async function benchHttpCpu(quick = false, profileDir?: string): Promise<string[]> {
  return (await measureHttpCpu(quick, profileDir)).lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf("--profile");
  for (const line of await benchHttpCpu(
    process.argv.includes("--quick"),
    at > 0 ? process.argv[at + 1] : undefined,
  ))
    console.log(line);
  process.exit(0);
}
