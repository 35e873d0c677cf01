/**
 * `npm run sandbox -- [--command "/blame repo:demo/widgets path:README.md"]`: the local sandbox.
 * Without --command, the terminal chat; with it, one command, its answer, and exit code 0 (an
 * answer) or 1 (an error reply).
 */
import { parseArgs } from "node:util";
import { ConfigError, loadConfigFromProcess } from "../config.js";
import { runSandboxChat } from "./chat.js";

const { values } = parseArgs({
  options: { command: { type: "string", short: "c" } },
  allowPositionals: false,
});
try {
  const config = await loadConfigFromProcess();
  const code = await runSandboxChat(config, values.command !== undefined ? { command: values.command } : {});
  process.exit(code);
} catch (error) {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `The sandbox failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
