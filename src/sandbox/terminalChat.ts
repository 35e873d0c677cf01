// Over 300 lines: one readline loop and the terminal drawing around it (prompt, status line, Tab completion, masked fields) share the line's state; apart they would pass it back and forth.
import { clearScreenDown, createInterface, cursorTo } from "node:readline";
import { Writable } from "node:stream";
import { parseCommandLine } from "./commandLine.js";
import { completeOption, listingColumns } from "./completion.js";
import {
  createChatSession,
  type ChatScreen,
  type ChatSession,
  type FormField,
  type Invoker,
} from "./chatSession.js";
import type { SandboxWorld } from "./harness.js";

/**
 * The terminal chat of the sandbox: readline over a session (chatSession.ts). Lines typed while the
 * bot starts are queued and run once it is ready; lines run one at a time, in order; at `/quit` or
 * at the end of the input, the lines before it are answered first (each answer is bounded by
 * ANSWER_WAIT_MS). On a terminal it also draws the prompt, the "thinking" status, Tab completion
 * through the bot's autocomplete, and hides what is typed into a secret form field.
 */

const PROMPT = "reposcout> ";

/** A stream a terminal chat writes to: stdout, or a test's capture. */
export type ChatOutput = NodeJS.WritableStream & { columns?: number; isTTY?: boolean };

export interface TerminalChatOptions {
  /** The world being started: lines typed before it is ready wait for it. */
  world: Promise<SandboxWorld>;
  input: NodeJS.ReadableStream;
  output: ChatOutput;
  /** A person at a terminal (prompt, status line, completion, hidden secrets) or a pipe. */
  terminal: boolean;
  color: boolean;
  /** What to print once the world is ready. */
  banner(world: SandboxWorld): string;
  /** What to print while it starts. */
  starting?: string;
  /** Who types at first (default admin). */
  invoker?: Invoker;
}

