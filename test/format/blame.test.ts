import { describe, expect, it } from "vitest";
import { formatBlame } from "../../src/format/blame.js";
import { ZWSP } from "../../src/format/escape.js";
import { HEAT_LEGEND } from "../../src/format/heat.js";
import type { BlameAnswer } from "../../src/github/types.js";
import { attachmentText, codeBlocks, descriptionOf, expectValidMessage } from "./checks.js";
import {
  CACHED,
  FRESH,
  makeBlame,
  makeCommit,
  makeLines,
  makeRanges,
  NOW,
  PINNED,
  REPOSITORY,
} from "./fixtures.js";

const meta = { freshness: FRESH, now: NOW };

function lines(answer: BlameAnswer, start: number, end: number, requestedLines = true) {
  return formatBlame(answer, { startLine: start, endLine: end, requestedLines }, meta);
}

describe("formatBlame on an ordinary file", () => {
  const source = [
    'import { createServer } from "node:http";',
    "",
    "export function start(port: number) {",
    "\tconst server = createServer((req, res) => res.end('ok'));",
    "  return server.listen(port);",
    "}",
  ];
  const alice = makeCommit(1, {
    authorLogin: "alice",
    messageHeadline: "Add the server",
    abbreviatedOid: "1a2b3c4",
  });
  const bob = makeCommit(2, {
    authorLogin: null,
    authorName: "Bob Builder",
    messageHeadline: "Listen on a port",
  });
  const answer = makeBlame({
    lines: source,
    path: "src/server.ts",
    ranges: [
      { startingLine: 1, endingLine: 3, age: 10, commit: alice },
      { startingLine: 4, endingLine: 5, age: 1, commit: bob },
      { startingLine: 6, endingLine: 6, age: 10, commit: alice },
    ],
  });
  const message = formatBlame(
    answer,
    { startLine: 1, endLine: 6, requestedLines: false },
    { freshness: CACHED, now: NOW, buttons: { next: "blame:next-key" } },
  );
  const embed = message.embeds[0]!;

  it("is a valid Discord message", () => expectValidMessage(message));

  it("titles the answer and links it to the lines at the pinned commit", () => {
    expect(embed.title).toBe("blame octo/widgets src/server.ts");
    expect(embed.url).toBe(`${REPOSITORY.url}/blob/${PINNED.oid}/src/server.ts#L1-L6`);
  });

  it("shows every line with number, heat, short id, author and text in a ts code block", () => {
    const [block] = codeBlocks(descriptionOf(message));
    expect(block!.startsWith("ts\n")).toBe(true);
    const shown = block!.split("\n").slice(1, -1);
    expect(shown).toHaveLength(6);
    expect(shown[0]).toBe(`1 🟦 1a2b3c4 alice      │ ${source[0]}`);
    expect(shown[3]).toMatch(/^4 🟥 [0-9a-f]{7} Bob Build… │ {5}const server/);
    expect(shown[1]).toMatch(/│ $/);
  });

  it("has one field per commit, with its spans, heat, id, linked headline, author and date", () => {
    expect(embed.fields).toHaveLength(2);
    expect(embed.fields![0]!.name).toBe("L1-L3, L6 🟦 1a2b3c4");
    expect(embed.fields![0]!.value).toBe(
      `[Add the server](${alice.url})\nby alice · <t:${Date.parse(alice.authoredDate) / 1000}:R>`,
    );
    expect(embed.fields![1]!.name).toMatch(/^L4-L5 🟥 [0-9a-f]{7}$/);
    expect(embed.fields![1]!.value).toContain("by Bob Builder");
  });

  it("says which lines are shown, draws the legend, and says how fresh and pinned the answer is", () => {
    expect(descriptionOf(message)).toContain("Lines 1–6 of 6.");
    expect(descriptionOf(message)).toContain(HEAT_LEGEND);
    expect(embed.footer?.text).toBe("cached 11 min ago · pinned to a1b2c3d");
    expect(message.files).toEqual([]);
  });

  it("has Previous (disabled without an id), Next and Open on GitHub buttons", () => {
    const buttons = message.components[0]!.components;
    expect(buttons.map((button) => ("label" in button ? button.label : ""))).toEqual([
      "◀ Previous lines",
      "Next lines ▶",
      "Open on GitHub",
    ]);
    expect(buttons[0]).toMatchObject({ disabled: true });
    expect(buttons[1]).toMatchObject({ custom_id: "blame:next-key" });
    expect(buttons[1]).not.toHaveProperty("disabled");
    expect(buttons[2]).toMatchObject({ url: embed.url });
  });

  it("says 'fetched now' for a fresh answer and 'cached just now' under a minute", () => {
    expect(lines(answer, 1, 2).embeds[0]!.footer?.text).toBe("fetched now · pinned to a1b2c3d");
    const recent = formatBlame(
      answer,
      { startLine: 1, endLine: 2, requestedLines: true },
      {
        freshness: { fromCache: true, fetchedAt: new Date(NOW.getTime() - 30_000).toISOString() },
        now: NOW,
      },
    );
    expect(recent.embeds[0]!.footer?.text).toBe("cached just now · pinned to a1b2c3d");
  });
});

