import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_REPOSITORIES } from "../../src/sandbox/github/index.js";
import type { SandboxWorld } from "../../src/sandbox/harness.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import {
  answerOf,
  BULK_OWNER,
  BULK_REPOSITORIES,
  buttonId,
  errorText,
  expectDeliveredWithoutPings,
  expectRefusedLocally,
  isolatedFailureTests,
  linkUrl,
  press,
  upstreamFailureTests,
  useWorld,
  type ShownMessage,
} from "./helpers.js";

// Lists of what a token sees, private repositories included: the default token may read them here
// (GITHUB_TOKEN_ALLOW_PRIVATE), and this server's admins let such lists into the channel, so they
// are posted (and paged, and threaded) as usual. test/e2e/privacy.test.ts covers the defaults.
const world = useWorld({ extended: true, allowPrivate: true });
beforeAll(async () => {
  const record = await world().run({
    kind: "slash",
    name: "settings private-answers",
    options: { "in-channel": true },
    user: "admin",
  });
  expect(transcriptOf(record).isError).toBe(false);
});

/** The repository lines of a `/repos` answer: name, URL, private, and the pushed part. */
function listed(description: string): Array<{ name: string; url: string; private: boolean; pushed: string }> {
  return description.split("\n").flatMap((line) => {
    const match = /^\[(.+?)\]\((\S+?)\)( 🔒)? · (pushed <t:\d+:R>|never pushed)/u.exec(line);
    return match
      ? [
          {
            name: match[1]!.replace(/\\(.)/g, "$1"),
            url: match[2]!,
            private: match[3] !== undefined,
            pushed: match[4]!,
          },
        ]
      : [];
  });
}

/** Seconds since the epoch of the last commit of a repository's default branch. */
function tipTime(sandbox: SandboxWorld, nameWithOwner: string): number {
  const [owner = "", name = ""] = nameWithOwner.split("/");
  const gitDir = sandbox.github.world.repository(owner, name)!.gitDir;
  const out = execFileSync("git", ["--git-dir", gitDir, "log", "-1", "--format=%ct", "HEAD"], {
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
    },
  });
  return Number(out.trim());
}

function bulkNames(from: number, to: number): string[] {
  const names: string[] = [];
  const step = from <= to ? 1 : -1;
  for (let index = from; step > 0 ? index <= to : index >= to; index += step)
    names.push(`repo-${String(index).padStart(2, "0")}`);
  return names;
}

