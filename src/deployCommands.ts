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
  /** Registers the definitions and returns how many Discord now holds; default discord.js REST. */
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

async function registerWithRest(config: Config, definitions: readonly unknown[]): Promise<number> {
  const rest = new REST({ api: config.discord.apiUrl }).setToken(config.discord.token as string);
  const clientId = config.discord.clientId as string;
  const route = config.discord.guildId
    ? Routes.applicationGuildCommands(clientId, config.discord.guildId)
    : Routes.applicationCommands(clientId);
  const registered = (await rest.put(route, { body: definitions })) as unknown[];
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
  const count = await (io.register ?? registerWithRest)(config, definitions);
  io.out(
    `Registered ${count} commands ${config.discord.guildId ? `in server ${config.discord.guildId}` : "globally (they may take up to an hour to appear)"}.`,
  );
  return 0;
}
