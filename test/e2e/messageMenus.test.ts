import type { APIEmbed } from "discord-api-types/v10";
import { afterEach, describe, expect, it } from "vitest";
import type { InteractionRecord, MessageCommandInteraction } from "../../src/sandbox/discord/index.js";
import { DEMO_LOGIN } from "../../src/sandbox/github/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import {
  answerOf,
  commitOf,
  expectDeliveredWithoutPings,
  markupProblems,
  messagesOf,
  useWorld,
} from "./helpers.js";

/**
 * The message menus `Show code` and `Blame lines` end to end (SPEC section 1): right-clicking the
 * demo messages of #code-links (src/sandbox/discord/demoMessages.ts), in a server that installed
 * the app, where only the asker installed it, in DMs.
 */
const world = useWorld();

const menu = (
  name: "Show code" | "Blame lines",
  message: string,
  extra: Partial<MessageCommandInteraction> = {},
): Promise<InteractionRecord> => world().run({ kind: "message", name, message, ...extra }, { settleMs: 150 });

/** A demo message's id by its name. */
const demo = (name: string): string => {
  const id = world().discord.demoMessages[name];
  if (!id) throw new Error(`no demo message ${name}`);
  return id;
};

/** The numbered lines of a code block (`12 │ text` or `12 🟧 abc1234 author │ text`). */
function lineNumbers(text: string | undefined): number[] {
  return [...(text ?? "").matchAll(/^\s*(\d+) .*│/gm)].map((match) => Number(match[1]));
}

const range = (start: number, end: number) => Array.from({ length: end - start + 1 }, (_, i) => start + i);

/**
 * Posts a message in a channel through the bot's REST, which may also carry embeds as another bot's
 * message does (the author does not matter to a menu).
 */
