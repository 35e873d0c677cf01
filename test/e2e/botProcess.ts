import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import type { DiscordStandIn } from "../../src/sandbox/discord/index.js";
import { DEMO_TOKEN, type GitHubStandIn } from "../../src/sandbox/github/index.js";

/** The project's root: where `npm start` runs. */
export const ROOT = new URL("../../", import.meta.url).pathname;

/** Runs a project script with tsx, as `npm start` / `npm run deploy` do, with only the given environment. */
export function runScript(script: string, env: Record<string, string>, args: string[] = []): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** What a child process printed, and how it exited. */
export function exited(
  child: ChildProcess,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

/**
 * The environment an operator gives the bot's process to run against the local Discord and
 * GitHub: the demo token, `dataDir` for its files, an encryption key of `keyByte`, warnings only.
 */
export function botEnv(world: {
  discord: DiscordStandIn;
  github: GitHubStandIn;
  dataDir: string;
  keyByte: number;
}): Record<string, string> {
  return {
    DISCORD_TOKEN: world.discord.botToken,
    DISCORD_API_URL: world.discord.apiUrl,
    GITHUB_TOKEN: DEMO_TOKEN,
    GITHUB_API_URL: world.github.restUrl,
    DATA_DIR: world.dataDir,
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, world.keyByte).toString("base64"),
    LOG_LEVEL: "warn",
  };
}
