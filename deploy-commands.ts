/**
 * Registers RepoScout's slash commands with Discord (`npm run deploy`): in DISCORD_GUILD_ID when
 * set (instant, for development), else globally. `npm run deploy -- --dry-run` prints the JSON array
 * of definitions and contacts nothing. The bot and this script load the same command modules.
 */
import { REST, Routes } from "discord.js";
import { ConfigError, loadConfigFromProcess } from "./src/config.js";
import { commandDefinitions, loadCommands } from "./src/bot/loadCommands.js";

async function main(argv: readonly string[]): Promise<number> {
  const definitions = commandDefinitions(await loadCommands());
  if (argv.includes("--dry-run")) {
    console.log(JSON.stringify(definitions, null, 2));
    return 0;
  }
  const config = await loadConfigFromProcess();
  const missing = [
    ...(config.discord.token ? [] : ["DISCORD_TOKEN"]),
    ...(config.discord.clientId ? [] : ["DISCORD_CLIENT_ID"]),
  ];
  if (missing.length > 0) {
    console.error(
      `Cannot register commands: ${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not set. ` +
        "Set them in .env (see .env.example), or run `npm run deploy -- --dry-run` to print the definitions.",
    );
    return 1;
  }
  const rest = new REST({ api: config.discord.apiUrl }).setToken(config.discord.token as string);
  const clientId = config.discord.clientId as string;
  const route = config.discord.guildId
    ? Routes.applicationGuildCommands(clientId, config.discord.guildId)
    : Routes.applicationCommands(clientId);
  const registered = (await rest.put(route, { body: definitions })) as unknown[];
  console.log(
    `Registered ${registered.length} commands ${config.discord.guildId ? `in server ${config.discord.guildId}` : "globally (they may take up to an hour to appear)"}.`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError) console.error(error.message);
    else
      console.error(
        `Could not register the commands: ${error instanceof Error ? error.message : String(error)}`,
      );
    process.exit(1);
  },
);
