/**
 * Per kind of question: the CPU RepoScout's process spends per interaction (each kind alone at a
 * steady rate), and the cached answer's time from interaction to reply, beside the bare discord.js
 * bot sending the very same message (same local Discord, its own process). Alone: `npx tsx bench/load/perKind.ts [--quick]`.
 */
import type { InteractionRequest } from "../../src/sandbox/discord/index.js";
import { DEMO_PATHS } from "../../src/sandbox/github/index.js";
import { KINDS, placed } from "./mix.js";
import { cpuMs, startBareBot, startRepoScout, type BotProcess } from "./processes.js";
import { percentile, runAtRate } from "./rates.js";
import { startLoadStandIns, type LoadStandIns } from "./standIns.js";

const GUILDS = 20;

/** Interaction to final answer, one at a time (the bot's latency, not its throughput). */
async function roundTrips(
  stand: LoadStandIns,
  request: InteractionRequest,
  count: number,
): Promise<number[]> {
  const make = placed(stand, GUILDS, () => request);
  const times: number[] = [];
  for (let n = 0; n < count; n++) {
    const started = performance.now();
    const handle = await stand.discord.interact(make(n));
    await handle.waitForAnswer({ timeoutMs: 20_000 });
    times.push(performance.now() - started);
  }
  return times;
}

/** Blames at commits not asked before (each a first time), as long as the demo history lasts. */
async function uncachedCpu(stand: LoadStandIns, bot: BotProcess, count: number): Promise<number> {
  const repository = stand.github.world.repository("demo", "widgets")!;
  const { execFileSync } = await import("node:child_process");
  const commits = execFileSync(
    "git",
    ["--git-dir", repository.gitDir, "log", "--format=%H", "main", "--", DEMO_PATHS.engine],
    {
      encoding: "utf8",
    },
  )
    .trim()
    .split("\n")
    .slice(0, count);
  const make = placed(stand, GUILDS, (n) => ({
    kind: "slash",
    name: "blame",
    options: {
      repo: "demo/widgets",
      path: DEMO_PATHS.engine,
      ref: commits[n % commits.length]!,
      lines: "1-40",
    },
  }));
  const before = cpuMs(bot.pid);
  for (let n = 0; n < commits.length; n++) {
    const handle = await stand.discord.interact(make(n));
    await handle.waitForAnswer({ timeoutMs: 20_000 });
  }
  return (cpuMs(bot.pid) - before) / commits.length;
}

export async function benchPerKind(quick = false): Promise<string[]> {
  const seconds = quick ? 2 : 4;
  const rate = 150;
  const lines: string[] = [];
  const stand = await startLoadStandIns({ guilds: GUILDS });
  let bot = await startRepoScout(stand.at, {
    env: { DEFAULT_TOKEN_SHARE: "1" },
    ready: () => stand.discord.waitForGatewaySession({ timeoutMs: 60_000 }),
  });
  try {
    const cached = KINDS["blame (cached)"];
    await roundTrips(stand, cached, 20);
    const ours = await roundTrips(stand, cached, quick ? 60 : 200);
    const cpu: Array<[string, number]> = [];
    for (const [kind, request] of Object.entries(KINDS)) {
      await roundTrips(stand, request, 3);
      const result = await runAtRate(
        stand,
        bot,
        placed(stand, GUILDS, () => request),
        { rate, seconds },
      );
      cpu.push([kind, result.cpuMsPerInteraction]);
    }
    cpu.push([
      "blame (first time, a commit not asked before)",
      await uncachedCpu(stand, bot, quick ? 10 : 30),
    ]);
    // The very message RepoScout answers a cached /blame with (its first response, type 4): the
    // bare bot sends the same (issue 23), so the ratio is the bot's overhead, not the message's size.
    const record = await (
      await stand.discord.interact(placed(stand, GUILDS, () => cached)(0))
    ).waitForAnswer({ timeoutMs: 20_000 });
    const first = record.callbacks[0];
    const message = first?.type === 4 ? first.data : undefined;
    await bot.stop();
    bot = await startBareBot(stand.at, { message });
    await roundTrips(stand, cached, 20);
    const bare = await roundTrips(stand, cached, quick ? 60 : 200);
    const bareCpu = (
      await runAtRate(
        stand,
        bot,
        placed(stand, GUILDS, () => cached),
        { rate, seconds },
      )
    ).cpuMsPerInteraction;
    const p50 = percentile(ours, 50);
    const bareP50 = percentile(bare, 50);
    lines.push(
      `cached /blame, interaction to reply: RepoScout p50 ${p50.toFixed(1)} ms (p90 ${percentile(ours, 90).toFixed(1)})  ${message === undefined ? "bare bot's 'ok'" : "same-message bare bot's"} reply p50 ${bareP50.toFixed(1)} ms  ratio ${(p50 / bareP50).toFixed(2)}×  (before issue 12: 2.7×; goal ≤ 1.2×)`,
    );
    lines.push(
      `CPU per interaction at ${rate}/s (bot process, /proc), bare discord.js bot: ${bareCpu.toFixed(2)} ms  (before issue 12: RepoScout 3.3–4 ms against about 1)`,
    );
    for (const [kind, ms] of cpu)
      lines.push(`  ${kind.padEnd(46)} ${ms.toFixed(2)} ms  ${(ms / bareCpu).toFixed(1)}× the bare bot`);
  } finally {
    await bot.stop();
    await stand.close();
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchPerKind(process.argv.includes("--quick"))) console.log(line);
  process.exit(0);
}
