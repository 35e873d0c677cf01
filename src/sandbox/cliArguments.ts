import { parseFlags } from "../cliArguments.js";
import type { Invoker } from "./chatSession.js";

/** What `npm run sandbox -- --help` prints. */
export const SANDBOX_USAGE = `Usage: npm run sandbox [-- [--as member|admin] [--command LINE]...]

Starts the local sandbox: a local GitHub serving the demo world, a local Discord, and the real bot.
Without --command, a terminal chat (type /help there). With --command, runs each LINE in order,
prints the answers and exits: 0 when every one was answered, 1 at the first error reply (the
lines after it do not run). An empty LINE, or a line after /quit, is refused (exit 2).

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

/** Lines the session reads as the end of the run. */
const QUIT_LINES = new Set(["/quit", "/exit"]);

/**
 * What is wrong with the `--command` lines, or null: an empty line would run nothing and still
 * exit 0, and a line after `/quit` would never run, so either is a mistake said before anything starts.
 */
function commandLinesProblem(commands: readonly string[]): string | null {
  const empty = commands.findIndex((command) => command.trim() === "");
  if (empty >= 0)
    return `--command number ${empty + 1} is empty: give a slash command (--command "/whoami"), a button's number, or /as, /help, /demo.`;
  const quit = commands.findIndex((command) => QUIT_LINES.has(command.trim()));
  if (quit >= 0 && quit < commands.length - 1) {
    const after = commands.slice(quit + 1);
    const listed = after.map((command) => `"${command}"`).join(", ");
    return `${commands[quit]!.trim()} ends the run, so the ${after.length === 1 ? "line" : `${after.length} lines`} after it (${listed}) would never run: put ${commands[quit]!.trim()} last or leave it out.`;
  }
  return null;
}

/**
 * Reads `npm run sandbox` arguments: `--command` (repeatable), `--as member|admin`, `--help`.
 * Anything else is a usage error (the caller prints the usage and exits 2), as is an empty
 * `--command` or a line after `/quit`.
 */
export function parseSandboxArguments(argv: readonly string[]): SandboxArguments {
  const flags = parseFlags(argv, FLAGS);
  if (!flags.ok) return { kind: "usage-error", problem: flags.problem };
  if (flags.values.help) return { kind: "help" };
  const as = flags.values.as;
  if (as !== undefined && as !== "member" && as !== "admin") {
    return { kind: "usage-error", problem: `--as takes member or admin, not "${as}".` };
  }
  const commands = flags.values.command;
  const problem = commands ? commandLinesProblem(commands) : null;
  if (problem) return { kind: "usage-error", problem };
  return {
    kind: "run",
    ...(commands ? { commands } : {}),
    ...(as ? { invoker: as } : {}),
  };
}
