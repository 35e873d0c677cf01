/*
 * How many interactions a second the local Discord delivers and takes responses for, beside a
 * trivial bot in its own process (throughputClient.ts) that answers each with a type 4 message.
 *
 *   npx tsx test/sandbox/discord/throughput.ts [gateway|http] [closed <seconds> <in flight> | rate <per second> <seconds>]
 *   (MAX_INTERACTIONS=2000 bounds what the stand-in holds; node --expose-gc --import tsx ... for
 *   retained heap rather than heap including garbage)
 *
 * `closed`: keeps N interactions in flight and counts first responses a second (the stand-in's ceiling).
 * `rate`: sends at a fixed rate and reports lateness, the time to answer, the stand-in's CPU per
 * interaction and its memory. The interactions are realistic: a /blame with three options in a
 * generated server (30 channels, 20 roles, members with several roles), from 500 users.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import {
  startDiscordStandIn,
  type DiscordStandIn,
  type InteractionHandle,
} from "../../../src/sandbox/discord/index.js";

const [transport = "gateway", shape = "closed", a = "5", b = "200"] = process.argv.slice(2);
const GUILDS = 50;

function startClient(args: string[]): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(new URL("./throughputClient.ts", import.meta.url)), ...args],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (String(chunk).includes("ready")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`client exited ${code}`)));
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const discord: DiscordStandIn = await startDiscordStandIn({
    generatedGuilds: { count: 100 },
    requestLog: process.env.REQUEST_LOG === "full" ? "full" : "counts",
    ...(process.env.MAX_INTERACTIONS ? { maxInteractions: Number(process.env.MAX_INTERACTIONS) } : {}),
    identifyWindowMs: 0,
  });
  discord.registerCommands([
    {
      name: "blame",
      description: "Who changed these lines",
      integration_types: [0, 1],
      contexts: [0, 1, 2],
      options: [
        { type: 3, name: "repo", description: "owner/name", required: true },
        { type: 3, name: "path", description: "file path", required: true },
        { type: 5, name: "thread", description: "answer in a thread" },
      ],
    },
  ]);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const client =
    transport === "http"
      ? await startClient(["http", String(port)])
      : await startClient(["gateway", discord.gatewayUrl, discord.apiUrl, discord.botToken]);
  if (transport === "http")
    await discord.setInteractionsEndpoint(`http://127.0.0.1:${port}/`, { verify: false });
  else await discord.waitForGatewaySession();
  const places = Array.from({ length: GUILDS }, (_, index) => discord.generatedGuild(index));
  let sent = 0;
  const send = async (): Promise<{ handle: InteractionHandle }> => {
    const place = places[sent % GUILDS]!;
    const user = place.memberIds[(sent * 7) % place.memberIds.length]!;
    sent++;
    const handle = await discord.interact({
      kind: "slash",
      name: "blame",
      options: { repo: "demo/widgets", path: "src/engine.ts", thread: false },
      channel: place.textChannelIds[sent % place.textChannelIds.length]!,
      user,
    });
    return { handle };
  };
  const times: number[] = [];
  let late = 0;
  const settle = async (pending: Promise<{ handle: InteractionHandle }>) => {
    const { handle } = await pending;
    const response = await handle.waitForResponse().catch(() => null);
    if (response) times.push(response.afterMs);
    else late++;
  };
  // Warm up (JIT, sockets), then measure.
  await Promise.all(Array.from({ length: 200 }, () => settle(send())));
  times.length = 0;
  late = 0;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapBefore = process.memoryUsage();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let count = 0;
  if (shape === "closed") {
    const seconds = Number(a);
    const inFlight = Number(b);
    const deadline = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (performance.now() < deadline) {
          await settle(send());
          count++;
        }
      }),
    );
  } else {
    const rate = Number(a);
    const seconds = Number(b);
    const total = rate * seconds;
    const all: Array<Promise<void>> = [];
    for (let index = 0; index < total; index++) {
      const due = started + (index * 1000) / rate;
      const wait = due - performance.now();
      // Yield to I/O even when behind: a loop that only awaits promises starves the sockets.
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      else await new Promise((resolve) => setImmediate(resolve));
      all.push(settle(send()));
      count++;
    }
    await Promise.all(all);
  }
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  gc?.();
  const after = process.memoryUsage();
  process.stdout.write(
    `${JSON.stringify({
      transport,
      shape,
      interactions: count,
      perSecond: Math.round(count / elapsed),
      lateOrFailed: late,
      answerMs: { p50: percentile(times, 50), p99: percentile(times, 99), max: percentile(times, 100) },
      standInCpuMsPerInteraction: Number(((cpu.user + cpu.system) / 1000 / count).toFixed(3)),
      heapGrowthMB: Number(((after.heapUsed - heapBefore.heapUsed) / 1e6).toFixed(1)),
      rssMB: Math.round(after.rss / 1e6),
      requestCounts: discord.requestCounts(),
    })}\n`,
  );
  client.kill();
  await once(client, "exit");
  await discord.close();
}

await main();
