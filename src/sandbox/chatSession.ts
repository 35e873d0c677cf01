// Over 300 lines: the sandbox's own commands (/help, /demo, /as, /messages, /menu, /approve, /deny) and the forms are one person's session state; the help text alone is 40 lines.
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { APIUser } from "discord-api-types/v10";
import { REPOS_PER_PAGE } from "../../commands/repos.js";
import { parseCommandLine } from "./commandLine.js";
import { formatHistory, parseMenuLine } from "./messageMenu.js";
import { describeDemoWorld } from "./demoGuide.js";
import type {
  InteractionContextOptions,
  InteractionHandle,
  InteractionRecord,
  InteractionRequest,
  MessageView,
} from "./discord/index.js";
import { DEFAULT_EVERYONE_PERMISSIONS } from "./discord/permissions.js";
import { DEMO_PATHS, DEMO_REPOSITORIES, DEMO_TOKEN, OTHER_LOGIN } from "./github/index.js";
import { userCodeOf, type SandboxWorld } from "./harness.js";
import { renderTranscript, transcriptOf, transcriptOfMessages, type SeenMessage } from "./transcript.js";

/**
 * One person's conversation with the bot in the sandbox, whatever carries it (the terminal chat or
 * `--command`): slash commands typed as text, button presses by number, the sandbox's own commands
 * (`/help`, `/demo`, `/as`, `/approve`, `/deny`), and the forms the bot opens.
 */

/** Who the person is in the stand-in's server. */
export type Invoker = "member" | "admin";

/** How long one answer may take before the chat moves on (a bound, so nothing waits forever). */
export const ANSWER_WAIT_MS = 20_000;

/** Where the session writes: answers and notes, and one passing status line. */
export interface ChatScreen {
  /** Prints a block of text (an answer, a note). */
  print(text: string): void;
  /**
   * Shows a status that the next print replaces ("RepoScout is thinking…"), or clears it (null).
   * A screen that cannot erase a line (a pipe) shows nothing.
   */
  status(text: string | null): void;
}

/** A field of a form the bot opened, to be filled in by the person. */
export interface FormField {
  label: string;
  /** Typed text must not be shown (a token). */
  secret: boolean;
}

export interface ChatSessionOptions {
  world: SandboxWorld;
  screen: ChatScreen;
  /** Asks the person for one field of a form; null when nothing can be typed (end of input). */
  ask(field: FormField): Promise<string | null>;
  /** Draw with ANSI colours. */
  color: boolean;
  /** The terminal's width, asked at each answer. */
  width(): number;
  invoker?: Invoker;
  /** What to say when a form cannot be filled in (where its value could come from instead). */
  formHint?: string;
  now?: () => Date;
  answerWaitMs?: number;
  /** Where images the bot attaches (the `/owners` chart) are saved; default `<os tmp>/reposcout-images`. */
  imagesDir?: string;
}

/** How a line went: answered (or done), failed (an error reply, or refused), or the person leaves. */
export type LineOutcome = "ok" | "failed" | "quit";

export interface ChatSession {
  /** Handles one typed line. Never throws: problems are printed and read as "failed". */
  handle(line: string): Promise<LineOutcome>;
  readonly invoker: Invoker;
  /** Stops watching a waiting sign-in: nothing more is printed. */
  close(): void;
}

/** A button of the last answer, by the number the terminal shows. */
interface Choice {
  messageId: string;
  label: string;
  customId?: string;
  url?: string;
  disabled: boolean;
}

/** What `/help` prints. */
/**
 * A hint for a line that links to github.com while the bot's GitHub is the local stand-in (the bot
 * follows its own web host's links only, as on Enterprise Server): the forms that reach the demo
 * world. Empty when the bot's web host is github.com or the line has no github.com link.
 */
