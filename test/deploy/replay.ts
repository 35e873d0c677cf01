import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

/**
 * Replays of what Docker, Compose and systemd do with RepoScout's deploy files, for tests that run
 * without a Docker daemon or systemd: the rules are the tools' documented ones (Compose
 * specification "Interpolation" and "env_file", `docker run --env-file`, systemd.exec
 * `Environment=` / `EnvironmentFile=`), written from their documentation, not from the files.
 */

export const ROOT = resolve(new URL("../../", import.meta.url).pathname);
const require = createRequire(import.meta.url);

/** One line of an environment file: `NAME=value`, or a comment / blank line (null). */
const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/;

/**
 * An environment file in the form all of Docker's `--env-file`, Compose's `env_file`, systemd's
 * `EnvironmentFile=` and dotenv read alike: `NAME=value` lines, `#` comments, blank lines. Values
 * with quotes, `$`, or a `#` after the value are read differently by each of them (Docker keeps
 * quotes, Compose and systemd strip them; Compose interpolates `$`): such a line is an error here.
 * @throws when a line is none of the three.
 */
export function parseEnvFile(text: string): Map<string, string> {
  const variables = new Map<string, string>();
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    const match = ASSIGNMENT.exec(line);
    if (!match) throw new Error(`line ${index + 1} is not NAME=value: ${line}`);
    const value = match[2]!;
    if (/["'$`\\]|\s#/.test(value) || value !== value.trim())
      throw new Error(
        `line ${index + 1}: ${match[1]}'s value is read differently by Docker, Compose and systemd`,
      );
    variables.set(match[1]!, value);
  }
  return variables;
}

/** The names a file mentions, set or commented out (`# NAME=value`). */
export function mentionedVariables(text: string): Set<string> {
  return new Set([...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!));
}

/**
 * Compose's interpolation of one string (Compose specification, "Interpolation"): `$$` is a `$`;
 * `$NAME` and `${NAME}` are the value or empty; `${NAME:-d}` / `${NAME-d}` the default when unset or
 * empty / unset; `${NAME:?e}` / `${NAME?e}` an error when unset or empty / unset; `${NAME:+r}` /
 * `${NAME+r}` the replacement when set and not empty / set.
 * @throws Error with Compose's message ("required variable NAME is missing a value: e").
 */
export function interpolate(text: string, env: ReadonlyMap<string, string>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, braced?: string, operator?: string, argument?: string, bare?: string) => {
      if (whole === "$$") return "$";
      const name = (braced ?? bare)!;
      const value = env.get(name);
      const unset = value === undefined;
      const empty = unset || value === "";
      switch (operator) {
        case undefined:
          return value ?? "";
        case ":-":
          return empty ? argument! : value!;
        case "-":
          return unset ? argument! : value;
        case ":?":
        case "?":
          if (operator === ":?" ? empty : unset)
            throw new Error(`required variable ${name} is missing a value: ${argument}`);
          return value!;
        case ":+":
          return empty ? "" : argument!;
        default:
          return unset ? "" : argument!;
      }
    },
  );
}

/** Every string of a parsed YAML document interpolated, as Compose does before anything else. */
function interpolateAll(node: unknown, env: ReadonlyMap<string, string>): unknown {
  if (typeof node === "string") return interpolate(node, env);
  if (Array.isArray(node)) return node.map((item) => interpolateAll(item, env));
  if (node !== null && typeof node === "object")
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolateAll(value, env)]));
  return node;
}

