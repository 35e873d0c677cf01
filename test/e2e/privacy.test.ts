import { beforeAll, describe, expect, it } from "vitest";
import type { InteractionRecord, InteractionRequest } from "../../src/sandbox/discord/index.js";
import { DEMO_LOGIN, DEMO_ORGANIZATION } from "../../src/sandbox/github/index.js";
import { transcriptOf, type SeenMessage } from "../../src/sandbox/transcript.js";
import { BULK_OWNER, buttonId, commitOf, errorText, press, useWorld, type ShownMessage } from "./helpers.js";

/**
 * Private code (SPEC section 4), end to end: what Discord stores of answers drawn from private
 * repositories. The server's token is demo-user's (it sees demo/secret, bulk/repo-03...); in DMs the
 * default token is in effect, which reads public repositories only (GITHUB_TOKEN_ALLOW_PRIVATE is
 * not set). The answer cache runs on a clock the tests move, so the short TTL passes without waiting.
 */
let clockOffset = 0;
const world = useWorld({ extended: true, cacheNow: () => Date.now() + clockOffset });
const SHORT_TTL_MS = 60_000;

/** A second token of demo-user: the server's own, so its answers are cached apart from the default token's. */
const SERVER_TOKEN = "ghp_privacyTestServerToken0000000000000000";
const SECRET = "demo/secret";
const SECRET_FILE = "SECRET.md";

beforeAll(async () => {
  world().github.addToken(SERVER_TOKEN, DEMO_LOGIN);
  // What `/token set` does once its modal is submitted (test/e2e/token.test.ts covers the form).
  const { services } = world().running;
  const { discord } = world();
  expect(
    await services.tokenAdmin.verifyAndStore(discord.guildId, SERVER_TOKEN, discord.users.admin.id),
  ).toEqual({
    login: DEMO_LOGIN,
  });
});

/**
 * Sends an interaction and waits until the bot's answer is visible and the interaction went quiet:
 * a private answer after a public deferral comes as a deletion then a follow-up.
 */
async function ask(request: InteractionRequest): Promise<InteractionRecord> {
  const handle = await world().send(request);
  await handle.waitFor((record) => transcriptOf(record).messages.length > 0, { timeoutMs: 15_000 });
  return handle.waitForSettled({ quietMs: 150, timeoutMs: 15_000 });
}

/** Messages of this interaction that everyone in #general can read (not deleted, not ephemeral). */
function publicMessagesOf(record: InteractionRecord): string[] {
  const channel = world().discord.messagesIn(world().discord.channels.text, { includeEphemeral: false });
  const inThreads = world().discord.threads.flatMap((thread) => thread.messages);
  return [...channel, ...inThreads]
    .filter((message) => message.interactionId === record.id || message.id === record.thread?.id)
    .map((message) => message.content);
}

/** The one message a person sees, with the checks every private answer meets. */
function privateAnswer(record: InteractionRecord): SeenMessage {
  const seen = transcriptOf(record);
  expect(record.errors).toEqual([]);
  expect(seen.isError, seen.text).toBe(false);
  expect(seen.messages).toHaveLength(1);
  expect(seen.messages[0]!.ephemeral).toBe(true);
  expect(record.thread).toBeNull();
  expect(publicMessagesOf(record)).toEqual([]);
  return seen.messages[0]!;
}

