import { createChatSession, type Invoker } from "./chatSession.js";
import { createFormInput } from "./formInput.js";
import type { SandboxWorld } from "./harness.js";
import type { ChatOutput } from "./terminalChat.js";

/** Where a form's value comes from in one-shot mode, said when it did not come. */
const FORM_HINT =
  'Give it on standard input, one line per field (echo "$TOKEN" | npm run sandbox -- --command "/token set"), or use the chat (npm run sandbox).';

export interface OneShotOptions {
  world: SandboxWorld;
  /** The lines to run, in order: slash commands, button numbers, /as, /help, /demo. */
  commands: readonly string[];
  invoker?: Invoker;
  /** Where the fields of a form are read (standard input). */
  input: NodeJS.ReadableStream;
  /** Whether `input` is a person at a terminal (asked, secrets hidden) or a pipe (a line a field). */
  inputIsTerminal: boolean;
  output: ChatOutput;
  color: boolean;
}

/**
 * `npm run sandbox -- --command ... [--command ...]`: runs the lines in order through one session
 * (so `/as member` holds for the next, and a number presses a button of the answer before) and
 * resolves to the exit code: 0 when every line was answered, 1 at the first error reply or refusal
 * (the lines after it do not run).
 */
export async function runCommands(options: OneShotOptions): Promise<number> {
  const { output } = options;
  const statusShown = output.isTTY === true;
  const forms = createFormInput(options.input, output, options.inputIsTerminal);
  const session = createChatSession({
    world: options.world,
    screen: {
      print: (text) => output.write(`${text}\n`),
      // On a terminal the status line is drawn, then erased by the answer; a pipe gets answers only.
      status: (text) => {
        if (statusShown) output.write(text === null ? "\r\u001b[K" : `\r\u001b[K${text}`);
      },
    },
    ask: (field) => forms.ask(field),
    color: options.color,
    width: () => output.columns ?? 80,
    ...(options.invoker ? { invoker: options.invoker } : {}),
    formHint: FORM_HINT,
  });
  try {
    for (const command of options.commands) {
      const outcome = await session.handle(command);
      if (outcome === "failed") return 1;
      if (outcome === "quit") break;
    }
    return 0;
  } finally {
    session.close();
    forms.close();
  }
}
