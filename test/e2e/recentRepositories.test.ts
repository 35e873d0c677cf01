import { beforeAll, describe, expect, it } from "vitest";
import { createRecentRepositories } from "../../src/answers/recentRepositories.js";
import type { AutocompleteInteraction } from "../../src/sandbox/discord/index.js";
import { DEMO_LOGIN, DEMO_TOKEN, OTHER_LOGIN, OTHER_TOKEN } from "../../src/sandbox/github/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { useWorld } from "./helpers.js";

// The bot's default token is other-user's, who cannot see demo/secret.
const world = useWorld({ defaultToken: OTHER_TOKEN });
beforeAll(() => world().github.addToken(OTHER_TOKEN, OTHER_LOGIN));

async function suggested(request: Omit<AutocompleteInteraction, "kind">): Promise<string[]> {
  const record = await world().run({ kind: "autocomplete", ...request });
  expect(record.errors).toEqual([]);
  return (record.choices ?? []).map((choice) => String(choice.value));
}

describe("autocomplete's recent repositories are kept per token in effect", () => {
  it("never suggests a private repository read with the server's old token once the server reads with another", async () => {
    await world().running.vault.set(world().discord.guildId, {
      token: DEMO_TOKEN,
      setBy: world().discord.users.admin.id,
      login: DEMO_LOGIN,
    });
    // A member reads the private repository with the server's token (through the Scout, as
    // `/contents` does; the stand-in's first read of a repository is slow on a busy machine).
    const member = { guildId: world().discord.guildId, userId: world().discord.users.member.id };
    const read = await world().running.services.scout.contents(member, {
      repo: { owner: "demo", name: "secret" },
      path: "SECRET.md",
    });
    expect(read.origin).toBe("server");
    // With the token that read it, it is a recent choice...
    expect(await suggested({ name: "blame", options: { repo: "secr" }, focused: "repo" })).toEqual([
      "demo/secret",
    ]);

    const cleared = await world().run({ kind: "slash", name: "token clear", user: "admin" });
    expect(transcriptOf(cleared).text).toMatch(/removed/);
    // ...with the default token (which cannot see it) it is not, in the server nor in a DM.
    expect(await suggested({ name: "blame", options: { repo: "secr" }, focused: "repo" })).toEqual([]);
    expect(
      await suggested({ name: "blame", options: { repo: "secr" }, focused: "repo", channel: "dm" }),
    ).toEqual([]);
  });

  it("shares recent choices between askers reading with the same token", async () => {
    await world().run({
      kind: "slash",
      name: "contents",
      options: { repo: "other-user/experiments" },
      channel: "dm",
    });
    // Another member, in the server, on the same default token: the same repositories are open to them.
    expect(
      await suggested({ name: "blame", options: { repo: "experim" }, focused: "repo", user: "admin" }),
    ).toEqual(["other-user/experiments"]);
  });
});

describe("the recent-repositories memory", () => {
  it("keeps each token's list apart and forgets the least recently used token past its bound", () => {
    const recent = createRecentRepositories(2, 2);
    recent.remember("a", "o/one");
    recent.remember("a", "o/two");
    recent.remember("a", "O/ONE");
    recent.remember("b", "o/three");
    expect(recent.list("a")).toEqual(["O/ONE", "o/two"]);
    expect(recent.list("b")).toEqual(["o/three"]);
    recent.remember("c", "o/four");
    expect(recent.list("a")).toEqual([]);
    expect(recent.list("c")).toEqual(["o/four"]);
  });
});