async function post(channelId: string, content: string, embeds: APIEmbed[] = []): Promise<string> {
  const { discord } = world();
  const response = await fetch(`${discord.apiUrl}/v10/channels/${channelId}/messages`, {
    method: "POST",
    headers: { Authorization: `Bot ${discord.botToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ content, embeds, allowed_mentions: { parse: [] } }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

describe("Show code", () => {
  it("answers a permalink with exactly its lines, in the channel, as /contents would", async () => {
    const record = await menu("Show code", demo("oneLink"));
    const { embed, last, message } = answerOf(record);
    expect(last.ephemeral).toBe(false);
    expect(embed.title).toContain("demo/widgets/src/engine.ts");
    expect(lineNumbers(embed.description)).toEqual(range(10, 20));
    expect(embed.url).toContain("#L10-L20");
    expect(
      message.components[0]?.components.map((button) => ("label" in button ? button.label : "")),
    ).toEqual(["◀ Previous lines", "Next lines ▶", "Open on GitHub"]);
    expect(record.original?.channelId).toBe(world().discord.channels.codeLinks);
    expectDeliveredWithoutPings(record);
  });

  it("reads a column anchor (#L10C3-L20C5) as its lines", async () => {
    const { embed } = answerOf(await menu("Show code", demo("columnAnchor")));
    expect(lineNumbers(embed.description)).toEqual(range(10, 20));
  });

  it("shows a small file whole when the link names no lines", async () => {
    const { embed } = answerOf(await menu("Show code", demo("wholeFile")));
    const lines = lineNumbers(embed.description);
    expect(lines[0]).toBe(1);
    expect(embed.description).not.toMatch(/more lines/);
  });

  it("answers every link of a message in one reply, one embed per link", async () => {
    const record = await menu("Show code", demo("severalLinks"));
    const seen = transcriptOf(record);
    expect(seen.isError, seen.text).toBe(false);
    expect(messagesOf(record)).toHaveLength(1);
    const { message } = answerOf(record);
    expect(message.embeds.map((embed) => embed.title)).toEqual([
      expect.stringContaining("demo/widgets/README.md"),
      expect.stringContaining("demo/widgets/src/engine.ts"),
      expect.stringContaining("demo/gadgets/README.md"),
    ]);
    expect(lineNumbers(message.embeds[0]!.description)).toEqual(range(1, 3));
    expect(lineNumbers(message.embeds[1]!.description)).toEqual(range(30, 40));
    expect(message.embeds[1]!.footer?.text).toContain("develop");
    // A press would replace every answer with one: no Previous / Next on a shared reply.
    expect(message.components).toEqual([]);
    expect(markupProblems(message)).toEqual([]);
    expectDeliveredWithoutPings(record);
  });

  it("answers the first five links, says how many were left, and a line per link without an answer", async () => {
    const base = "https://github.com/demo/widgets/blob/main";
    const links = [
      `${base}/README.md#L1`,
      `${base}/no/such/file.ts#L1`,
      `${base}/src/engine.ts#L1-L2`,
      `${base}/src/engine.ts#L3-L4`,
      `${base}/src/engine.ts#L5-L6`,
      `${base}/src/engine.ts#L7-L8`,
      `${base}/src/engine.ts#L9`,
    ];
    const id = await post(world().discord.channels.codeLinks, `Seven: ${links.join(" ")}`);
    const { message } = answerOf(await menu("Show code", id));
    expect(message.embeds).toHaveLength(4);
    expect(message.content).toMatch(/Link 2, `demo\/widgets no\/such\/file\.ts`: .*not found/i);
    expect(message.content).toContain(
      "2 more links of that message have no answer: a menu answers at most 5.",
    );
  });

  it('says "no GitHub file link in that message", ephemerally, asking GitHub nothing', async () => {
    const before = world().github.requests.length;
    const record = await menu("Show code", demo("noLink"));
    const seen = transcriptOf(record);
    expect(seen.isError).toBe(true);
    expect(seen.messages.every((message) => message.ephemeral)).toBe(true);
    expect(seen.text).toContain("no GitHub file link in that message");
    expect(world().github.requests.length).toBe(before);
  });

  it("follows no link to another host, and says which host it reads", async () => {
    const before = world().github.requests.length;
    const seen = transcriptOf(await menu("Show code", demo("otherHost")));
    expect(seen.isError).toBe(true);
    expect(seen.text).toContain("`github.com`");
    expect(seen.text).toContain("`gitlab.com` is another service");
    expect(world().github.requests.length).toBe(before);
  });

  it("keeps a private repository's code out of the channel: the default token may not read it", async () => {
    const seen = transcriptOf(await menu("Show code", demo("privateRepo")));
    expect(seen.isError).toBe(true);
    expect(seen.messages.every((message) => message.ephemeral)).toBe(true);
    expect(seen.text).toMatch(/`demo\/secret` is private/);
    expect(
      world()
        .discord.messagesIn(world().discord.channels.codeLinks, { includeEphemeral: false })
        .some(
          (message) =>
            message.content.includes("Members only") && message.authorId === world().discord.users.bot.id,
        ),
    ).toBe(false);
  });

  it("defuses mentions and code fences of the message and of the answer", async () => {
    const id = await post(
      world().discord.channels.codeLinks,
      "@everyone <@1> ```\nhttps://github.com/demo/widgets/blob/main/src/engine.ts#L1-L3\n```",
    );
    const record = await menu("Show code", id);
    const { embed, message } = answerOf(record);
    expect(lineNumbers(embed.description)).toEqual(range(1, 3));
    expect(markupProblems(message)).toEqual([]);
    expectDeliveredWithoutPings(record);
  });
});

describe("a message linking to public and private repositories", () => {
  it("answers the public links in the channel and the private one to the asker alone", async () => {
    await world().signIn({ user: "member", channel: "codeLinks", login: DEMO_LOGIN });
    try {
      const posted = world().discord.postAsUser({
        channel: "codeLinks",
        content:
          "Public https://github.com/demo/widgets/blob/main/README.md#L1-L3 and private " +
          "https://github.com/demo/secret/blob/main/SECRET.md#L1-L3",
      });
      const record = await world().run(
        { kind: "message", name: "Show code", message: posted.id, user: "member" },
        { settleMs: 300 },
      );
      expect(record.errors).toEqual([]);
      const views = messagesOf(record);
      const shown = views.filter((view) => !view.ephemeral);
      const hidden = views.filter((view) => view.ephemeral);
      expect(shown).toHaveLength(1);
      expect(shown[0]!.embeds.map((embed) => embed.title)).toEqual([
        expect.stringContaining("demo/widgets/README.md"),
      ]);
      expect(JSON.stringify(shown)).not.toContain("secret");
      expect(hidden).toHaveLength(1);
      expect(hidden[0]!.embeds.map((embed) => embed.title)).toEqual([
        expect.stringContaining("demo/secret/SECRET.md"),
      ]);
      expect(hidden[0]!.content).toMatch(/Only you can see this: `demo\/secret` is private/);
      expectDeliveredWithoutPings(record);
    } finally {
      await world().run({ kind: "slash", name: "logout", user: "member" }, { settleMs: 50 });
    }
  });
});