describe("/repos answers", () => {
  it("gives the total and the repositories, most recently pushed first, linked, private ones marked", async () => {
    const before = world().github.requests.length;
    const record = await world().run({ kind: "slash", name: "repos", options: { owner: "demo" } });
    expectDeliveredWithoutPings(record);
    const { embed, message } = answerOf(record);
    expect(
      world()
        .github.requests.slice(before)
        .map((request) => request.operationName),
    ).toEqual(["OwnerRepositories"]);
    expect(embed.title).toBe("Repositories of demo (organization)");
    expect(embed.description).toMatch(
      /^\*\*7\*\* repositories · most recently pushed first · page 1 \(1–7\)/,
    );
    expect(embed.footer?.text).toBe("fetched now");

    const rows = listed(embed.description!);
    expect(rows.map((row) => row.name)).toEqual([
      "gadgets",
      "widgets",
      "secret",
      "huge-history",
      "sprockets",
      "crowd",
      "empty",
    ]);
    for (const row of rows) expect(row.url).toBe(`https://github.com/demo/${row.name}`);
    expect(rows.filter((row) => row.private).map((row) => row.name)).toEqual(["secret"]);
    const widgets = rows.find((row) => row.name === "widgets")!;
    expect(widgets.pushed).toBe(`pushed <t:${tipTime(world(), DEMO_REPOSITORIES.widgets)}:R>`);
    expect(rows.find((row) => row.name === "empty")!.pushed).toBe("never pushed");
    expect(buttonId(message, /Previous/)).toBeNull();
    expect(buttonId(message, /Next/)).toBeNull();
    expect(linkUrl(message, /Open on GitHub/)).toBe("https://github.com/demo");
  });

  it("sorts by name when asked", async () => {
    const { embed } = answerOf(
      await world().run({ kind: "slash", name: "repos", options: { owner: "demo", sort: "name" } }),
    );
    expect(embed.description).toMatch(/· by name ·/);
    const names = listed(embed.description!).map((row) => row.name);
    expect(names).toEqual([...names].sort());
    expect(names).toHaveLength(7);
  });

  it("lists a user's repositories, with the private ones the token can see", async () => {
    const { embed } = answerOf(
      await world().run({ kind: "slash", name: "repos", options: { owner: "demo-user", sort: "name" } }),
    );
    expect(embed.title).toBe("Repositories of demo\\-user");
    expect(listed(embed.description!).map((row) => `${row.name}${row.private ? " 🔒" : ""}`)).toEqual([
      "dotfiles",
      "notes 🔒",
      "playground",
    ]);
  });

  it("pages with Next and Previous through more repositories than a page holds", async () => {
    const record = await world().run({ kind: "slash", name: "repos", options: { owner: BULK_OWNER } });
    expectDeliveredWithoutPings(record);
    const first = transcriptOf(record).messages[0]! as ShownMessage;
    const page = (shown: ShownMessage) => shown.message.embeds[0]!.description!;
    expect(page(first)).toMatch(
      new RegExp(
        `^\\*\\*${BULK_REPOSITORIES}\\*\\* repositories · most recently pushed first · page 1 \\(1–10\\)`,
      ),
    );
    expect(listed(page(first)).map((row) => row.name)).toEqual(bulkNames(23, 14));
    expect(buttonId(first.message, /Previous/)).toBeNull();

    const second = await press(world(), first, /Next/);
    expect(second.record.errors).toEqual([]);
    expect(page(second.after)).toMatch(/page 2 \(11–20\)/);
    expect(listed(page(second.after)).map((row) => row.name)).toEqual(bulkNames(13, 4));

    const third = await press(world(), second.after, /Next/);
    expect(page(third.after)).toMatch(/page 3 \(21–23\)/);
    const last = listed(page(third.after));
    expect(last.map((row) => row.name)).toEqual(bulkNames(3, 1));
    expect(last.find((row) => row.name === "repo-03")?.private).toBe(true);
    expect(buttonId(third.after.message, /Next/)).toBeNull();

    const back = await press(world(), third.after, /Previous/);
    expect(page(back.after)).toMatch(/page 2 \(11–20\)/);
    expect(listed(page(back.after)).map((row) => row.name)).toEqual(bulkNames(13, 4));
    const front = await press(world(), back.after, /Previous/);
    expect(listed(page(front.after)).map((row) => row.name)).toEqual(bulkNames(23, 14));
    expect(buttonId(front.after.message, /Previous/)).toBeNull();
  });

  it("pages by name too", async () => {
    const record = await world().run({
      kind: "slash",
      name: "repos",
      options: { owner: BULK_OWNER, sort: "name" },
    });
    const first = transcriptOf(record).messages[0]! as ShownMessage;
    expect(listed(first.message.embeds[0]!.description!).map((row) => row.name)).toEqual(bulkNames(1, 10));
    const next = await press(world(), first, /Next/);
    expect(listed(next.after.message.embeds[0]!.description!).map((row) => row.name)).toEqual(
      bulkNames(11, 20),
    );
  });

  it("answers in a thread named after the question, with a one-line summary in the channel", async () => {
    const record = await world().run({
      kind: "slash",
      name: "repos",
      options: { owner: "demo", thread: true },
    });
    expectDeliveredWithoutPings(record);
    const seen = transcriptOf(record);
    expect(seen.threadName).toBe("repos demo");
    expect(seen.messages[0]?.message.content).toMatch(/^🧵 .*repos.* demo .*thread/);
    expect(seen.messages.at(-1)?.place).toBe("thread");
  });

  it("says no user or organization has that login", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "repos",
      options: { owner: "nobody-by-this-name" },
    });
    expect(text).toMatch(/No GitHub user or organization called `nobody-by-this-name` was found/);
    expect(text).toContain("`owner`");
  });
});

describe("/repos refuses bad options without asking GitHub", () => {
  it("names `owner` and its form for a login with spaces", async () => {
    const text = await expectRefusedLocally(
      world(),
      { kind: "slash", name: "repos", options: { owner: "not a login" } },
      "owner",
    );
    expect(text).toMatch(/letters, digits and single hyphens/);
  });

  it("names `owner` for a login that starts with a hyphen", async () => {
    await expectRefusedLocally(
      world(),
      { kind: "slash", name: "repos", options: { owner: "-demo" } },
      "owner",
    );
  });
});

describe("/repos when GitHub fails", () => {
  upstreamFailureTests("repos", world, { kind: "slash", name: "repos", options: { owner: "other-user" } });
});

isolatedFailureTests("repos", { kind: "slash", name: "repos", options: { owner: "other-user" } }, describe);
