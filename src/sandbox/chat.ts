import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pino } from "pino";
import type { Config } from "../config.js";
import { createLogger } from "../logger.js";
import { describeInvoker, type Invoker } from "./chatSession.js";
import { DEMO_TOKEN } from "./github/index.js";
import { githubSchemaInstalled } from "./github/schema.js";
import { startSandboxWorld, type SandboxWorld } from "./harness.js";
import { runCommands } from "./oneShot.js";
import { runTerminalChat, type ChatOutput } from "./terminalChat.js";

/** The sandbox's logs go to a file, so the chat stays readable. */
function sandboxLogger(config: Config) {
  return createLogger({
    level: config.logLevel,
    pretty: false,
    destination: pino.destination({ dest: join(config.dataDir, "sandbox.log"), mkdir: true, sync: false }),
  });
}

/** What the terminal chat prints once the sandbox is ready: where everything is, and who you are. */
export function sandboxBanner(world: SandboxWorld, logFile: string, invoker: Invoker = "admin"): string {
  return [
    "RepoScout sandbox: a local GitHub with a demo world, a local Discord, and the real bot.",
    `  local GitHub:  ${world.github.graphqlUrl} (REST ${world.github.restUrl}), demo token ${DEMO_TOKEN}`,
    ...(world.config.github.webUrl === world.github.webUrl
      ? [
          `  web pages:     ${world.github.webUrl}/demo/widgets (every link of an answer opens on the local GitHub)`,
        ]
      : []),
    `  local Discord: ${world.discord.apiUrl}; server «${world.discord.guildName}», channel #general`,
    `  you are ${describeInvoker(world, invoker)} (/as member to change)`,
    `  sign-in: /login, then the device page ${world.github.webUrl}/login/device or /approve (see /help)`,
    `  logs: ${logFile}`,
    "Type /help for the commands, /demo for what the demo world holds, /messages for messages to",
    "right-click (/menu Blame lines 1), /quit to leave.",
  ].join("\n");
}

/**
 * Whether the sandbox can run here: the local GitHub needs a development dependency (GitHub's
 * schema) that a production install leaves out, and finds out only once the first query comes.
 */
export function sandboxInstalled(): boolean {
  return githubSchemaInstalled();
}

export interface SandboxChatOptions {
  /** One-shot: run these lines, print the answers and resolve to the exit code. */
  commands?: readonly string[];
  /** Who types (default admin). */
  invoker?: Invoker;
  input?: NodeJS.ReadableStream & { isTTY?: boolean };
  output?: ChatOutput;
}

/**
 * The local sandbox (SPEC section 6): both stand-ins with the demo world, the real bot, and a
 * terminal chat. With `commands`, runs them, prints the answers and resolves to the exit code (0
 * when every one was answered, 1 at an error reply); without, the chat, until `/quit` or the end of
 * the input, resolving to 0.
 */
export async function runSandboxChat(config: Config, options: SandboxChatOptions = {}): Promise<number> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const logger = sandboxLogger(config);
  const logFile = join(config.dataDir, "sandbox.log");
  // Answers link to the local GitHub's pages at a port chosen each run: cached answers of an earlier
  // run would link to a port nothing listens on any more, so the sandbox's cache starts empty (the
  // vaults, in their own file, stay).
  await Promise.all(
    ["cache.sqlite", "cache.sqlite-wal", "cache.sqlite-shm"].map((name) =>
      rm(join(config.dataDir, name), { force: true }),
    ),
  );
  const starting = startSandboxWorld({
    // Answers link to the local GitHub's own pages, so every link a newcomer clicks opens.
    github: { htmlUrl: "self" },
    dataDir: resolve(config.dataDir),
    // Absolute: git runs inside each repository, where a relative path means something else.
    githubDataDir: resolve(config.dataDir, "demo-world"),
    defaultToken: DEMO_TOKEN,
    ...(config.tokens.encryptionKey ? { encryptionKey: config.tokens.encryptionKey } : {}),
    memoryStores: false,
    // The sandbox's app has Message Content: after /settings link-previews, messages get previews.
    messageContent: true,
    logger,
  });
  const finish = async (code: number): Promise<number> => {
    await (await starting.catch(() => null))?.close();
    logger.flush();
    return code;
  };
  const color = output.isTTY === true;

  if (options.commands !== undefined) {
    const world = await starting;
    return finish(
      await runCommands({
        world,
        commands: options.commands,
        ...(options.invoker ? { invoker: options.invoker } : {}),
        input,
        inputIsTerminal: input.isTTY === true,
        output,
        color,
      }),
    );
  }

  const signals = new Promise<void>((resolveSignal) => {
    process.once("SIGINT", () => resolveSignal());
    process.once("SIGTERM", () => resolveSignal());
  });
  const terminal = input.isTTY === true && output.isTTY === true;
  await Promise.race([
    runTerminalChat({
      world: starting,
      input,
      output,
      terminal,
      color,
      banner: (world) => sandboxBanner(world, logFile, options.invoker),
      ...(options.invoker ? { invoker: options.invoker } : {}),
    }),
    signals,
  ]);
  return finish(0);
}