describe("Blame lines", () => {
  it("blames exactly the lines of a permalink", async () => {
    const record = await menu("Blame lines", demo("columnAnchor"));
    const { embed } = answerOf(record);
    expect(embed.title).toBe("blame demo/widgets src/engine.ts");
    expect(lineNumbers(embed.description)).toEqual(range(10, 20));
    expect(embed.footer?.text).toContain(
      `pinned to ${commitOf(world(), "demo/widgets", "main").slice(0, 7)}`,
    );
    expectDeliveredWithoutPings(record);
  });

  it("blames the lines of a Show code answer, at the commit it is pinned to", async () => {
    const shown = await menu("Show code", demo("oneLink"));
    const answer = shown.original!;
    expect(answer.ephemeral).toBe(false);
    const record = await menu("Blame lines", answer.id);
    const { embed } = answerOf(record);
    expect(embed.title).toBe("blame demo/widgets src/engine.ts");
    expect(lineNumbers(embed.description)).toEqual(range(10, 20));
    // The link of the answer names the commit, so the blame is of that very version.
    const pinned = /blob\/([0-9a-f]{40})\//.exec(answer.embeds[0]!.url!)![1]!;
    expect(embed.url).toContain(`/blob/${pinned}/`);
  });

  it("reads the links of the text when it has some, not those of its embeds (a link's preview repeats it)", async () => {
    const id = await post(
      world().discord.channels.codeLinks,
      "https://github.com/demo/widgets/blob/main/README.md#L2",
      [{ title: "README.md", url: "https://github.com/demo/widgets/blob/main/README.md" }],
    );
    const { message } = answerOf(await menu("Show code", id));
    expect(message.embeds).toHaveLength(1);
    expect(lineNumbers(message.embeds[0]!.description)).toEqual([2]);
  });

  it("resolves a branch with a slash as /blame does", async () => {
    const { embed } = answerOf(await menu("Blame lines", demo("slashBranch")));
    expect(embed.title).toBe("blame demo/widgets src/gears.ts");
    expect(lineNumbers(embed.description)).toEqual(range(6, 8));
    expect(embed.footer?.text).toContain("feature/gears");
  });

  it("blames each link of a message in one reply", async () => {
    const { message } = answerOf(await menu("Blame lines", demo("severalLinks")));
    expect(message.embeds.map((embed) => embed.title)).toEqual([
      "blame demo/widgets README.md",
      "blame demo/widgets src/engine.ts",
      "blame demo/gadgets README.md",
    ]);
  });
});

describe("in a server whose answers go into threads", () => {
  afterEach(async () => {
    await world().running.services.settings.setThreads(world().discord.guildId, false);
  });

  it("starts a thread from a one-line summary and answers there", async () => {
    await world().running.services.settings.setThreads(world().discord.guildId, true);
    const record = await menu("Blame lines", demo("oneLink"));
    expect(record.thread).not.toBeNull();
    expect(record.original?.content).toContain("demo/widgets src/engine.ts");
    expect(lineNumbers(record.threadMessages[0]?.embeds[0]?.description)).toEqual(range(10, 20));
    expectDeliveredWithoutPings(record);
  });
});

