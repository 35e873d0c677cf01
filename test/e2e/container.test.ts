import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandDefinitions, loadCommands } from "../../src/bot/loadCommands.js";
import { startDiscordStandIn, type DiscordStandIn } from "../../src/sandbox/discord/index.js";
import { DEMO_TOKEN, startGitHubStandIn, type GitHubStandIn } from "../../src/sandbox/github/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";

/**
 * What can be checked of the container without a Docker daemon (none runs here): the Dockerfile's
 * build and run replayed in a clean copy of exactly what it COPYs, the built code started with the
 * production environment as its CMD starts it, answering through both stand-ins, and compose.yaml.
 * Not checked: the image itself (the base images, apt, tini, the non-root user, the HEALTHCHECK
 * running): README says so. Two steps are replaced, and say how: `npm ci` by a link to this
 * checkout's node_modules (a fresh install takes minutes), and `npm prune --omit=dev` by a check that
 * the production entry point's static imports need no dev dependency (pruning the shared
 * node_modules would break this checkout).
 */
const ROOT = resolve(new URL("../../", import.meta.url).pathname);
const require = createRequire(import.meta.url);

/** SPEC section 5: the only variables an operator sets. */
const SPEC_VARIABLES = new Set([
  "DISCORD_TOKEN",
  "DISCORD_CLIENT_ID",
  "DISCORD_GUILD_ID",
  "DISCORD_API_URL",
  "GITHUB_TOKEN",
  "GITHUB_API_URL",
  "GITHUB_GRAPHQL_URL",
  "TOKEN_ENCRYPTION_KEY",
  "DATA_DIR",
  "REDIS_URL",
  "LOG_LEVEL",
  "GITHUB_WEB_URL",
  "GITHUB_OAUTH_CLIENT_ID",
  "GITHUB_OAUTH_CLIENT_SECRET",
  "GITHUB_TOKEN_ALLOW_PRIVATE",
  "DEFAULT_TOKEN_SHARE",
  "CACHE_MAX_MB",
  "DISCORD_PUBLIC_KEY",
  "HTTP_PORT",
  "METRICS_PORT",
  "DISCORD_SHARDS",
  "DISCORD_SHARD_COUNT",
]);