export interface ComposeService {
  profiles?: string[];
  env_file?: string | Array<string | { path: string; required?: boolean }>;
  environment?: Record<string, string | number | null> | string[];
  stop_grace_period?: string;
  ports?: string[];
  volumes?: string[];
  command?: string[];
  [key: string]: unknown;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

/** compose.yaml as YAML (with its merge keys), not interpolated. */
export function readComposeFile(): ComposeFile {
  const yaml = require("js-yaml") as { load(text: string): unknown };
  return yaml.load(readFileSync(join(ROOT, "compose.yaml"), "utf8")) as ComposeFile;
}

/**
 * `docker compose --profile <profile> ...` up to the containers' environments: the project's `.env`
 * (with the shell's variables winning) interpolates the WHOLE file, every service whatever its
 * profile (docker/compose#11977), then the services of the profile are kept, and each one's
 * environment is its env_file entries overridden by its `environment` entries.
 * @param files the project's files by name (`.env` and whatever env_file names).
 * @throws Error as Compose fails (a required variable without a value, a missing env_file).
 */
export function composeUp(options: {
  profiles: string[];
  files: ReadonlyMap<string, string>;
  shell?: ReadonlyMap<string, string>;
}): Map<string, Map<string, string>> {
  const dotenv = options.files.has(".env") ? parseEnvFile(options.files.get(".env")!) : new Map();
  const env = new Map([...dotenv, ...(options.shell ?? new Map<string, string>())]);
  const compose = interpolateAll(readComposeFile(), env) as ComposeFile;
  const containers = new Map<string, Map<string, string>>();
  for (const [name, service] of Object.entries(compose.services)) {
    if (service.profiles && !service.profiles.some((profile) => options.profiles.includes(profile))) continue;
    const environment = new Map<string, string>();
    const envFiles = service.env_file === undefined ? [] : [service.env_file].flat();
    for (const entry of envFiles) {
      const path = typeof entry === "string" ? entry : entry.path;
      const required = typeof entry === "string" ? true : entry.required !== false;
      const text = options.files.get(path);
      if (text === undefined) {
        if (required) throw new Error(`env file ${path} not found`);
        continue;
      }
      for (const [key, value] of parseEnvFile(text)) environment.set(key, interpolate(value, env));
    }
    const own = service.environment ?? {};
    const pairs = Array.isArray(own)
      ? own.map((line) => line.split(/=(.*)/s, 2) as [string, string | undefined])
      : Object.entries(own).map(([key, value]) => [key, value === null ? undefined : String(value)] as const);
    for (const [key, value] of pairs) {
      if (value === undefined) {
        const fromShell = options.shell?.get(key);
        if (fromShell !== undefined) environment.set(key, fromShell);
      } else environment.set(key, value);
    }
    containers.set(name, environment);
  }
  return containers;
}

/** The Dockerfile's `ENV` of a stage, as the image's environment before `--env-file`. */
export function imageEnvironment(stage: string): Map<string, string> {
  const text = readFileSync(join(ROOT, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
  const env = new Map<string, string>();
  let current = "";
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?/i.exec(trimmed);
    if (from) current = from[1] ?? "";
    if (current !== stage || !/^ENV\s/i.test(trimmed)) continue;
    for (const match of trimmed.slice(4).matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g))
      env.set(match[1]!, match[2]!.replace(/^"|"$/g, ""));
  }
  return env;
}

/** The `FROM` images of the Dockerfile, in order. */
export function baseImages(): string[] {
  const text = readFileSync(join(ROOT, "Dockerfile"), "utf8");
  return [...text.matchAll(/^FROM\s+(\S+)/gim)].map((match) => match[1]!);
}

/** A systemd unit's `[Service]` settings, each with every value it was given, in order. */
export function readUnit(path: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = "";
  for (const line of readFileSync(join(ROOT, path), "utf8").split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#") || trimmed.startsWith(";")) continue;
    const header = /^\[(.+)\]$/.exec(trimmed);
    if (header) {
      section = header[1]!;
      continue;
    }
    if (section !== "Service") continue;
    const [key, value = ""] = trimmed.split(/=(.*)/s, 2) as [string, string?];
    settings.set(key, [...(settings.get(key) ?? []), value]);
  }
  return settings;
}

/**
 * The environment systemd gives the unit's process (systemd.exec): `Environment=` assignments,
 * then each `EnvironmentFile=`'s, which override them ("Settings from these files override
 * settings made with Environment="). `files` maps the unit's paths to their text.
 */
export function unitEnvironment(
  unit: ReadonlyMap<string, string[]>,
  files: ReadonlyMap<string, string>,
): Map<string, string> {
  const env = new Map<string, string>();
  for (const assignment of unit.get("Environment") ?? [])
    for (const pair of assignment.split(/\s+/)) {
      const [key, value = ""] = pair.split(/=(.*)/s, 2) as [string, string?];
      env.set(key, value);
    }
  for (const entry of unit.get("EnvironmentFile") ?? []) {
    const optional = entry.startsWith("-");
    const path = entry.replace(/^-/, "");
    const text = files.get(path);
    if (text === undefined) {
      if (optional) continue;
      throw new Error(`EnvironmentFile ${path} not found`);
    }
    for (const [key, value] of parseEnvFile(text)) env.set(key, value);
  }
  return env;
}