describe("formatBlame on hostile content", () => {
  it("keeps fences, mentions and markup of the file inside the code block", () => {
    const answer = makeBlame({
      lines: [
        "```",
        "````` and ```js",
        "@everyone <@123> <@&5> <#6>",
        "*bold* _it_ ~~s~~ || > # - [x](https://evil.example)",
        "end",
      ],
      path: "docs/evil.md",
    });
    const message = lines(answer, 1, 5);
    expectValidMessage(message);
    const blocks = codeBlocks(descriptionOf(message));
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toContain("@everyone <@123>");
    expect(blocks[0]).toContain(`\`${ZWSP}\`${ZWSP}\``);
    expect(blocks[0]!.startsWith("md\n")).toBe(true);
  });

  it("escapes a 5,000-character headline with markdown and a masked link, and cuts it visibly", () => {
    const headline = `**Fix** [click](https://evil.example) @everyone <@123> ${"_x_ ".repeat(1250)}`;
    const answer = makeBlame({
      lines: ["a", "b"],
      ranges: [
        { startingLine: 1, endingLine: 2, age: 3, commit: makeCommit(1, { messageHeadline: headline }) },
      ],
    });
    const message = lines(answer, 1, 2);
    expectValidMessage(message);
    const value = message.embeds[0]!.fields![0]!.value;
    expect(value).toContain("\\*\\*Fix\\*\\* \\[click\\]\\(https://evil.example\\)");
    expect(value).toContain("…](https://github.com/");
    // The only masked link is ours, to the commit.
    expect(value.match(/(?<!\\)\]\(/g)).toHaveLength(1);
  });

  it("escapes the path in the title and the author in the fields", () => {
    const answer = makeBlame({
      lines: ["x"],
      path: "src/*_~|>/weird @everyone.ts",
      ranges: [{ startingLine: 1, endingLine: 1, age: 5, commit: makeCommit(1, { authorLogin: "*_~|>" }) }],
    });
    const message = lines(answer, 1, 1);
    expectValidMessage(message);
    expect(message.embeds[0]!.title).toBe(`blame octo/widgets src/\\*\\_\\~\\|\\>/weird @${ZWSP}everyone.ts`);
    expect(message.embeds[0]!.url).toContain("/src/%2A_~%7C%3E/weird%20%40everyone.ts#L1");
    expect(message.embeds[0]!.fields![0]!.value).toContain("by \\*\\_\\~\\|\\>");
  });
});