interface Instruction {
  stage: string;
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions (continuation lines joined, comments dropped), with their stage. */
function dockerfile(): Instruction[] {
  const text = readFileSync(join(ROOT, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
  const instructions: Instruction[] = [];
  let stage = "";
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const [keyword = "", ...rest] = trimmed.split(/\s+/);
    const args = rest.join(" ");
    if (keyword.toUpperCase() === "FROM") stage = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? args;
    instructions.push({ stage, keyword: keyword.toUpperCase(), args });
  }
  return instructions;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** Bare package names a built file imports statically, and the relative files it imports. */
function staticImports(file: string): { packages: string[]; files: string[] } {
  const source = readFileSync(file, "utf8");
  const specifiers = [
    ...source.matchAll(
      /^\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']/gm,
    ),
  ].map((match) => match[1] ?? match[2]!);
  const packages: string[] = [];
  const files: string[] = [];
  for (const specifier of specifiers) {
    if (specifier.startsWith(".")) files.push(resolve(dirname(file), specifier));
    else if (!specifier.startsWith("node:")) {
      packages.push(
        specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!,
      );
    }
  }
  return { packages, files };
}

describe("the container, replayed without Docker", () => {
  const instructions = dockerfile();
  let copy: string;
  /** The run stage's /app, assembled as its COPY lines say. */
  let image: string;
  let built = false;

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), "reposcout-image-"));
    // The build context as the build stage sees it: exactly what its COPY lines take (.dockerignore
    // leaves out the rest).
    for (const { stage, keyword, args } of instructions) {
      if (stage !== "build" || keyword !== "COPY" || args.startsWith("--from")) continue;
      const parts = args.split(/\s+/);
      const sources = parts.slice(0, -1);
      for (const source of sources) cpSync(join(ROOT, source), join(copy, source), { recursive: true });
    }
    symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
    for (const { stage, keyword, args } of instructions) {
      if (stage !== "build" || keyword !== "RUN") continue;
      if (/apt-get|npm ci|npm prune/.test(args)) continue; // see the file's comment
      execFileSync("sh", ["-c", args], { cwd: copy, stdio: "pipe", env: { PATH: process.env.PATH ?? "" } });
    }
    built = existsSync(join(copy, "dist", "src", "index.js"));
    // The run stage: only what its COPY --from=build lines take from the build stage's /app.
    image = mkdtempSync(join(tmpdir(), "reposcout-image-run-"));
    for (const { stage, keyword, args } of instructions) {
      if (stage !== "run" || keyword !== "COPY" || !args.startsWith("--from=build")) continue;
      const [, from, to] = args.split(/\s+/) as [string, string, string];
      const source = join(copy, from.replace(/^\/app\/?/, ""));
      const target = join(image, to);
      if (from.endsWith("node_modules")) symlinkSync(join(ROOT, "node_modules"), target);
      else
        cpSync(source, to.endsWith("/") ? join(target, from.split("/").pop()!) : target, { recursive: true });
    }
  }, 180_000);
  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
    if (image) rmSync(image, { recursive: true, force: true });
  });

  it("copies files that exist, builds in stages, and runs the build with node under an init as a non-root user", () => {
    const copied = instructions.filter((i) => i.keyword === "COPY" && !i.args.startsWith("--from"));
    expect(copied.length).toBeGreaterThan(0);
    for (const { args } of copied)
      for (const source of args.split(/\s+/).slice(0, -1))
        expect(existsSync(join(ROOT, source)), source).toBe(true);
    const run = instructions.filter((i) => i.stage === "run");
    expect(run.find((i) => i.keyword === "CMD")?.args).toBe('["node", "dist/src/index.js"]');
    expect(run.find((i) => i.keyword === "ENTRYPOINT")?.args).toContain("tini");
    expect(run.find((i) => i.keyword === "USER")?.args).toBe("node");
    expect(run.some((i) => i.keyword === "HEALTHCHECK" && i.args.includes("/healthz"))).toBe(true);
    expect(run.find((i) => i.keyword === "STOPSIGNAL")?.args).toBe("SIGTERM");
    expect(run.some((i) => i.keyword === "VOLUME" && i.args.includes("/data"))).toBe(true);
    expect(instructions.find((i) => i.keyword === "FROM")?.args).toMatch(/^node:20-/);
    expect(built).toBe(true);
  });

  it("starts from the production entry point without the sandbox or any dev dependency", () => {
    const dependencies = new Set(
      Object.keys(
        (
          JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
            dependencies: Record<string, string>;
          }
        ).dependencies,
      ),
    );
    const seen = new Set<string>();
    const needed = new Set<string>();
    const queue = [join(copy, "dist", "src", "index.js")];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const { packages, files } = staticImports(file);
      for (const name of packages) needed.add(name);
      queue.push(...files);
    }
    expect([...seen].filter((file) => file.includes(`${join("dist", "src", "sandbox")}`))).toEqual([]);
    expect([...needed].filter((name) => !dependencies.has(name))).toEqual([]);
    expect(needed.has("discord.js")).toBe(true);
  });

  describe("the built code, started as CMD starts it", () => {
    let discord: DiscordStandIn;
    let github: GitHubStandIn;
    let dataDir: string;
    beforeAll(async () => {
      [discord, github] = await Promise.all([startDiscordStandIn(), startGitHubStandIn()]);
      discord.registerCommands(commandDefinitions(await loadCommands()));
      dataDir = mkdtempSync(join(tmpdir(), "reposcout-image-data-"));
    });
    afterAll(async () => {
      await Promise.all([discord?.close(), github?.close()]);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it("reaches /readyz with the production environment, answers through both stand-ins, and drains on SIGTERM", async () => {
      const port = await freePort();
      // The CMD, in the run stage's folder: package.json, node_modules and dist only.
      expect(readdirSync(image).sort()).toEqual(["dist", "node_modules", "package.json"]);
      const bot: ChildProcess = spawn("node", ["dist/src/index.js"], {
        cwd: image,
        env: {
          PATH: process.env.PATH ?? "",
          NODE_ENV: "production",
          HTTP_PORT: String(port),
          DATA_DIR: dataDir,
          DISCORD_TOKEN: discord.botToken,
          DISCORD_API_URL: discord.apiUrl,
          GITHUB_TOKEN: DEMO_TOKEN,
          GITHUB_API_URL: github.restUrl,
          TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64"),
          LOG_LEVEL: "warn",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      bot.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((done) => bot.on("exit", (code) => done(code)));
      try {
        await expect
          .poll(
            () =>
              fetch(`http://127.0.0.1:${port}/readyz`).then(
                (r) => r.status,
                () => 0,
              ),
            { timeout: 30_000, interval: 100 },
          )
          .toBe(200);
        const record = await (
          await discord.interact({ kind: "slash", name: "contents", options: { repo: "demo/widgets" } })
        ).waitForAnswer({
          timeoutMs: 15_000,
        });
        expect(transcriptOf(record).text).toContain("demo/widgets");
        bot.kill("SIGTERM");
        expect(await exited).toBe(0);
        // Logs are JSON lines without a terminal (what a log shipper reads).
        for (const line of stderr.split("\n").filter((text) => text.startsWith("{")))
          expect(() => JSON.parse(line)).not.toThrow();
      } finally {
        bot.kill("SIGKILL");
      }
    });
  });

  it("has a compose file with Redis persisting and the bot in both modes, naming only SPEC section 5's variables", () => {
    const yaml = require("js-yaml") as { load(text: string): unknown };
    const compose = yaml.load(readFileSync(join(ROOT, "compose.yaml"), "utf8")) as {
      services: Record<
        string,
        { command?: string[]; profiles?: string[]; environment?: Record<string, string> }
      >;
    };
    expect(compose.services.redis?.command?.join(" ")).toContain("--appendonly yes");
    expect(compose.services["bot-gateway"]?.profiles).toEqual(["gateway"]);
    expect(compose.services["bot-http"]?.profiles).toEqual(["http"]);
    expect(compose.services["bot-http"]?.environment).toHaveProperty("DISCORD_PUBLIC_KEY");
    expect(compose.services["bot-gateway"]?.environment).not.toHaveProperty("DISCORD_PUBLIC_KEY");
    const named = new Set<string>();
    for (const service of Object.values(compose.services)) {
      for (const [name, value] of Object.entries(service.environment ?? {})) {
        named.add(name);
        for (const match of String(value).matchAll(/\$\{([A-Z_]+)/g)) named.add(match[1]!);
      }
    }
    expect([...named].filter((name) => !SPEC_VARIABLES.has(name))).toEqual([]);
    expect(readdirSync(ROOT)).toContain(".dockerignore");
  });
});