export function githubComHint(text: string, webUrl: string): string {
  const base = webUrl.replace(/\/+$/, "");
  if (new URL(base).host === "github.com" || !/\bgithub\.com\//i.test(text)) return "";
  return ` In the sandbox GitHub is the local stand-in: write demo/widgets#5, or a link on ${base}/ (${base}/demo/widgets/pull/5).`;
}

export const CHAT_HELP = `Type a slash command as in Discord, options as name:value (quote values with spaces):
  /blame repo:demo/widgets path:${DEMO_PATHS.engine} lines:100-140
  /blame repo:https://github.com/demo/widgets/blob/main/README.md#L1-L5   (a file URL fills in path)
  /contents repo:demo/widgets path:src
  /repos owner:demo sort:name
  /contributors repo:demo/crowd page:2
  /issue repo:demo/widgets number:5               (a pull request: its checks and reviews)
  /commit repo:demo/widgets ref:chore/fixtures    (co-authors, +/-, 301 files)
  /history repo:demo/widgets path:src/parts       (the commits that touched it, 10 a page)
  /owners repo:demo/widgets path:src              (who knows it; the chart's PNG is saved, path printed)
  /whoami
  /token status · /token set · /token clear      (admin commands)
  /settings threads enabled:true                  (answers go into threads)
  /settings private-answers in-channel:true · /settings show
  /settings repo repo:demo/widgets                (a bare #123 in a message refers to it)
  /login · /logout                                (your own GitHub sign-in)
Right-click a message: /messages lists #code-links (messages with GitHub links), numbered; then
  /menu Blame lines 1 · /menu Show code 3         (the message's Apps menu: its links answered)
  /menu Preview links 11                          (issues, pull requests, commits of a message)
Press Tab after repo: or path: to autocomplete. Type a button's number to press it.
Type a plain message (no /) to post it in #general, as in Discord. After
  /settings link-previews enabled:true
a message with a link to an issue, a pull request, a commit or file lines (…/blob/main/README.md#L1-L5),
or a reference such as demo/widgets#5, gets an automatic preview; its author can press Dismiss.
Sign in: /login prints the local device page and a code. Open the page in a browser, or let the
chat answer for you: /approve [login] (default ${OTHER_LOGIN}, who alone sees ${DEMO_REPOSITORIES.diary})
or /deny. Then /whoami says \`you\`.
Sandbox only: /demo (what the demo world holds), /as member|admin (Manage Server or not; you stay
the same person, signed in or not), /messages, /menu, /approve, /deny, /help, /quit.`;

/** How long a posted message waits for its automatic preview before the chat moves on. */
const PREVIEW_WAIT_MS = 3_000;
/** A message that may hold a link an automatic preview answers (a URL, or a `#123` reference). */
const MAY_HOLD_LINK = /https?:\/\/|#\d/;

/** Discord's answer to a response that came after the interaction's 3-second deadline. */
const UNKNOWN_INTERACTION = 10062;

/** How long one step of watching a `/login` message waits (see watchSignIn). */
const SIGN_IN_WATCH_STEP_MS = 2_000;

/** Fields of a form whose typed text is a secret: never echoed. */
const SECRET_FIELD = /token|secret|passw|key/i;

function displayName(user: APIUser): string {
  return user.global_name ? `${user.global_name} (${user.username})` : user.username;
}

/** "Ada (ada.admin), an admin (Manage Server)" or "Ada (ada.admin), a plain member (no Manage Server)". */
export function describeInvoker(world: SandboxWorld, invoker: Invoker): string {
  const who = displayName(world.discord.users.admin);
  return invoker === "admin"
    ? `${who}, an admin (Manage Server)`
    : `${who}, a plain member (no Manage Server)`;
}

/**
 * Who the person at the terminal is, as an interaction sees them: always the same Discord user (so
 * a sign-in stays theirs), with Manage Server or, `/as member`, only what @everyone may do.
 */
export function invokerOptions(
  invoker: Invoker,
): Pick<InteractionContextOptions, "user" | "memberPermissions"> {
  return invoker === "admin"
    ? { user: "admin" }
    : { user: "admin", memberPermissions: DEFAULT_EVERYONE_PERMISSIONS };
}

/** Creates a chat session in the sandbox world. */
export function createChatSession(options: ChatSessionOptions): ChatSession {
  const { world, screen } = options;
  const now = options.now ?? (() => new Date());
  const answerWaitMs = options.answerWaitMs ?? ANSWER_WAIT_MS;
  const botName = world.discord.users.bot.username;
  let invoker: Invoker = options.invoker ?? "admin";
  // A mention reads as Discord shows it, the person's display name (`@Ada`), never their id.
  const cast = new Map(Object.values(world.discord.users).map((user) => [user.id, user]));
  const mentionName = (id: string): string | undefined => {
    const user = cast.get(id);
    return user ? (user.global_name ?? user.username) : undefined;
  };
  let choices = new Map<number, Choice>();
  /**
   * The last `/login` whose code still waits for an answer, and what its message turned into once
   * the bot read the answer (printed then, however the answer came: the device page in a browser,
   * `/approve`, `/deny`, or the code's expiry).
   */
  let signingIn: { interactionId: string; userCode: string; outcome: Promise<boolean | null> } | null = null;
  let closed = false;

  /**
   * Watches a `/login` message until the bot edits the code away, then prints it as it is now
   * ("Signed in as …", or why not), as Discord shows an edit of the ephemeral message in place.
   * Resolves to whether it is an error, or null when the session closed or the interaction is gone.
   * Waits in short steps, so a closed session leaves no long timer behind.
   */
  async function watchSignIn(interactionId: string): Promise<boolean | null> {
    const handle = world.discord.interaction(interactionId);
    if (!handle) return null;
    while (!closed) {
      const record = await handle
        .waitFor((current) => userCodeOf(current) === null, { timeoutMs: SIGN_IN_WATCH_STEP_MS })
        .catch(() => null);
      if (closed) return null;
      if (!record) continue;
      if (signingIn?.interactionId === interactionId) signingIn = null;
      return render(record).isError;
    }
    return null;
  }

  /**
   * `/approve [login]` or `/deny`: answers the last `/login` code at the GitHub stand-in, as a
   * person on the device page would, then waits for the message the bot edits (printed by the watch).
   */
  async function answerSignIn(approve: boolean, login: string): Promise<LineOutcome> {
    const pending = signingIn;
    if (!pending) {
      screen.print("No sign-in is waiting: run /login first.");
      return "failed";
    }
    if (approve) world.github.oauth.approve(pending.userCode, login);
    else world.github.oauth.deny(pending.userCode);
    const timeout = new Promise<"late">((resolve) => {
      const timer = setTimeout(() => resolve("late"), answerWaitMs);
      void pending.outcome.finally(() => clearTimeout(timer));
    });
    const isError = await Promise.race([pending.outcome, timeout]);
    if (isError === "late") {
      screen.print(
        `${botName} did not read the answer within ${Math.round(answerWaitMs / 1000)} seconds; moving on.`,
      );
      return "failed";
    }
    return isError === false ? "ok" : "failed";
  }

  function render(record: InteractionRecord): { isError: boolean; record: InteractionRecord } {
    const transcript = transcriptOf(record);
    const text = renderTranscript(transcript, {
      color: options.color,
      now: now(),
      width: options.width(),
      userName: mentionName,
    });
    if (text) screen.print(text);
    // A terminal cannot show a picture: save it where an image viewer can open it, and say where.
    for (const item of transcript.messages) {
      for (const file of item.message.files) {
        if (!/\.png$/i.test(file.name)) continue;
        const folder = options.imagesDir ?? join(tmpdir(), "reposcout-images");
        mkdirSync(folder, { recursive: true });
        const saved = join(folder, `${item.id}-${file.name.replace(/[^A-Za-z0-9._-]/g, "_")}`);
        writeFileSync(saved, file.data);
        screen.print(`🖼  ${file.name} saved to ${saved}`);
      }
    }
    return { isError: transcript.isError, record };
  }

  function remember(messages: readonly SeenMessage[]): void {
    choices = new Map();
    for (const item of messages) {
      for (const choice of item.choices) {
        choices.set(choice.number, {
          messageId: item.id,
          label: choice.label,
          disabled: choice.disabled,
          ...(choice.customId ? { customId: choice.customId } : {}),
          ...(choice.url ? { url: choice.url } : {}),
        });
      }
    }
  }

  /** Sends an interaction, shows the status Discord would show while it loads, prints the answer. */
  async function exchange(request: InteractionRequest): Promise<InteractionRecord> {
    // Discord shows "Sending command…" until the bot acknowledges, then "<bot> is thinking…" while
    // a deferred answer loads; the answer replaces the line.
    screen.status(`⏳ ${request.kind === "slash" ? "Sending command" : "Sending"}…`);
    let handle: InteractionHandle;
    try {
      handle = await world.send(request);
    } catch (error) {
      screen.status(null);
      throw error;
    }
    let answered = false;
    handle
      .waitFor((record) => record.deferred, { timeoutMs: answerWaitMs })
      .then(() => {
        if (!answered) screen.status(`⏳ ${botName} is thinking…`);
      })
      .catch(() => undefined);
    try {
      return await handle.waitForAnswer({ timeoutMs: answerWaitMs, settleMs: 150 });
    } catch {
      const late = handle
        .record()
        .errors.some(
          (error) => (error.response as { code?: unknown } | undefined)?.code === UNKNOWN_INTERACTION,
        );
      throw new Error(
        late
          ? `${botName} did not acknowledge within Discord's 3 seconds, so Discord refused its answer (is the machine busy?). Try again.`
          : `${botName} did not answer within ${Math.round(answerWaitMs / 1000)} seconds; moving on.`,
      );
    } finally {
      answered = true;
      screen.status(null);
    }
  }

  /** Fills in and sends the form the bot opened; false when it could not be sent. */
  async function submitForm(record: InteractionRecord): Promise<{ isError: boolean } | null> {
    const modal = transcriptOf(record).modal!;
    const fields: Record<string, string> = {};
    for (const input of modal.inputs) {
      const secret = SECRET_FIELD.test(input.customId) || SECRET_FIELD.test(input.label);
      const value = await options.ask({ label: input.label, secret });
      if (value === null || value.trim() === "") {
        screen.print(
          `📝 The form «${modal.title}» was not sent: nothing was typed for «${input.label}».` +
            (options.formHint ? ` ${options.formHint}` : ""),
        );
        return null;
      }
      fields[input.customId] = value.trim();
    }
    const answer = render(await exchange({ kind: "modal", from: record.id, fields }));
    remember(transcriptOf(answer.record).messages);
    return answer;
  }

  async function interact(request: InteractionRequest): Promise<LineOutcome> {
    const first = render(await exchange(request));
    if (transcriptOf(first.record).modal) {
      const submitted = await submitForm(first.record);
      return submitted && !submitted.isError ? "ok" : "failed";
    }
    remember(transcriptOf(first.record).messages);
    const userCode = userCodeOf(first.record);
    if (userCode !== null) {
      const interactionId = first.record.id;
      signingIn = { interactionId, userCode, outcome: watchSignIn(interactionId) };
    }
    return first.isError ? "failed" : "ok";
  }

  function press(number: number): Promise<LineOutcome> | LineOutcome {
    const choice = choices.get(number);
    if (!choice) {
      screen.print(
        choices.size === 0
          ? "The last answer has no buttons."
          : `No button [${number}] on the last answer; its buttons are ${[...choices.keys()].map((key) => `[${key}]`).join(" ")}.`,
      );
      return "failed";
    }
    if (choice.url) {
      // A link button opens the browser in Discord; a terminal can only say where it leads.
      screen.print(`🔗 [${number}] «${choice.label}» is a link: ${choice.url}`);
      return "ok";
    }
    if (choice.disabled || !choice.customId) {
      screen.print(`[${number}] «${choice.label}» is disabled on this answer: there is nothing that way.`);
      return "failed";
    }
    return interact({
      kind: "button",
      message: choice.messageId,
      customId: choice.customId,
      ...invokerOptions(invoker),
    });
  }

  /**
   * A plain line: posted in #general as the person (not a command, as in Discord's message box).
   * With link previews on, the bot's reply to it appears: printed, its Dismiss pressable by number.
   */
  async function say(text: string): Promise<LineOutcome> {
    const channel = world.discord.channels.text;
    const posted = world.discord.postAsUser({ content: text, user: "admin", channel: "text" });
    if (!MAY_HOLD_LINK.test(text)) {
      screen.print("💬 Posted in #general.");
      return "ok";
    }
    // Previews off here: no need to watch for one (the bot reads the same setting).
    if (!(await world.running.services.settings.getLinkPreviews(world.discord.guildId))) {
      screen.print(
        "💬 Posted in #general. Automatic previews are off in this server: /settings link-previews enabled:true turns them on (for links to issues, pull requests, commits and file lines).",
      );
      return "ok";
    }
    screen.status(`⏳ Posted in #general; watching for ${botName}'s preview…`);
    const started = Date.now();
    let previews: MessageView[] = [];
    while (Date.now() - started < PREVIEW_WAIT_MS) {
      previews = world.discord
        .messagesIn(channel)
        .filter(
          (view) =>
            view.api.message_reference?.message_id === posted.id && view.authorId === world.discord.botUserId,
        );
      if (previews.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    screen.status(null);
    if (previews.length === 0) {
      screen.print(
        `💬 Posted in #general. No automatic preview came: previews answer links to issues, pull requests, commits and file lines (not in <…> or code, not a link previewed here in the last 5 minutes, and one reply every 2 seconds).${githubComHint(text, world.running.services.config.github.webUrl)}`,
      );
      return "ok";
    }
    const transcript = transcriptOfMessages(previews);
    screen.print(`💬 Posted in #general. ${botName} replied:`);
    screen.print(renderTranscript(transcript, { color: options.color, now: now(), width: options.width() }));
    remember(transcript.messages);
    return "ok";
  }

  async function handle(raw: string): Promise<LineOutcome> {
    const line = raw.trim();
    try {
      if (line === "") return "ok";
      if (line === "/quit" || line === "/exit") return "quit";
      if (line === "/help") {
        screen.print(CHAT_HELP);
        return "ok";
      }
      if (line === "/demo") {
        screen.print(
          describeDemoWorld(world.github.world.definition, {
            perPage: REPOS_PER_PAGE,
            defaultToken: DEMO_TOKEN,
          }),
        );
        return "ok";
      }
      const as = /^\/as(?:\s+(\S+))?$/.exec(line);
      if (as) {
        if (as[1] !== "member" && as[1] !== "admin") {
          screen.print(`/as takes member or admin; you are ${describeInvoker(world, invoker)}.`);
          return "failed";
        }
        invoker = as[1];
        screen.print(`You are now ${describeInvoker(world, invoker)}.`);
        return "ok";
      }
      const approve = /^\/approve(?:\s+(\S+))?$/.exec(line);
      if (approve) return await answerSignIn(true, approve[1] ?? OTHER_LOGIN);
      if (line === "/deny") return await answerSignIn(false, "");
      if (/^\d+$/.test(line)) return await press(Number(line));
      // `/history` with options is the bot's command; bare, it was this list before /history existed.
      if (line === "/messages" || line === "/history") {
        screen.print(formatHistory(world.discord));
        return "ok";
      }
      if (/^\/menu\b/i.test(line)) {
        const target = parseMenuLine(line, world.discord);
        return await interact({
          kind: "message",
          name: target.name,
          message: target.messageId,
          ...invokerOptions(invoker),
        });
      }
      if (!line.startsWith("/")) return await say(line);
      const typed = parseCommandLine(line, world.discord.commands());
      return await interact({
        kind: "slash",
        name: [typed.name, ...typed.path].join(" "),
        options: typed.options,
        ...invokerOptions(invoker),
      });
    } catch (error) {
      screen.print(`⚠️  ${error instanceof Error ? error.message : String(error)}`);
      return "failed";
    }
  }

  return {
    handle,
    get invoker() {
      return invoker;
    },
    close() {
      closed = true;
    },
  };
}
