/**
 * `npm run sandbox -- [--as member|admin] [--command LINE]...`: the local sandbox. Without
 * --command, the terminal chat; with it, each line in order, the answers, and exit code 0 (every
 * one answered) or 1 (an error reply). A bad flag prints the usage and exits 2.
 */
import { ConfigError, loadConfigFromProcess } from "../config.js";
import { parseSandboxArguments, SANDBOX_USAGE } from "./cliArguments.js";

const parsed = parseSandboxArguments(process.argv.slice(2));
if (parsed.kind === "help") {
  console.log(SANDBOX_USAGE);
  process.exit(0);
}
if (parsed.kind === "usage-error") {
  console.error(`${parsed.problem}\n\n${SANDBOX_USAGE}`);
  process.exit(2);
}
try {
  // Loaded after the flags are read: a usage error answers at once, without loading the bot.
  const { runSandboxChat } = await import("./chat.js");
  const config = await loadConfigFromProcess();
  const code = await runSandboxChat(config, {
    ...(parsed.commands ? { commands: parsed.commands } : {}),
    ...(parsed.invoker ? { invoker: parsed.invoker } : {}),
  });
  process.exit(code);
} catch (error) {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `The sandbox failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
