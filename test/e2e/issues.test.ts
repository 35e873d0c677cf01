import { describe, expect, it } from "vitest";
import { DEMO_FIXTURE_FILES, DEMO_ISSUES, DEMO_REFS } from "../../src/sandbox/github/demoConstants.js";
import { DEMO_LOGIN } from "../../src/sandbox/github/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import {
  answerOf,
  commitOf,
  errorText,
  expectDeliveredWithoutPings,
  expectRefusedLocally,
  markupProblems,
  messagesOf,
  useWorld,
} from "./helpers.js";

/**
 * `/issue`, `/commit`, the `Preview links` menu and `/settings repo` end to end (SPEC section 1),
 * against the demo world's issues and pull requests (src/sandbox/github/demoIssues.ts).
 */
const world = useWorld();
const WIDGETS = "demo/widgets";
const I = DEMO_ISSUES;

const issue = (options: Record<string, string | number | boolean>) =>
  world().run({ kind: "slash", name: "issue", options });

function fieldsOf(embed: { fields?: Array<{ name: string; value: string }> }): Record<string, string> {
  return Object.fromEntries((embed.fields ?? []).map((field) => [field.name, field.value]));
}

/** Right-clicks `Preview links` on a message a member posts in #general. */
async function previewLinks(content: string) {
  const { discord } = world();
  const posted = discord.postAsUser({ content });
  return world().run({ kind: "message", name: "Preview links", message: posted.id }, { settleMs: 150 });
}

describe("/issue", () => {
  it("shows an open pull request's checks, review, branches, changes and the issue it closes, in the channel", async () => {
    const record = await issue({ repo: WIDGETS, number: I.openPull });
    const { embed, last } = answerOf(record);
    expect(last.ephemeral).toBe(false);
    expect(embed.title).toBe("#5 Fix tick drift");
    expect(embed.url).toBe("https://github.com/demo/widgets/pull/5");
    expect(embed.description).toContain("🟢 Open pull request");
    expect(fieldsOf(embed)).toMatchObject({
      Branches: "`main` ← `fix/tick-drift`",
      Review: "✋ changes requested",
      Checks: "❌ 1 failing · ⏳ 2 pending · ✅ 1 passing",
      Mergeable: "yes, no conflicts",
      Closes: "[#1](https://github.com/demo/widgets/issues/1) Ticks drift after an hour (open)",
    });
    expectDeliveredWithoutPings(record);
  });

  it("tells each state of an issue and of a pull request", async () => {
    const cases: Array<[number, string]> = [
      [I.open, "🟢 Open issue"],
      [I.completed, "🟣 Closed as completed issue"],
      [I.notPlanned, "⚪ Closed as not planned issue"],
      [I.reopened, "🟢 Open issue"],
      [I.mergedPull, "🟣 Merged pull request"],
      [I.draftPull, "⚪ Draft pull request"],
      [I.closedPull, "🔴 Closed without merging pull request"],
    ];
    for (const [number, words] of cases) {
      const { embed } = answerOf(await issue({ repo: WIDGETS, number }));
      expect(embed.description, `#${number}`).toContain(words);
    }
  });

  it("takes the issue's URL as repo, and refuses no number at all before asking GitHub", async () => {
    const { embed } = answerOf(await issue({ repo: `https://github.com/${WIDGETS}/issues/${I.completed}` }));
    expect(embed.title).toBe("#2 Gears slip under load");
    expect(fieldsOf(embed)["Closed by"]).toContain("#3");
    await expectRefusedLocally(
      world(),
      { kind: "slash", name: "issue", options: { repo: WIDGETS } },
      "number",
    );
  });

  it("keeps a hostile title, body and labels as text, and says which number does not exist", async () => {
    const record = await issue({ repo: WIDGETS, number: I.hostile });
    expectDeliveredWithoutPings(record);
    for (const message of transcriptOf(record).messages) expect(markupProblems(message.message)).toEqual([]);
    expect(answerOf(record).embed.description).toContain("by ghost");
    expect(
      await errorText(world(), { kind: "slash", name: "issue", options: { repo: WIDGETS, number: 404 } }),
    ).toContain("has no issue or pull request #404");
  });
});

describe("/issue in a thread", () => {
  it("starts a thread named after the question when asked", async () => {
    const record = await issue({ repo: WIDGETS, number: I.openPull, thread: true });
    const seen = transcriptOf(record);
    expect(seen.threadName).toBe("issue demo/widgets#5");
    expect(record.threadMessages.at(-1)?.embeds[0]?.title).toBe("#5 Fix tick drift");
  });
});

describe("/commit", () => {
  it("shows a commit from its URL: co-authors, +/-, checks, its pull request, 20 of 301 files", async () => {
    const sha = commitOf(world(), WIDGETS, DEMO_REFS.fixturesBranch);
    const record = await world().run({
      kind: "slash",
      name: "commit",
      options: { repo: `https://github.com/${WIDGETS}/commit/${sha}` },
    });
    const { embed } = answerOf(record);
    expect(embed.title).toBe("Add a fixture for every gear case");
    expect(fieldsOf(embed)).toMatchObject({
      Author: "**Carol Danvers** (carol)",
      "Co-authors": "**Alice Liddell** (alice), **Mallory Unmapped**",
      Changes: `+${DEMO_FIXTURE_FILES * 2} −0 in ${DEMO_FIXTURE_FILES} files`,
      Checks: "✅ 3 passing",
    });
    expect(embed.description).toContain("fixtures/case-020.txt");
    expect(embed.description).toContain("… and 281 more files");
    expect(embed.footer?.text).toContain(`pinned to ${sha.slice(0, 7)}`);
    expectDeliveredWithoutPings(record);
  });
});

