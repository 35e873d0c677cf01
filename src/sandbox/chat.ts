import { join, resolve } from "node:path";
import { createInterface, type Interface } from "node:readline";
import { pino } from "pino";
import type { Config } from "../config.js";
import { createLogger } from "../logger.js";
import { parseCommandLine } from "./commandLine.js";
import type { InteractionRecord, InteractionRequest } from "./discord/index.js";
import { DEMO_PATHS, DEMO_TOKEN } from "./github/index.js";
import { startSandboxWorld, type SandboxWorld } from "./harness.js";
import { renderTranscript, transcriptOf, type SeenMessage } from "./transcript.js";

type Invoker = "member" | "admin";

const HELP = `Type a slash command as in Discord, options as name:value (quote values with spaces):
  /blame repo:demo/widgets path:${DEMO_PATHS.engine} lines:100-140
  /contents repo:demo/widgets path:src
  /repos owner:demo sort:name
  /contributors repo:demo/crowd page:2
  /whoami
  /token status · /token set · /token clear      (admin commands)
  /settings threads enabled:true                  (answers go into threads)
Press Tab after repo: or path: to autocomplete. Type a button's number to press it.
Sandbox only: /as member|admin (who you are; now admin), /help, /quit.`;

/** The sandbox's logs go to a file, so the chat stays readable. */
function sandboxLogger(config: Config) {
  return createLogger({
    level: config.logLevel,
    pretty: false,
    destination: pino.destination({ dest: join(config.dataDir, "sandbox.log"), mkdir: true, sync: false }),
  });
}

interface ChatState {
  world: SandboxWorld;
  invoker: Invoker;
  /** The buttons of the last answer, by number. */
  choices: Map<number, { messageId: string; customId: string }>;
  color: boolean;
}

function remember(state: ChatState, messages: readonly SeenMessage[]): void {
  state.choices.clear();
  for (const item of messages) {
    for (const choice of item.choices) {
      if (choice.customId && !choice.disabled) {
        state.choices.set(choice.number, { messageId: item.id, customId: choice.customId });
      }
    }
  }
}

async function ask(rl: Interface, question: string): Promise<string> {
  return new Promise((resolve) => rl.question(question, resolve));
}

/** Runs one interaction and prints what a person would see; returns whether it was an error. */
async function exchange(
  state: ChatState,
  request: InteractionRequest,
  rl: Interface | null,
): Promise<boolean> {
  let record: InteractionRecord = await state.world.run(request, { timeoutMs: 20_000, settleMs: 150 });
  let transcript = transcriptOf(record);
  console.log(
    renderTranscript(transcript, {
      color: state.color,
      now: new Date(),
      width: process.stdout.columns ?? 80,
    }),
  );
  if (transcript.modal && rl) {
    const fields: Record<string, string> = {};
    for (const input of transcript.modal.inputs) fields[input.customId] = await ask(rl, `${input.label}: `);
    record = await state.world.run(
      { kind: "modal", from: record.id, fields },
      { timeoutMs: 20_000, settleMs: 150 },
    );
    transcript = transcriptOf(record);
    console.log(
      renderTranscript(transcript, {
        color: state.color,
        now: new Date(),
        width: process.stdout.columns ?? 80,
      }),
    );
  }
  remember(state, transcript.messages);
  return transcript.isError;
}

function slashRequest(state: ChatState, line: string): InteractionRequest {
  const typed = parseCommandLine(line, state.world.discord.commands());
  return {
    kind: "slash",
    name: [typed.name, ...typed.path].join(" "),
    options: typed.options,
    user: state.invoker,
  };
}

