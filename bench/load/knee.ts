/**
 * The knee and the overload (issue 12): the highest rate of mixed interactions one process holds
 * (p99 first response under 1 s, no late acknowledgement), over the gateway and over HTTP, RepoScout
 * beside the bare discord.js bot; then twice RepoScout's knee for 10 seconds, with how every
 * interaction ended and the peak RSS. Alone: `npx tsx bench/load/knee.ts [--quick]`.
 */
import { holds, runAtRate, type RateResult, type RequestMaker } from "./rates.js";
import { mixed, placed } from "./mix.js";
import { startBareBot, startRepoScout, type BotProcess } from "./processes.js";
import { startLoadStandIns, type LoadStandIns } from "./standIns.js";

type Transport = "gateway" | "http";
type Who = "RepoScout" | "bare discord.js bot";

const GUILDS = 50;

/** Starts a bot of `who` on `transport` against `stand`, pointed at by the local Discord. */
async function startBot(stand: LoadStandIns, who: Who, transport: Transport): Promise<BotProcess> {
  const http = transport === "http";
  const bot =
    who === "RepoScout"
      ? await startRepoScout(stand.at, {
          http,
          // The fair-use share would turn a load run's answers into "budget used up" errors.
          env: { DEFAULT_TOKEN_SHARE: "1" },
          ...(http ? {} : { ready: () => stand.discord.waitForGatewaySession({ timeoutMs: 60_000 }) }),
        })
      : await startBareBot(stand.at, { http });
  if (http) await stand.discord.setInteractionsEndpoint(bot.url!, { verify: who === "RepoScout" });
  return bot;
}

/** Every question once, then a short warm run: JIT, sockets and caches as in a bot that runs. */
async function warm(stand: LoadStandIns, bot: BotProcess, make: RequestMaker): Promise<void> {
  for (let n = 0; n < 8; n++) {
    const handle = await stand.discord.interact(make(n));
    await handle.waitForAnswer({ timeoutMs: 30_000 }).catch(() => undefined);
  }
  await runAtRate(stand, bot, make, { rate: 50, seconds: 2 });
}

function stepLine(who: Who, result: RateResult): string {
  return `  ${who.padEnd(20)} ${String(result.rate).padStart(4)}/s: p50 ${result.p50.toFixed(0).padStart(4)} ms  p99 ${result.p99.toFixed(0).padStart(5)} ms  late ${String(result.late).padStart(4)}/${result.sent}  CPU ${result.cpuMsPerInteraction.toFixed(2)} ms/interaction  peak RSS ${result.peakRssMb.toFixed(0)} MB${holds(result) ? "" : "  (does not hold)"}`;
}

async function steps(
  who: Who,
  transport: Transport,
  rates: number[],
  seconds: number,
): Promise<{ lines: string[]; knee: number }> {
  const stand = await startLoadStandIns({ guilds: GUILDS });
  const bot = await startBot(stand, who, transport);
  const make = placed(stand, GUILDS, mixed);
  const lines: string[] = [];
  let knee = 0;
  try {
    await warm(stand, bot, make);
    for (const rate of rates) {
      const result = await runAtRate(stand, bot, make, { rate, seconds });
      lines.push(stepLine(who, result));
      if (holds(result)) knee = Math.max(knee, rate);
      else if (result.late > result.sent / 2) break; // far past the knee: the next steps say nothing more
    }
  } finally {
    await bot.stop();
    await stand.close();
  }
  return { lines, knee };
}

async function overload(who: Who, transport: Transport, rate: number, seconds: number): Promise<string> {
  const stand = await startLoadStandIns({ guilds: GUILDS, maxInteractions: 30_000 });
  const bot = await startBot(stand, who, transport);
  const make = placed(stand, GUILDS, mixed);
  try {
    await warm(stand, bot, make);
    const result = await runAtRate(stand, bot, make, { rate, seconds, judge: true, drainMs: 120_000 });
    const { answered, busy, error, unanswered } = result.outcomes;
    return `  ${who.padEnd(20)} ${rate}/s for ${seconds} s: late acknowledgements ${result.late}/${result.sent}  answered ${answered}  told busy ${busy}  other errors ${error}  no answer ${unanswered}  p99 first response ${result.p99.toFixed(0)} ms  peak RSS ${result.peakRssMb.toFixed(0)} MB`;
  } finally {
    await bot.stop();
    await stand.close();
  }
}

export async function benchKnee(quick = false): Promise<string[]> {
  const rates = quick ? [100, 300] : [150, 300, 450, 600, 800];
  const seconds = quick ? 3 : 5;
  const lines: string[] = [];
  const knees: Record<Transport, number> = { gateway: 0, http: 0 };
  for (const transport of ["gateway", "http"] as const) {
    lines.push(
      `${transport}: mixed interactions (cached and first-time blame, contents, repos, contributors, whoami; ${GUILDS} servers, their members)`,
    );
    const ours = await steps("RepoScout", transport, rates, seconds);
    const bare = await steps("bare discord.js bot", transport, rates, seconds);
    lines.push(...ours.lines, ...bare.lines);
    knees[transport] = ours.knee;
    lines.push(
      `  knee (p99 < 1 s, no late acknowledgement): RepoScout ${ours.knee || "<" + rates[0]!}/s  bare bot ${bare.knee || "<" + rates[0]!}/s${bare.knee ? `  ratio ${(ours.knee / bare.knee).toFixed(2)}×` : ""}  (before issue 12: about 300/s; goal 600/s)`,
    );
  }
  const overloadSeconds = quick ? 4 : 10;
  for (const transport of ["gateway", "http"] as const) {
    const rate = 2 * Math.max(knees[transport], rates[0]!);
    lines.push(
      `overload, ${transport}: twice RepoScout's knee (goal: no late acknowledgement, every one answered or told busy, RSS bounded)`,
    );
    lines.push(await overload("RepoScout", transport, rate, overloadSeconds));
    lines.push(await overload("bare discord.js bot", transport, rate, overloadSeconds));
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchKnee(process.argv.includes("--quick"))) console.log(line);
  process.exit(0);
}
