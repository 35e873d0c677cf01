import { createHash } from "node:crypto";
import { GatewayIntentBits, MessageFlags, MessageType } from "discord-api-types/v10";
import { beforeAll, describe, expect, it } from "vitest";
import type { MessageView } from "../../src/sandbox/discord/index.js";
import { DEMO_ISSUES } from "../../src/sandbox/github/demoConstants.js";
import { DEMO_PATHS, DEMO_TOKEN, OTHER_LOGIN } from "../../src/sandbox/github/index.js";
import type { SandboxWorld } from "../../src/sandbox/harness.js";
import { formattedOf, transcriptOf } from "../../src/sandbox/transcript.js";
import { commitOf, markupProblems, useWorld } from "./helpers.js";

/**
 * Automatic link previews end to end (SPEC section 7), over the gateway (HTTP mode hears no
 * messages): people post, edit and delete messages in the local Discord, and the real bot, with
 * `DISCORD_MESSAGE_CONTENT=true`, answers with one compact reply. The tests run in a generated
 * server's channels, one channel each, so the "one reply per channel every 2 s" rule of one test
 * never holds back another; the main server keeps previews off.
 */
const world = useWorld({
  transport: "gateway",
  messageContent: true,
  allowPrivate: true,
  discord: { generatedGuilds: { count: 1, channels: 40 } },
});

const BLOB = "https://github.com/demo/widgets/blob/main/src/engine.ts";
const PRIVATE = "https://github.com/demo/secret/blob/main/SECRET.md";
/** How long a test waits to be sure that no preview comes (the bot answers a cached link in ms). */
const QUIET_MS = 600;

let owner: string;
let member: string;
let channels: string[] = [];
/** Where the owner runs /settings (no preview is asked for there). */
let commands: string;

/** A channel of the generated server where the bot may post, not used by any other test. */
function channel(): string {
  const next = channels.shift();
  if (!next) throw new Error("out of channels");
  return next;
}

/** Runs a slash command in the generated server, as its owner (an admin there). */
async function asOwner(name: string, options: Record<string, string | number | boolean>, where: string) {
  return world().run({ kind: "slash", name, options, user: owner, channel: where });
}

/** The bot's messages in a channel that reply to `messageId`. */
function previewsOf(messageId: string, channelId: string): MessageView[] {
  return world()
    .discord.messagesIn(channelId)
    .filter(
      (view) =>
        view.authorId === world().discord.botUserId && view.api.message_reference?.message_id === messageId,
    );
}