describe("Preview links", () => {
  it("answers a pull request, a commit and a file of one message in one reply, and leaves the other host", async () => {
    const sha = commitOf(world(), WIDGETS, DEMO_REFS.fixBranch);
    const record = await previewLinks(
      `look: https://github.com/${WIDGETS}/pull/${I.mergedPull} and https://github.com/${WIDGETS}/commit/${sha}, ` +
        `https://github.com/${WIDGETS}/blob/main/README.md#L1-L3 and https://gitlab.com/a/b`,
    );
    const seen = transcriptOf(record);
    expect(seen.isError, seen.text).toBe(false);
    const embeds = seen.messages.at(-1)!.message.embeds;
    expect(embeds.map((embed) => embed.title)).toEqual([
      "#3 Gears: a module and a ratio helper",
      "Fix tick drift",
      expect.stringContaining("README.md"),
    ]);
    expectDeliveredWithoutPings(record);
  });

  it("is what Show code points to on a message with no file link but a pull request's", async () => {
    const posted = world().discord.postAsUser({ content: `see https://github.com/${WIDGETS}/pull/5` });
    const seen = transcriptOf(
      await world().run({ kind: "message", name: "Show code", message: posted.id }, { settleMs: 100 }),
    );
    expect(seen.isError).toBe(true);
    expect(seen.text).toContain("**Preview links** answers those");
  });

  it("reads a bare #5 only once the server has a default repository, and owner/name#N always", async () => {
    const without = transcriptOf(await previewLinks("is #5 fixed?"));
    expect(without.isError).toBe(true);
    expect(without.text).toContain("/settings repo");

    const set = transcriptOf(
      await world().run({ kind: "slash", name: "settings repo", options: { repo: WIDGETS }, user: "admin" }),
    );
    expect(set.messages.map((message) => message.ephemeral)).toEqual([true]);
    try {
      const { embed } = answerOf(await previewLinks("is #5 fixed? see also demo/widgets#1"));
      expect(embed.title).toBe("#5 Fix tick drift");
      const both = transcriptOf(await previewLinks("is #5 fixed? see also demo/widgets#1"));
      expect(both.messages.at(-1)!.message.embeds.map((e) => e.title)).toEqual([
        "#5 Fix tick drift",
        "#1 Ticks drift after an hour",
      ]);
      const shown = transcriptOf(await world().run({ kind: "slash", name: "settings show", user: "admin" }));
      expect(shown.text).toContain("**Default repository**: `demo/widgets`");
    } finally {
      await world().run({ kind: "slash", name: "settings repo", options: {}, user: "admin" });
    }
    expect(transcriptOf(await previewLinks("still #5?")).isError).toBe(true);
  });
});

describe("private repositories", () => {
  it("are refused through the default token, and answered to the asker alone through the server's", async () => {
    const refused = await errorText(world(), {
      kind: "slash",
      name: "issue",
      options: { repo: "demo/secret", number: 1 },
    });
    expect(refused).toMatch(/private/);
    const token = "ghp_issuesTestServerToken00000000000000000";
    world().github.addToken(token, DEMO_LOGIN);
    const { services } = world().running;
    const { discord } = world();
    await services.tokenAdmin.verifyAndStore(discord.guildId, token, discord.users.admin.id);
    try {
      const record = await issue({ repo: "demo/secret", number: 1 });
      const seen = transcriptOf(record);
      expect(seen.isError, seen.text).toBe(false);
      expect(seen.messages.every((message) => message.ephemeral)).toBe(true);
      expect(seen.text).toContain("Pick the launch day");
      expect(seen.text).toContain("Only you can see this");
    } finally {
      await services.tokenAdmin.clear(discord.guildId);
    }
  });
  it("are answered to the asker alone through their own sign-in, and Preview links keeps them apart", async () => {
    await world().signIn({ user: "member", login: DEMO_LOGIN });
    try {
      const posted = world().discord.postAsUser({
        content: "public demo/widgets#1 and private demo/secret#1",
      });
      const record = await world().run(
        { kind: "message", name: "Preview links", message: posted.id, user: "member" },
        { settleMs: 300 },
      );
      expect(record.errors).toEqual([]);
      const views = messagesOf(record);
      const shown = views.filter((view) => !view.ephemeral);
      const hidden = views.filter((view) => view.ephemeral);
      expect(shown.flatMap((view) => view.embeds.map((embed) => embed.title))).toEqual([
        "#1 Ticks drift after an hour",
      ]);
      expect(JSON.stringify(shown)).not.toContain("launch");
      expect(hidden.flatMap((view) => view.embeds.map((embed) => embed.title))).toEqual([
        "#1 Pick the launch day",
      ]);
    } finally {
      await world().run({ kind: "slash", name: "logout", user: "member" }, { settleMs: 50 });
    }
  });
});
