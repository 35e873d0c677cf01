import { REST, Routes } from "discord.js";
import { commandDefinitions, loadCommands } from "./bot/loadCommands.js";
import { parseFlags } from "./cliArguments.js";
import type { Config } from "./config.js";

/** What `npm run deploy -- --help` prints. */
export const DEPLOY_USAGE = `Usage: npm run deploy [-- --dry-run]

Registers RepoScout's slash commands with Discord: in the server DISCORD_GUILD_ID names when it is
set (they appear at once), else globally (they may take up to an hour to appear). Needs
DISCORD_TOKEN and DISCORD_CLIENT_ID, in the environment or in .env (see .env.example).

Options:
  --dry-run    print the JSON array of command definitions and contact nothing
  -h, --help   print this help`;

const FLAGS = {
  "dry-run": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Where the deploy script reads its configuration and writes what a person reads. */
export interface DeployIo {
  /** Standard output (the definitions of --dry-run, the usage of --help, the result). */
  out(text: string): void;
  /** Standard error (what went wrong). */
  err(text: string): void;
  /** The configuration (environment and .env); read only when something is to be registered. */
  loadConfig(): Promise<Config>;
  /**
   * Registers the definitions and returns how many Discord now holds; default discord.js REST,
   * fitted to the installation contexts the application has enabled ({@link fitToEnabledInstalls}).
   */
  register?(config: Config, definitions: readonly unknown[]): Promise<number>;
}

/** "DISCORD_TOKEN is not set. Set it", "DISCORD_TOKEN and DISCORD_CLIENT_ID are not set. Set them". */
export function missingVariablesSentence(names: readonly string[]): string {
  const list =
    names.length <= 2
      ? names.join(" and ")
      : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return names.length === 1 ? `${list} is not set. Set it` : `${list} are not set. Set them`;
}

/** The installation contexts Discord knows: 0 a server install, 1 a user install (their portal names). */
const INSTALL_NAMES: Record<number, string> = { 0: "Guild Install", 1: "User Install" };

/**
 * Fits definitions to the installation contexts the application has enabled in the portal: Discord
 * refuses a whole registration in which one command names another (50035), so each command keeps
 * only the enabled ones, and one left with none is not registered.
 * @returns the definitions to register and the enabled-nowhere contexts that were left out.
 */
export function fitToEnabledInstalls(
  definitions: readonly unknown[],
  enabled: readonly number[],
): { definitions: unknown[]; leftOut: number[] } {
  const leftOut = new Set<number>();
  const fitted: unknown[] = [];
  for (const definition of definitions) {
    const types = (definition as { integration_types?: unknown }).integration_types;
    if (!Array.isArray(types)) {
      fitted.push(definition);
      continue;
    }
    for (const type of types) if (!enabled.includes(type as number)) leftOut.add(type as number);
    const kept = types.filter((type) => enabled.includes(type as number));
    if (kept.length > 0) fitted.push({ ...(definition as object), integration_types: kept });
  }
  return { definitions: fitted, leftOut: [...leftOut].sort() };
}

async function registerWithRest(
  config: Config,
  definitions: readonly unknown[],
  note: (text: string) => void,
): Promise<number> {
  const rest = new REST({ api: config.discord.apiUrl }).setToken(config.discord.token as string);
  const clientId = config.discord.clientId as string;
  const application = (await rest.get(Routes.currentApplication())) as {
    integration_types_config?: Record<string, unknown>;
  };
  const enabled = Object.keys(application.integration_types_config ?? { 0: {} }).map(Number);
  const fitted = fitToEnabledInstalls(definitions, enabled);
  if (fitted.leftOut.length > 0) {
    const names = fitted.leftOut.map((type) => INSTALL_NAMES[type] ?? String(type)).join(" and ");
    note(
      `${names} is not enabled for this application (developer portal > Installation): the commands ` +
        "are registered without it. Enable it and deploy again to offer them there.",
    );
  }
  const route = config.discord.guildId
    ? Routes.applicationGuildCommands(clientId, config.discord.guildId)
    : Routes.applicationCommands(clientId);
  const registered = (await rest.put(route, { body: fitted.definitions })) as unknown[];
  return registered.length;
}

/**
 * `npm run deploy`: reads the flags (an unknown one gets the usage and exit code 2; `--help` the
 * usage and 0), then prints the definitions (`--dry-run`, contacting nothing) or registers them.
 * Resolves to the exit code.
 */
export async function runDeploy(argv: readonly string[], io: DeployIo): Promise<number> {
  const flags = parseFlags(argv, FLAGS);
  if (!flags.ok) {
    io.err(`${flags.problem}\n\n${DEPLOY_USAGE}`);
    return 2;
  }
  if (flags.values.help) {
    io.out(DEPLOY_USAGE);
    return 0;
  }
  const definitions = commandDefinitions(await loadCommands());
  if (flags.values["dry-run"]) {
    io.out(JSON.stringify(definitions, null, 2));
    return 0;
  }
  const config = await io.loadConfig();
  const missing = [
    ...(config.discord.token ? [] : ["DISCORD_TOKEN"]),
    ...(config.discord.clientId ? [] : ["DISCORD_CLIENT_ID"]),
  ];
  if (missing.length > 0) {
    io.err(
      `Cannot register commands: ${missingVariablesSentence(missing)} in .env (see .env.example), ` +
        "or run `npm run deploy -- --dry-run` to print the definitions.",
    );
    return 1;
  }
  const count = io.register
    ? await io.register(config, definitions)
    : await registerWithRest(config, definitions, io.out);
  io.out(
    `Registered ${count} commands ${config.discord.guildId ? `in server ${config.discord.guildId}` : "globally (they may take up to an hour to appear)"}.`,
  );
  return 0;
}
