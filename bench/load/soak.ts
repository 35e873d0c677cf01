/**
 * Memory that does not creep (issue 12): the heap after 10,000 answers by 5,000 distinct people, and
 * its growth over the second 5,000 (discord.js kept every asker before: about 2.4 KB each, never
 * swept). In-process, so the heap can be read after a full collection; the local Discord keeps a
 * bounded number of interactions (and, since issue 23, forgets expired rate-limit buckets and the
 * gateway history it dropped), so what grows is the bot's. Over both transports (issue 23), the
 * gateway first, in one process. Alone: `npx tsx bench/load/soak.ts [--quick]`.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { InteractionRequest } from "../../src/sandbox/discord/index.js";
import { DEMO_PATHS } from "../../src/sandbox/github/index.js";
import { startSandboxWorld, type SandboxWorld } from "../../src/sandbox/harness.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

const QUESTIONS: InteractionRequest[] = [
  {
    kind: "slash",
    name: "blame",
    options: { repo: "demo/widgets", path: DEMO_PATHS.engine, lines: "100-140" },
  },
  { kind: "slash", name: "whoami" },
  { kind: "slash", name: "contents", options: { repo: "demo/widgets", path: "src" } },
];

async function answers(
  world: SandboxWorld,
  from: number,
  count: number,
  users: number,
  guilds: number,
): Promise<void> {
  let n = from;
  const end = from + count;
  const places = Array.from({ length: guilds }, (_, index) => world.discord.generatedGuild(index));
  const worker = async (): Promise<void> => {
    while (n < end) {
      const i = n++;
      // Person i % users: each of them asks twice over the run, once in each half.
      const person = i % users;
      const place = places[person % guilds]!;
      const request = {
        ...QUESTIONS[i % QUESTIONS.length]!,
        channel: place.textChannelIds[0]!,
        user: place.memberIds[Math.floor(person / guilds) % place.memberIds.length]!,
      } as InteractionRequest;
      const handle = await world.send(request);
      await handle.waitForAnswer({ timeoutMs: 20_000 });
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

async function soak(transport: "gateway" | "http", quick: boolean): Promise<string> {
  const total = quick ? 2_000 : 10_000;
  const users = total / 2;
  const guilds = 5;
  const world = await startSandboxWorld({
    transport,
    discord: {
      generatedGuilds: { count: guilds, members: Math.ceil(users / guilds) },
      requestLog: "counts",
      maxInteractions: 1_000,
    },
  });
  try {
    await answers(world, 0, 200, users, guilds);
    const start = heapMb();
    await answers(world, 0, total / 2, users, guilds);
    const half = heapMb();
    await answers(world, total / 2, total / 2, users, guilds);
    const end = heapMb();
    const growth = ((end - half) / half) * 100;
    return `${transport}: heap after ${total.toLocaleString("en")} answers by ${users.toLocaleString("en")} people (bot and stand-ins in one process): ${start.toFixed(1)} MB before, ${half.toFixed(1)} MB after the first half, ${end.toFixed(1)} MB at the end: ${growth >= 0 ? "+" : ""}${growth.toFixed(2)}% over the second half  (before issue 12: +2%; before issue 23: +1.86–1.94% gateway, +2.1% HTTP; goal flat, under 1%)`;
  } finally {
    await world.close();
  }
}

/** The heap soak over each transport, one after the other in this process. */
export async function benchSoak(quick = false): Promise<string[]> {
  return [await soak("gateway", quick), await soak("http", quick)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchSoak(process.argv.includes("--quick"))) console.log(line);
  process.exit(0);
}
