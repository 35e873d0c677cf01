import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MISSING_DISCORD_TOKEN } from "../../src/startWarnings.js";
import { startDiscordStandIn, type DiscordStandIn } from "../../src/sandbox/discord/index.js";
import { startGitHubStandIn, type GitHubStandIn } from "../../src/sandbox/github/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { commandDefinitions, loadCommands } from "../../src/bot/loadCommands.js";
import { botEnv, exited } from "./botProcess.js";
import { startWorld } from "./helpers.js";

/**
 * The bot as an operator starts it: `npm start` (npm's process in front, as under a process
 * manager or in a container with npm first), and how it stops: SIGTERM reaches the bot, which
 * drains and exits 0, and tells those whose answer outlives the drain that it is restarting.
 * In the gateway pass only (not in vitest.config.ts's HTTP_PASS): the transport does not change how a
 * process starts or stops.
 */
const ROOT = new URL("../../", import.meta.url).pathname;

/** The child processes of `pid` (Linux). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

const alive = (pid: number): boolean =>
  existsSync(`/proc/${pid}`) && !/State:\s+Z/.test(readFileSync(`/proc/${pid}/status`, "utf8"));

describe("starting and stopping the bot's process", () => {
  let discord: DiscordStandIn;
  let github: GitHubStandIn;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    [discord, github] = await Promise.all([startDiscordStandIn(), startGitHubStandIn()]);
    discord.registerCommands(commandDefinitions(await loadCommands()));
    dataDir = await mkdtemp(join(tmpdir(), "reposcout-processes-"));
    env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      ...botEnv({ discord, github, dataDir, keyByte: 5 }),
    };
  });
  afterAll(async () => {
    await Promise.all([discord?.close(), github?.close()]);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("without DISCORD_TOKEN and without a terminal, exits 1 with one line instead of starting the sandbox", async () => {
    const { DISCORD_TOKEN: _token, ...rest } = env;
    const result = await exited(
      spawn(process.execPath, ["bin/start.mjs"], { cwd: ROOT, env: rest, stdio: ["pipe", "pipe", "pipe"] }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(MISSING_DISCORD_TOKEN);
    expect(result.stdout).not.toMatch(/sandbox|RepoScout>/i);
  });

  it("SIGTERM to npm's process under `npm start` reaches the bot: it finishes the answer in flight, disconnects and exits", async () => {
    const npm = spawn("npm", ["start", "--silent"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    const done = exited(npm);
    try {
      await discord.waitForGatewaySession({ timeoutMs: 30_000 });
      // npm's child is the bot itself: node running bin/start.mjs, no shell between that would take
      // the signal and leave the bot running as an orphan.
      const children = childrenOf(npm.pid!);
      expect(children).toHaveLength(1);
      const bot = children[0]!;
      expect(readFileSync(`/proc/${bot}/comm`, "utf8").trim()).toBe("node");
      expect(readFileSync(`/proc/${bot}/cmdline`, "utf8")).toContain("bin/start.mjs");
      github.setLatency(1_500);
      const slow = await discord.interact({
        kind: "slash",
        name: "contents",
        options: { repo: "demo/sprockets" },
      });
      await slow.waitFor((record) => record.callbacks.length > 0, { timeoutMs: 5_000 });
      const stopAt = Date.now();
      npm.kill("SIGTERM");
      const record = await slow.waitForAnswer({ timeoutMs: 10_000 });
      expect(transcriptOf(record).text).toContain("sprockets");
      await expect.poll(() => alive(bot), { timeout: 10_000, interval: 50 }).toBe(false);
      expect(Date.now() - stopAt).toBeLessThan(10_000);
      await expect
        .poll(() => discord.gatewaySessions().filter((session) => session.connected).length, {
          timeout: 5_000,
        })
        .toBe(0);
      await done;
    } finally {
      github.setLatency(0);
      npm.kill("SIGKILL");
    }
  });
});

describe("a stop whose drain runs out", () => {
  it("tells the asker whose answer outlives the drain that the bot is restarting", async () => {
    const world = await startWorld();
    try {
      // GitHub answers after 3 s: longer than this stop's drain (the process's is 7.5 s).
      world.github.setLatency(3_000);
      const slow = await world.send({ kind: "slash", name: "contents", options: { repo: "demo/gadgets" } });
      await slow.waitFor((record) => record.callbacks.length > 0, { timeoutMs: 5_000 });
      await world.bot.stop(300);
      const record = await slow.waitFor((seen) => transcriptOf(seen).text.includes("restarting"), {
        timeoutMs: 5_000,
      });
      expect(transcriptOf(record).text).toContain("RepoScout is restarting. Try again in a moment.");
      // Only the asker reads it: the public "thinking…" is deleted, not edited into a notice left
      // in the channel, and the notice is an ephemeral follow-up.
      expect(record.originalDeleted).toBe(true);
      expect(transcriptOf(record).messages.map((message) => message.ephemeral)).toEqual([true]);
    } finally {
      world.github.setLatency(0);
      await world.close();
    }
  });
});
