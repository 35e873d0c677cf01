import { describe, expect, it } from "vitest";
import { DEMO_PATHS, DEMO_REFS, DEMO_REPOSITORIES } from "../../src/sandbox/github/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import {
  answerOf,
  BIG_FOLDER,
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

const world = useWorld({ extended: true });
const WIDGETS = DEMO_REPOSITORIES.widgets;

/** The numbered lines of a snippet's code block. */
function snippetLines(description: string): Map<number, string> {
  const block = description.split("```")[1] ?? "";
  const lines = new Map<number, string>();
  for (const line of block.split("\n").slice(1)) {
    const match = /^\s*(\d+) │ (.*)$/.exec(line);
    if (match) lines.set(Number(match[1]), match[2]!);
  }
  return lines;
}

/** The entry lines of a folder listing, in order. */
function entryLines(description: string): string[] {
  return description.split("\n").filter((line) => /^(📁|📄|📦|🔗) /u.test(line));
}

describe("/contents answers", () => {
  it("lists the root folder at the default branch: folders first, files with sizes, linked at the pinned commit", async () => {
    const before = world().github.requests.length;
    const record = await world().run({ kind: "slash", name: "contents", options: { repo: WIDGETS } });
    expectDeliveredWithoutPings(record);
    const { embed, message } = answerOf(record);
    expect(
      world()
        .github.requests.slice(before)
        .map((request) => request.operationName),
    ).toEqual(["Contents"]);

    const main = commitOf(world(), WIDGETS, DEMO_REFS.defaultBranch);
    expect(embed.title).toBe("📁 demo/widgets");
    expect(embed.footer?.text).toBe(
      `fetched now · ${DEMO_REFS.defaultBranch} · pinned to ${main.slice(0, 7)}`,
    );
    expect(embed.url).toBe(`https://github.com/demo/widgets/tree/${main}`);
    expect(linkUrl(message, /Open on GitHub/)).toBe(embed.url);

    const entries = entryLines(embed.description!);
    const firstFile = entries.findIndex((line) => line.startsWith("📄"));
    expect(firstFile).toBeGreaterThan(0);
    expect(entries.slice(0, firstFile).every((line) => line.startsWith("📁"))).toBe(true);
    expect(entries.slice(firstFile).every((line) => line.startsWith("📄"))).toBe(true);
    expect(entries).toContain("📁 **src/**");
    expect(entries.find((line) => line.includes("README.md"))).toMatch(/^📄 README\.md · \d+ B$/);
    expect(embed.description).toMatch(/^\d+ folders, \d+ files\./);
  });

  it("lists the folder a tree URL names at its ref, names with spaces and accents intact", async () => {
    const record = await world().run({
      kind: "slash",
      name: "contents",
      options: { repo: `https://github.com/demo/widgets/tree/${DEMO_REFS.develop}/docs` },
    });
    const { embed } = answerOf(record);
    const develop = commitOf(world(), WIDGETS, DEMO_REFS.develop);
    expect(embed.title).toBe("📁 demo/widgets/docs");
    expect(embed.url).toBe(`https://github.com/demo/widgets/tree/${develop}/docs`);
    const entries = entryLines(embed.description!);
    expect(entries[0]).toBe("📁 **guide/**");
    expect(entries.some((line) => line.startsWith("📄 with space.md · "))).toBe(true);
    expect(entries.some((line) => line.startsWith("📄 ünïcode.md · "))).toBe(true);
  });

  it("shows a file with line numbers and a language hint, linked to its lines at the pinned commit", async () => {
    const record = await world().run({
      kind: "slash",
      name: "contents",
      options: { repo: WIDGETS, path: DEMO_PATHS.engine },
    });
    expectDeliveredWithoutPings(record);
    const { embed, message } = answerOf(record);
    const main = commitOf(world(), WIDGETS, DEMO_REFS.defaultBranch);
    expect(embed.title).toBe("📄 demo/widgets/src/engine.ts");
    expect(embed.description).toMatch(/^Lines 1–20 of 2,\d{3}\.\n```ts\n/);
    expect([...snippetLines(embed.description!).keys()]).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(embed.url).toBe(`https://github.com/demo/widgets/blob/${main}/src/engine.ts#L1-L20`);
    expect(linkUrl(message, /Open on GitHub/)).toBe(embed.url);
    expect(embed.footer?.text).toBe(
      `fetched now · ${DEMO_REFS.defaultBranch} · pinned to ${main.slice(0, 7)}`,
    );
  });

  it("shows the lines a blob URL names (#L10-L20) at the URL's ref", async () => {
    const { embed } = answerOf(
      await world().run({
        kind: "slash",
        name: "contents",
        options: { repo: `https://github.com/demo/widgets/blob/${DEMO_REFS.develop}/src/engine.ts#L10-L20` },
      }),
    );
    const develop = commitOf(world(), WIDGETS, DEMO_REFS.develop);
    expect(embed.description).toMatch(/^Lines 10–20 of /);
    expect([...snippetLines(embed.description!).keys()]).toEqual([
      10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
    ]);
    expect(embed.footer?.text).toContain(`pinned to ${develop.slice(0, 7)}`);
  });

  it("lets the options override what the URL says (path, ref and lines)", async () => {
    const { embed } = answerOf(
      await world().run({
        kind: "slash",
        name: "contents",
        options: {
          repo: `https://github.com/demo/widgets/blob/${DEMO_REFS.develop}/src/engine.ts#L10-L20`,
          path: DEMO_PATHS.readme,
          ref: DEMO_REFS.lightweightTag,
          lines: "2",
        },
      }),
    );
    expect(embed.title).toBe("📄 demo/widgets/README.md");
    expect([...snippetLines(embed.description!).keys()]).toEqual([2]);
    expect(embed.footer?.text).toContain(
      `pinned to ${commitOf(world(), WIDGETS, DEMO_REFS.lightweightTag).slice(0, 7)}`,
    );
  });

  it("shows at most 50 lines of a long selection and attaches the whole selection", async () => {
    const record = await world().run({
      kind: "slash",
      name: "contents",
      options: { repo: WIDGETS, path: DEMO_PATHS.engine, lines: "100-180" },
    });
    expectDeliveredWithoutPings(record);
    const { embed, message } = answerOf(record);
    const shown = snippetLines(embed.description!);
    expect(shown.size).toBe(50);
    expect(embed.description).toContain("… 31 more lines in the attachment.");
    expect(message.files.map((file) => file.name)).toEqual(["engine.ts-L100-180.txt"]);
    const attached = message.files[0]!.data.toString("utf8").split("\n");
    expect(attached.slice(0, -1)).toHaveLength(81);
    expect(attached[0]).toBe(shown.get(100));
  });

  it("counts the entries of a folder past what a message lists, and attaches every entry", async () => {
    const record = await world().run({
      kind: "slash",
      name: "contents",
      options: { repo: "bulk/repo-01", path: BIG_FOLDER },
    });
    expectDeliveredWithoutPings(record);
    const { embed, message } = answerOf(record);
    expect(embed.description).toMatch(/^5 folders, 115 files\./);
    const entries = entryLines(embed.description!);
    expect(entries.slice(0, 5)).toEqual([1, 2, 3, 4, 5].map((n) => `📁 **dir\\-${n}/**`));
    expect(embed.description).toContain(`… ${120 - entries.length} more entries in the attachment.`);
    expect(message.files.map((file) => file.name)).toEqual(["contents-many.txt"]);
    const listed = message.files[0]!.data.toString("utf8");
    expect(listed).toContain("file-115.txt");
    expect(listed.split("\n").filter((line) => /^(folder|file) /.test(line))).toHaveLength(120);
  });

  it("explains a binary file with its size", async () => {
    const { embed } = answerOf(
      await world().run({
        kind: "slash",
        name: "contents",
        options: { repo: WIDGETS, path: DEMO_PATHS.logo },
      }),
    );
    expect(embed.description).toMatch(/binary file \([\d.]+ KiB\)/);
    expect(embed.description).not.toContain("```");
  });

  it("explains a file too large to show whole and still shows its first lines", async () => {
    const { embed, message } = answerOf(
      await world().run({
        kind: "slash",
        name: "contents",
        options: { repo: WIDGETS, path: DEMO_PATHS.large },
      }),
    );
    expect(embed.description).toMatch(/too large to show whole \([\d.]+ KiB\)/);
    expect(embed.description).toContain("512,000 bytes");
    expect(snippetLines(embed.description!).size).toBe(20);
    expect(markupProblems(message)).toEqual([]);
  });

  it("marks the line GitHub's cut stopped inside as cut, not whole (data/large.log line 7,405)", async () => {
    const { embed } = answerOf(
      await world().run({
        kind: "slash",
        name: "contents",
        options: { repo: WIDGETS, path: DEMO_PATHS.large, lines: "7404-7405" },
      }),
    );
    const shown = snippetLines(embed.description!);
    expect(shown.get(7404)).toMatch(/ratio=3\.2$/);
    expect(shown.get(7405)).toMatch(/^2024-05-14T10:25:00Z WARN gear 7405 turned — ok ·+…$/);
    expect(embed.description).toContain("Line 7,405 is cut (…) where GitHub's text stops");
  });

  it("says an empty file is empty", async () => {
    const { embed } = answerOf(
      await world().run({
        kind: "slash",
        name: "contents",
        options: { repo: WIDGETS, path: DEMO_PATHS.emptyFile },
      }),
    );
    expect(embed.description).toMatch(/empty/);
  });

  it("answers in a thread named after the question, with a one-line summary in the channel", async () => {
    const record = await world().run({
      kind: "slash",
      name: "contents",
      options: { repo: WIDGETS, path: DEMO_PATHS.nestedFolder, thread: true },
    });
    expectDeliveredWithoutPings(record);
    const seen = transcriptOf(record);
    expect(seen.threadName).toBe("contents demo/widgets docs/guide/advanced");
    expect(seen.messages[0]?.message.content).toMatch(
      /^🧵 .*contents.* demo\/widgets docs\/guide\/advanced .*thread/,
    );
    expect(seen.messages.at(-1)?.place).toBe("thread");
    expect(seen.messages.at(-1)?.message.embeds[0]?.title).toBe("📁 demo/widgets/docs/guide/advanced");
  });
});

describe("/contents pages through a file with Previous / Next lines", () => {
  /** The line numbers of a snippet, first and last. */
  const shownSpan = (description: string): [number, number] => {
    const numbers = [...snippetLines(description).keys()];
    return [numbers[0]!, numbers.at(-1)!];
  };

  it("turns to the next and previous 20 lines of the same commit, through the cache, keeping the ref", async () => {
    const main = commitOf(world(), WIDGETS, DEMO_REFS.defaultBranch);
    const record = await world().run({
      kind: "slash",
      name: "contents",
      options: { repo: WIDGETS, path: DEMO_PATHS.engine },
    });
    const first = transcriptOf(record).messages[0]!;
    expect(buttonId(first.message, /Previous lines/)).toBeNull();
    expect(buttonId(first.message, /Next lines/)).not.toBeNull();
    const before = world().github.requests.length;

    const next = await press(world(), first, /Next lines/);
    expect(next.record.errors).toEqual([]);
    const nextEmbed = next.after.message.embeds[0]!;
    expect(nextEmbed.description).toMatch(/^Lines 21–40 of 2,\d{3}\./);
    expect(shownSpan(nextEmbed.description!)).toEqual([21, 40]);
    expect(nextEmbed.url).toBe(`https://github.com/demo/widgets/blob/${main}/src/engine.ts#L21-L40`);
    expect(nextEmbed.footer?.text).toMatch(
      new RegExp(`^cached .* · ${DEMO_REFS.defaultBranch} · pinned to ${main.slice(0, 7)}$`),
    );
    expect(linkUrl(next.after.message, /Open on GitHub/)).toBe(nextEmbed.url);

    const back = await press(world(), next.after, /Previous lines/);
    const backEmbed = back.after.message.embeds[0]!;
    expect(backEmbed.description).toMatch(/^Lines 1–20 of /);
    expect(shownSpan(backEmbed.description!)).toEqual([1, 20]);
    expect(buttonId(back.after.message, /Previous lines/)).toBeNull();
    // The pages come from the answer pinned to that commit: GitHub is not asked again.
    expect(world().github.requests.slice(before)).toEqual([]);
  });

  it("keeps the size of the selection asked for, and disables Next on the last lines", async () => {
    const opening = answerOf(
      await world().run({
        kind: "slash",
        name: "contents",
        options: { repo: WIDGETS, path: DEMO_PATHS.engine, lines: "1-2" },
      }),
    );
    const total = Number(/ of ([\d,]+)\./.exec(opening.embed.description!)![1]!.replace(/,/g, ""));
    const record = await world().run({
      kind: "slash",
      name: "contents",
      options: { repo: WIDGETS, path: DEMO_PATHS.engine, lines: `${total - 6}-${total - 2}` },
    });
    const near = transcriptOf(record).messages[0]!;
    const last = await press(world(), near, /Next lines/);
    // Five lines were asked; two remain after them: the last page holds those two.
    expect(shownSpan(last.after.message.embeds[0]!.description!)).toEqual([total - 1, total]);
    expect(buttonId(last.after.message, /Next lines/)).toBeNull();
    const previous = await press(world(), last.after, /Previous lines/);
    expect(shownSpan(previous.after.message.embeds[0]!.description!)).toEqual([total - 3, total - 2]);
  });

  it("shows both buttons disabled when the whole file fits, and none on a folder or a binary file", async () => {
    const readme = answerOf(
      await world().run({
        kind: "slash",
        name: "contents",
        options: { repo: WIDGETS, path: DEMO_PATHS.readme },
      }),
    );
    const labels = (message: typeof readme.message) =>
      message.components.flatMap((row) =>
        row.components.map((button) => ("label" in button ? button.label : "")),
      );
    expect(labels(readme.message)).toEqual(["◀ Previous lines", "Next lines ▶", "Open on GitHub"]);
    expect(buttonId(readme.message, /Previous lines/)).toBeNull();
    expect(buttonId(readme.message, /Next lines/)).toBeNull();

    for (const path of ["docs", DEMO_PATHS.logo]) {
      const { message } = answerOf(
        await world().run({ kind: "slash", name: "contents", options: { repo: WIDGETS, path } }),
      );
      expect(labels(message)).toEqual(["Open on GitHub"]);
    }
  });
});

describe("/contents on a symbolic link, and lines: on a folder", () => {
  it("shows a symbolic link as a link to its target: the /contents that shows it and a web link, in ONE request", async () => {
    const main = commitOf(world(), WIDGETS, DEMO_REFS.defaultBranch);
    const before = world().github.requests.length;
    const record = await world().run({
      kind: "slash",
      name: "contents",
      options: { repo: WIDGETS, path: DEMO_PATHS.symlink },
    });
    expectDeliveredWithoutPings(record);
    const { embed, message } = answerOf(record);
    expect(
      world()
        .github.requests.slice(before)
        .map((request) => request.operationName),
    ).toEqual(["Contents"]);
    const target = "docs/guide/intro.md";
    const targetUrl = `https://github.com/demo/widgets/blob/${main}/${target}`;
    expect(embed.title).toBe("🔗 demo/widgets/docs/latest.md");
    expect(embed.description!.split("\n")).toEqual([
      "`docs/latest.md` is a symbolic link to `guide/intro.md` (`docs/guide/intro.md` in the repository).",
      `To see the target: \`/contents repo:demo/widgets path:${target} ref:${DEMO_REFS.defaultBranch}\`, or open [${target}](${targetUrl}) on GitHub.`,
    ]);
    expect(embed.description).not.toContain("```");
    expect(linkUrl(message, /Open the target on GitHub/)).toBe(targetUrl);
    expect(linkUrl(message, /^Open on GitHub$/)).toBe(
      `https://github.com/demo/widgets/blob/${main}/${DEMO_PATHS.symlink}`,
    );

    // The path it names is one /contents takes: the target's own text.
    const followed = answerOf(
      await world().run({
        kind: "slash",
        name: "contents",
        options: { repo: WIDGETS, path: target, ref: DEMO_REFS.defaultBranch },
      }),
    );
    expect(followed.embed.title).toBe(`📄 demo/widgets/${target}`);
    expect([...snippetLines(followed.embed.description!).values()][0]).toBe("# Introduction");
  });

  it("lists a symbolic link in its folder as a link", async () => {
    const { embed } = answerOf(
      await world().run({ kind: "slash", name: "contents", options: { repo: WIDGETS, path: "docs" } }),
    );
    expect(entryLines(embed.description!)).toContain("🔗 latest.md · symbolic link");
    expect(embed.description).toMatch(/, 1 symbolic link\./);
  });

  it("says lines: applies to files when given on a folder, and still lists the folder", async () => {
    const { embed } = answerOf(
      await world().run({
        kind: "slash",
        name: "contents",
        options: { repo: WIDGETS, path: DEMO_PATHS.nestedFolder, lines: "10-20" },
      }),
    );
    const [note, summary] = embed.description!.split("\n");
    expect(note).toBe("`lines:` applies to files; a folder lists its entries.");
    expect(summary).toMatch(/^\d+ folders?, \d+ files?\./);
    expect(entryLines(embed.description!).length).toBeGreaterThan(0);
  });
});

describe("/contents refuses bad options without asking GitHub", () => {
  it("names `repo` and its form", async () => {
    const text = await expectRefusedLocally(
      world(),
      { kind: "slash", name: "contents", options: { repo: "widgets" } },
      "repo",
    );
    expect(text).toContain("owner/name");
  });

  it("names `repo` for a URL that is neither a file nor a folder", async () => {
    await expectRefusedLocally(
      world(),
      { kind: "slash", name: "contents", options: { repo: "https://github.com/demo/widgets/issues/3" } },
      "repo",
    );
  });

  it("names `lines` for 50-10", async () => {
    await expectRefusedLocally(
      world(),
      { kind: "slash", name: "contents", options: { repo: WIDGETS, path: "README.md", lines: "50-10" } },
      "lines",
    );
  });

  it("names `path` for a path with ..", async () => {
    await expectRefusedLocally(
      world(),
      { kind: "slash", name: "contents", options: { repo: WIDGETS, path: "../README.md" } },
      "path",
    );
  });

  it("names `ref` for a ref with a space", async () => {
    await expectRefusedLocally(
      world(),
      { kind: "slash", name: "contents", options: { repo: WIDGETS, ref: "main develop" } },
      "ref",
    );
  });
});

describe("/contents says what was not found", () => {
  it("names the repository", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "contents",
      options: { repo: "demo/no-such-repo" },
    });
    expect(text).toMatch(/Repository `demo\/no-such-repo` was not found/);
  });

  it("names the repository of an owner that does not exist", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "contents",
      options: { repo: "no-such-owner-42/anything" },
    });
    expect(text).toMatch(/`no-such-owner-42\/anything` was not found/);
  });

  it("names the ref", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "contents",
      options: { repo: WIDGETS, ref: "no-such-tag" },
    });
    expect(text).toMatch(/`no-such-tag` was not found/);
  });

  it("names the path", async () => {
    const text = await errorText(world(), {
      kind: "slash",
      name: "contents",
      options: { repo: WIDGETS, path: "docs/no-such-folder" },
    });
    expect(text).toMatch(/`docs\/no-such-folder` was not found/);
    expect(text).toContain("`path`");
  });
});

describe("/contents when GitHub fails", () => {
  upstreamFailureTests("contents", world, {
    kind: "slash",
    name: "contents",
    options: { repo: WIDGETS, path: "scripts" },
  });
});

isolatedFailureTests(
  "contents",
  { kind: "slash", name: "contents", options: { repo: WIDGETS, path: "scripts" } },
  describe,
);
