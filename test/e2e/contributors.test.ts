import { describe, expect, it } from "vitest";
import { DEMO_REPOSITORIES } from "../../src/sandbox/github/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import {
  answerOf,
  buttonId,
  errorText,
  expectDeliveredWithoutPings,
  expectRefusedLocally,
  isolatedFailureTests,
  markupProblems,
  press,
  upstreamFailureTests,
  useWorld,
  type ShownMessage,
} from "./helpers.js";

const world = useWorld();

/** The ranked lines of a `/contributors` answer. */
function ranked(description: string): Array<{ rank: number; who: string; contributions: number }> {
  return description.split("\n").flatMap((line) => {
    const match = /^\*\*(\d+)\.\*\* (.+) · ([\d,]+) contributions?$/.exec(line);
    return match
      ? [{ rank: Number(match[1]), who: match[2]!, contributions: Number(match[3]!.replace(/,/g, "")) }]
      : [];
  });
}

function descriptionOf(shown: ShownMessage): string {
  return shown.message.embeds[0]!.description!;
}

describe("/contributors answers", () => {
  it("shows page 1 of 3 as GitHub pages it: 30 contributors, logins linked, contributions", async () => {
    const before = world().github.requests.length;
    const record = await world().run({
      kind: "slash",
      name: "contributors",
      options: { repo: DEMO_REPOSITORIES.crowd },
    });
    expectDeliveredWithoutPings(record);
    const { embed, message } = answerOf(record);
    const sent = world().github.requests.slice(before);
    // REST says nothing of visibility: one GraphQL RepositoryAccess read goes alongside.
    expect(
      sent
        .map((request) =>
          request.api === "graphql"
            ? `POST /graphql ${request.operationName}`
            : `${request.method} ${request.path.split("?")[0]}`,
        )
        .sort(),
    ).toEqual(["GET /repos/demo/crowd/contributors", "POST /graphql RepositoryAccess"]);
    expect(sent.find((request) => request.api === "rest")!.path).toMatch(/[?&]page=1(&|$)/);
    expect(embed.title).toBe("Contributors of demo/crowd");
    expect(embed.footer?.text).toBe("fetched now");
    expect(embed.description).toMatch(/^Page 1 of 3\n/);
    const rows = ranked(embed.description!);
    expect(rows.map((row) => row.rank)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(rows[0]).toEqual({ rank: 1, who: "[crowd\\-01](https://github.com/crowd-01)", contributions: 75 });
    expect(rows.map((row) => row.contributions)).toEqual(
      [...rows.map((row) => row.contributions)].sort((a, b) => b - a),
    );
    expect(buttonId(message, /Previous/)).toBeNull();
    expect(buttonId(message, /Next/)).not.toBeNull();
  });

  it("pages with Next and Previous, and marks anonymous contributors on the last page", async () => {
    const record = await world().run({
      kind: "slash",
      name: "contributors",
      options: { repo: DEMO_REPOSITORIES.crowd },
    });
    const first = transcriptOf(record).messages[0]! as ShownMessage;

    const second = await press(world(), first, /Next/);
    expect(second.record.errors).toEqual([]);
    expect(descriptionOf(second.after)).toMatch(/^Page 2 of 3\n/);
    expect(ranked(descriptionOf(second.after)).map((row) => row.rank)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 31),
    );

    const third = await press(world(), second.after, /Next/);
    expect(descriptionOf(third.after)).toMatch(/^Page 3 of 3\n/);
    const last = ranked(descriptionOf(third.after));
    expect(last[0]?.rank).toBe(61);
    expect(last.length).toBe(25);
    const anonymous = last.filter((row) => /anonymous/.test(row.who));
    expect(anonymous).toHaveLength(10);
    for (const row of anonymous) expect(row.who).not.toMatch(/@|\]\(/);
    expect(buttonId(third.after.message, /Next/)).toBeNull();

    const back = await press(world(), third.after, /Previous/);
    expect(descriptionOf(back.after)).toMatch(/^Page 2 of 3\n/);
    expect(ranked(descriptionOf(back.after))[0]?.rank).toBe(31);
  });

  it("opens the page asked for", async () => {
    const { embed } = answerOf(
      await world().run({
        kind: "slash",
        name: "contributors",
        options: { repo: DEMO_REPOSITORIES.crowd, page: 3 },
      }),
    );
    expect(embed.description).toMatch(/^Page 3 of 3\n/);
    expect(ranked(embed.description!)[0]?.rank).toBe(61);
  });

  it("takes the repository from a blob URL (with #L10-L20) or the repository URL", async () => {
    for (const repo of [
      "https://github.com/demo/crowd/blob/main/README.md#L10-L20",
      "https://github.com/demo/crowd",
    ]) {
      const { embed } = answerOf(
        await world().run({ kind: "slash", name: "contributors", options: { repo } }),
      );
      expect(embed.title).toBe("Contributors of demo/crowd");
      expect(embed.description).toMatch(/^Page 1 of 3\n/);
    }
  });

  it("marks bots and contributors without an account, and escapes logins", async () => {
    const record = await world().run({
      kind: "slash",
      name: "contributors",
      options: { repo: "https://github.com/demo/widgets/tree/main/src" },
    });
    expectDeliveredWithoutPings(record);
    const { embed, message } = answerOf(record);
    const rows = ranked(embed.description!);
    expect(rows.find((row) => row.who.includes("dependabot"))?.who).toMatch(
      /^\[dependabot\\\[bot\\\]\]\(\S+\) 🤖$/,
    );
    expect(rows.find((row) => row.who.includes("Mallory"))?.who).toBe(
      "Mallory Unmapped (anonymous, no GitHub account)",
    );
    expect(rows.find((row) => row.who.includes("demo"))?.who).toBe(
      "[demo\\-user](https://github.com/demo-user)",
    );
    expect(embed.description).not.toContain("@nowhere.example");
    expect(markupProblems(message)).toEqual([]);
  });

  it("says the repository has no commits yet when GitHub answers 204", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "contributors",
      options: { repo: DEMO_REPOSITORIES.empty },
    });
    expect(text).toMatch(/`demo\/empty` has no commits yet/);
    expect(world().github.requests.at(-1)?.status).toBe(204);
  });

  it("says GitHub will not list contributors of a repository this large when it answers 403", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "contributors",
      options: { repo: DEMO_REPOSITORIES.hugeHistory },
    });
    expect(text).toMatch(
      /GitHub will not list the contributors of a repository as large as `demo\/huge-history`/,
    );
    expect(world().github.requests.at(-1)?.status).toBe(403);
  });

  it("names the repository that was not found", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "contributors",
      options: { repo: "demo/no-such-repo" },
    });
    expect(text).toMatch(/Repository `demo\/no-such-repo` was not found/);
  });

  it("names the repository when its owner does not exist", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "contributors",
      options: { repo: "no-such-owner-42/x" },
    });
    expect(text).toMatch(/`no-such-owner-42\/x` was not found/);
  });

  it("answers in a thread named after the question, with a one-line summary in the channel", async () => {
    const record = await world().run({
      kind: "slash",
      name: "contributors",
      options: { repo: DEMO_REPOSITORIES.gadgets, thread: true },
    });
    expectDeliveredWithoutPings(record);
    const seen = transcriptOf(record);
    expect(seen.threadName).toBe("contributors demo/gadgets");
    expect(seen.messages[0]?.message.content).toMatch(/^🧵 .*contributors.* demo\/gadgets .*thread/);
    expect(seen.messages.at(-1)?.place).toBe("thread");
    expect(seen.messages.at(-1)?.message.embeds[0]?.title).toBe("Contributors of demo/gadgets");
  });
});

describe("/contributors refuses bad options without asking GitHub", () => {
  it("names `repo` and its form", async () => {
    const text = await expectRefusedLocally(
      world(),
      { kind: "slash", name: "contributors", options: { repo: "demo/widgets/extra" } },
      "repo",
    );
    expect(text).toContain("owner/name");
  });

  it("is never sent a page of 0: the command's definition makes Discord refuse it", async () => {
    const before = world().github.requests.length;
    await expect(
      world().send({
        kind: "slash",
        name: "contributors",
        options: { repo: DEMO_REPOSITORIES.crowd, page: 0 },
      }),
    ).rejects.toThrow(/page/);
    expect(world().github.requests.length).toBe(before);
  });
});

describe("/contributors when GitHub fails", () => {
  upstreamFailureTests("contributors", world, {
    kind: "slash",
    name: "contributors",
    options: { repo: DEMO_REPOSITORIES.sprockets },
  });
});

isolatedFailureTests(
  "contributors",
  { kind: "slash", name: "contributors", options: { repo: DEMO_REPOSITORIES.sprockets } },
  describe,
);
