import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDiscordStandIn, type DiscordStandIn } from "../../src/sandbox/discord/index.js";
import { DEMO_TOKEN, startGitHubStandIn, type GitHubStandIn } from "../../src/sandbox/github/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Runs a project script with tsx, as `npm start` / `npm run deploy` do, with only the given environment. */
function runScript(script: string, env: Record<string, string>, args: string[] = []): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

describe("the bot as a process, against the local Discord and GitHub", () => {
  let discord: DiscordStandIn;
  let github: GitHubStandIn;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    [discord, github] = await Promise.all([startDiscordStandIn(), startGitHubStandIn()]);
    dataDir = await mkdtemp(join(tmpdir(), "reposcout-lifecycle-"));
    env = {
      DISCORD_TOKEN: discord.botToken,
      DISCORD_CLIENT_ID: discord.applicationId,
      DISCORD_GUILD_ID: discord.guildId,
      DISCORD_API_URL: discord.apiUrl,
      GITHUB_TOKEN: DEMO_TOKEN,
      GITHUB_API_URL: github.restUrl,
      DATA_DIR: dataDir,
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString("base64"),
      LOG_LEVEL: "warn",
    };
  });
  afterAll(async () => {
    await Promise.all([discord?.close(), github?.close()]);
    await rm(dataDir, { recursive: true, force: true });
  });

  it("registers the commands in DISCORD_GUILD_ID with `npm run deploy`", async () => {
    const result = await exited(runScript("deploy-commands.ts", env));
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Registered 9 commands in server/);
    expect(
      discord
        .commands({ guildId: discord.guildId })
        .map((command) => command.name)
        .sort(),
    ).toEqual([
      "blame",
      "contents",
      "contributors",
      "login",
      "logout",
      "repos",
      "settings",
      "token",
      "whoami",
    ]);
  });

  it("connects, answers, finishes the interaction in flight on SIGTERM and exits 0", async () => {
    const bot = runScript("src/index.ts", env);
    const done = exited(bot);
    try {
      await discord.waitForGatewaySession({ timeoutMs: 20_000 });
      const whoami = await (
        await discord.interact({ kind: "slash", name: "whoami" })
      ).waitForAnswer({ timeoutMs: 10_000 });
      expect(transcriptOf(whoami).text).toContain("demo\\-user");

      github.setLatency(1_500);
      const slow = await discord.interact({
        kind: "slash",
        name: "contents",
        options: { repo: "demo/sprockets" },
      });
      await slow.waitFor((record) => record.callbacks.length > 0 || record.answered, { timeoutMs: 5_000 });
      const stopAt = Date.now();
      bot.kill("SIGTERM");
      const record = await slow.waitForAnswer({ timeoutMs: 10_000 });
      expect(transcriptOf(record).isError).toBe(false);
      expect(transcriptOf(record).text).toContain("sprockets");
      const result = await done;
      expect(result.code).toBe(0);
      expect(Date.now() - stopAt).toBeLessThan(10_000);
      expect(discord.gatewaySessions().filter((session) => session.connected)).toEqual([]);
    } finally {
      github.setLatency(0);
      bot.kill("SIGKILL");
    }
  });

  it("reports every configuration problem at once, by name, without a stack trace", async () => {
    const result = await exited(
      runScript("src/index.ts", {
        ...env,
        DISCORD_API_URL: "not a url",
        TOKEN_ENCRYPTION_KEY: "short",
        LOG_LEVEL: "loud",
      }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("DISCORD_API_URL");
    expect(result.stderr).toContain("TOKEN_ENCRYPTION_KEY");
    expect(result.stderr).toContain("LOG_LEVEL");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
