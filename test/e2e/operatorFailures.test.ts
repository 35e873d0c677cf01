import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fatalCloseMeaning } from "../../src/bot/gateway/gatewayClient.js";
import { startDiscordStandIn, type DiscordStandIn } from "../../src/sandbox/discord/index.js";
import { startGitHubStandIn, type GitHubStandIn } from "../../src/sandbox/github/index.js";
import { botEnv, freePort, runScript } from "./botProcess.js";

/**
 * What an operator sees when Discord ends the bot's welcome: the bot as a process (as `npm start`
 * runs the sources) against the local Discord, which closes sessions with the codes real Discord
 * uses (DISCORD-FACTS "Gateway close codes") and refuses a wrong token with 401.
 */

function run(env: Record<string, string>): {
  child: ChildProcess;
  done: Promise<{ code: number | null; output: string }>;
  /** Resolves once the output holds `text` (rejects if the process exits first). */
  said(text: string): Promise<void>;
} {
  const child = runScript("src/index.ts", env);
  let output = "";
  const waiting: Array<() => void> = [];
  const take = (chunk: Buffer): void => {
    output += chunk.toString();
    for (const check of waiting) check();
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  const done = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, output })),
  );
  const said = (text: string): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (output.includes(text)) resolve();
      };
      waiting.push(check);
      check();
      void done.then(({ code }) => reject(new Error(`exited ${code} before saying "${text}":\n${output}`)));
    });
  return { child, done, said };
}

describe("gateway closes Discord will not resume, a refused token, a wrong GitHub URL", () => {
  let discord: DiscordStandIn;
  let github: GitHubStandIn;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    [discord, github] = await Promise.all([startDiscordStandIn(), startGitHubStandIn()]);
    dataDir = await mkdtemp(join(tmpdir(), "reposcout-operator-"));
    env = botEnv({ discord, github, dataDir, keyByte: 5 });
  });
  afterAll(async () => {
    await Promise.all([discord?.close(), github?.close()]);
    await rm(dataDir, { recursive: true, force: true });
  });

  it("a token revoked while running (close 4004): one fatal line with the code, naming DISCORD_TOKEN, and exit 1", async () => {
    // At info, the bot says when it is connected.
    const bot = run({ ...env, LOG_LEVEL: "info" });
    try {
      await discord.waitForGatewaySession({ timeoutMs: 20_000 });
      // Running: the start is over (Discord sent READY above, and the bot has taken it). A close
      // before that is a failed start, which the start's own test covers.
      await bot.said("connected to Discord");
      // What a reset in the developer portal does to every session.
      discord.closeGatewayConnections(4004);
      const { code, output } = await bot.done;
      expect(code).toBe(1);
      const fatal = output
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { level: number; code?: number; msg: string })
        .filter((line) => line.level === 60);
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toMatchObject({ code: 4004 });
      expect(fatal[0]!.msg).toMatch(
        /^gateway closed with 4004, authentication failed: Discord refused DISCORD_TOKEN/,
      );
    } finally {
      bot.child.kill("SIGKILL");
    }
  });

  it("a close Discord will not resume while starting (4011, too many servers for one shard): exit 1 naming the setting", async () => {
    // A Discord on which one shard may hold no server at all: IDENTIFY on a single shard is refused.
    const crowded = await startDiscordStandIn({ maxGuildsPerShard: 0 });
    try {
      const { code, output } = await run({
        ...env,
        DISCORD_TOKEN: crowded.botToken,
        DISCORD_API_URL: crowded.apiUrl,
        DISCORD_SHARD_COUNT: "1",
      }).done;
      expect(code).toBe(1);
      expect(output).toContain(
        "RepoScout could not start: gateway closed with 4011, sharding required: the bot is in too many servers for one shard; set DISCORD_SHARD_COUNT",
      );
    } finally {
      await crowded.close();
    }
  });

  it("a wrong token at start: exit 1 with a line naming DISCORD_TOKEN", async () => {
    const { code, output } = await run({ ...env, DISCORD_TOKEN: "not.the.token" }).done;
    expect(code).toBe(1);
    expect(output).toContain("RepoScout could not start: Discord refused DISCORD_TOKEN (401 Unauthorized)");
    expect(output).not.toContain("not.the.token");
  });

  it("a wrong token at start in HTTP mode: exit 1 with a line naming DISCORD_TOKEN, before serving", async () => {
    const { code, output } = await run({
      ...env,
      DISCORD_TOKEN: "not.the.token",
      LOG_LEVEL: "info",
      DISCORD_PUBLIC_KEY: discord.publicKey,
      HTTP_PORT: String(await freePort()),
    }).done;
    expect(code).toBe(1);
    expect(output).toContain("RepoScout could not start: Discord refused DISCORD_TOKEN (401 Unauthorized)");
    expect(output).not.toContain("HTTP server listening");
  });

  it("a GITHUB_API_URL with a wrong path: one warning naming it at start, and /readyz reports it", async () => {
    const port = await freePort();
    const apiUrl = `${github.baseUrl}/v3`;
    const bot = run({ ...env, GITHUB_API_URL: apiUrl, HTTP_PORT: String(port) });
    try {
      const readiness = async (): Promise<{ status: number; checks: Record<string, boolean> }> => {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
        if (!response) return { status: 0, checks: {} };
        const body = (await response.json()) as { checks?: Record<string, boolean> };
        return { status: response.status, checks: body.checks ?? {} };
      };
      await expect
        .poll(readiness, { timeout: 20_000, interval: 200 })
        .toEqual({ status: 503, checks: { gateway: true, stores: true, github: false } });
      bot.child.kill("SIGTERM");
      const { output } = await bot.done;
      const warnings = output
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((line) => line.msg.startsWith("GITHUB_API_URL"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.msg).toBe(
        `GITHUB_API_URL: ${apiUrl}/rate_limit answered 404, not as GitHub's REST API does: the base is https://api.github.com, or https://HOST/api/v3 on GitHub Enterprise Server`,
      );
    } finally {
      bot.child.kill("SIGKILL");
    }
  });

  it("says what each close Discord will not resume means, and nothing for those it resumes", () => {
    expect(fatalCloseMeaning(4004)).toMatch(/DISCORD_TOKEN/);
    for (const code of [4010, 4011]) expect(fatalCloseMeaning(code)).toMatch(/DISCORD_SHARD/);
    expect(fatalCloseMeaning(4012)).toMatch(/version/);
    for (const code of [4013, 4014]) expect(fatalCloseMeaning(code)).toMatch(/intents/);
    for (const code of [1000, 1006, 4000, 4001, 4002, 4003, 4005, 4007, 4008, 4009])
      expect(fatalCloseMeaning(code)).toBeUndefined();
  });
});