describe("answers from private repositories, by default", () => {
  it("are sent to the asker alone, with one line saying why and what admins can change", async () => {
    const record = await ask({
      kind: "slash",
      name: "contents",
      options: { repo: SECRET, path: SECRET_FILE },
    });
    const answer = privateAnswer(record);
    expect(answer.message.embeds[0]?.description).toContain("Only members see this.");
    expect(answer.message.content).toBe(
      "-# 🔒 Only you can see this: `demo/secret` is private. An admin can allow private answers in this server's channels with `/settings private-answers in-channel:true`.",
    );
  });

  it("never start a thread: thread:true answers in place, to the asker alone, and says so", async () => {
    const threadsBefore = world().discord.threads.length;
    const record = await ask({
      kind: "slash",
      name: "blame",
      options: { repo: SECRET, path: SECRET_FILE, thread: true },
    });
    const answer = privateAnswer(record);
    expect(answer.message.content).toMatch(
      /^-# 🔒 Only you can see this, so it is here and not in a thread: `demo\/secret` is private\./,
    );
    expect(world().discord.threads.length).toBe(threadsBefore);
  });

  it("never start a thread when threads are this server's default either, while public answers still do", async () => {
    await world().run({ kind: "slash", name: "settings threads", options: { enabled: true }, user: "admin" });
    try {
      const threadsBefore = world().discord.threads.length;
      const record = await ask({ kind: "slash", name: "contents", options: { repo: SECRET } });
      expect(privateAnswer(record).message.content).toMatch(/so it is here and not in a thread/);
      expect(world().discord.threads.length).toBe(threadsBefore);

      const open = await ask({ kind: "slash", name: "contents", options: { repo: "demo/gadgets" } });
      expect(transcriptOf(open).threadName).toBe("contents demo/gadgets");
    } finally {
      await world().run({
        kind: "slash",
        name: "settings threads",
        options: { enabled: false },
        user: "admin",
      });
    }
  });

  it("leave nothing public when slower than the defer budget: the deferral is deleted, the answer follows ephemerally", async () => {
    // demo-user's own private repository, not asked before: GitHub's latency is paid in full.
    world().github.setLatency(1_800);
    const record = await ask({ kind: "slash", name: "contents", options: { repo: "demo-user/notes" } });
    expect(record.deferred).toBe(true);
    expect(record.ephemeral).toBe(false);
    expect(record.originalDeleted).toBe(true);
    const answer = privateAnswer(record);
    expect(answer.message.embeds[0]?.description).toContain("notes.md");
    expect(answer.message.content).toMatch(/^-# 🔒 Only you can see this: `demo-user\/notes` is private\./);
  });

  it("name an internal repository as internal", async () => {
    world().github.world.setVisibility(DEMO_ORGANIZATION, "sprockets", "INTERNAL");
    try {
      const record = await ask({ kind: "slash", name: "contents", options: { repo: "demo/sprockets" } });
      expect(privateAnswer(record).message.content).toMatch(
        /^-# 🔒 Only you can see this: `demo\/sprockets` is internal \(its enterprise's members only\)\./,
      );
    } finally {
      world().github.world.setVisibility(DEMO_ORGANIZATION, "sprockets", "PUBLIC");
    }
  });

  it("of /contributors too, whose REST answer GitHub sends without visibility", async () => {
    const record = await ask({ kind: "slash", name: "contributors", options: { repo: SECRET } });
    expect(privateAnswer(record).message.content).toMatch(/`demo\/secret` is private/);
  });
});

describe("/contents of a private file, page by page", () => {
  it("keeps Previous / Next lines working, every page to the asker alone, saying why", async () => {
    const record = await ask({
      kind: "slash",
      name: "contents",
      options: { repo: SECRET, path: SECRET_FILE, lines: "1" },
    });
    const first: ShownMessage = {
      id: transcriptOf(record).messages[0]!.id,
      message: privateAnswer(record).message,
    };
    expect(buttonId(first.message, /Previous lines/)).toBeNull();

    const second = await press(world(), first, /Next lines/);
    expect(second.record.errors).toEqual([]);
    expect(world().discord.message(first.id)?.ephemeral).toBe(true);
    expect(second.after.message.embeds[0]?.description).toMatch(/^Lines? 2(–2)? of 3\./);
    expect(second.after.message.content).toMatch(/^-# 🔒 Only you can see this: `demo\/secret` is private\./);

    const back = await press(world(), second.after, /Previous lines/);
    expect(back.after.message.embeds[0]?.description).toMatch(/^Lines? 1(–1)? of 3\./);
    expect(world().discord.message(first.id)?.ephemeral).toBe(true);
  });
});

describe("/repos of an owner with private repositories", () => {
  const page = (shown: { message: { embeds: Array<{ description?: string }> } }) =>
    shown.message.embeds[0]?.description ?? "";

  it("shows a page listing private repositories to the asker alone, and pages without them as usual", async () => {
    const record = await ask({ kind: "slash", name: "repos", options: { owner: BULK_OWNER, sort: "name" } });
    const answer = privateAnswer(record);
    expect(page(answer)).toMatch(/\[repo\\-03\]\(\S+\) 🔒/);
    expect(answer.message.content).toMatch(
      /^-# 🔒 Only you can see this: this page lists a private repository\./,
    );

    const open = await ask({ kind: "slash", name: "repos", options: { owner: "other-user" } });
    const seen = transcriptOf(open);
    expect(seen.messages.map((message) => message.ephemeral)).toEqual([false]);
    expect(seen.messages[0]!.message.content ?? "").not.toMatch(/🔒/);
  });

  it("keeps Previous / Next working on a private page, and every page it shows private", async () => {
    const record = await ask({ kind: "slash", name: "repos", options: { owner: BULK_OWNER, sort: "name" } });
    const first: ShownMessage = {
      id: transcriptOf(record).messages[0]!.id,
      message: privateAnswer(record).message,
    };

    const second = await press(world(), first, /Next/);
    expect(second.record.errors).toEqual([]);
    expect(world().discord.message(first.id)?.ephemeral).toBe(true);
    expect(page(second.after)).toMatch(/page 2 \(11–20\)/);

    const back = await press(world(), second.after, /Previous/);
    expect(world().discord.message(first.id)?.ephemeral).toBe(true);
    expect(page(back.after)).toMatch(/\[repo\\-03\]\(\S+\) 🔒/);
    expect(back.after.message.content).toMatch(/^-# 🔒 Only you can see this/);
    // Nobody else can even press them: Discord shows an ephemeral message to its recipient only.
    const next = buttonId(back.after.message, /Next/);
    expect(next).not.toBeNull();
    await expect(
      world().run({ kind: "button", message: first.id, customId: next!, user: "admin" }),
    ).rejects.toThrow(/ephemeral/);
  });

  it("sends a private page reached from a public one to the presser alone, leaving the public message as it was", async () => {
    const record = await ask({ kind: "slash", name: "repos", options: { owner: BULK_OWNER } });
    const first = transcriptOf(record).messages[0]!;
    expect(first.ephemeral).toBe(false);
    const second = await press(world(), first, /Next/);
    expect(page(second.after)).toMatch(/page 2 \(11–20\)/);

    const third = await press(world(), second.after, /Next/);
    // The public message still shows page 2; page 3 (repo-03 is private) went to the presser alone.
    expect(page(third.after)).toMatch(/page 2 \(11–20\)/);
    expect(world().discord.message(first.id)?.ephemeral).toBe(false);
    const privatePage = transcriptOf(third.record).messages;
    expect(privatePage.map((message) => message.ephemeral)).toEqual([true]);
    expect(page(privatePage[0]!)).toMatch(/page 3 \(21–23\)/);
    expect(page(privatePage[0]!)).toMatch(/\[repo\\-03\]\(\S+\) 🔒/);
    expect(privatePage[0]!.message.content).toMatch(/Only you can see this/);
  });
});

describe("the default token (in DMs here), which reads public repositories only", () => {
  it("refuses a private repository and says what to do instead", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "contents",
      options: { repo: SECRET, path: SECRET_FILE },
      channel: "dm",
    });
    expect(text).toBe(
      // A DM has no server admin to turn to: `/login` is the way.
      "⚠️ Repository `demo/secret` is private, and the bot's shared token reads public repositories only. Sign in with `/login` to read it with your own GitHub account.",
    );
  });

  it("answers anything asked of a private repository with that one sentence, whatever is inside or not", async () => {
    const sentence =
      "⚠️ Repository `demo/secret` is private, and the bot's shared token reads public repositories only. Sign in with `/login` to read it with your own GitHub account.";
    const asked: Array<{ name: string; options: Record<string, string> }> = [
      // A file that exists, one that does not, a made-up ref, a folder given to blame.
      { name: "contents", options: { repo: SECRET, path: SECRET_FILE } },
      { name: "contents", options: { repo: SECRET, path: "no/such/file.md" } },
      { name: "contents", options: { repo: SECRET, path: SECRET_FILE, ref: "made-up-ref" } },
      { name: "blame", options: { repo: SECRET, path: SECRET_FILE } },
      { name: "blame", options: { repo: SECRET, path: "no-such-file.md" } },
      { name: "blame", options: { repo: SECRET, path: SECRET_FILE, ref: "v9.9.9" } },
      { name: "contributors", options: { repo: SECRET } },
      { name: "contributors", options: { repo: SECRET, page: "7" } },
    ];
    for (const { name, options } of asked) {
      const text = await errorText(world(), { kind: "slash", name, options, channel: "dm" });
      expect(`${name} ${JSON.stringify(options)}: ${text}`).toBe(
        `${name} ${JSON.stringify(options)}: ${sentence}`,
      );
    }
  });

  it("lists public repositories only, and says so", async () => {
    const record = await ask({ kind: "slash", name: "repos", options: { owner: "demo" }, channel: "dm" });
    const seen = transcriptOf(record);
    expect(seen.isError).toBe(false);
    const description = seen.messages[0]!.message.embeds[0]!.description!;
    expect(description).toMatch(/^\*\*6\*\* repositories/);
    expect(description).toContain("Public repositories only: the bot's shared token lists no private ones.");
    expect(description).not.toMatch(/secret|🔒/);
    const sent = world().github.requests.filter((request) => request.operationName === "OwnerRepositories");
    expect(sent.at(-1)?.variables).toMatchObject({ privacy: "PUBLIC" });
  });

  it("never suggests a private repository in autocomplete", async () => {
    const record = await world().run({
      kind: "autocomplete",
      name: "blame",
      options: { repo: "demo/s" },
      focused: "repo",
      channel: "dm",
    });
    const values = (record.choices ?? []).map((choice) => String(choice.value));
    expect(values).toContain("demo/sprockets");
    expect(values).not.toContain(SECRET);
  });
});

