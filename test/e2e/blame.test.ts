import { execFileSync } from "node:child_process";
import { InteractionResponseType } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { DEMO_PATHS, DEMO_REFS, DEMO_REPOSITORIES } from "../../src/sandbox/github/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import {
  answerOf,
  buttonId,
  commitOf,
  errorText,
  expectDeliveredWithoutPings,
  expectRefusedLocally,
  isolatedFailureTests,
  linkUrl,
  markupProblems,
  press,
  upstreamFailureTests,
  useWorld,
} from "./helpers.js";

const world = useWorld();
const WIDGETS = DEMO_REPOSITORIES.widgets;

/** The last commit of the default branch that changed `path`, as git says. */
function lastCommitTouching(path: string): string {
  const repository = world().github.world.repository("demo", "widgets")!;
  return execFileSync(
    "git",
    ["--git-dir", repository.gitDir, "log", "-1", "--format=%H", DEMO_REFS.defaultBranch, "--", path],
    { encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1" } },
  ).trim();
}

/** The numbered lines of the code block of a blame answer: line number -> the text after the gutter. */
function codeLines(description: string): Map<number, { gutter: string; text: string }> {
  const block = description.split("```")[1] ?? "";
  const lines = new Map<number, { gutter: string; text: string }>();
  for (const line of block.split("\n").slice(1)) {
    const match = /^\s*(\d+) (.*?) │ (.*)$/.exec(line);
    if (match) lines.set(Number(match[1]), { gutter: match[2]!, text: match[3]! });
  }
  return lines;
}

describe("/blame answers", () => {
  it("blames the first 20 lines at the default branch, pinned to its commit, in ONE GraphQL request", async () => {
    const before = world().github.requests.length;
    const record = await world().run({
      kind: "slash",
      name: "blame",
      options: { repo: WIDGETS, path: DEMO_PATHS.engine },
    });
    const { embed, message } = answerOf(record);
    expectDeliveredWithoutPings(record);

    const sent = world().github.requests.slice(before);
    expect(sent.map((request) => request.operationName)).toEqual(["Blame"]);

    const main = commitOf(world(), WIDGETS, DEMO_REFS.defaultBranch);
    expect(embed.title).toBe("blame demo/widgets src/engine.ts");
    expect(embed.footer?.text).toBe(
      `fetched now · ${DEMO_REFS.defaultBranch} · pinned to ${main.slice(0, 7)}`,
    );
    expect(embed.url).toBe(`https://github.com/demo/widgets/blob/${main}/src/engine.ts#L1-L20`);
    expect(embed.description).toMatch(/^Lines 1–20 of 2,\d{3}\./);
    // The language hint of a TypeScript file, and a gutter per line: heat mark, commit, author.
    expect(embed.description).toContain("```ts\n");
    const lines = codeLines(embed.description!);
    expect([...lines.keys()]).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    for (const { gutter } of lines.values()) expect(gutter).toMatch(/^[🟥🟧🟨🟩🟦] [0-9a-f]{7} \S/u);
    expect(embed.description).toMatch(/Heat: 🟥 newest .* 🟦 oldest/);

    // Per range: span, heat, short id; the headline linked to the commit; author; relative date.
    expect(embed.fields?.length).toBeGreaterThan(0);
    for (const field of embed.fields!) {
      expect(field.name).toMatch(/^L\d+(-L\d+)?(, L\d+(-L\d+)?)*(, \+\d+ more)? [🟥🟧🟨🟩🟦] [0-9a-f]{7}$/u);
      expect(field.value).toMatch(
        /^\[.+\]\(https:\/\/github\.com\/demo\/widgets\/commit\/[0-9a-f]{40}\)\nby .+ · <t:\d+:R>$/,
      );
    }
    expect(markupProblems(message)).toEqual([]);
    expect(buttonId(message, /Previous/)).toBeNull();
    expect(buttonId(message, /Next/)).not.toBeNull();
    expect(linkUrl(message, /Open on GitHub/)).toBe(embed.url);
  });

  it("answers the same question again from the cache, says so in the footer, and asks GitHub nothing", async () => {
    const request = {
      kind: "slash",
      name: "blame",
      options: { repo: WIDGETS, path: DEMO_PATHS.readme },
    } as const;
    await world().run(request);
    const before = world().github.requests.length;
    const { embed } = answerOf(await world().run(request));
    const main = commitOf(world(), WIDGETS, DEMO_REFS.defaultBranch);
    expect(embed.footer?.text).toBe(
      `cached just now · ${DEMO_REFS.defaultBranch} · pinned to ${main.slice(0, 7)}`,
    );
    expect(world().github.requests.length).toBe(before);
  });

  it("gives the language hint of the file and its author per line (README.md)", async () => {
    const { embed } = answerOf(
      await world().run({
        kind: "slash",
        name: "blame",
        options: { repo: WIDGETS, path: DEMO_PATHS.readme },
      }),
    );
    expect(embed.description).toContain("```md\n");
    expect(embed.description).toMatch(/^Lines 1–\d+ of \d+\./);
  });

  it("shows the lines a blob URL names (#L10-L20) at the URL's ref", async () => {
    const record = await world().run({
      kind: "slash",
      name: "blame",
      options: {
        repo: `https://github.com/demo/widgets/blob/${DEMO_REFS.develop}/src/engine.ts#L10-L20`,
        path: DEMO_PATHS.engine,
      },
    });
    const { embed } = answerOf(record);
    const develop = commitOf(world(), WIDGETS, DEMO_REFS.develop);
    expect(develop).not.toBe(commitOf(world(), WIDGETS, DEMO_REFS.defaultBranch));
    expect(embed.description).toMatch(/^Lines 10–20 of /);
    expect([...codeLines(embed.description!).keys()]).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(embed.footer?.text).toContain(`pinned to ${develop.slice(0, 7)}`);
  });

  it("takes a tree URL's ref, and the repository URL as the repository at its default branch", async () => {
    const tagged = answerOf(
      await world().run({
        kind: "slash",
        name: "blame",
        options: {
          repo: `https://github.com/demo/widgets/tree/${DEMO_REFS.lightweightTag}/src`,
          path: DEMO_PATHS.readme,
        },
      }),
    );
    expect(tagged.embed.footer?.text).toContain(
      `pinned to ${commitOf(world(), WIDGETS, DEMO_REFS.lightweightTag).slice(0, 7)}`,
    );
    const plain = answerOf(
      await world().run({
        kind: "slash",
        name: "blame",
        options: { repo: "https://github.com/demo/widgets", path: DEMO_PATHS.readme, lines: "2-3" },
      }),
    );
    expect(plain.embed.description).toMatch(/^Lines 2–3 of /);
    expect(plain.embed.footer?.text).toContain(
      `pinned to ${commitOf(world(), WIDGETS, DEMO_REFS.defaultBranch).slice(0, 7)}`,
    );
  });

  it("shows at most 50 lines and attaches the whole annotated selection as blame-<file>-L<a>-<b>.txt", async () => {
    const record = await world().run({
      kind: "slash",
      name: "blame",
      options: { repo: WIDGETS, path: DEMO_PATHS.engine, lines: "101-220" },
    });
    expectDeliveredWithoutPings(record);
    const { embed, message } = answerOf(record);
    const shown = codeLines(embed.description!);
    expect(shown.size).toBeGreaterThan(0);
    expect(shown.size).toBeLessThanOrEqual(50);
    expect(Math.min(...shown.keys())).toBe(101);
    expect(embed.description).toContain(`… ${120 - shown.size} more lines in the attachment.`);
    expect(markupProblems(message)).toEqual([]);

    expect(message.files.map((file) => file.name)).toEqual(["blame-engine.ts-L101-220.txt"]);
    const text = message.files[0]!.data.toString("utf8");
    const annotated = text.split("\n").filter((line) => /^\s*\d+ +\d+ [0-9a-f]{7} /.test(line));
    expect(annotated).toHaveLength(120);
    expect(annotated[0]).toMatch(/^101 /);
    expect(annotated.at(-1)).toMatch(/^220 /);
  });

  it("pages with Next and Previous lines through the file at the same pinned commit", async () => {
    const main = commitOf(world(), WIDGETS, DEMO_REFS.defaultBranch);
    const record = await world().run({
      kind: "slash",
      name: "blame",
      options: { repo: WIDGETS, path: DEMO_PATHS.engine, lines: "30-39" },
    });
    const first = transcriptOf(record).messages[0]!;
    const before = world().github.requests.length;

    const next = await press(world(), first, /Next lines/);
    expect(next.record.errors).toEqual([]);
    const nextEmbed = next.after.message.embeds[0]!;
    expect(nextEmbed.description).toMatch(/^Lines 40–49 of /);
    expect([...codeLines(nextEmbed.description!).keys()]).toEqual([40, 41, 42, 43, 44, 45, 46, 47, 48, 49]);
    expect(nextEmbed.footer?.text).toContain(`pinned to ${main.slice(0, 7)}`);
    expect(nextEmbed.url).toContain(`/blob/${main}/src/engine.ts#L40-L49`);

    const back = await press(world(), next.after, /Previous lines/);
    const backEmbed = back.after.message.embeds[0]!;
    expect(backEmbed.description).toMatch(/^Lines 30–39 of /);
    expect(backEmbed.footer?.text).toContain(`pinned to ${main.slice(0, 7)}`);

    // Next again: a page this process read and whose buttons it stored (issue 23: held in process,
    // it replaces the message at once), the same page as the first time, asking GitHub nothing.
    const asked = world().github.requests.length;
    const again = await press(world(), back.after, /Next lines/);
    expect(again.record.errors).toEqual([]);
    expect(again.record.deferred).toBe(false);
    expect(again.record.callbacks.map((callback) => callback.type)).toEqual([
      InteractionResponseType.UpdateMessage,
    ]);
    expect(again.after.message.embeds[0]!.description).toBe(nextEmbed.description);
    expect(again.after.message.embeds[0]!.url).toBe(nextEmbed.url);
    expect(world().github.requests.length).toBe(asked);
    // Whatever the buttons asked GitHub, they asked for that commit, never for the branch again.
    for (const request of world().github.requests.slice(before)) {
      expect(request.variables?.expression).toBe(main);
    }
  });

  it("says where the file stops when the lines asked for go past its end", async () => {
    const { embed, message } = answerOf(
      await world().run({
        kind: "slash",
        name: "blame",
        options: { repo: WIDGETS, path: DEMO_PATHS.readme, lines: "5-400" },
      }),
    );
    const total = Number(/^Lines 5–(\d+) of (\d+)\./.exec(embed.description!)?.[2]);
    expect(embed.description).toMatch(new RegExp(`^Lines 5–${total} of ${total}\\.`));
    expect(embed.description).toContain(`The file has ${total} lines, so the selection stops there.`);
    expect(buttonId(message, /Next/)).toBeNull();
    expect(buttonId(message, /Previous/)).not.toBeNull();
  });

  it("says 'Line 5 of N.' for one line, and that lines wholly past the end moved to the last ones", async () => {
    const one = answerOf(
      await world().run({
        kind: "slash",
        name: "blame",
        options: { repo: WIDGETS, path: DEMO_PATHS.engine, lines: "5" },
      }),
    );
    expect(one.embed.description).toMatch(/^Line 5 of 2,\d{3}\.\n/);

    const { embed, message } = answerOf(
      await world().run({
        kind: "slash",
        name: "blame",
        options: { repo: WIDGETS, path: DEMO_PATHS.engine, lines: "7000-7010" },
      }),
    );
    const match =
      /^Lines 7,000–7,010 are past the end of the file \((2,\d{3}) lines\); showing the last lines, (2,\d{3})–(2,\d{3})\.\n/.exec(
        embed.description!,
      );
    expect(match, embed.description).not.toBeNull();
    const total = Number(match![1]!.replace(",", ""));
    expect(Number(match![3]!.replace(",", ""))).toBe(total);
    expect(Number(match![2]!.replace(",", ""))).toBe(total - 10);
    expect(embed.description).not.toContain("stops there");
    expect([...codeLines(embed.description!).keys()]).toEqual(
      Array.from({ length: 11 }, (_, index) => total - 10 + index),
    );
    expect(buttonId(message, /Next/)).toBeNull();
    expect(buttonId(message, /Previous/)).not.toBeNull();
  });

  it("lists under the code only the ranges of the lines shown, clipped to them", async () => {
    for (const [first, last] of [
      [3, 7],
      [2000, 2029],
    ] as const) {
      const { embed } = answerOf(
        await world().run({
          kind: "slash",
          name: "blame",
          options: { repo: WIDGETS, path: DEMO_PATHS.engine, lines: `${first}-${last}` },
        }),
      );
      const covered: number[] = [];
      for (const field of embed.fields ?? []) {
        for (const [, a, b] of field.name.matchAll(/L(\d+)(?:-L(\d+))?/g)) {
          const from = Number(a);
          const to = Number(b ?? a);
          expect(from, field.name).toBeGreaterThanOrEqual(first);
          expect(to, field.name).toBeLessThanOrEqual(last);
          for (let line = from; line <= to; line += 1) covered.push(line);
        }
      }
      // Every span listed is of lines shown, the first line shown among them (a commit with more
      // than four spans lists "+N more", so the union need not be every line).
      const shown = [...codeLines(embed.description!).keys()];
      expect(shown[0]).toBe(first);
      expect(covered).toContain(first);
      for (const line of covered) expect(shown).toContain(line);
      expect(new Set(covered).size).toBe(covered.length);
    }
  });

  it("says a binary file is binary and shows its last change instead of ranges, in ONE request", async () => {
    const before = world().github.requests.length;
    const record = await world().run({
      kind: "slash",
      name: "blame",
      options: { repo: WIDGETS, path: DEMO_PATHS.logo },
    });
    expectDeliveredWithoutPings(record);
    const { embed, message } = answerOf(record);
    expect(
      world()
        .github.requests.slice(before)
        .map((request) => request.operationName),
    ).toEqual(["Blame"]);
    expect(embed.description).toMatch(
      /^This is a binary file \([\d.]+ KiB\): it has no lines to blame\. Its last change:$/,
    );
    // The demo logo was added, then updated: git's blame splits it into ranges of both commits,
    // and the answer names the later one, as `git log -1 -- assets/logo.png` does.
    const last = lastCommitTouching(DEMO_PATHS.logo);
    expect(embed.fields).toHaveLength(1);
    expect(embed.fields![0]!.name).toBe(`Last changed in ${last.slice(0, 7)}`);
    expect(embed.fields![0]!.value).toMatch(
      new RegExp(
        `^\\[Update the logo\\]\\(https://github\\.com/demo/widgets/commit/${last}\\)\\nby \\S+ · <t:\\d+:R>$`,
      ),
    );
    expect(embed.description).not.toContain("Heat:");
    expect(markupProblems(message)).toEqual([]);
    expect(buttonId(message, /Next/)).toBeNull();
    expect(buttonId(message, /Previous/)).toBeNull();
    const main = commitOf(world(), WIDGETS, DEMO_REFS.defaultBranch);
    expect(linkUrl(message, /History on GitHub/)).toBe(
      `https://github.com/demo/widgets/commits/${main}/${DEMO_PATHS.logo}`,
    );
  });

  it("explains an empty file", async () => {
    const { embed } = answerOf(
      await world().run({
        kind: "slash",
        name: "blame",
        options: { repo: WIDGETS, path: DEMO_PATHS.emptyFile },
      }),
    );
    expect(embed.description).toMatch(/file is empty/);
  });

  it("explains that GitHub cut a file over 512,000 bytes", async () => {
    const record = await world().run({
      kind: "slash",
      name: "blame",
      options: { repo: WIDGETS, path: DEMO_PATHS.large },
    });
    expectDeliveredWithoutPings(record);
    const { embed } = answerOf(record);
    expect(embed.description).toMatch(/GitHub cut this file's text at 512,000 bytes/);
    expect([...codeLines(embed.description!).keys()]).toHaveLength(20);
  });

  it("answers in a thread named after the question, with a one-line summary in the channel", async () => {
    const record = await world().run({
      kind: "slash",
      name: "blame",
      options: { repo: WIDGETS, path: DEMO_PATHS.readme, lines: "1-4", thread: true },
    });
    expectDeliveredWithoutPings(record);
    const seen = transcriptOf(record);
    expect(seen.threadName).toBe("blame demo/widgets README.md");
    const [summary, answer] = seen.messages;
    expect(summary?.place).toBe("channel");
    expect(summary?.message.embeds).toEqual([]);
    expect(summary?.message.content).toMatch(/^🧵 .*blame.* demo\/widgets README\.md .*thread/);
    expect(summary?.message.content).not.toContain("\n");
    expect(answer?.place).toBe("thread");
    expect(answer?.message.embeds[0]?.title).toBe("blame demo/widgets README.md");

    // The buttons work in the thread too: the answer there turns to the next lines.
    const next = await press(world(), answer!, /Next lines/);
    expect(next.record.errors).toEqual([]);
    expect(next.after.message.embeds[0]?.description).toMatch(/^Lines 5–/);
  });
});

describe("/blame takes the path from a file URL (SPEC section 1)", () => {
  it("blames the file and lines a blob URL names when `path` is left out", async () => {
    const record = await world().run({
      kind: "slash",
      name: "blame",
      options: { repo: "https://github.com/demo/widgets/blob/main/README.md#L1-L5" },
    });
    expectDeliveredWithoutPings(record);
    const { embed } = answerOf(record);
    expect(embed.title).toBe("blame demo/widgets README.md");
    expect(embed.description).toMatch(/^Lines 1–5 of \d+\.\n/);
    expect([...codeLines(embed.description!).keys()]).toEqual([1, 2, 3, 4, 5]);
  });

  it("takes a branch with a slash and its path from the URL alone", async () => {
    const record = await world().run({
      kind: "slash",
      name: "blame",
      options: {
        repo: `https://github.com/demo/widgets/blob/${DEMO_REFS.featureBranch}/${DEMO_PATHS.merged}`,
      },
    });
    const { embed } = answerOf(record);
    expect(embed.title).toBe(`blame demo/widgets ${DEMO_PATHS.merged}`);
    expect(embed.footer?.text).toContain(
      `pinned to ${commitOf(world(), WIDGETS, DEMO_REFS.featureBranch).slice(0, 7)}`,
    );
    expect(embed.description).not.toMatch(/option|URL/);
  });

  it("uses `path` over the URL's path when they differ, and says so in one line", async () => {
    const { embed } = answerOf(
      await world().run({
        kind: "slash",
        name: "blame",
        options: {
          repo: "https://github.com/demo/widgets/blob/main/README.md#L1-L5",
          path: DEMO_PATHS.engine,
        },
      }),
    );
    expect(embed.title).toBe(`blame demo/widgets ${DEMO_PATHS.engine}`);
    const [first, second] = embed.description!.split("\n");
    expect(first).toBe(
      `Blaming ${DEMO_PATHS.engine} from the \`path\` option, not README.md from the URL in \`repo\`.`,
    );
    expect(second).toMatch(/^Lines 1–5 of 2,\d{3}\.$/);
  });

  it("names the URL's path as read at the branch that exists, for a branch with a slash", async () => {
    const { embed } = answerOf(
      await world().run({
        kind: "slash",
        name: "blame",
        options: {
          repo: `https://github.com/demo/widgets/blob/${DEMO_REFS.featureBranch}/${DEMO_PATHS.merged}`,
          path: DEMO_PATHS.readme,
        },
      }),
    );
    expect(embed.title).toBe(`blame demo/widgets ${DEMO_PATHS.readme}`);
    expect(embed.description!.split("\n")[0]).toBe(
      `Blaming ${DEMO_PATHS.readme} from the \`path\` option, not ${DEMO_PATHS.merged} from the URL in \`repo\`.`,
    );
  });

  it("says nothing of the path when `path` and the URL name the same file", async () => {
    const { embed } = answerOf(
      await world().run({
        kind: "slash",
        name: "blame",
        options: { repo: "https://github.com/demo/widgets/blob/main/README.md", path: "/README.md" },
      }),
    );
    expect(embed.description).toMatch(/^Lines 1–/);
  });

  it("asks for `path` or a file URL when `repo` names no file, without asking GitHub", async () => {
    for (const repo of [WIDGETS, "https://github.com/demo/widgets"]) {
      const text = await expectRefusedLocally(
        world(),
        { kind: "slash", name: "blame", options: { repo } },
        "path",
      );
      expect(text).toContain("file URL");
      expect(text).toContain("/blob/");
    }
  });

  it("says a folder is a folder in one sentence, whether a tree URL or `path` names it", async () => {
    const sentenceFor = (options: Record<string, string>): Promise<string> =>
      errorText(world(), { kind: "slash", name: "blame", options });
    const folder = await sentenceFor({ repo: WIDGETS, path: "src" });
    expect(folder).toContain("`src` in `demo/widgets` is a folder, and blame works on files.");
    expect(await sentenceFor({ repo: "https://github.com/demo/widgets/tree/main/src" })).toBe(folder);
    const root = await sentenceFor({ repo: WIDGETS, path: "/" });
    expect(root).toContain("`/` in `demo/widgets` is a folder, and blame works on files.");
    expect(await sentenceFor({ repo: "https://github.com/demo/widgets/tree/main" })).toBe(root);
  });
});

describe("/blame refuses bad options without asking GitHub", () => {
  it("names `repo` and its form when it is not owner/name or a GitHub URL", async () => {
    const text = await expectRefusedLocally(
      world(),
      { kind: "slash", name: "blame", options: { repo: "not a repo", path: "README.md" } },
      "repo",
    );
    expect(text).toContain("owner/name");
  });

  it("names `repo` when the URL is on another host", async () => {
    await expectRefusedLocally(
      world(),
      {
        kind: "slash",
        name: "blame",
        options: { repo: "https://example.com/demo/widgets", path: "README.md" },
      },
      "repo",
    );
  });

  it("names `lines` and its form for a span that ends before it starts (50-10)", async () => {
    const text = await expectRefusedLocally(
      world(),
      { kind: "slash", name: "blame", options: { repo: WIDGETS, path: "README.md", lines: "50-10" } },
      "lines",
    );
    expect(text).toContain("12-40");
  });

  it("names `lines` for line 0 and for words", async () => {
    for (const lines of ["0", "ten"]) {
      await expectRefusedLocally(
        world(),
        { kind: "slash", name: "blame", options: { repo: WIDGETS, path: "README.md", lines } },
        "lines",
      );
    }
  });

  it("names `path` for a path with ..", async () => {
    await expectRefusedLocally(
      world(),
      { kind: "slash", name: "blame", options: { repo: WIDGETS, path: "docs/../../etc/passwd" } },
      "path",
    );
  });

  it("names `ref` for a ref that is a range (main..develop)", async () => {
    await expectRefusedLocally(
      world(),
      { kind: "slash", name: "blame", options: { repo: WIDGETS, path: "README.md", ref: "main..develop" } },
      "ref",
    );
  });
});

describe("/blame says what was not found", () => {
  it("names the repository", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "blame",
      options: { repo: "demo/no-such-repo", path: "README.md" },
    });
    expect(text).toMatch(/Repository `demo\/no-such-repo` was not found/);
  });

  it("names the repository when its owner does not exist", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "blame",
      options: { repo: "no-such-owner-42/widgets", path: "README.md" },
    });
    expect(text).toMatch(/`no-such-owner-42\/widgets` was not found/);
  });

  it("names the ref", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "blame",
      options: { repo: WIDGETS, path: "README.md", ref: "no-such-branch" },
    });
    expect(text).toMatch(/`no-such-branch` was not found/);
    expect(text).toContain("`ref`");
  });

  it("names the path", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "blame",
      options: { repo: WIDGETS, path: "src/no-such-file.ts" },
    });
    expect(text).toMatch(/`src\/no-such-file.ts` was not found/);
    expect(text).toContain("`path`");
  });

  it("names the path when it is a folder, which has no lines to blame", async () => {
    // GitHub nulls the whole commit when blame(path) fails, so one request cannot tell a folder
    // from a missing file: the answer names the path and the option to check.
    const text = await errorText(world(), {
      kind: "slash",
      name: "blame",
      options: { repo: WIDGETS, path: "docs/guide" },
    });
    expect(text).toContain("`docs/guide`");
    expect(text).toContain("`path`");
  });
});

describe("/blame when GitHub fails", () => {
  upstreamFailureTests("blame", world, {
    kind: "slash",
    name: "blame",
    options: { repo: WIDGETS, path: DEMO_PATHS.nestedFile },
  });
});

isolatedFailureTests(
  "blame",
  { kind: "slash", name: "blame", options: { repo: WIDGETS, path: DEMO_PATHS.nestedFile } },
  describe,
);
