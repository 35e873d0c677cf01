/**
 * Start-up of the bot's process, the two ways it can run: the TypeScript sources through tsx's
 * loader (what `npm start` does without a build) and the build (`npm run build`, then plain node, as
 * the container and the systemd unit run it): time from spawn to `/readyz` answering 200 (gateway
 * connected, stores answering) and resident memory then, three runs each, side by side.
 * Alone: `npx tsx bench/startup.ts`.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startDiscordStandIn } from "../src/sandbox/discord/index.js";
import { DEMO_TOKEN, startGitHubStandIn } from "../src/sandbox/github/index.js";
import { botNode, buildForBench, freePort, rssMb } from "./load/processes.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

async function startOnce(
  args: string[],
  at: Record<string, string>,
): Promise<{ readyMs: number; rss: number }> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), "reposcout-bench-start-"));
  const started = performance.now();
  const child = spawn(botNode(), args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HTTP_PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...at,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    for (;;) {
      const status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) break;
      if (child.exitCode !== null || performance.now() - started > 60_000)
        throw new Error("the bot did not start");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const readyMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return { readyMs, rss: rssMb(child.pid!) };
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}

function spread(values: number[], digits = 0): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `${median.toFixed(digits)} (min ${sorted[0]!.toFixed(digits)}, max ${sorted[sorted.length - 1]!.toFixed(digits)})`;
}

export async function benchStartup(runs = 3): Promise<string[]> {
  const build = buildForBench();
  if (!build.built) throw new Error(build.line);
  const [discord, github] = await Promise.all([
    startDiscordStandIn({ identifyWindowMs: 0 }),
    startGitHubStandIn(),
  ]);
  const at = {
    DISCORD_TOKEN: discord.botToken,
    DISCORD_API_URL: discord.apiUrl,
    GITHUB_TOKEN: DEMO_TOKEN,
    GITHUB_API_URL: github.restUrl,
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  };
  try {
    const ways = {
      "tsx (sources)": ["--import", "tsx", "src/index.ts"],
      "build (node dist)": ["dist/src/index.js"],
    };
    const results: Record<string, Array<{ readyMs: number; rss: number }>> = {};
    for (let run = 0; run < runs; run++) {
      for (const [name, args] of Object.entries(ways)) (results[name] ??= []).push(await startOnce(args, at));
    }
    const lines: string[] = [];
    for (const [name, samples] of Object.entries(results)) {
      lines.push(
        `${name.padEnd(18)} start to /readyz ${spread(samples.map((s) => s.readyMs))} ms   RSS after start ${spread(samples.map((s) => s.rss))} MB   (median of ${runs})`,
      );
    }
    const median = (name: string, pick: (s: { readyMs: number; rss: number }) => number) =>
      [...results[name]!.map(pick)].sort((a, b) => a - b)[Math.floor(runs / 2)]!;
    lines.push(
      `build / tsx: start ${(median("build (node dist)", (s) => s.readyMs) / median("tsx (sources)", (s) => s.readyMs)).toFixed(2)}×  RSS ${(median("build (node dist)", (s) => s.rss) / median("tsx (sources)", (s) => s.rss)).toFixed(2)}×`,
    );
    return lines;
  } finally {
    await Promise.all([discord.close(), github.close()]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchStartup()) console.log(line);
  process.exit(0);
}
