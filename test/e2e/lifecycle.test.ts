import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandDefinitions, loadCommands } from "../../src/bot/loadCommands.js";
import { startDiscordStandIn, type DiscordStandIn } from "../../src/sandbox/discord/index.js";
import { startGitHubStandIn, type GitHubStandIn } from "../../src/sandbox/github/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { botEnv, exited, freePort, runScript } from "./botProcess.js";
import { e2eTransport } from "./transport.js";

/** Waits until the bot's `/healthz` answers 200. */
async function healthy(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await fetch(`${url}/healthz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${url}/healthz did not answer 200 in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
      ...botEnv({ discord, github, dataDir, keyByte: 3 }),
      DISCORD_CLIENT_ID: discord.applicationId,
      DISCORD_GUILD_ID: discord.guildId,
    };
  });
  afterAll(async () => {
    await Promise.all([discord?.close(), github?.close()]);
    await rm(dataDir, { recursive: true, force: true });
  });

  it("registers the commands in DISCORD_GUILD_ID with `npm run deploy`", async ({ skip }) => {
    skip(e2eTransport() === "http", "deploying is the same whatever the transport");
    const result = await exited(runScript("deploy-commands.ts", env));
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Registered 16 commands in server/);
    expect(
      discord
        .commands({ guildId: discord.guildId })
        .map((command) => command.name)
        .sort(),
    ).toEqual([
      "Blame lines",
      "Preview links",
      "Show code",
      "blame",
      "commit",
      "contents",
      "contributors",
      "history",
      "issue",
      "login",
      "logout",
      "owners",
      "repos",
      "settings",
      "token",
      "whoami",
    ]);
  });

  it("connects, answers, finishes the interaction in flight on SIGTERM and exits 0", async () => {
    // Over HTTP: DISCORD_PUBLIC_KEY set, the bot listens on HTTP_PORT and the local Discord is
    // told its /interactions URL (which it checks with Discord's probes first).
    const http = e2eTransport() === "http" ? `http://127.0.0.1:${await freePort()}` : null;
    const bot = runScript(
      "src/index.ts",
      http ? { ...env, DISCORD_PUBLIC_KEY: discord.publicKey, HTTP_PORT: new URL(http).port } : env,
    );
    const done = exited(bot);
    try {
      if (http) {
        // As `npm run deploy` registers them (that test runs in the gateway pass).
        if (discord.commands({ guildId: discord.guildId }).length === 0)
          discord.registerCommands(commandDefinitions(await loadCommands()), { guildId: discord.guildId });
        await healthy(http, 20_000);
        await discord.setInteractionsEndpoint(`${http}/interactions`);
      } else {
        await discord.waitForGatewaySession({ timeoutMs: 20_000 });
      }
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
      // Over HTTP no gateway session was ever opened, and the interactions came by POST.
      if (http) {
        expect(discord.gatewaySessions()).toEqual([]);
        expect(record.delivery).toMatchObject({ transport: "http", status: 200 });
      }
    } finally {
      github.setLatency(0);
      bot.kill("SIGKILL");
      if (http) await discord.setInteractionsEndpoint(null);
    }
  });

  it("reports every configuration problem at once, by name, without a stack trace", async ({ skip }) => {
    skip(e2eTransport() === "http", "configuration is checked the same whatever the transport");
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