/** Tab completion through the bot's own autocomplete: `repo:` and `path:` ask the bot. */
function completerFor(state: ChatState) {
  return (line: string, callback: (error: null, result: [string[], string]) => void): void => {
    const match = /(\S+):(\S*)$/.exec(line);
    const command = /^\/(\S+)/.exec(line)?.[1];
    if (!match || !command || !["repo", "path"].includes(match[1]!)) {
      callback(null, [[], line]);
      return;
    }
    let options: Record<string, string | number | boolean> = {};
    try {
      options = parseCommandLine(
        line.slice(0, match.index).trim() || `/${command}`,
        state.world.discord.commands(),
      ).options;
    } catch {
      // Required options may still be missing while typing; complete with what is there.
      for (const word of line.slice(0, match.index).split(/\s+/)) {
        const [key, ...value] = word.split(":");
        if (key && value.length > 0 && !key.startsWith("/")) options[key] = value.join(":");
      }
    }
    state.world
      .run(
        {
          kind: "autocomplete",
          name: command,
          options: { ...options, [match[1]!]: match[2]! },
          focused: match[1]!,
          user: state.invoker,
        },
        { timeoutMs: 3_000 },
      )
      .then((record) => {
        const values = (record.choices ?? []).map((choice) => `${match[1]}:${String(choice.value)}`);
        callback(null, [values, match[0]]);
      })
      .catch(() => callback(null, [[], line]));
  };
}

/**
 * The local sandbox (SPEC section 6): both stand-ins with the demo world, the real bot, and a
 * terminal chat. With `command`, runs that one command, prints the answer and resolves to the exit
 * code (0 on an answer, 1 on an error reply).
 */
export async function runSandboxChat(config: Config, options: { command?: string } = {}): Promise<number> {
  const logger = sandboxLogger(config);
  const world = await startSandboxWorld({
    dataDir: resolve(config.dataDir),
    // Absolute: git runs inside each repository, where a relative path means something else.
    githubDataDir: resolve(config.dataDir, "demo-world"),
    defaultToken: DEMO_TOKEN,
    ...(config.tokens.encryptionKey ? { encryptionKey: config.tokens.encryptionKey } : {}),
    memoryStores: false,
    logger,
  });
  const state: ChatState = {
    world,
    invoker: "admin",
    choices: new Map(),
    color: process.stdout.isTTY === true,
  };
  const finish = async (code: number): Promise<number> => {
    await world.close();
    logger.flush();
    return code;
  };

  if (options.command !== undefined) {
    try {
      const isError = await exchange(state, slashRequest(state, options.command), null);
      return finish(isError ? 1 : 0);
    } catch (error) {
      console.error(error instanceof Error ? error.message : String(error));
      return finish(1);
    }
  }

  console.log(
    [
      "RepoScout sandbox: a local GitHub with a demo world, a local Discord, and the real bot.",
      `  local GitHub:  ${world.github.graphqlUrl} (REST ${world.github.restUrl}), demo token ${DEMO_TOKEN}`,
      `  local Discord: ${world.discord.apiUrl}; you are an admin of "${world.discord.guildId}" in #general`,
      `  logs: ${join(config.dataDir, "sandbox.log")}`,
      "Type /help for the commands, /quit to leave.",
    ].join("\n"),
  );
  const rl = createInterface({
    input: process.stdin,
    output: process.stdout,
    completer: completerFor(state),
    terminal: process.stdin.isTTY === true,
  });
  rl.setPrompt("reposcout> ");
  let closing = false;
  const close = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    rl.close();
    await finish(0);
    process.exit(0);
  };
  process.once("SIGINT", () => void close());
  process.once("SIGTERM", () => void close());
  rl.on("close", () => void close());
  rl.prompt();
  for await (const raw of rl) {
    const line = raw.trim();
    try {
      if (line === "") {
        // nothing
      } else if (line === "/quit" || line === "/exit") {
        break;
      } else if (line === "/help") {
        console.log(HELP);
      } else if (/^\/as\s+(member|admin)$/.test(line)) {
        state.invoker = line.endsWith("admin") ? "admin" : "member";
        console.log(
          `You are now ${state.invoker === "admin" ? "an admin (Manage Server)" : "a plain member"}.`,
        );
      } else if (/^\d+$/.test(line)) {
        const choice = state.choices.get(Number(line));
        if (!choice) console.log("No such button on the last answer.");
        else
          await exchange(
            state,
            { kind: "button", message: choice.messageId, customId: choice.customId, user: state.invoker },
            rl,
          );
      } else {
        await exchange(state, slashRequest(state, line), rl);
      }
    } catch (error) {
      console.log(`⚠️  ${error instanceof Error ? error.message : String(error)}`);
    }
    rl.prompt();
  }
  await close();
  return 0;
}
