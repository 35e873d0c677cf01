import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { missingVariablesSentence, runDeploy } from "../src/deployCommands.js";
import { startDiscordStandIn } from "../src/sandbox/discord/index.js";

/**
 * `npm run deploy` as a person runs it. The script's process is started once (through tsx, as the
 * npm script does, with the Discord variables blank so a developer's own .env cannot change the
 * answer); the other cases run its code in this process, which is ten times faster.
 */

const APP = "123456789012345678";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// The loader `tsx` exports for `node --import`, as an absolute path (vitest has no import.meta.resolve).
const TSX = createRequire(import.meta.url).resolve("tsx");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function deploy(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", TSX, "deploy-commands.ts", ...args],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? "",
          DISCORD_TOKEN: "",
          DISCORD_CLIENT_ID: "",
          DISCORD_GUILD_ID: "",
          ...env,
        },
        timeout: 60_000,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        }),
    );
  });
}

/** runDeploy with what it prints captured and a configuration made from `env`. */
async function deployInProcess(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const registered: unknown[][] = [];
  const code = await runDeploy(args, {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    loadConfig: async () => loadConfig(env),
    register: async (_config, definitions) => {
      registered.push([...definitions]);
      return definitions.length;
    },
  });
  return { code, stdout: out.join("\n"), stderr: err.join("\n"), registered };
}

describe("npm run deploy", () => {
  it("refuses an unknown flag with the usage and exit code 2, in its own process", async () => {
    const run = await deploy(["--dryrun"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Unknown option --dryrun\.\n\nUsage: npm run deploy/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("prints its usage for --help and exits 0, asking for no token", async () => {
    const run = await deployInProcess(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npm run deploy \[-- --dry-run\]/);
    expect(run.stdout).toContain("--dry-run");
    expect(run.stderr).toBe("");
    expect(run.registered).toEqual([]);
  });

  it("refuses a stray argument with the usage and exit code 2", async () => {
    const run = await deployInProcess(["dry-run"], { DISCORD_TOKEN: "a.b.c", DISCORD_CLIENT_ID: APP });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Unexpected argument dry-run/);
    expect(run.registered).toEqual([]);
  });

  it("keeps --dry-run exactly: the JSON array of definitions, contacting nothing", async () => {
    const run = await deployInProcess(["--dry-run"], { DISCORD_TOKEN: "a.b.c", DISCORD_CLIENT_ID: APP });
    expect(run.code).toBe(0);
    const definitions = JSON.parse(run.stdout) as Array<{ name: string }>;
    expect(definitions.map((definition) => definition.name)).toContain("blame");
    expect(run.registered).toEqual([]);
  });

  it("prints the message menus and every command's install types and contexts", async () => {
    const run = await deployInProcess(["--dry-run"]);
    const definitions = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    const byName = new Map(definitions.map((definition) => [definition.name, definition]));
    for (const name of ["Show code", "Blame lines", "Preview links"]) {
      expect(byName.get(name)).toEqual({ type: 3, name, integration_types: [0, 1], contexts: [0, 1, 2] });
    }
    for (const name of [
      "blame",
      "contents",
      "repos",
      "contributors",
      "whoami",
      "login",
      "logout",
      "issue",
      "commit",
    ]) {
      expect(byName.get(name)).toMatchObject({ type: 1, integration_types: [0, 1], contexts: [0, 1, 2] });
    }
    for (const name of ["token", "settings"]) {
      expect(byName.get(name)).toMatchObject({ integration_types: [0], contexts: [0] });
    }
  });

  it("registers definitions the local Discord accepts, globally and in a server", async () => {
    const discord = await startDiscordStandIn();
    try {
      const env = {
        DISCORD_TOKEN: discord.botToken,
        DISCORD_CLIENT_ID: discord.applicationId,
        DISCORD_API_URL: discord.apiUrl,
      };
      const global = await runDeploy([], {
        out: () => undefined,
        err: (text) => expect.fail(text),
        loadConfig: async () => loadConfig(env),
      });
      expect(global).toBe(0);
      expect(discord.commands().find((command) => command.name === "Blame lines")).toMatchObject({
        type: 3,
        description: "",
        integration_types: [0, 1],
        contexts: [0, 1, 2],
      });
      const inServer = await runDeploy([], {
        out: () => undefined,
        err: (text) => expect.fail(text),
        loadConfig: async () => loadConfig({ ...env, DISCORD_GUILD_ID: discord.guildId }),
      });
      expect(inServer).toBe(0);
      expect(discord.commands({ guildId: discord.guildId }).map((command) => command.name)).toContain(
        "Show code",
      );
    } finally {
      await discord.close();
    }
  });

  it("names the one missing variable in the singular", async () => {
    const run = await deployInProcess([], { DISCORD_TOKEN: "a.b.c" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Cannot register commands: DISCORD_CLIENT_ID is not set. Set it in .env");
  });

  it("names two missing variables in the plural", async () => {
    const run = await deployInProcess([]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "Cannot register commands: DISCORD_TOKEN and DISCORD_CLIENT_ID are not set. Set them in .env",
    );
  });

  it("registers the definitions when both are set", async () => {
    const run = await deployInProcess([], { DISCORD_TOKEN: "a.b.c", DISCORD_CLIENT_ID: APP });
    expect(run.code).toBe(0);
    expect(run.registered).toHaveLength(1);
    expect(run.stdout).toMatch(/^Registered \d+ commands globally/);
  });
});

describe("the missing-variables sentence", () => {
  it("agrees with one, two and three names", () => {
    expect(missingVariablesSentence(["A"])).toBe("A is not set. Set it");
    expect(missingVariablesSentence(["A", "B"])).toBe("A and B are not set. Set them");
    expect(missingVariablesSentence(["A", "B", "C"])).toBe("A, B and C are not set. Set them");
  });
});