async function until<T>(what: string, read: () => T | undefined, timeoutMs = 8_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits for the one preview of a message. */
function previewOf(messageId: string, channelId: string): Promise<MessageView> {
  return until("a preview", () => previewsOf(messageId, channelId)[0]);
}

/** Waits a moment and says that no preview came. */
async function expectNoPreview(messageId: string, channelId: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  expect(previewsOf(messageId, channelId)).toEqual([]);
}

function post(
  content: string,
  where: string,
  options: { user?: string; flags?: number; from?: "bot" | "webhook" } = {},
) {
  return world().discord.postAsUser({ content, user: options.user ?? member, channel: where, ...options });
}

/** The numbered lines of a preview's code block. */
const lineNumbers = (text: string | undefined) =>
  [...(text ?? "").matchAll(/^\s*(\d+) │/gm)].map((match) => Number(match[1]));

beforeAll(async () => {
  const w: SandboxWorld = world();
  const ids = w.discord.generatedGuild(0);
  owner = ids.memberIds[0]!;
  member = ids.memberIds[1]!;
  // Channels without overwrites: the bot may post in every one of them.
  const open: string[] = [];
  for (const id of ids.textChannelIds) {
    const response = await fetch(`${w.discord.apiUrl}/v10/channels/${id}`, {
      headers: { Authorization: `Bot ${w.discord.botToken}` },
    });
    const body = (await response.json()) as { permission_overwrites?: unknown[] };
    if ((body.permission_overwrites ?? []).length === 0) open.push(id);
  }
  channels = open;
  commands = channel();
  const record = await asOwner("settings link-previews", { enabled: true }, commands);
  expect(transcriptOf(record).text).toContain("now **on**");
  expect(transcriptOf(record).text).not.toContain("⚠️");
});

describe("automatic link previews", () => {
  it("answers a person's message with one compact reply that pings nobody", async () => {
    const where = channel();
    const asked = post(`The loop: ${BLOB}#L10-L20 (see also ${BLOB}#L40)`, where);
    const preview = await previewOf(asked.id, where);
    expect(preview.type).toBe(MessageType.Reply);
    expect(preview.pings).toEqual({ everyone: false, users: [], roles: [] });
    expect(preview.allowedMentions).toMatchObject({ parse: [], replied_user: false });
    expect(preview.embeds).toHaveLength(2);
    expect(preview.embeds[0]?.title).toContain("demo/widgets src/engine.ts lines 10–20");
    expect(lineNumbers(preview.embeds[0]?.description)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(preview.embeds[0]?.url).toMatch(/\/demo\/widgets\/blob\/[0-9a-f]{40}\/src\/engine\.ts#L10-L20$/);
    expect(lineNumbers(preview.embeds[1]?.description)).toEqual([40]);
    expect(preview.components[0]).toMatchObject({ components: [{ label: "Dismiss" }] });
    // Guild Messages and Message Content, and nothing else (no Guilds intent: nothing to cache).
    expect(
      world()
        .discord.gatewaySessions()
        .map((session) => session.intents),
    ).toEqual([GatewayIntentBits.GuildMessages | GatewayIntentBits.MessageContent]);
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    expect(previewsOf(asked.id, where)).toHaveLength(1);
  });

  it("previews a pull request, a commit and an issue reference in one reply, hostile text made harmless", async () => {
    const where = channel();
    const sha = commitOf(world(), "demo/widgets", "main");
    const asked = post(
      `CI fails on https://github.com/demo/widgets/pull/${DEMO_ISSUES.openPull} since https://github.com/demo/widgets/commit/${sha}; see demo/widgets#${DEMO_ISSUES.hostile} and ${BLOB}#L1`,
      where,
    );
    const preview = await previewOf(asked.id, where);
    expect(preview.embeds).toHaveLength(3);
    const [pull, commit, hostile] = preview.embeds;
    expect(pull?.title).toContain("Fix tick drift");
    expect(pull?.url).toBe(`https://github.com/demo/widgets/pull/${DEMO_ISSUES.openPull}`);
    expect(pull?.description).toMatch(/Open pull request by .*failing.*pending/);
    expect(commit?.url).toContain(sha);
    expect(commit?.description).toContain(`\`${sha.slice(0, 7)}\``);
    expect(hostile?.url).toBe(`https://github.com/demo/widgets/issues/${DEMO_ISSUES.hostile}`);
    expect(preview.pings).toEqual({ everyone: false, users: [], roles: [] });
    expect(markupProblems(formattedOf(preview))).toEqual([]);
  });

  it("reads a bare #N with the server's default repository, and not without one", async () => {
    const where = channel();
    const before = post(`Merged in #${DEMO_ISSUES.mergedPull}, closing #${DEMO_ISSUES.completed}`, where);
    await expectNoPreview(before.id, where);
    await asOwner("settings repo", { repo: "demo/widgets" }, commands);
    try {
      const place = channel();
      const asked = post(`Merged in #${DEMO_ISSUES.mergedPull}, closing #${DEMO_ISSUES.completed}`, place);
      const preview = await previewOf(asked.id, place);
      expect(preview.embeds.map((embed) => embed.url)).toEqual([
        `https://github.com/demo/widgets/pull/${DEMO_ISSUES.mergedPull}`,
        `https://github.com/demo/widgets/issues/${DEMO_ISSUES.completed}`,
      ]);
      expect(preview.embeds[0]?.description).toMatch(/^\S+ Merged pull request/);
    } finally {
      await asOwner("settings repo", {}, commands);
    }
  });

  it("previews at most 3 links, at most 15 lines each, and leaves links in <…> and code alone", async () => {
    const where = channel();
    const asked = post(
      [
        `<${BLOB}#L1-L2>`,
        `\`${BLOB}#L3\``,
        "```",
        `${BLOB}#L4`,
        "```",
        `${BLOB}#L100-L140 ${BLOB}#L5 ${BLOB}#L6 ${BLOB}#L7`,
      ].join("\n"),
      where,
    );
    const preview = await previewOf(asked.id, where);
    expect(preview.embeds.map((embed) => lineNumbers(embed.description)[0])).toEqual([100, 5, 6]);
    expect(lineNumbers(preview.embeds[0]?.description)).toHaveLength(15);
    expect(preview.embeds[0]?.description).toContain("… 26 more lines");
  });

  it("ignores bots, webhooks, messages whose embeds were suppressed, and links that preview nothing", async () => {
    const where = channel();
    const messages = [
      post(`${BLOB}#L50`, where, { from: "bot" }),
      post(`${BLOB}#L51`, where, { from: "webhook" }),
      post(`${BLOB}#L52`, where, { flags: MessageFlags.SuppressEmbeds }),
      post(`${BLOB} has no anchor, https://gitlab.com/demo/widgets/-/blob/main/x.ts#L1 is elsewhere`, where),
    ];
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    for (const message of messages) expect(previewsOf(message.id, where)).toEqual([]);
  });

  it("lets the author dismiss the preview, a moderator too, and tells anyone else why not", async () => {
    const where = channel();
    const asked = post(`${BLOB}#L60-L61`, where);
    const preview = await previewOf(asked.id, where);
    const customId = (preview.components[0] as { components: Array<{ custom_id: string }> }).components[0]!
      .custom_id;
    const other = world().discord.generatedGuild(0).memberIds[2]!;
    const refused = await world().run({ kind: "button", message: preview.id, customId, user: other });
    const seen = transcriptOf(refused);
    expect(seen.isError).toBe(true);
    expect(seen.messages.every((message) => message.ephemeral)).toBe(true);
    expect(seen.text).toContain("Only the author can dismiss this");
    expect(world().discord.message(preview.id)?.deleted).toBe(false);
    await world().run({ kind: "button", message: preview.id, customId, user: member });
    expect(world().discord.message(preview.id)?.deleted).toBe(true);

    const second = post(`${BLOB}#L62-L63`, channel());
    const moderated = await previewOf(second.id, second.channelId);
    await world().run({
      kind: "button",
      message: moderated.id,
      customId: `dismiss-preview:${member}`,
      user: owner,
    });
    expect(world().discord.message(moderated.id)?.deleted).toBe(true);
  });

  it("follows an edit, and goes when no link is left or the message is deleted", async () => {
    const where = channel();
    const asked = post(`${BLOB}#L70-L71`, where);
    const preview = await previewOf(asked.id, where);
    world().discord.editAsUser(asked.id, { content: `Rather ${BLOB}#L72-L73` });
    const edited = await until("the edit", () => {
      const view = world().discord.message(preview.id);
      return lineNumbers(view?.embeds[0]?.description)[0] === 72 ? view : undefined;
    });
    expect(edited.id).toBe(preview.id);
    expect(previewsOf(asked.id, where)).toHaveLength(1);
    world().discord.editAsUser(asked.id, { content: "never mind" });
    await until("the delete", () => (world().discord.message(preview.id)?.deleted ? true : undefined));

    const again = post(`${BLOB}#L74`, channel());
    const gone = await previewOf(again.id, again.channelId);
    world().discord.deleteAsUser(again.id);
    await until("the delete", () => (world().discord.message(gone.id)?.deleted ? true : undefined));
  });

  it("repeats no link in a channel within 5 minutes, and posts one reply per channel every 2 seconds", async () => {
    const where = channel();
    const first = post(`${BLOB}#L80`, where);
    await previewOf(first.id, where);
    // Within 2 s of the first reply: skipped, whatever it holds.
    const soon = post(`${BLOB}#L81`, where);
    await expectNoPreview(soon.id, where);
    await new Promise((resolve) => setTimeout(resolve, 2_000 - QUIET_MS + 100));
    const repeated = post(`Again ${BLOB}#L80 and ${BLOB}#L82`, where);
    const preview = await previewOf(repeated.id, where);
    expect(preview.embeds.map((embed) => lineNumbers(embed.description)[0])).toEqual([82]);
    // Another channel may show the same link at once.
    const elsewhere = channel();
    const there = post(`${BLOB}#L80`, elsewhere);
    expect(lineNumbers((await previewOf(there.id, elsewhere)).embeds[0]?.description)).toEqual([80]);
  });

  it("leaves no trace of a private link where private answers stay with the asker, and marks it where allowed", async () => {
    const where = channel();
    const hidden = post(`Members only: ${PRIVATE}#L1-L2`, where);
    await expectNoPreview(hidden.id, where);
    expect(
      world()
        .discord.messagesIn(where)
        .filter((view) => view.authorId === world().discord.botUserId),
    ).toEqual([]);
    await asOwner("settings private-answers", { "in-channel": true }, commands);
    const place = channel();
    const shown = post(`Members only: ${PRIVATE}#L1-L2`, place);
    const preview = await previewOf(shown.id, place);
    expect(preview.embeds[0]?.footer?.text).toContain("🔒 private repository");
    await asOwner("settings private-answers", { "in-channel": false }, commands);
  });

  it("never reads with the author's own sign-in, even where it could read more", async () => {
    const where = channel();
    // The author signs in as another GitHub account; the preview still reads with the default token.
    const signedIn = await world().signIn({ user: member, channel: where, login: OTHER_LOGIN });
    expect(transcriptOf(signedIn).text).toContain("Signed in as");
    const before = world().github.requests.length;
    // A file no other test reads: nothing of it is in the cache, so GitHub is asked.
    const asked = post("https://github.com/demo/widgets/blob/develop/src/engine.ts#L1-L3", where);
    await previewOf(asked.id, where);
    const reads = world()
      .github.requests.slice(before)
      .filter((request) => request.api !== "web");
    expect(reads.length).toBeGreaterThan(0);
    const demoFingerprint = createHash("sha256").update(DEMO_TOKEN).digest("hex").slice(0, 8);
    expect(new Set(reads.map((request) => request.tokenFingerprint))).toEqual(new Set([demoFingerprint]));
  });

  it("spends the server's fair share of the default token, not the author's", async () => {
    const w = world();
    const enable = (enabled: boolean) =>
      w.run({ kind: "slash", name: "settings link-previews", options: { enabled }, user: "admin" });
    await enable(true);
    // GitHub reports 10 points an hour: a share of 0.2 is 2 points per server and per person.
    w.github.setRateLimit(DEMO_TOKEN, { limit: 10, remaining: 10 });
    try {
      const at = (ref: string) =>
        `https://github.com/demo/widgets/blob/${commitOf(w, "demo/widgets", ref)}/${DEMO_PATHS.engine}#L1-L2`;
      const places = [w.discord.channels.text, w.discord.channels.noThreads, w.discord.channels.codeLinks];
      for (const [index, where] of places.slice(0, 2).entries()) {
        const asked = w.discord.postAsUser({ content: at(`main~${index + 1}`), channel: where });
        await previewOf(asked.id, where);
      }
      // The server's 2 points are spent: the third link is not read, and nothing shows.
      const before = w.github.requests.length;
      const third = w.discord.postAsUser({ content: at("main~3"), channel: places[2] });
      await expectNoPreview(third.id, places[2]!);
      expect(w.github.requests.length).toBe(before);
      // The author's own share is whole: their command in a DM reads GitHub as usual.
      const own = await w.run({
        kind: "slash",
        name: "contents",
        options: { repo: at("main~4") },
        channel: "dm",
      });
      expect(transcriptOf(own).isError, transcriptOf(own).text).toBe(false);
    } finally {
      w.github.setRateLimit(DEMO_TOKEN, { limit: 5000, remaining: 5000 });
      await w.running.github.viewer(DEMO_TOKEN);
      await enable(false);
    }
  });

  it("is off in a server that did not turn it on", async () => {
    const asked = world().discord.postAsUser({ content: `${BLOB}#L95`, channel: "text" });
    await expectNoPreview(asked.id, world().discord.channels.text);
  });
});

describe("without DISCORD_MESSAGE_CONTENT", () => {
  const plain = useWorld({ transport: "gateway" });

  it("asks for no intent, so no preview appears, and /settings link-previews says why", async () => {
    const record = await plain().run({
      kind: "slash",
      name: "settings link-previews",
      options: { enabled: true },
      user: "admin",
    });
    expect(transcriptOf(record).text).toMatch(/does not read messages: .*`DISCORD_MESSAGE_CONTENT=true`/);
    expect(
      plain()
        .discord.gatewaySessions()
        .every((session) => session.intents === 0),
    ).toBe(true);
    const asked = plain().discord.postAsUser({ content: `${BLOB}#L10-L12` });
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    expect(
      plain()
        .discord.messagesIn(plain().discord.channels.text)
        .filter((view) => view.api.message_reference?.message_id === asked.id),
    ).toEqual([]);
  });
});

describe("in HTTP mode", () => {
  const http = useWorld({ transport: "http", messageContent: true });

  it("says that interactions over HTTP carry no messages, so no preview can appear", async () => {
    const record = await http().run({
      kind: "slash",
      name: "settings link-previews",
      options: { enabled: true },
      user: "admin",
    });
    expect(record.delivery?.transport).toBe("http");
    expect(transcriptOf(record).text).toMatch(/over HTTP, which carries no messages/);
    const shown = await http().run({ kind: "slash", name: "settings show", user: "admin" });
    expect(transcriptOf(shown).text).toMatch(/\*\*Link previews\*\*: `on`.*over HTTP/);
  });
});
