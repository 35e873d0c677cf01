import { parseArgs, type ParseArgsConfig } from "node:util";

/** The flags a script takes, as `node:util` parseArgs describes them. */
export type FlagSpec = NonNullable<ParseArgsConfig["options"]>;

/** A command line read against its flags, or the one sentence that says what is wrong with it. */
export type ParsedFlags<T extends FlagSpec> =
  | { ok: true; values: ReturnType<typeof parseArgs<{ options: T; strict: true }>>["values"] }
  | { ok: false; problem: string };

function problemOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^']+)'/.exec(message)?.[1];
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `Unknown option ${quoted ?? message}.`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `Unexpected argument ${quoted ?? message}: every argument is an --option.`;
    default:
      // ERR_PARSE_ARGS_INVALID_OPTION_VALUE: "Option '--x' does not take an argument", or
      // "Option '-c, --command <value>' argument missing": node's sentence is already plain.
      return message.split(". ")[0]!.replace(/\.?$/, ".");
  }
}

/**
 * Reads a script's command line strictly: an unknown option, a positional argument or a value
 * where none belongs is refused with one sentence (never a stack trace), so the script can print
 * its usage and exit 2.
 */
export function parseFlags<T extends FlagSpec>(argv: readonly string[], options: T): ParsedFlags<T> {
  try {
    const { values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false });
    return { ok: true, values };
  } catch (error) {
    return { ok: false, problem: problemOf(error) };
  }
}
