import { describe, expect, it } from "vitest";
import { contentsWindow, formatContents } from "../../src/format/contents.js";
import { ZWSP } from "../../src/format/escape.js";
import type { ContentsAnswer, TreeEntry } from "../../src/github/types.js";
import { attachmentText, codeBlocks, descriptionOf, expectValidMessage } from "./checks.js";
import { CACHED, FRESH, makeLines, NOW, PINNED, REPOSITORY } from "./fixtures.js";

const meta = { freshness: FRESH, now: NOW };

function entry(name: string, type: TreeEntry["type"], size = 0, isBinary: boolean | null = false): TreeEntry {
  return { name, path: `src/${name}`, type, mode: type === "tree" ? 0o40000 : 0o100644, size, isBinary };
}

function tree(entries: TreeEntry[], path = "src"): ContentsAnswer {
  return { kind: "tree", repository: REPOSITORY, commit: PINNED, path, entries };
}

function blob(text: string, path = "src/app.ts", isTruncated = false): ContentsAnswer {
  return {
    kind: "blob",
    repository: REPOSITORY,
    commit: PINNED,
    path,
    file: { kind: "text", text, byteSize: Buffer.byteLength(text), isTruncated },
  };
}

describe("formatContents on a folder", () => {
  const answer = tree([
    entry("zeta.ts", "blob", 812),
    entry("lib", "tree"),
    entry("Alpha.md", "blob", 12_600),
    entry("vendor", "commit"),
    entry("logo.png", "blob", 2_500_000, true),
    entry("assets", "tree"),
  ]);
  const message = formatContents(answer, {}, { freshness: CACHED, now: NOW });

  it("is a valid message linked to the folder at the pinned commit", () => {
    expectValidMessage(message);
    expect(message.embeds[0]!.title).toBe("📁 octo/widgets/src");
    expect(message.embeds[0]!.url).toBe(`${REPOSITORY.url}/tree/${PINNED.oid}/src`);
    expect(message.embeds[0]!.footer?.text).toBe("cached 11 min ago · pinned to a1b2c3d");
    expect(message.components[0]!.components[0]).toMatchObject({ label: "Open on GitHub" });
  });

  it("lists folders first, then submodules, then files with sizes", () => {
    expect(descriptionOf(message).split("\n")).toEqual([
      "2 folders, 3 files, 1 submodule.",
      "📁 **assets/**",
      "📁 **lib/**",
      "📦 vendor · submodule",
      "📄 Alpha.md · 12.3 KiB",
      "📄 logo.png · 2.4 MiB · binary",
      "📄 zeta.ts · 812 B",
    ]);
  });

  it("links the root folder without a trailing path", () => {
    const root = formatContents(tree([entry("README.md", "blob", 10)], ""), {}, meta);
    expect(root.embeds[0]!.title).toBe("📁 octo/widgets");
    expect(root.embeds[0]!.url).toBe(`${REPOSITORY.url}/tree/${PINNED.oid}`);
  });

  it("escapes hostile names", () => {
    const hostile = formatContents(
      tree([entry("*_~|>@everyone<@1>.md", "blob", 1), entry("[x](https:)", "tree")]),
      {},
      meta,
    );
    expectValidMessage(hostile);
    expect(descriptionOf(hostile)).toContain(`\\*\\_\\~\\|\\>@${ZWSP}everyone<${ZWSP}@1\\>.md`);
  });

  it("counts what does not fit and attaches every entry", () => {
    const many = Array.from({ length: 400 }, (_, index) =>
      entry(`file-${String(index).padStart(3, "0")}.ts`, "blob", index),
    );
    const big = formatContents(tree(many, "src/deep"), {}, meta);
    expectValidMessage(big);
    expect(descriptionOf(big)).toContain("… 350 more entries in the attachment.");
    expect(big.files[0]!.name).toBe("contents-deep.txt");
    const text = attachmentText(big);
    expect(text).toContain("file-000.ts");
    expect(text).toContain("file-399.ts");
  });

  it("says an empty folder is empty", () => {
    expect(descriptionOf(formatContents(tree([]), {}, meta))).toBe("This folder is empty.");
  });
});

