import { describe, expect, it } from "vitest";
import { DEMO_LOGIN, DEMO_REPOSITORIES, OTHER_LOGIN } from "../../src/sandbox/github/index.js";
import { userCodeOf } from "../../src/sandbox/harness.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { BULK_OWNER, buttonId, errorText, press, useWorld, type ShownMessage } from "./helpers.js";

/**
 * SPEC section 2: every error says what to do next. Through the real discord.js client, against
 * the GitHub stand-in: a repository that does not exist (advice that fits whose token read), a
 * repository whose contributors GitHub will not list (its 403 "too large"), and a page past the end.
 * The default token is demo-user's and reads public repositories only, as in production.
 */
const world = useWorld({ extended: true });

const MISSING = "demo/no-such-repo";
/** A token of demo-user that only this file sets as the server's token. */
const SERVER_TOKEN = "ghp_errorsTestServerToken00000000000000000";

describe("a repository that does not exist", () => {
  it("with the shared token, in a server: check the name; if private, /login or an admin's /token set", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "contributors",
      options: { repo: MISSING },
    });
    expect(text).toBe(
      "⚠️ Repository `demo/no-such-repo` was not found. Check the owner and name in `repo`; if it is private, the bot's shared token reads public repositories only: sign in with `/login` to read it with your own GitHub account, or an admin can `/token set` a token for this server.",
    );
    // The shared token reads public repositories only: its access read goes first, and said enough.
    expect(world().github.requests.at(-1)?.operationName).toBe("RepositoryAccess");
  });

  it("with the shared token, in a DM: no server admin to ask, so /login only (GraphQL's null repository)", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "blame",
      channel: "dm",
      options: { repo: MISSING, path: "README.md" },
    });
    expect(text).toBe(
      "⚠️ Repository `demo/no-such-repo` was not found. Check the owner and name in `repo`; if it is private, the bot's shared token reads public repositories only: sign in with `/login` to read it with your own GitHub account.",
    );
  });

  it("with the server's token: that token cannot see it; /login reads with your own account", async () => {
    world().github.addToken(SERVER_TOKEN, DEMO_LOGIN);
    const { discord } = world();
    await world().running.services.tokenAdmin.verifyAndStore(
      discord.guildId,
      SERVER_TOKEN,
      discord.users.admin.id,
    );
    try {
      const text = await errorText(world(), {
        kind: "slash",
        name: "contents",
        options: { repo: MISSING },
      });
      expect(text).toBe(
        "⚠️ Repository `demo/no-such-repo` was not found, or this server's GitHub token cannot see it. Check the owner and name in `repo`; if it is private, sign in with `/login` to read it with your own GitHub account, or an admin can `/token set` a token that can read it.",
      );
    } finally {
      await world().running.services.tokenAdmin.clear(discord.guildId);
    }
  });

  it("signed in with your own account: check the name or ask for access, never /login again", async () => {
    const handle = await world().send({ kind: "slash", name: "login", user: "member" });
    const shown = await handle.waitFor((record) => userCodeOf(record) !== null, { timeoutMs: 15_000 });
    world().github.oauth.approve(userCodeOf(shown)!, OTHER_LOGIN);
    const done = await handle.waitFor((record) => userCodeOf(record) === null, { timeoutMs: 15_000 });
    expect(transcriptOf(done).text).toContain("Signed in as");
    try {
      const text = await errorText(world(), {
        kind: "slash",
        name: "contents",
        user: "member",
        options: { repo: MISSING },
      });
      expect(text).toBe(
        "⚠️ Repository `demo/no-such-repo` was not found, or your GitHub account cannot see it. Check the owner and name in `repo`; if it is private, ask its owners for access.",
      );
      expect(text).not.toContain("/login");
    } finally {
      await world().run({ kind: "slash", name: "logout", user: "member" });
    }
  });
});

describe("contributors GitHub will not list", () => {
  it("answers GitHub's 403 'too large' with a link to the repository's contributors page on the web", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "contributors",
      options: { repo: DEMO_REPOSITORIES.hugeHistory },
    });
    expect(text).toBe(
      "⚠️ GitHub will not list the contributors of a repository as large as `demo/huge-history`. See them on [its contributors page](https://github.com/demo/huge-history/graphs/contributors) on GitHub.",
    );
    const sent = world()
      .github.requests.filter((request) => request.api === "rest")
      .at(-1)!;
    expect(sent.status).toBe(403);
    expect(sent.path).toMatch(/^\/repos\/demo\/huge-history\/contributors\?/);
  });
});

describe("a page past the end", () => {
  it("/contributors page:4 of 3 pages says there are 3 pages", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "contributors",
      options: { repo: DEMO_REPOSITORIES.crowd, page: 4 },
    });
    expect(text).toBe(
      "⚠️ Page 4 is past the end of the contributors of `demo/crowd`: there are 3 pages. Ask for `page` 1 to 3.",
    );
    const sent = world()
      .github.requests.filter((request) => request.api === "rest")
      .at(-1)!;
    expect(sent.path).toMatch(/[?&]page=4(&|$)/);
    expect(sent.status).toBe(200);
  });

  it("/contributors page:2 of a one-page list says there is 1 page", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "contributors",
      options: { repo: DEMO_REPOSITORIES.widgets, page: 2 },
    });
    expect(text).toBe(
      "⚠️ Page 2 is past the end of the contributors of `demo/widgets`: there is 1 page. Ask for `page` 1.",
    );
  });

  it("/repos Next onto a page the list no longer has says how many pages there are now", async () => {
    const record = await world().run({ kind: "slash", name: "repos", options: { owner: BULK_OWNER } });
    const first = transcriptOf(record).messages[0]! as ShownMessage;
    expect(first.message.embeds[0]?.description).toMatch(/\*\*22\*\* repositories/);
    const second = await press(world(), first, /Next/);
    expect(second.record.errors).toEqual([]);
    expect(buttonId(second.after.message, /Next/)).not.toBeNull();

    // Ten repositories turn private: the shared token's list shrinks from 3 pages to 2.
    const hidden = Array.from(
      { length: 10 },
      (_, index) => `repo-${String(index + 1).padStart(2, "0")}`,
    ).filter((name) => {
      const repository = world().github.world.repository(BULK_OWNER, name);
      return repository !== undefined && world().github.world.visibilityOf(repository) === "PUBLIC";
    });
    expect(hidden.length).toBeGreaterThanOrEqual(9);
    const stillPublic = 22 - hidden.length;
    for (const name of hidden) world().github.world.setVisibility(BULK_OWNER, name, "PRIVATE");
    try {
      const third = await press(world(), second.after, /Next/);
      const seen = transcriptOf(third.record);
      expect(seen.isError, seen.text).toBe(true);
      expect(seen.messages.every((message) => message.ephemeral)).toBe(true);
      const pages = Math.ceil(stillPublic / 10);
      expect(seen.text).toBe(
        `⚠️ Page 3 is past the end of the repositories of \`bulk\`: there are ${pages} pages now. Run \`/repos\` again to start from the first page.`,
      );
    } finally {
      for (const name of hidden) world().github.world.setVisibility(BULK_OWNER, name, "PUBLIC");
    }
  });
});
