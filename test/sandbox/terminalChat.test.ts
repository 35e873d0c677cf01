import { readFileSync } from "node:fs";
import { PassThrough, Writable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { sandboxBanner } from "../../src/sandbox/chat.js";
import { CHAT_HELP, githubComHint } from "../../src/sandbox/chatSession.js";
import { DEMO_KATA_COUNT, OTHER_LOGIN, OTHER_TOKEN } from "../../src/sandbox/github/index.js";
import type { SandboxWorld } from "../../src/sandbox/harness.js";
import { runCommands } from "../../src/sandbox/oneShot.js";
import { runTerminalChat } from "../../src/sandbox/terminalChat.js";
import { useWorld } from "../e2e/helpers.js";

/**
 * The sandbox's terminal chat and `--command`, driven as a person would: keystrokes into its input,
 * what it draws read from its output (a terminal's escape sequences included).
 */

// The bot defers early, so a slow GitHub shows the "thinking" status without a long wait.
// Message Content on: a plain line posted in #general can get an automatic preview.
const world = useWorld({ deferAfterMs: 200, messageContent: true });

// A cold bot on a busy machine can miss Discord's 3-second deadline on its first interactions
// (the stand-in then refuses the late answer, as Discord does). These tests are about the chat,
// not that race: warm the bot and the owner lists they read first.
beforeAll(async () => {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const record = await world()
      .run({ kind: "autocomplete", name: "contents", options: { repo: "demo/w" }, focused: "repo" })
      .catch(() => null);
    if (record?.choices?.length) break;
  }
  await world()
    .run({ kind: "slash", name: "repos", options: { owner: "demo" } })
    .catch(() => undefined);
});

