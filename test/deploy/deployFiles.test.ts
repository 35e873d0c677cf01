import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, loadConfig } from "../../src/config.js";
import {
  ROOT,
  baseImages,
  composeUp,
  imageEnvironment,
  interpolate,
  mentionedVariables,
  parseEnvFile,
  readComposeFile,
  readUnit,
  unitEnvironment,
} from "./replay.js";

/**
 * What an operator meets following the README's production guide, replayed without Docker or
 * systemd (see ./replay.ts): compose.yaml for each profile with `.env.example` copied as `.env`, the
 * image with it as `--env-file`, the systemd unit with it as `EnvironmentFile=`. Each ends in the
 * configuration the bot would load there.
 */
const EXAMPLE = readFileSync(join(ROOT, ".env.example"), "utf8");
const TOKEN = "MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs";
const KEY = Buffer.alloc(32, 7).toString("base64");

/** The example as an operator fills it in: the token and the key set, every other line as it is. */
function filledIn(extra: Record<string, string> = {}): string {
  const values: Record<string, string> = { DISCORD_TOKEN: TOKEN, TOKEN_ENCRYPTION_KEY: KEY, ...extra };
  return EXAMPLE.replace(/^([A-Z_]+)=.*$/gm, (line, name: string) =>
    name in values ? `${name}=${values[name]}` : line,
  );
}

/** The configuration the bot loads in a container: the image's ENV, then what the runtime passes. */
function configIn(environment: ReadonlyMap<string, string>): ReturnType<typeof loadConfig> {
  return loadConfig(Object.fromEntries([...imageEnvironment("run"), ...environment]));
}

describe("Compose's interpolation, replayed", () => {
  it("resolves defaults and fails on a required variable as Compose does", () => {
    const env = new Map([
      ["SET", "x"],
      ["EMPTY", ""],
    ]);
    expect(interpolate("${SET:-d} ${EMPTY:-d} ${EMPTY-d} ${UNSET-d} $SET $$SET", env)).toBe("x d  d x $SET");
    expect(() => interpolate("${EMPTY:?set EMPTY}", env)).toThrow(
      "required variable EMPTY is missing a value: set EMPTY",
    );
    expect(interpolate("${EMPTY?fine}", env)).toBe("");
  });
});