describe("where only the asker installed the app", () => {
  it("answers in a server the bot is not in, in place, never in a thread", async () => {
    const record = await menu("Show code", demo("lobby"));
    const { embed, last } = answerOf(record);
    expect(record.payload.authorizing_integration_owners).not.toHaveProperty("0");
    expect(lineNumbers(embed.description)).toEqual(range(1, 12));
    expect(last.ephemeral).toBe(false);
    expect(record.thread).toBeNull();
    expect(record.followups.length).toBeLessThanOrEqual(5);
    expectDeliveredWithoutPings(record);
  });

  it("reads with the asker's own token or the default, never a token stored for that server", async () => {
    const { services } = world().running;
    const { discord } = world();
    const token = "ghp_menuElsewhereServerToken000000000000000";
    world().github.addToken(token, DEMO_LOGIN);
    await services.tokenAdmin.verifyAndStore(discord.guilds.elsewhere, token, discord.users.stranger.id);
    const record = await world().run({ kind: "slash", name: "whoami", channel: "lobby" }, { settleMs: 100 });
    const text = transcriptOf(record).text;
    expect(text).toMatch(/default/);
    expect(text).not.toMatch(/\bserver\b token/i);
  });

  it("says it cannot start a thread only when thread:true was asked", async () => {
    const record = await world().run(
      {
        kind: "slash",
        name: "contents",
        channel: "lobby",
        options: { repo: "demo/widgets", path: "src/engine.ts", lines: "1-3", thread: true },
      },
      { settleMs: 150 },
    );
    const { last } = answerOf(record);
    expect(record.thread).toBeNull();
    expect(last.message.content).toContain("installed to your account, not to this place");
    const plain = answerOf(await menu("Show code", demo("lobby")));
    expect(plain.last.message.content ?? "").not.toContain("thread");
  });

  it("shows private code read with the asker's own sign-in to the asker alone, and posts nothing", async () => {
    await world().signIn({ user: "member", channel: "lobby", login: DEMO_LOGIN });
    try {
      const posted = world().discord.postAsUser({
        user: "stranger",
        channel: "lobby",
        content: "Secret stuff: https://github.com/demo/secret/blob/main/SECRET.md#L1-L3",
      });
      const record = await menu("Show code", posted.id);
      const { embed, last } = answerOf(record);
      expect(embed.title).toContain("demo/secret/SECRET.md");
      expect(last.ephemeral).toBe(true);
      expect(last.message.content).toMatch(/Only you can see this: `demo\/secret` is private/);
      expect(record.thread).toBeNull();
      const lobby = world().discord.messagesIn(world().discord.channels.lobby, { includeEphemeral: false });
      expect(lobby.filter((message) => message.interactionId === record.id)).toEqual([]);
    } finally {
      await world().run({ kind: "slash", name: "logout", user: "member" }, { settleMs: 50 });
    }
  });

  it("is made ephemeral by Discord where the server forbids external apps", async () => {
    const record = await menu("Show code", demo("noApps"));
    const { embed, last } = answerOf(record);
    expect(lineNumbers(embed.description)).toEqual(range(1, 12));
    expect(last.ephemeral).toBe(true);
  });

  it("answers in a group DM", async () => {
    const record = await menu("Blame lines", demo("groupDm"));
    const { embed } = answerOf(record);
    expect(embed.title).toBe("blame demo/gadgets src/index.ts");
    expect(lineNumbers(embed.description)).toEqual([1]);
  });
});

describe("in the DM with the bot", () => {
  it("answers the link of a DM message", async () => {
    const record = await menu("Show code", demo("dm"));
    const seen = transcriptOf(record);
    // engine.ts has fewer than 100 lines: the answer says which lines it has instead.
    expect(seen.isError, seen.text).toBe(false);
    expect(record.payload.context).toBe(1);
    expect(record.thread).toBeNull();
  });
});

describe("on GitHub Enterprise Server", () => {
  const enterprise = useWorld({ github: { htmlUrl: "https://ghe.example.com" } });

  it("follows the server's links only: a github.com link there names another service's repository", async () => {
    const posted = enterprise().discord.postAsUser({
      channel: "codeLinks",
      content:
        "Ours: https://ghe.example.com/demo/widgets/blob/main/README.md#L1-L2, theirs: " +
        "https://github.com/demo/widgets/blob/main/README.md#L3",
    });
    const record = await enterprise().run(
      { kind: "message", name: "Show code", message: posted.id },
      { settleMs: 150 },
    );
    const { message } = answerOf(record);
    expect(message.embeds).toHaveLength(1);
    expect(message.embeds[0]!.url).toMatch(
      /^https:\/\/ghe\.example\.com\/demo\/widgets\/blob\/[0-9a-f]{40}\/README\.md#L1-L2$/,
    );
    const other = enterprise().discord.postAsUser({
      channel: "codeLinks",
      content: "https://github.com/demo/widgets/blob/main/README.md#L3",
    });
    const refused = transcriptOf(
      await enterprise().run({ kind: "message", name: "Show code", message: other.id }),
    );
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("`ghe.example.com`, and `github.com` is another service");
  });
});