describe("access taken away at GitHub", () => {
  it("ends a cached private answer once the short TTL has passed since access was last confirmed", async () => {
    const oid = commitOf(world(), SECRET, "main");
    const blame = {
      kind: "slash",
      name: "blame",
      options: { repo: SECRET, path: SECRET_FILE, ref: oid },
    } as const;
    const operations = (from: number) =>
      world()
        .github.requests.slice(from)
        .map((request) => request.operationName);

    // Fetched, or cached by an earlier blame of the branch: either way in the cache now.
    privateAnswer(await ask(blame));

    // Past the short TTL, a cached private answer is served after one cheap access read.
    clockOffset += SHORT_TTL_MS + 1_000;
    let mark = world().github.requests.length;
    const reconfirmed = privateAnswer(await ask(blame));
    expect(reconfirmed.message.embeds[0]?.footer?.text).toMatch(/^cached/);
    expect(operations(mark)).toEqual(["RepositoryAccess"]);

    const members = world().github.world.organization(DEMO_ORGANIZATION)!.members ?? [];
    world().github.world.setMembers(
      DEMO_ORGANIZATION,
      members.filter((login) => login !== DEMO_LOGIN),
    );
    try {
      // Confirmed moments ago: still within the short TTL, so still served, asking GitHub nothing.
      mark = world().github.requests.length;
      privateAnswer(await ask(blame));
      expect(operations(mark)).toEqual([]);

      clockOffset += SHORT_TTL_MS + 1_000;
      mark = world().github.requests.length;
      const text = await errorText(world(), blame);
      expect(text).toBe(
        "⚠️ Repository `demo/secret` was not found, or this server's GitHub token cannot see it. Check the owner and name in `repo`; if it is private, sign in with `/login` to read it with your own GitHub account, or an admin can `/token set` a token that can read it.",
      );
      expect(operations(mark)).toEqual(["RepositoryAccess"]);
    } finally {
      world().github.world.setMembers(DEMO_ORGANIZATION, members);
    }
  });
});