// ANSI control sequences and line ends pass through a hidden echo; everything else becomes a dot.
// eslint-disable-next-line no-control-regex
const CONTROL_SEQUENCE = /\u001b\[[0-9;?]*[ -/]*[@-~]|\r|\n/g;

function hide(text: string): string {
  let out = "";
  let last = 0;
  for (const match of text.matchAll(CONTROL_SEQUENCE)) {
    out += "•".repeat([...text.slice(last, match.index)].length) + match[0];
    last = match.index + match[0].length;
  }
  return out + "•".repeat([...text.slice(last)].length);
}

/**
 * What readline writes to: the real output, except that while a secret is typed, the echo of
 * the typed text is drawn as dots (the prompt stays readable). readline has no hook for its echo;
 * standing between it and the terminal is the way `read` and `mute-stream` hide passwords too.
 */
export class EchoOutput extends Writable {
  /** The prompt of the secret being typed, or null when echo is plain. */
  secretPrompt: string | null = null;

  constructor(private readonly target: ChatOutput) {
    super({ decodeStrings: false });
    (target as NodeJS.WritableStream & { on?: (event: string, listener: () => void) => void }).on?.(
      "resize",
      () => this.emit("resize"),
    );
  }

  get columns(): number {
    return this.target.columns ?? 80;
  }

  get isTTY(): boolean {
    return true;
  }

  override _write(
    chunk: Buffer | string,
    _encoding: BufferEncoding,
    done: (error?: Error | null) => void,
  ): void {
    let text = String(chunk);
    if (this.secretPrompt !== null) {
      const prompt = this.secretPrompt;
      text = text
        .split(prompt)
        .map((part) => hide(part))
        .join(prompt);
    }
    this.target.write(text);
    done();
  }
}

/** Runs the terminal chat until `/quit` or the end of the input; resolves once the last answer is printed. */
export function runTerminalChat(options: TerminalChatOptions): Promise<void> {
  const { output, terminal } = options;
  const echo = new EchoOutput(output);
  const history: string[] = [];
  let closed = false;
  let session: ChatSession | null = null;
  let world: SandboxWorld | null = null;
  const queue: string[] = [];
  let waiter: ((line: string | null) => void) | null = null;
  let inputEnded = false;
  let quitting = false;
  let running = false;
  let finished = false;
  let settle: (error?: unknown) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    settle = (error) => (error === undefined ? resolve() : reject(error));
  });

  const basePrompt = (): string =>
    session ? PROMPT : `reposcout (starting${queue.length > 0 ? `, ${queue.length} queued` : ""})> `;

  const rl = createInterface({
    input: options.input,
    output: terminal ? echo : undefined,
    terminal,
    completer,
    history,
    prompt: basePrompt(),
  });
  function redraw(): void {
    if (!terminal || closed) return;
    cursorTo(output, 0);
    clearScreenDown(output);
    rl.prompt(true);
  }

  const screen: ChatScreen = {
    print(text) {
      if (terminal && !closed) {
        cursorTo(output, 0);
        clearScreenDown(output);
        output.write(`${text}\n`);
        rl.prompt(true);
      } else {
        output.write(`${text}\n`);
      }
    },
    status(text) {
      if (!terminal || closed) return;
      rl.setPrompt(text === null ? basePrompt() : `${text} `);
      redraw();
    },
  };

  /** The next line for a form: typed after the question on a terminal; the next piped line otherwise. */
  function ask(field: FormField): Promise<string | null> {
    if (!terminal && queue.length > 0) return Promise.resolve(queue.shift()!);
    if (inputEnded || closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      const prompt = `📝 ${field.label}: `;
      if (terminal) {
        echo.secretPrompt = field.secret ? prompt : null;
        rl.setPrompt(prompt);
        redraw();
      }
      waiter = (line) => {
        echo.secretPrompt = null;
        if (terminal && !closed) rl.setPrompt(basePrompt());
        resolve(line);
      };
    });
  }

  function finish(error?: unknown): void {
    if (finished) return;
    finished = true;
    session?.close();
    if (!closed) rl.close();
    settle(error);
  }

  async function pump(): Promise<void> {
    if (running || !session || finished) return;
    running = true;
    try {
      while (queue.length > 0 && !quitting) {
        const line = queue.shift()!;
        if (!terminal) screen.print(`${PROMPT}${line}`);
        if ((await session.handle(line)) === "quit") quitting = true;
        else redraw();
      }
    } finally {
      running = false;
    }
    if (quitting || (inputEnded && queue.length === 0)) finish();
  }

  /** Tab completion through the bot's own autocomplete: `repo:` and `path:` ask the bot. */
  function completer(line: string, callback: (error: null, result: [string[], string]) => void): void {
    const match = /(\S+):(\S*)$/.exec(line);
    const command = /^\/(\S+)/.exec(line)?.[1];
    if (!world || !session || waiter || !match || !command || !["repo", "path"].includes(match[1]!)) {
      callback(null, [[], line]);
      return;
    }
    const [token, key, typed] = match as unknown as [string, string, string];
    let typedOptions: Record<string, string | number | boolean> = {};
    try {
      typedOptions = parseCommandLine(
        line.slice(0, match.index).trim() || `/${command}`,
        world.discord.commands(),
      ).options;
    } catch {
      // Required options may still be missing while typing; complete with what is there.
      for (const word of line.slice(0, match.index).split(/\s+/)) {
        const [name, ...value] = word.split(":");
        if (name && value.length > 0 && !name.startsWith("/")) typedOptions[name] = value.join(":");
      }
    }
    world
      .run(
        {
          kind: "autocomplete",
          name: command,
          options: { ...typedOptions, [key]: typed },
          focused: key,
          user: session.invoker,
        },
        { timeoutMs: 3_000 },
      )
      .then((record) => {
        const completion = completeOption(
          typed,
          (record.choices ?? []).map((choice) => String(choice.value)),
        );
        if (completion.listing.length > 0) {
          screen.print(listingColumns(completion.listing, output.columns ?? 80));
        }
        callback(null, [[`${key}:${completion.value}`], token]);
      })
      .catch(() => callback(null, [[], line]));
  }

  // A secret typed into a form never reaches the history (arrow up would show it).
  rl.on("history", (lines) => {
    if (echo.secretPrompt !== null) lines.shift();
  });
  rl.on("line", (line) => {
    if (waiter && (terminal || queue.length === 0)) {
      const answer = waiter;
      waiter = null;
      answer(line);
      return;
    }
    queue.push(line);
    if (!session && terminal) {
      rl.setPrompt(basePrompt());
      redraw();
    }
    void pump();
  });
  rl.on("SIGINT", () => {
    // Ctrl-C closes an open form (as Escape does in Discord), else leaves at once.
    if (waiter) {
      const answer = waiter;
      waiter = null;
      answer(null);
      return;
    }
    quitting = true;
    queue.length = 0;
    finish();
  });
  rl.on("close", () => {
    closed = true;
    inputEnded = true;
    if (waiter) {
      const answer = waiter;
      waiter = null;
      answer(null);
    }
    // Once the world is ready (now, or when it is), what is queued runs, then the chat ends.
    void pump();
  });

  screen.print(options.starting ?? "Starting the sandbox: a local GitHub, a local Discord and the bot…");
  options.world.then(
    (ready) => {
      world = ready;
      session = createChatSession({
        world: ready,
        screen,
        ask,
        color: options.color,
        width: () => output.columns ?? 80,
        ...(options.invoker ? { invoker: options.invoker } : {}),
      });
      if (terminal && !closed) rl.setPrompt(basePrompt());
      screen.print(options.banner(ready));
      void pump();
    },
    (error: unknown) => finish(error),
  );
  return done;
}