/** A terminal (or a pipe) that keeps everything written to it. */
class Screen extends Writable {
  text = "";
  readonly columns = 100;
  constructor(readonly isTTY: boolean) {
    super();
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
  /** Resolves once the output (from `from` on) matches, or fails with what it holds. */
  async waitFor(pattern: RegExp | string, from = 0, timeoutMs = 15_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rest = this.text.slice(from);
      const index = typeof pattern === "string" ? rest.indexOf(pattern) : rest.search(pattern);
      if (index >= 0) return from + index;
      if (Date.now() > deadline)
        throw new Error(`not seen: ${String(pattern)}\n--- output ---\n${this.text}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

function chat(options: { terminal: boolean; world?: Promise<SandboxWorld> }) {
  const input = new PassThrough();
  const screen = new Screen(options.terminal);
  const done = runTerminalChat({
    world: options.world ?? Promise.resolve(world()),
    input,
    output: screen,
    terminal: options.terminal,
    color: false,
    banner: (ready) => sandboxBanner(ready, "data/sandbox.log"),
  });
  return { input, screen, done };
}

describe("the terminal chat", () => {
  it("names the server in the banner, not its id", () => {
    const banner = sandboxBanner(world(), "data/sandbox.log");
    expect(banner).toContain("server «RepoScout Sandbox», channel #general");
    expect(banner).toContain("you are Ada (ada.admin), an admin (Manage Server)");
    expect(banner).not.toContain(world().discord.guildId);
  });

  it("queues what is typed while the bot starts, and runs it once the bot is ready", async () => {
    let ready: (world: SandboxWorld) => void = () => undefined;
    const starting = new Promise<SandboxWorld>((resolve) => (ready = resolve));
    const { input, screen, done } = chat({ terminal: true, world: starting });
    input.write("/help\r");
    await screen.waitFor("reposcout (starting, 1 queued)> ");
    expect(screen.text).not.toContain("Sandbox only:");
    ready(world());
    const banner = await screen.waitFor("RepoScout sandbox:");
    await screen.waitFor("Sandbox only: /demo", banner);
    input.end();
    await done;
  });

  it("answers every piped command before /quit, and nothing after it", async () => {
    const { input, screen, done } = chat({ terminal: false });
    input.end("/repos owner:demo\n/contents repo:demo/gadgets\n/quit\n/whoami\n");
    await done;
    expect(screen.text).toContain("reposcout> /repos owner:demo");
    expect(screen.text).toContain("Repositories of demo (organization)");
    expect(screen.text).toContain("README.md");
    expect(screen.text).not.toContain("Who am I on GitHub");
  });

  it("says where a link button leads, and that a disabled one is disabled", async () => {
    const { input, screen, done } = chat({ terminal: false });
    input.end("/repos owner:demo\n3\n1\n");
    await done;
    expect(screen.text).toContain("🔗 [3] «Open on GitHub» is a link: https://github.com/demo");
    expect(screen.text).toContain("[1] «◀ Previous» is disabled on this answer");
    expect(screen.text).not.toContain("No such button");
  });

  it("pages an owner with more repositories than a page: Next shows the second page", async () => {
    const { input, screen, done } = chat({ terminal: false });
    input.end("/repos owner:alice\n2\n");
    await done;
    expect(screen.text).toContain(
      `${DEMO_KATA_COUNT} repositories · most recently pushed first · page 1 (1–10)`,
    );
    expect(screen.text).toContain("page 2 (11–20)");
  });

  it("completes with Tab the start the suggestions share, and lists them all", async () => {
    const { input, screen, done } = chat({ terminal: true });
    await screen.waitFor("RepoScout sandbox:");
    const from = screen.text.length;
    input.write("/contents repo:demo/w\t");
    const listed = await screen.waitFor(/demo\/widgets +demo\/crowd/, from);
    // What the line reads once the cursor moves are left out: the typed text grew to the full name.
    await screen.waitFor("idgets", listed);
    // eslint-disable-next-line no-control-regex
    expect(screen.text.slice(listed).replace(/\u001b\[[0-9;]*[A-Za-z]/g, "")).toContain(
      "reposcout> /contents repo:demo/widgets",
    );
    input.end();
    await done;
  });

  it("shows a thinking line while an answer loads, and the answer replaces it", async () => {
    world().github.setLatency(1_000);
    const { input, screen, done } = chat({ terminal: true });
    await screen.waitFor("RepoScout sandbox:");
    const from = screen.text.length;
    input.write("/contents repo:demo/sprockets\r");
    const thinking = await screen.waitFor("⏳ RepoScout is thinking…", from);
    const answer = await screen.waitFor("teeth.txt", thinking);
    // Erased (to the end of the screen) before the answer is drawn.
    expect(screen.text.slice(thinking, answer)).toContain("\u001b[0J");
    expect(screen.text.slice(answer)).not.toContain("thinking…");
    input.end();
    await done;
  });

  it("turns the /login message into 'Signed in as' when the code is approved on the device page its button opens", async () => {
    const { input, screen, done } = chat({ terminal: true });
    await screen.waitFor("RepoScout sandbox:");
    const from = screen.text.length;
    input.write("/login\r");
    const shown = await screen.waitFor(/Enter this code: ([A-Z0-9]{4}-[A-Z0-9]{4})/, from);
    const userCode = /Enter this code: ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(screen.text.slice(shown))![1]!;
    const button = /\[1\] Open GitHub's device page → (\S+)/.exec(screen.text.slice(shown))![1]!;
    // As a browser would: open the button's page, then send its form.
    const page = await fetch(button);
    expect(page.status).toBe(200);
    const sent = await fetch(new URL("/login/device", page.url), {
      method: "POST",
      body: new URLSearchParams({ user_code: userCode, login: OTHER_LOGIN, action: "authorize" }),
    });
    expect(sent.status).toBe(200);
    await screen.waitFor(`Signed in as ${OTHER_LOGIN}.`, shown);
    input.end();
    await done;
    await world().run({ kind: "slash", name: "logout", user: "admin" });
  });

  it("hides the token typed into the /token set form, on screen and in the history", async () => {
    const { input, screen, done } = chat({ terminal: true });
    await screen.waitFor("RepoScout sandbox:");
    input.write("/token set\r");
    const asked = await screen.waitFor("📝 GitHub token (read-only is enough): ");
    input.write(`${OTHER_TOKEN}\r`);
    await screen.waitFor(/authenticated as/i, asked);
    // Arrow up walks the history: the token must not come back.
    input.write("\u001b[A\u001b[A");
    await new Promise((resolve) => setTimeout(resolve, 100));
    input.end();
    await done;
    expect(screen.text).toContain("•".repeat(OTHER_TOKEN.length));
    expect(screen.text).not.toContain(OTHER_TOKEN);
    expect(screen.text).not.toContain(OTHER_TOKEN.slice(0, 18));
    await world().run({ kind: "slash", name: "token clear", user: "admin" });
  });
});

describe("npm run sandbox -- --command", () => {
  async function oneShot(commands: string[], stdin = "", invoker?: "member" | "admin") {
    const input = new PassThrough();
    input.end(stdin);
    const output = new Screen(false);
    const code = await runCommands({
      world: world(),
      commands,
      input,
      inputIsTerminal: false,
      output,
      color: false,
      ...(invoker ? { invoker } : {}),
    });
    return { code, text: output.text };
  }

  it("prints the help and exits 0 for /help", async () => {
    const run = await oneShot(["/help"]);
    expect(run).toEqual({ code: 0, text: `${CHAT_HELP}\n` });
  });

  it("saves the /owners chart as a PNG and says where", async () => {
    const run = await oneShot(["/owners repo:demo/widgets path:src/lib/util/strings.ts"]);
    expect(run.code).toBe(0);
    const saved = /🖼 {2}owners\.png saved to (\S+\.png)$/m.exec(run.text);
    expect(saved, run.text).not.toBeNull();
    expect(readFileSync(saved![1]!).subarray(1, 4).toString("latin1")).toBe("PNG");
  });

  it("lists the demo world for /demo", async () => {
    const run = await oneShot(["/demo"]);
    expect(run.code).toBe(0);
    expect(run.text).toContain(
      `alice (user Alice Liddell): ${DEMO_KATA_COUNT} repositories, more than a page`,
    );
  });

  it("takes /as member before a command, and --as member, and exits 1 on the refusal", async () => {
    const asMember = await oneShot(["/as member", "/token status"]);
    expect(asMember.code).toBe(1);
    expect(asMember.text).toContain("You are now Ada (ada.admin), a plain member (no Manage Server).");
    expect(asMember.text).toMatch(/Manage Server/);
    const flag = await oneShot(["/token status"], "", "member");
    expect(flag.code).toBe(1);
    expect((await oneShot(["/token status"])).code).toBe(0);
  });

  it("reads the /token set form from standard input, one line per field", async () => {
    const run = await oneShot(["/token set"], `${OTHER_TOKEN}\n`);
    expect(run.code).toBe(0);
    expect(run.text).toMatch(/authenticated as/i);
    expect(run.text).not.toContain(OTHER_TOKEN);
    await world().run({ kind: "slash", name: "token clear", user: "admin" });
  });

  it("names who set the server token as Discord shows a mention, by name, not by id", async () => {
    const run = await oneShot(["/token set", "/token status"], `${OTHER_TOKEN}\n`);
    await world().run({ kind: "slash", name: "token clear", user: "admin" });
    expect(run.code).toBe(0);
    const admin = world().discord.users.admin;
    expect(run.text).toContain(`Set by @${admin.global_name ?? admin.username} on `);
    expect(run.text).not.toContain("@user:");
    expect(run.text).not.toContain(admin.id);
  });

  it("says the form needs standard input, and exits 1, when none is given", async () => {
    const run = await oneShot(["/token set"]);
    expect(run.code).toBe(1);
    expect(run.text).toContain(
      "📝 The form «Set this server's GitHub token» was not sent: nothing was typed for «GitHub token (read-only is enough)».",
    );
    expect(run.text).toContain('echo "$TOKEN" | npm run sandbox -- --command "/token set"');
  });

  it("right-clicks a permalink of #code-links: /messages numbers the messages, /menu Blame lines blames its lines", async () => {
    const run = await oneShot(["/messages", "/menu Blame lines 1"]);
    expect(run.code).toBe(0);
    expect(run.text).toMatch(
      /\[m1\] \S+: The scheduler's main loop is here: https:\/\/github\.com\/demo\/widgets\/blob\/main\/src\/engine\.ts#L10-L20/,
    );
    expect(run.text).toContain("Right-click one: /menu ");
    expect(run.text).toContain("blame demo/widgets src/engine.ts");
    expect(run.text).toMatch(/Lines 10–20 of/);
    expect(run.text).toMatch(/│ 20 \S+ [0-9a-f]{7} /);
    expect(run.text).not.toMatch(/│ 21 /);
  });

  it("says what to type for a menu or a message that does not exist", async () => {
    const noMenu = await oneShot(["/menu Frobnicate 1"]);
    expect(noMenu.code).toBe(1);
    expect(noMenu.text).toContain("no message menu «Frobnicate»");
    const noMessage = await oneShot(["/menu show code 999"]);
    expect(noMessage.code).toBe(1);
    expect(noMessage.text).toMatch(/no message \[m999\] in #code-links: it has \d+; \/messages lists them/);
  });

  it("posts a plain line in #general, and shows the automatic preview it gets, whose Dismiss removes it", async () => {
    const { input, screen, done } = chat({ terminal: false });
    input.end(
      [
        "Has anyone read https://github.com/demo/widgets/blob/main/README.md#L1-L3 yet?",
        "/settings link-previews enabled:true",
        "Has anyone read https://github.com/demo/widgets/blob/main/README.md#L2-L4 yet?",
        "1",
        "good morning",
      ].join("\n") + "\n",
    );
    await done;
    expect(screen.text).toContain(
      "Automatic previews are off in this server: /settings link-previews enabled:true turns them on",
    );
    expect(screen.text).toContain("RepoScout replied:");
    expect(screen.text).toContain("demo/widgets README.md lines 2–4");
    expect(screen.text).toMatch(/\[1\] Dismiss/);
    expect(screen.text).toContain("💬 Posted in #general.\n");
    const preview = world()
      .discord.messagesIn(world().discord.channels.text)
      .filter((view) => view.embeds[0]?.title?.includes("README.md lines 2–4"));
    expect(preview).toEqual([]);
    await world().run({
      kind: "slash",
      name: "settings link-previews",
      options: { enabled: false },
      user: "admin",
    });
  });

  it("tells a person who posts a github.com link in the sandbox which links reach the local GitHub", () => {
    const local = "http://127.0.0.1:4100";
    expect(githubComHint("see https://github.com/demo/widgets/pull/5", local)).toBe(
      " In the sandbox GitHub is the local stand-in: write demo/widgets#5, or a link on http://127.0.0.1:4100/ (http://127.0.0.1:4100/demo/widgets/pull/5).",
    );
    expect(githubComHint("see demo/widgets#5", local)).toBe("");
    expect(githubComHint("see https://github.com/demo/widgets/pull/5", "https://github.com/")).toBe("");
  });

  it("stops at the first line that fails, with exit code 1", async () => {
    const run = await oneShot(["/nope", "/help"]);
    expect(run.code).toBe(1);
    expect(run.text).toContain("unknown command /nope");
    expect(run.text).not.toContain("Sandbox only:");
  });
});
