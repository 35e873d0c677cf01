import { describe, expect, it } from "vitest";
import type { InteractionRecord, InteractionRequest } from "../../src/sandbox/discord/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { useWorld } from "./helpers.js";

/**
 * The operator lets the default token read private repositories (GITHUB_TOKEN_ALLOW_PRIVATE=true)
 * and the server has no token of its own: private code is read, and still kept from the channel.
 */
const world = useWorld({ allowPrivate: true });

async function ask(request: InteractionRequest): Promise<InteractionRecord> {
  const handle = await world().send(request);
  await handle.waitFor((record) => transcriptOf(record).messages.length > 0, { timeoutMs: 15_000 });
  return handle.waitForSettled({ quietMs: 150, timeoutMs: 15_000 });
}

describe("a default token allowed to read private repositories", () => {
  it("reads them, and the answer still goes to the asker alone in a server's channel", async () => {
    const record = await ask({
      kind: "slash",
      name: "contents",
      options: { repo: "demo/secret", path: "SECRET.md" },
    });
    const seen = transcriptOf(record);
    expect(seen.isError, seen.text).toBe(false);
    expect(seen.messages.map((message) => message.ephemeral)).toEqual([true]);
    expect(seen.messages[0]!.message.content).toMatch(
      /^-# 🔒 Only you can see this: `demo\/secret` is private\./,
    );
    const channel = world().discord.messagesIn(world().discord.channels.text, { includeEphemeral: false });
    expect(channel.filter((message) => message.interactionId === record.id)).toEqual([]);
  });

  it("posts them as usual in the DM with the bot, which nobody else reads, marked private", async () => {
    const record = await ask({
      kind: "slash",
      name: "blame",
      options: { repo: "demo/secret", path: "SECRET.md" },
      channel: "dm",
    });
    const seen = transcriptOf(record);
    expect(seen.isError, seen.text).toBe(false);
    expect(seen.messages.map((message) => message.ephemeral)).toEqual([false]);
    expect(seen.messages[0]!.message.content).toBe(
      "-# 🔒 Private: `demo/secret` is private. Only you and RepoScout are in this conversation.",
    );
  });

  it("lists private repositories too, a page holding some kept to the asker", async () => {
    const record = await ask({ kind: "slash", name: "repos", options: { owner: "demo" } });
    const seen = transcriptOf(record);
    expect(seen.messages.map((message) => message.ephemeral)).toEqual([true]);
    expect(seen.messages[0]!.message.embeds[0]?.description).toMatch(/^\*\*7\*\* repositories/);
    expect(seen.messages[0]!.message.content).toMatch(/this page lists a private repository/);
  });

  it("is what /settings show names as the token in effect", async () => {
    const record = await world().run({ kind: "slash", name: "settings show", user: "admin" });
    expect(transcriptOf(record).text).toContain(
      "`default`: the bot's shared token; its operator lets it read private repositories.",
    );
  });
});
