import { parseFlags } from "../cliArguments.js";
import type { Invoker } from "./chatSession.js";

/** What `npm run sandbox -- --help` prints. */
export const SANDBOX_USAGE = `Usage: npm run sandbox [-- [--as member|admin] [--command LINE]...]

Starts the local sandbox: a local GitHub serving the demo world, a local Discord, and the real bot.
Without --command, a terminal chat (type /help there). With --command, runs each LINE in order,
prints the answers and exits: 0 when every one was answered, 1 at the first error reply (the
lines after it do not run).

Options:
  -c, --command LINE   a slash command as typed in the chat (/blame repo:demo/widgets path:README.md),
                       a button's number (press it on the answer before), or /as, /help, /demo
  --as member|admin    who you are in the server (default admin; /as changes it between commands)
  -h, --help           print this help

A form the bot opens (/token set) reads its fields from standard input, one line each:
  echo "$TOKEN" | npm run sandbox -- --command "/token set"`;

const FLAGS = {
  command: { type: "string", short: "c", multiple: true },
  as: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The sandbox's command line, read. */
export type SandboxArguments =
  | { kind: "help" }
  | { kind: "usage-error"; problem: string }
  | { kind: "run"; commands?: string[]; invoker?: Invoker };

/**
 * Reads `npm run sandbox` arguments: `--command` (repeatable), `--as member|admin`, `--help`.
 * Anything else is a usage error (the caller prints the usage and exits 2).
 */
export function parseSandboxArguments(argv: readonly string[]): SandboxArguments {
  const flags = parseFlags(argv, FLAGS);
  if (!flags.ok) return { kind: "usage-error", problem: flags.problem };
  if (flags.values.help) return { kind: "help" };
  const as = flags.values.as;
  if (as !== undefined && as !== "member" && as !== "admin") {
    return { kind: "usage-error", problem: `--as takes member or admin, not "${as}".` };
  }
  return {
    kind: "run",
    ...(flags.values.command ? { commands: flags.values.command } : {}),
    ...(as ? { invoker: as } : {}),
  };
}