describe("formatContents on a file", () => {
  const source = makeLines(120, 30);
  const text = `${source.join("\n")}\n`;

  it("shows the first 20 lines with numbers and a language hint by default", () => {
    const message = formatContents(blob(text), {}, meta);
    expectValidMessage(message);
    const [block] = codeBlocks(descriptionOf(message));
    const shown = block!.split("\n");
    expect(shown[0]).toBe("ts");
    expect(shown.slice(1, -1)).toHaveLength(20);
    expect(shown[1]).toBe(` 1 │ ${source[0]}`);
    expect(descriptionOf(message)).toContain("Lines 1–20 of 120.");
    expect(message.embeds[0]!.title).toBe("📄 octo/widgets/src/app.ts");
    expect(message.embeds[0]!.url).toBe(`${REPOSITORY.url}/blob/${PINNED.oid}/src/app.ts#L1-L20`);
    expect(message.files).toEqual([]);
  });

  it("shows at most 50 lines and attaches the whole selection", () => {
    const message = formatContents(blob(text), { startLine: 10, endLine: 110 }, meta);
    expectValidMessage(message);
    expect(codeBlocks(descriptionOf(message))[0]!.split("\n").slice(1, -1)).toHaveLength(50);
    expect(descriptionOf(message)).toContain("… 51 more lines in the attachment.");
    expect(message.files[0]!.name).toBe("app.ts-L10-110.txt");
    expect(attachmentText(message)).toBe(`${source.slice(9, 110).join("\n")}\n`);
  });

  it("keeps a file's fences and mentions inside its code block", () => {
    const message = formatContents(blob("```\n`````\n@everyone <@123>\n", "README.md"), {}, meta);
    expectValidMessage(message);
    expect(codeBlocks(descriptionOf(message))[0]!.startsWith("md\n")).toBe(true);
  });

  it("explains a binary file with its size", () => {
    const message = formatContents(
      {
        kind: "blob",
        repository: REPOSITORY,
        commit: PINNED,
        path: "logo.png",
        file: { kind: "binary", byteSize: 2048 },
      },
      {},
      meta,
    );
    expectValidMessage(message);
    expect(descriptionOf(message)).toContain("binary file (2.0 KiB)");
  });

  it("explains a file GitHub cut at 512,000 bytes", () => {
    const answer: ContentsAnswer = {
      kind: "blob",
      repository: REPOSITORY,
      commit: PINNED,
      path: "data/huge.json",
      file: { kind: "text", text, byteSize: 3_000_000, isTruncated: true },
    };
    const message = formatContents(answer, {}, meta);
    expectValidMessage(message);
    expect(descriptionOf(message)).toContain("too large to show whole (2.9 MiB)");
    expect(descriptionOf(message)).toContain("512,000 bytes");
  });

  it("marks the last line of a cut text as cut when the cut fell inside it, and only then", () => {
    const cutInside = blob("one\ntwo\nthree is lo", "data/big.log", true);
    const description = descriptionOf(formatContents(cutInside, { startLine: 2, endLine: 3 }, meta));
    expect(description).toContain("\n3 │ three is lo…\n");
    expect(description).toContain("Line 3 is cut (…) where GitHub's text stops");
    // Lines before it are whole; a selection without it says nothing of it.
    expect(description).toContain("\n2 │ two\n");
    expect(descriptionOf(formatContents(cutInside, { startLine: 1, endLine: 2 }, meta))).not.toContain(
      "is cut",
    );
    const cutAtLineEnd = blob("one\ntwo\n", "data/big.log", true);
    const whole = descriptionOf(formatContents(cutAtLineEnd, { startLine: 1, endLine: 2 }, meta));
    expect(whole).toContain("\n2 │ two\n");
    expect(whole).not.toContain("is cut");
  });

  it("says an empty file is empty, and clamps a selection past the end", () => {
    expect(descriptionOf(formatContents(blob(""), {}, meta))).toContain("This file is empty.");
    const clamped = formatContents(blob(text), { startLine: 115, endLine: 200 }, meta);
    expect(descriptionOf(clamped)).toContain("Lines 115–120 of 120.");
    expect(descriptionOf(clamped)).toContain("The file has 120 lines");
  });

  it("says 'Line 5 of 120.' for one line", () => {
    const description = descriptionOf(formatContents(blob(text), { startLine: 5, endLine: 5 }, meta));
    expect(description).toMatch(/^Line 5 of 120\.\n/);
    expect(description).not.toContain("Lines 5–5");
  });

  it("says that a selection wholly past the end moved to the last lines, and why", () => {
    const message = formatContents(blob(text), { startLine: 7000, endLine: 7010 }, meta);
    expectValidMessage(message);
    const description = descriptionOf(message);
    expect(description).toMatch(
      /^Lines 7,000–7,010 are past the end of the file \(120 lines\); showing the last lines, 110–120\.\n/,
    );
    expect(description).not.toContain("stops there");
    expect(message.embeds[0]!.url).toMatch(/#L110-L120$/);
  });

  it("does not call the lines GitHub returned of a cut file the file's lines", () => {
    const cut = (view: { startLine: number; endLine: number }) =>
      descriptionOf(
        formatContents(
          {
            kind: "blob",
            repository: REPOSITORY,
            commit: PINNED,
            path: "data/huge.log",
            file: { kind: "text", text, byteSize: 3_000_000, isTruncated: true },
          },
          view,
          meta,
        ),
      );
    const clipped = cut({ startLine: 100, endLine: 200 });
    expect(clipped).toContain("so only lines 1–120 are here.");
    expect(clipped).toContain("Lines 100–120 of the 120 here.");
    expect(clipped).toContain("GitHub's text stops at line 120, so the selection stops there.");
    expect(clipped).not.toContain("The file has");
    expect(cut({ startLine: 500, endLine: 505 })).toContain(
      "Lines 500–505 are past the end of GitHub's text (120 lines); showing the last lines here, 115–120.",
    );
  });

  it("attaches 3,000 lines of 200 characters and stays within the limits", () => {
    const long = `${makeLines(3000, 200).join("\n")}\n`;
    const message = formatContents(blob(long), { startLine: 1, endLine: 3000 }, meta);
    expectValidMessage(message);
    expect(attachmentText(message)).toBe(long);
  });
});

describe("formatContents: Previous / Next lines of a file", () => {
  const text = `${makeLines(120, 40).join("\n")}\n`;
  const buttonsOf = (message: ReturnType<typeof formatContents>) =>
    message.components.flatMap((row) =>
      row.components.map((button) => ({
        label: "label" in button ? button.label : undefined,
        customId: "custom_id" in button ? button.custom_id : undefined,
        disabled: "disabled" in button ? button.disabled === true : false,
        url: "url" in button ? button.url : undefined,
      })),
    );

  it("puts the buttons it is given beside Open on GitHub, linked to the lines shown", () => {
    const message = formatContents(
      blob(text),
      { startLine: 21, endLine: 40 },
      { ...meta, buttons: { previous: "contents:back", next: "contents:forward" } },
    );
    expectValidMessage(message);
    expect(buttonsOf(message)).toEqual([
      { label: "◀ Previous lines", customId: "contents:back", disabled: false, url: undefined },
      { label: "Next lines ▶", customId: "contents:forward", disabled: false, url: undefined },
      {
        label: "Open on GitHub",
        customId: undefined,
        disabled: false,
        url: `${REPOSITORY.url}/blob/${PINNED.oid}/src/app.ts#L21-L40`,
      },
    ]);
  });

  it("shows a button it has no custom id for disabled (the file's ends)", () => {
    const message = formatContents(blob(text), {}, { ...meta, buttons: { next: "contents:forward" } });
    const [previous, next] = buttonsOf(message);
    expect(previous).toMatchObject({ label: "◀ Previous lines", disabled: true });
    expect(next).toMatchObject({ label: "Next lines ▶", customId: "contents:forward", disabled: false });
  });

  it("gives a folder, a binary file and an empty file no Previous / Next", () => {
    const answers: ContentsAnswer[] = [
      tree([entry("a.ts", "blob", 1)]),
      { ...(blob("") as Extract<ContentsAnswer, { kind: "blob" }>), file: { kind: "binary", byteSize: 9 } },
      blob(""),
    ];
    for (const answer of answers) {
      const message = formatContents(answer, {}, { ...meta, buttons: { next: "contents:x" } });
      expect(buttonsOf(message).map((button) => button.label)).toEqual(["Open on GitHub"]);
    }
  });

  it("contentsWindow says which lines the answer shows, as the buttons turn from them", () => {
    expect(contentsWindow(blob(text), {})).toMatchObject({ start: 1, end: 20, total: 120 });
    expect(contentsWindow(blob(text), { startLine: 100, endLine: 180 })).toMatchObject({
      start: 100,
      end: 120,
      sentences: ["Lines 100–120 of 120.", "The file has 120 lines, so the selection stops there."],
    });
    // Wholly past the end: the last lines, as many as asked.
    expect(contentsWindow(blob(text), { startLine: 500, endLine: 509 })).toMatchObject({
      start: 111,
      end: 120,
    });
    expect(contentsWindow(blob(""), {})).toBeNull();
    expect(contentsWindow(tree([]), { startLine: 1 })).toBeNull();
  });
});