describe("formatBlame on large selections", () => {
  it("shows what fits of 3,000 lines of 200 characters and attaches the whole selection", () => {
    const source = makeLines(3000, 200);
    const answer = makeBlame({ lines: source, ranges: makeRanges(3000, 300) });
    const message = lines(answer, 1, 3000);
    expectValidMessage(message);
    const description = descriptionOf(message);
    const shown = codeBlocks(description)[0]!.split("\n").slice(1, -1);
    expect(shown.length).toBeGreaterThan(10);
    expect(shown.length).toBeLessThanOrEqual(50);
    expect(shown[0]!.endsWith("…")).toBe(true);
    expect(description).toContain(
      `… ${(3000 - shown.length).toLocaleString("en-US")} more lines in the attachment.`,
    );
    expect(message.files).toHaveLength(1);
    expect(message.files[0]!.name).toBe("blame-app.ts-L1-3000.txt");
    const text = attachmentText(message);
    for (const line of [1, 1500, 3000]) expect(text).toContain(`| ${source[line - 1]}\n`);
    expect(text.split("\n").filter((line) => /^ *\d+ +\d+ [0-9a-f]{7} /.test(line))).toHaveLength(3000);
  });

  it("shows at most 50 lines even when they are short", () => {
    const answer = makeBlame({ lines: makeLines(200, 5) });
    const message = lines(answer, 1, 200);
    expectValidMessage(message);
    expect(codeBlocks(descriptionOf(message))[0]!.split("\n").slice(1, -1)).toHaveLength(50);
    expect(descriptionOf(message)).toContain("… 150 more lines in the attachment.");
  });

  it("attaches the lines when only some were cut for width", () => {
    const answer = makeBlame({ lines: ["short", "x".repeat(500)] });
    const message = lines(answer, 1, 2);
    expectValidMessage(message);
    expect(descriptionOf(message)).toContain("Long lines are cut here");
    expect(attachmentText(message)).toContain("x".repeat(500));
  });

  it("keeps the ranges of the lines shown within 25 fields and counts the rest", () => {
    // A range per line, each of another commit: the 50 lines shown have 50 ranges.
    const answer = makeBlame({ lines: makeLines(10_000, 40), ranges: makeRanges(10_000, 10_000, 2000) });
    const message = lines(answer, 1, 10_000);
    expectValidMessage(message);
    const linesShown = codeBlocks(descriptionOf(message))[0]!.split("\n").slice(1, -1).length;
    expect(linesShown).toBeGreaterThan(25);
    const fields = message.embeds[0]!.fields!;
    expect(fields.length).toBeLessThanOrEqual(25);
    const last = fields.at(-1)!;
    const shownRanges = fields.length - 1;
    expect(last.name).toBe(`… and ${(linesShown - shownRanges).toLocaleString("en-US")} more ranges`);
    expect(last.value).toContain("attachment");
    expect(attachmentText(message)).toContain("commits in these lines:");
  });

  it("lists a commit owning many ranges once, with '+N more' spans", () => {
    const commit = makeCommit(1);
    const other = makeCommit(2);
    const ranges = Array.from({ length: 20 }, (_, index) => ({
      startingLine: index + 1,
      endingLine: index + 1,
      age: 2,
      commit: index % 2 === 0 ? commit : other,
    }));
    const message = lines(makeBlame({ lines: makeLines(20, 10), ranges }), 1, 20);
    expectValidMessage(message);
    expect(message.embeds[0]!.fields).toHaveLength(2);
    expect(message.embeds[0]!.fields![0]!.name).toMatch(/^L1, L3, L5, L7, \+6 more 🟥 /);
  });
});

describe("formatBlame says which path it blamed when the URL named another", () => {
  const answer = makeBlame({ lines: makeLines(30, 10), path: "src/app.ts" });

  it("puts one line first: the `path` option was used, not the URL's path", () => {
    const message = formatBlame(
      answer,
      { startLine: 1, endLine: 5, requestedLines: true, pathInUrl: "README.md" },
      meta,
    );
    expectValidMessage(message);
    const [first, second] = descriptionOf(message).split("\n");
    expect(first).toBe("Blaming src/app.ts from the `path` option, not README.md from the URL in `repo`.");
    expect(second).toBe("Lines 1–5 of 30.");
  });

  it("escapes hostile paths, and says it for a binary file too", () => {
    const binary: BlameAnswer = { ...answer, path: "a`b.png", file: { kind: "binary", byteSize: 10 } };
    const message = formatBlame(
      binary,
      { startLine: 1, endLine: 20, requestedLines: false, pathInUrl: "``` @everyone" },
      meta,
    );
    expectValidMessage(message);
    expect(descriptionOf(message).split("\n")[0]).toBe(
      `Blaming a\\\`b.png from the \`path\` option, not \\\`\\\`\\\` @${ZWSP}everyone from the URL in \`repo\`.`,
    );
  });

  it("says nothing of paths when the URL named none", () => {
    expect(descriptionOf(lines(answer, 1, 5))).toMatch(/^Lines 1–5 of 30\./);
  });
});

