/**
 * Memory that does not creep (issue 12): the bot's heap after 10,000 answers by 5,000 distinct
 * people, and its growth over the second 5,000 (discord.js kept every asker before: about 2.4 KB
 * each, never swept). Over both transports (issue 23). The bot runs in its own process, as it is
 * deployed, and its heap is read there after two full collections (./gcMeter.mjs, with
 * `--expose-gc`), so the stand-ins' own state is not in the figure. It was, when the bot and the
 * stand-ins shared one process: the gateway's second half read +0.2% in some runs and +1.04% to
 * +1.12% in most, a step of about 0.9 MB (old space +0.7 MB, large objects +224 KB: a hash table
 * that doubled, such as the local Discord's rate-limit buckets, 4,000 or so, one per interaction
 * token, swept when their number doubles), where the bot alone reads -0.45% to +0.41%.
 * Alone: `npx tsx bench/load/soak.ts [--quick]`.
 */
import type { InteractionRequest } from "../../src/sandbox/discord/index.js";
import { DEMO_PATHS } from "../../src/sandbox/github/index.js";
import { startRepoScout, type BotProcess } from "./processes.js";
import { startLoadStandIns, type LoadStandIns } from "./standIns.js";

const QUESTIONS: InteractionRequest[] = [
  {
    kind: "slash",
    name: "blame",
    options: { repo: "demo/widgets", path: DEMO_PATHS.engine, lines: "100-140" },
  },
  { kind: "slash", name: "whoami" },
  { kind: "slash", name: "contents", options: { repo: "demo/widgets", path: "src" } },
];

const GUILDS = 5;

/** The bot's heap in use after two full collections, MB. */
async function heapMb(bot: BotProcess): Promise<number> {
  const { heapUsedMb } = await bot.gc();
  if (heapUsedMb === undefined || !Number.isFinite(heapUsedMb))
    throw new Error("the bot's heap could not be read (is it running with --expose-gc?)");
  return heapUsedMb;
}

async function answers(stand: LoadStandIns, from: number, count: number, users: number): Promise<void> {
  let n = from;
  const end = from + count;
  const places = Array.from({ length: GUILDS }, (_, index) => stand.discord.generatedGuild(index));
  const worker = async (): Promise<void> => {
    while (n < end) {
      const i = n++;
      // Person i % users: each of them asks twice over the run, once in each half.
      const person = i % users;
      const place = places[person % GUILDS]!;
      const request = {
        ...QUESTIONS[i % QUESTIONS.length]!,
        channel: place.textChannelIds[0]!,
        user: place.memberIds[Math.floor(person / GUILDS) % place.memberIds.length]!,
      } as InteractionRequest;
      const handle = await stand.discord.interact(request);
      await handle.waitForAnswer({ timeoutMs: 20_000 });
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

async function soak(transport: "gateway" | "http", quick: boolean): Promise<string> {
  const total = quick ? 2_000 : 10_000;
  const users = total / 2;
  const http = transport === "http";
  const stand = await startLoadStandIns({
    guilds: GUILDS,
    members: Math.ceil(users / GUILDS),
    maxInteractions: 1_000,
  });
  let bot: BotProcess | null = null;
  try {
    bot = await startRepoScout(stand.at, {
      http,
      nodeArgs: ["--expose-gc"],
      // The fair-use share would turn some of the answers into "budget used up" errors.
      env: { DEFAULT_TOKEN_SHARE: "1" },
      ...(http ? {} : { ready: () => stand.discord.waitForGatewaySession({ timeoutMs: 60_000 }) }),
    });
    if (http) await stand.discord.setInteractionsEndpoint(bot.url!, { verify: true });
    await answers(stand, 0, 200, users);
    const start = await heapMb(bot);
    await answers(stand, 0, total / 2, users);
    const half = await heapMb(bot);
    await answers(stand, total / 2, total / 2, users);
    const end = await heapMb(bot);
    const growth = ((end - half) / half) * 100;
    return `${transport}: the bot's heap (its own process) after ${total.toLocaleString("en")} answers by ${users.toLocaleString("en")} people: ${start.toFixed(1)} MB before, ${half.toFixed(1)} MB after the first half, ${end.toFixed(1)} MB at the end: ${growth >= 0 ? "+" : ""}${growth.toFixed(2)}% over the second half  (before issue 12: +2%; before issue 23: +1.86–1.94% gateway, +2.1% HTTP, bot and stand-ins in one process; goal flat, under 1%)`;
  } finally {
    await bot?.stop();
    await stand.close();
  }
}

/** The heap soak over each transport, one after the other. */
export async function benchSoak(quick = false): Promise<string[]> {
  return [await soak("gateway", quick), await soak("http", quick)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchSoak(process.argv.includes("--quick"))) console.log(line);
  process.exit(0);
}