describe("/settings", () => {
  it("show prints every setting of this server and the token origin in effect, to the admin alone", async () => {
    const record = await world().run({ kind: "slash", name: "settings show", user: "admin" });
    const seen = transcriptOf(record);
    expect(seen.messages.map((message) => message.ephemeral)).toEqual([true]);
    const text = seen.messages[0]!.message.embeds[0]!.description!;
    expect(text).toContain("**Threads**: `off`");
    expect(text).toContain("**Private answers**: `asker only`");
    expect(text).toContain("**Token in effect for you**: `server`: this server's token, as **demo\\-user**");
    expect(text).not.toContain(SERVER_TOKEN);
  });

  it("private-answers in-channel:true posts private answers as usual, marked private, threads included", async () => {
    const set = await world().run({
      kind: "slash",
      name: "settings private-answers",
      options: { "in-channel": true },
      user: "admin",
    });
    const confirmation = transcriptOf(set);
    expect(confirmation.messages.map((message) => message.ephemeral)).toEqual([true]);
    expect(confirmation.text).toMatch(/now posted in this server's channels, marked as private/);
    try {
      const shown = transcriptOf(await world().run({ kind: "slash", name: "settings show", user: "admin" }));
      expect(shown.text).toContain("**Private answers**: `in-channel`");

      const record = await ask({
        kind: "slash",
        name: "contents",
        options: { repo: SECRET, path: SECRET_FILE },
      });
      const seen = transcriptOf(record);
      expect(seen.messages.map((message) => message.ephemeral)).toEqual([false]);
      expect(seen.messages[0]!.message.content).toBe(
        "-# 🔒 Private: `demo/secret` is private. This server's admins allow private answers in its channels.",
      );

      const threaded = await ask({
        kind: "slash",
        name: "blame",
        options: { repo: SECRET, path: SECRET_FILE, thread: true },
      });
      const inThread = transcriptOf(threaded);
      expect(inThread.threadName).toBe("blame demo/secret SECRET.md");
      expect(inThread.messages.at(-1)?.place).toBe("thread");
      expect(inThread.messages.at(-1)?.message.content).toMatch(
        /^-# 🔒 Private: `demo\/secret` is private\./,
      );
    } finally {
      await world().run({
        kind: "slash",
        name: "settings private-answers",
        options: { "in-channel": false },
        user: "admin",
      });
    }
    const after = await ask({
      kind: "slash",
      name: "contents",
      options: { repo: SECRET, path: SECRET_FILE },
    });
    expect(privateAnswer(after).message.content).toMatch(/^-# 🔒 Only you can see this/);
  });

  it("refuses members without Manage Server", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "settings private-answers",
      options: { "in-channel": true },
      user: "member",
    });
    expect(text).toContain("Manage Server");
  });
});