describe("formatBlame lists the ranges of the lines shown", () => {
  const older = makeCommit(1, { messageHeadline: "Write the file" });
  const newer = makeCommit(2, { messageHeadline: "Touch the end" });
  const source = makeLines(2029, 20);
  const answer = makeBlame({
    lines: source,
    ranges: [
      { startingLine: 1, endingLine: 22, age: 10, commit: older },
      { startingLine: 23, endingLine: 1997, age: 5, commit: newer },
      { startingLine: 1998, endingLine: 2001, age: 3, commit: older },
      { startingLine: 2002, endingLine: 2029, age: 1, commit: newer },
    ],
  });
  const fieldNames = (message: ReturnType<typeof lines>) =>
    (message.embeds[0]!.fields ?? []).map((field) => field.name.replace(/ \S+ [0-9a-f]{7}$/u, ""));

  it("clips a range that starts before the selection to the lines shown (lines:3-7 lists L3-L7, not L1-L22)", () => {
    expect(fieldNames(lines(answer, 3, 7))).toEqual(["L3-L7"]);
  });

  it("clips ranges at both ends (lines 2000-2029 list L2000-L2001, not L1998-L2001)", () => {
    const message = lines(answer, 2000, 2029);
    expectValidMessage(message);
    expect(fieldNames(message)).toEqual(["L2000-L2001", "L2002-L2029"]);
  });

  it("lists only the ranges of the lines in the message, and the whole selection in the attachment", () => {
    // 1,990-2,029 is 40 lines; with long lines only some fit, so the rest go to the attachment.
    const wide = makeBlame({ lines: makeLines(2029, 110), ranges: answer.ranges });
    const message = lines(wide, 1960, 2029);
    expectValidMessage(message);
    const shown = codeBlocks(descriptionOf(message))[0]!.split("\n").slice(1, -1);
    expect(shown.length).toBeLessThan(70);
    const lastShown = 1960 + shown.length - 1;
    expect(lastShown).toBeLessThan(1998);
    expect(fieldNames(message)).toEqual([`L1960-L${lastShown}`]);
    const text = attachmentText(message);
    expect(text).toContain("    L1960-L1997, L2002-L2029  ");
    expect(text).toContain("    L1998-L2001  ");
    expect(text).not.toContain("L23-L1997");
  });
});