describe("compose.yaml with .env.example copied as .env", () => {
  const files = new Map([[".env", EXAMPLE]]);

  it.each([["gateway"], ["http"]])(
    "resolves for `--profile %s` although the example leaves the other mode's variables blank",
    (profile) => {
      // Compose interpolates every service before it filters by profile: a `${DISCORD_PUBLIC_KEY:?}`
      // of the HTTP service would stop the gateway profile (docker/compose#11977).
      const containers = composeUp({ profiles: [profile], files });
      expect([...containers.keys()].sort()).toEqual(["bot-" + profile, "redis"]);
    },
  );

  it("resolves for `docker compose run --rm bot-gateway` (no profile given)", () => {
    expect(() => composeUp({ profiles: [], files })).not.toThrow();
  });

  it.each([
    ["gateway", {}],
    ["http", { DISCORD_PUBLIC_KEY: "ab".repeat(32) }],
  ])("gives the %s bot its volume folder, its port and this file's Redis", (profile, extra) => {
    const containers = composeUp({ profiles: [profile], files: new Map([[".env", filledIn(extra)]]) });
    const config = configIn(containers.get(`bot-${profile}`)!);
    expect(config.dataDir).toBe("/data");
    expect(config.http.port).toBe(8080);
    expect(config.redisUrl).toBe("redis://redis:6379");
    expect(config.discord.token).toBe(TOKEN);
    expect(config.tokens.encryptionKey).toEqual(Buffer.alloc(32, 7));
    expect(config.discord.publicKey).toBe(profile === "http" ? "ab".repeat(32) : undefined);
    const service = readComposeFile().services[`bot-${profile}`]!;
    expect(service.volumes).toContain("bot-data:/data");
  });

  it("lets every variable of the configuration reach both bots through env_file", () => {
    // A .env setting every variable the schema reads, each to a value of its own.
    const everything = CONFIG_VARIABLES.map((name) => `${name}=value-of-${name}`).join("\n");
    for (const profile of ["gateway", "http"]) {
      const containers = composeUp({ profiles: [profile], files: new Map([[".env", everything]]) });
      const environment = containers.get(`bot-${profile}`)!;
      const service = readComposeFile().services[`bot-${profile}`]!;
      const pinned = Object.keys(service.environment ?? {});
      // Compose sets only what depends on where the bot runs in it; everything else is the .env's.
      expect(pinned.sort()).toEqual(["DATA_DIR", "HTTP_PORT", "REDIS_URL"]);
      for (const name of CONFIG_VARIABLES)
        expect(environment.get(name), name).toEqual(
          pinned.includes(name) ? expect.any(String) : `value-of-${name}`,
        );
    }
  });

  it("names in .env.example every variable of the configuration, and nothing else", () => {
    expect([...mentionedVariables(EXAMPLE)].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it("stops the bots after their own 10 s drain, not in the middle of it", () => {
    for (const name of ["bot-gateway", "bot-http"]) {
      const grace = readComposeFile().services[name]!.stop_grace_period ?? "10s";
      expect(Number(/^(\d+)s$/.exec(grace)?.[1])).toBeGreaterThan(10);
    }
  });
});

describe(".env.example as the image's --env-file and the unit's EnvironmentFile", () => {
  it("is read alike by Docker, Compose, systemd and dotenv (no quotes, no $, no comment after a value)", () => {
    expect(() => parseEnvFile(EXAMPLE)).not.toThrow();
    expect(() => parseEnvFile('GITHUB_TOKEN="ghp_x"')).toThrow("read differently");
  });

  it("sets nothing that depends on where the bot runs", () => {
    const set = parseEnvFile(EXAMPLE);
    expect(set.has("DATA_DIR")).toBe(false);
    expect(set.has("HTTP_PORT")).toBe(false);
  });

  it("leaves the image its /data folder and the port its HEALTHCHECK reads (docker run --env-file)", () => {
    const config = configIn(parseEnvFile(filledIn()));
    expect(config.dataDir).toBe("/data");
    expect(config.http.port).toBe(8080);
    const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
    expect(dockerfile).toMatch(/HEALTHCHECK[^\n]*\n?[^\n]*HTTP_PORT \|\| 8080/);
  });

  it("leaves the unit a data folder it may write (EnvironmentFile= overrides Environment=)", () => {
    const unit = readUnit("deploy/reposcout.service");
    const envFile = unit.get("EnvironmentFile")![0]!.replace(/^-/, "");
    const environment = unitEnvironment(unit, new Map([[envFile, filledIn()]]));
    const config = loadConfig(Object.fromEntries(environment));
    const workingDirectory = unit.get("WorkingDirectory")![0]!;
    const dataDir = isAbsolute(config.dataDir) ? config.dataDir : resolve(workingDirectory, config.dataDir);
    // ProtectSystem=strict: only ReadWritePaths (and the StateDirectory) can be written.
    const writable = (unit.get("ReadWritePaths") ?? []).flatMap((paths) => paths.split(/\s+/));
    expect(writable.some((path) => !relative(path, dataDir).startsWith(".."))).toBe(true);
    expect(Number(unit.get("TimeoutStopSec")?.[0])).toBeGreaterThan(10);
  });
});

describe("the configuration, given empty variables", () => {
  it.each(CONFIG_VARIABLES.map((name) => [name]))("reads an empty %s as unset", (name) => {
    const unset = loadConfig({});
    expect(loadConfig({ [name]: "" })).toEqual(unset);
    expect(loadConfig({ [name]: "  " })).toEqual(unset);
  });
});

describe("Node", () => {
  it("builds the image on the current LTS line, and CI runs on the oldest line the package supports", () => {
    const engines = (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines: { node: string } }
    ).engines.node;
    // The project supports Node 20 and newer (Node 20 left support on 2026-04-30, but machines
    // still run it): the oldest is what CI runs on; the image runs the current LTS, an even line.
    const oldest = Number(/^>=(\d+)$/.exec(engines)?.[1]);
    expect(oldest).toBe(20);
    const images = baseImages();
    expect(new Set(images).size).toBe(1);
    const imageMajor = Number(/^node:(\d+)-/.exec(images[0]!)?.[1]);
    expect(imageMajor).toBeGreaterThanOrEqual(24);
    expect(imageMajor % 2).toBe(0);
    expect(Number(readFileSync(join(ROOT, ".nvmrc"), "utf8").trim())).toBe(oldest);
    expect(readFileSync(join(ROOT, ".ci", "run"), "utf8")).toContain("node --version");
  });
});

/** A variable as the systemd unit's process gets it, with .env.example as its EnvironmentFile. */
function unitSets(name: string): string | undefined {
  const unit = readUnit("deploy/reposcout.service");
  const envFile = unit.get("EnvironmentFile")![0]!.replace(/^-/, "");
  return unitEnvironment(unit, new Map([[envFile, filledIn()]])).get(name);
}

describe("glibc's malloc settings (GLIBC_TUNABLES)", () => {
  const tunables = imageEnvironment("run").get("GLIBC_TUNABLES");
  const glibc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header
    ?.glibcVersionRuntime;

  /** Page faults of 100 blocks of 1 MiB, each freed before the next, in a node given `env`. */
  const faultsOf = (env: NodeJS.ProcessEnv): number => {
    const script = `let b = Buffer.allocUnsafeSlow(1 << 20); b.fill(1); b = null; gc();
const before = process.resourceUsage().minorPageFault;
for (let i = 0; i < 100; i++) { let b = Buffer.allocUnsafeSlow(1 << 20); b.fill(i); b = null; gc(); }
console.log(process.resourceUsage().minorPageFault - before);`;
    const run = spawnSync(process.execPath, ["--expose-gc", "-e", script], { env, encoding: "utf8" });
    expect(run.status).toBe(0);
    return Number(run.stdout.trim());
  };

  it("are the same in the image and in the systemd unit, with .env.example as its file", () => {
    expect(tunables).toMatch(/^glibc\.malloc\.[a-z_]+=\d+(:glibc\.malloc\.[a-z_]+=\d+)*$/);
    expect(unitSets("GLIBC_TUNABLES")).toBe(tunables);
  });

  // glibc ignores a tunable it does not know without a word: what they do is the check that they
  // are spelled as glibc reads them. A block freed is kept for the next one instead of going back
  // to the kernel, so the next takes few new pages of its 256 (here about 3 faults a block, against
  // 79 with glibc 2.36's defaults; other versions' defaults may keep more, never less).
  it.skipIf(glibc === undefined)("keep a freed block for the next one", () => {
    const defaults = { ...process.env };
    delete defaults.GLIBC_TUNABLES;
    const asDeployed = faultsOf({ ...defaults, GLIBC_TUNABLES: tunables });
    expect(asDeployed).toBeLessThan(100 * 16);
    // Never worse than the defaults (a glibc whose defaults keep the block too is within a few
    // faults of it: collections of the script's own garbage move the count a little).
    expect(asDeployed).toBeLessThanOrEqual(faultsOf(defaults) + 100);
  });
});

describe("V8's young generation (NODE_OPTIONS)", () => {
  const options = imageEnvironment("run").get("NODE_OPTIONS");

  it("is the same in the image and in the systemd unit, with .env.example as its file", () => {
    expect(options).toBe("--max-semi-space-size=16");
    expect(unitSets("NODE_OPTIONS")).toBe(options);
  });

  // Node refuses an option NODE_OPTIONS may not carry, and a misspelt one, before it runs anything.
  // Node 20's young generation is this size already; Node 24's own default is four times it.
  it("is taken by node, and holds the young generation to two 16 MiB semi-spaces", () => {
    const script = `let keep = [];
for (let i = 0; i < 2e6; i++) { keep.push({ i }); if (keep.length > 100000) keep = []; }
const space = require("node:v8").getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
console.log(space.space_size);`;
    const run = spawnSync(process.execPath, ["-e", script], {
      env: { PATH: process.env.PATH ?? "", NODE_OPTIONS: options },
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(Number(run.stdout.trim())).toBeLessThanOrEqual(2 * 16 * 2 ** 20);
  });
});
