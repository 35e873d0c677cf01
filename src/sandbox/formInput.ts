import { createInterface, type Interface } from "node:readline";
import type { FormField } from "./chatSession.js";
import { EchoOutput, type ChatOutput } from "./terminalChat.js";

/** Where `--command` reads the fields of a form the bot opens. */
export interface FormInput {
  ask(field: FormField): Promise<string | null>;
  /** Lets go of the input (the process can then end). */
  close(): void;
}

/**
 * The fields of a form in one-shot mode, read from standard input: on a terminal, asked for (a
 * secret hidden as it is typed); from a pipe, one line per field
 * (`echo "$TOKEN" | npm run sandbox -- --command "/token set"`); null at the end of the input.
 * Nothing is read until a form asks.
 */
export function createFormInput(
  input: NodeJS.ReadableStream,
  output: ChatOutput,
  terminal: boolean,
): FormInput {
  let rl: Interface | null = null;
  let echo: EchoOutput | null = null;
  const lines: string[] = [];
  let ended = false;
  let waiter: ((line: string | null) => void) | null = null;

  function open(): Interface {
    if (rl) return rl;
    echo = terminal ? new EchoOutput(output) : null;
    rl = createInterface({ input, output: echo ?? undefined, terminal, historySize: 0 });
    rl.on("line", (line) => {
      if (waiter) {
        const answer = waiter;
        waiter = null;
        answer(line);
      } else lines.push(line);
    });
    rl.on("close", () => {
      ended = true;
      if (waiter) {
        const answer = waiter;
        waiter = null;
        answer(null);
      }
    });
    // Ctrl-C while a field is asked: the form is not sent.
    rl.on("SIGINT", () => rl?.close());
    return rl;
  }

  return {
    ask(field) {
      const reader = open();
      if (lines.length > 0) return Promise.resolve(lines.shift()!);
      if (ended) return Promise.resolve(null);
      return new Promise((resolve) => {
        if (terminal && echo) {
          const prompt = `📝 ${field.label}: `;
          echo.secretPrompt = field.secret ? prompt : null;
          reader.setPrompt(prompt);
          reader.prompt();
        }
        waiter = (line) => {
          if (echo) echo.secretPrompt = null;
          resolve(line);
        };
      });
    },
    close() {
      rl?.close();
    },
  };
}