describe("formatBlame on special files", () => {
  describe("a binary file", () => {
    const older = makeCommit(1, {
      messageHeadline: "Add the logo",
      authorLogin: "alice",
      authoredDate: "2020-01-01T00:00:00Z",
      committedDate: "2020-01-01T00:00:00Z",
    });
    // Authored before `older` but committed after it (a rebase): the last change all the same.
    const newer = makeCommit(2, {
      messageHeadline: "Update the *logo*",
      authorLogin: "bob",
      authoredDate: "2019-06-01T00:00:00Z",
      committedDate: "2024-03-01T00:00:00Z",
    });
    const binary = (ranges: BlameAnswer["ranges"]): BlameAnswer => ({
      ...makeBlame({ lines: [] }),
      path: "assets/logo.png",
      file: { kind: "binary", byteSize: 12_600 },
      ranges,
    });
    // What git's blame gives for a PNG: runs of bytes between newline bytes, as "lines".
    const answer = binary([
      { startingLine: 1, endingLine: 2, age: 10, commit: older },
      { startingLine: 3, endingLine: 3, age: 1, commit: newer },
      { startingLine: 4, endingLine: 9, age: 10, commit: older },
    ]);
    const message = lines(answer, 1, 20, false);
    const embed = message.embeds[0]!;

    it("says it is binary, with its size, and shows no lines, ranges or heat key", () => {
      expectValidMessage(message);
      expect(descriptionOf(message)).toBe(
        "This is a binary file (12.3 KiB): it has no lines to blame. Its last change:",
      );
      expect(codeBlocks(descriptionOf(message))).toEqual([]);
      const texts = [
        embed.description,
        ...(embed.fields ?? []).flatMap((field) => [field.name, field.value]),
      ];
      for (const text of texts) {
        expect(text).not.toMatch(/\bL\d/);
        expect(text).not.toMatch(/[🟥🟧🟨🟩🟦]/u);
        expect(text).not.toContain(HEAT_LEGEND);
      }
    });

    it("shows the last change to the file: commit, message, author and date", () => {
      expect(embed.fields).toEqual([
        {
          name: `Last changed in ${newer.abbreviatedOid}`,
          value: `[Update the \\*logo\\*](${newer.url})\nby bob · <t:${Date.parse(newer.authoredDate) / 1000}:R>`,
        },
      ]);
    });

    it("links to the file and its history on GitHub, without Previous / Next", () => {
      expect(embed.url).toBe(`${REPOSITORY.url}/blob/${PINNED.oid}/assets/logo.png`);
      const buttons = message.components.flatMap((row) => row.components);
      expect(buttons).toEqual([
        expect.objectContaining({ label: "Open on GitHub", url: embed.url }),
        expect.objectContaining({
          label: "History on GitHub",
          url: `${REPOSITORY.url}/commits/${PINNED.oid}/assets/logo.png`,
        }),
      ]);
    });

    it("points to the history when GitHub gave no ranges", () => {
      const bare = lines(binary([]), 1, 20, false);
      expectValidMessage(bare);
      expect(descriptionOf(bare)).toBe(
        "This is a binary file (12.3 KiB): it has no lines to blame. " +
          `Its changes are in [its history on GitHub](${REPOSITORY.url}/commits/${PINNED.oid}/assets/logo.png).`,
      );
      expect(bare.embeds[0]!.fields).toBeUndefined();
    });

    it("takes the author date when a cached answer has no commit date", () => {
      const { committedDate: _dropped, ...withoutDate } = newer;
      const cached = binary([
        { startingLine: 1, endingLine: 1, age: 1, commit: older },
        { startingLine: 2, endingLine: 2, age: 1, commit: withoutDate as typeof newer },
      ]);
      expect(lines(cached, 1, 20, false).embeds[0]!.fields![0]!.name).toBe(
        `Last changed in ${older.abbreviatedOid}`,
      );
    });
  });

  it("says an empty file is empty", () => {
    const message = lines(makeBlame({ lines: [], ranges: [] }), 1, 20, false);
    expectValidMessage(message);
    expect(descriptionOf(message)).toContain("This file is empty");
    expect(message.embeds[0]!.fields).toBeUndefined();
  });

  it("notes that GitHub cut the text of a large file", () => {
    const answer = makeBlame({ lines: makeLines(100, 20), ranges: makeRanges(150, 10), isTruncated: true });
    const message = lines(answer, 90, 120);
    expectValidMessage(message);
    expect(descriptionOf(message)).toContain("GitHub cut this file's text at 512,000 bytes");
    expect(descriptionOf(message)).toContain("Lines 90–120 of 150.");
  });

  it("marks the line GitHub's cut stopped inside as cut", () => {
    const answer = makeBlame({ lines: makeLines(10, 20), ranges: makeRanges(15, 5), isTruncated: true });
    const file = answer.file as { text: string };
    file.text = `${file.text}partial line`;
    const description = descriptionOf(lines(answer, 10, 12));
    expect(description).toMatch(/\n11 \S+ \S+ +\S* *│ partial line…\n/);
    expect(description).toContain("Line 11 is cut (…) where GitHub's text stops");
    expect(descriptionOf(lines(answer, 1, 5))).not.toContain("is cut");
  });

  it("clamps a selection past the end and says how many lines the file has", () => {
    const answer = makeBlame({ lines: makeLines(30, 10) });
    const message = lines(answer, 25, 60);
    expectValidMessage(message);
    expect(descriptionOf(message)).toContain("Lines 25–30 of 30.");
    expect(descriptionOf(message)).toContain("The file has 30 lines");
  });

  it("says 'Line 5 of 30.' for one line", () => {
    const description = descriptionOf(lines(makeBlame({ lines: makeLines(30, 10) }), 5, 5));
    expect(description).toMatch(/^Line 5 of 30\.\n/);
    expect(description).not.toContain("Lines 5–5");
  });

  it("says that a selection wholly past the end moved to the last lines, and why", () => {
    const answer = makeBlame({ lines: makeLines(30, 10) });
    const message = lines(answer, 100, 110);
    expectValidMessage(message);
    const description = descriptionOf(message);
    expect(description).toMatch(
      /^Lines 100–110 are past the end of the file \(30 lines\); showing the last lines, 20–30\.\n/,
    );
    expect(description).not.toContain("stops there");
    const shown = codeBlocks(description)[0]!.split("\n").slice(1, -1);
    expect(shown.map((line) => Number(/^\s*(\d+)/.exec(line)![1]))).toEqual(
      Array.from({ length: 11 }, (_, index) => 20 + index),
    );
    expect(message.embeds[0]!.url).toMatch(/#L20-L30$/);
  });

  it("survives ranges that are unsorted, overlapping or leave lines uncovered", () => {
    const answer = makeBlame({
      lines: makeLines(10, 10),
      ranges: [
        { startingLine: 6, endingLine: 8, age: 4, commit: makeCommit(2) },
        { startingLine: 1, endingLine: 3, age: Number.NaN, commit: makeCommit(1) },
        { startingLine: 2, endingLine: 2, age: 99, commit: makeCommit(3) },
        { startingLine: 9, endingLine: 4, age: 1, commit: makeCommit(4) },
      ],
    });
    const message = lines(answer, 1, 10);
    expectValidMessage(message);
    const shown = codeBlocks(descriptionOf(message))[0]!.split("\n").slice(1, -1);
    expect(shown).toHaveLength(10);
    expect(shown[4]).toMatch(/^ 5 ⬜ \?{7} /);
  });
});
