/**
 * Registers RepoScout's slash commands with Discord (`npm run deploy`): in DISCORD_GUILD_ID when
 * set (instant, for development), else globally. `npm run deploy -- --dry-run` prints the JSON array
 * of definitions and contacts nothing; `--help` prints the usage. The bot and this script load the
 * same command modules (src/deployCommands.ts).
 */
import { ConfigError, loadConfigFromProcess } from "./src/config.js";
import { runDeploy } from "./src/deployCommands.js";

runDeploy(process.argv.slice(2), {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
  loadConfig: () => loadConfigFromProcess(),
}).then(
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
