/**
 * What slow clients hold in a bot in HTTP mode (issue 21, item 2): RepoScout runs as production runs
 * it (its own process, `DISCORD_PUBLIC_KEY`), and 300 connections each send the headers of an
 * interaction (a well-formed but forged signature, a fresh timestamp) and all of a declared body but
 * its last byte, then stall. Figures: the bot's resident memory before and while they wait, and how
 * many of the 300 sockets the bot still holds 2 s and 15 s later. The same for a body past the cap
 * and for requests without a signature. Numbers only, never assertions.
 */
import { connect, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { startDiscordStandIn } from "../src/sandbox/discord/index.js";
import { startGitHubStandIn } from "../src/sandbox/github/index.js";
import { rssMb, startRepoScout, type BotProcess } from "./load/processes.js";

const CLIENTS = 300;

interface Scenario {
  label: string;
  /** Declared Content-Length; the client sends all of it but one byte. */
  bytes: number;
  signed: boolean;
}

/** Opens one stalled request; resolves once its bytes are written (or the bot refused it). */
function stalledRequest(url: URL, scenario: Scenario): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      const headers = [
        `POST ${url.pathname} HTTP/1.1`,
        `Host: ${url.host}`,
        "Content-Type: application/json",
        `Content-Length: ${scenario.bytes}`,
        ...(scenario.signed
          ? [
              `X-Signature-Ed25519: ${"ab".repeat(64)}`,
              `X-Signature-Timestamp: ${Math.floor(Date.now() / 1000)}`,
            ]
          : []),
      ];
      socket.write(`${headers.join("\r\n")}\r\n\r\n`);
      socket.write(Buffer.alloc(scenario.bytes - 1, 0x20), () => resolve(socket));
    });
    socket.on("error", () => resolve(socket));
    socket.resume();
  });
}

function open(sockets: readonly Socket[]): number {
  return sockets.filter((socket) => !socket.destroyed && !socket.readableEnded).length;
}

async function run(bot: BotProcess, scenario: Scenario): Promise<string> {
  const url = new URL(bot.url!);
  const before = rssMb(bot.pid);
  const sockets = await Promise.all(Array.from({ length: CLIENTS }, () => stalledRequest(url, scenario)));
  await sleep(2_000);
  const held = rssMb(bot.pid);
  const openAt2 = open(sockets);
  await sleep(13_000);
  const openAt15 = open(sockets);
  for (const socket of sockets) socket.destroy();
  await sleep(1_000);
  return (
    `${scenario.label}: RSS ${before.toFixed(0)} MB -> ${held.toFixed(0)} MB while they wait ` +
    `(+${(held - before).toFixed(0)} MB); sockets still open after 2 s: ${openAt2}/${CLIENTS}, after 15 s: ${openAt15}/${CLIENTS}`
  );
}

/** The figures of slow clients against the interactions endpoint. */
export async function benchSlowClients(): Promise<string[]> {
  const discord = await startDiscordStandIn();
  const github = await startGitHubStandIn();
  const lines: string[] = [];
  try {
    for (const scenario of [
      { label: `${CLIENTS} x 1 MiB bodies, forged signature`, bytes: 1024 * 1024, signed: true },
      { label: `${CLIENTS} x 256 KiB bodies, forged signature`, bytes: 256 * 1024, signed: true },
      { label: `${CLIENTS} x 256 KiB bodies, no signature`, bytes: 256 * 1024, signed: false },
    ]) {
      // A fresh process each time: memory a process has freed is not always given back to the system.
      const bot = await startRepoScout(
        {
          discordApiUrl: discord.apiUrl,
          botToken: discord.botToken,
          publicKey: discord.publicKey,
          githubRestUrl: github.restUrl,
          githubGraphqlUrl: github.graphqlUrl,
          githubToken: "",
        },
        { http: true, env: { LOG_LEVEL: "error" } },
      );
      try {
        lines.push(await run(bot, scenario));
      } finally {
        await bot.stop();
      }
    }
  } finally {
    await discord.close();
    await github.close();
  }
  return lines;
}

// `npx tsx bench/slow-clients.ts` runs these figures alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const line of await benchSlowClients()) console.log(line);
  process.exit(0);
}
