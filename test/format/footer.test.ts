import { describe, expect, it } from "vitest";
import { formatBlame } from "../../src/format/blame.js";
import { formatContents } from "../../src/format/contents.js";
import { messageMarkdownProblems } from "../../src/format/limits.js";
import { emptyMessage, footerText, type FormattedMessage } from "../../src/format/message.js";
import type { ContentsAnswer } from "../../src/github/types.js";
import { expectValidMessage } from "./checks.js";
import { CACHED, FRESH, makeBlame, makeLines, NOW, PINNED, REPOSITORY } from "./fixtures.js";

/** A message whose only embed has this footer. */
function message(footer: string): FormattedMessage {
  const result = emptyMessage();
  result.embeds.push({ footer: { text: footer } });
  return result;
}

describe("the footer of an answer pinned to a commit", () => {
  it("names the ref asked for before the commit it resolved to", () => {
    expect(footerText(FRESH, NOW, PINNED.oid, "v1.0.0")).toBe("fetched now · v1.0.0 · pinned to a1b2c3d");
    expect(footerText(CACHED, NOW, PINNED.oid, "feature/gears")).toBe(
      "cached 11 min ago · feature/gears · pinned to a1b2c3d",
    );
  });

  it("says only the commit when no ref is known", () => {
    expect(footerText(FRESH, NOW, PINNED.oid)).toBe("fetched now · pinned to a1b2c3d");
    expect(footerText(FRESH, NOW, PINNED.oid, "")).toBe("fetched now · pinned to a1b2c3d");
  });

  it("does not say the commit twice when the ref is the commit id or its abbreviation", () => {
    for (const ref of [PINNED.oid, PINNED.oid.toUpperCase(), "a1b2c3d", "a1b2"]) {
      expect(footerText(FRESH, NOW, PINNED.oid, ref)).toBe("fetched now · pinned to a1b2c3d");
    }
    // A branch that merely looks like hex, but is not this commit, is still named.
    expect(footerText(FRESH, NOW, PINNED.oid, "beef")).toBe("fetched now · beef · pinned to a1b2c3d");
  });

  it("keeps a strange or very long ref on one line, cut visibly", () => {
    const footer = footerText(FRESH, NOW, PINNED.oid, `a\nb\u202e${"x".repeat(300)}`);
    expect(footer).not.toMatch(/[\n\u202e]/);
    expect(footer).toMatch(/^fetched now · a bx+… · pinned to a1b2c3d$/);
    expect(footer.length).toBeLessThan(140);
  });

  it("keeps a ref with fences or mentions from opening a code block or pinging, without backslashes", () => {
    const footer = footerText(FRESH, NOW, PINNED.oid, "x```y@everyone<@1>");
    expect(messageMarkdownProblems(message(footer))).toEqual([]);
    expect(footer).not.toContain("```");
    expect(footer).not.toContain("\\");
    expect(footer.replace(/\u200b/g, "")).toBe("fetched now · x```y@everyone<@1> · pinned to a1b2c3d");
  });

  it("names nothing but freshness for answers that are not pinned", () => {
    expect(footerText(FRESH, NOW, undefined, "main")).toBe("fetched now");
  });
});

describe("the ref in /blame and /contents footers", () => {
  it("formatBlame says the ref: 'v1.0.0 · pinned to a1b2c3d'", () => {
    const message = formatBlame(
      makeBlame({ lines: makeLines(30, 40) }),
      { startLine: 1, endLine: 20, requestedLines: false },
      { freshness: FRESH, now: NOW, ref: "v1.0.0" },
    );
    expectValidMessage(message);
    expect(message.embeds[0]!.footer?.text).toBe("fetched now · v1.0.0 · pinned to a1b2c3d");
  });

  it("formatContents says the ref of a file and of a folder", () => {
    const file: ContentsAnswer = {
      kind: "blob",
      repository: REPOSITORY,
      commit: PINNED,
      path: "README.md",
      file: { kind: "text", text: "# Widgets\n", byteSize: 10, isTruncated: false },
    };
    const folder: ContentsAnswer = {
      kind: "tree",
      repository: REPOSITORY,
      commit: PINNED,
      path: "",
      entries: [],
    };
    for (const answer of [file, folder]) {
      const message = formatContents(answer, {}, { freshness: CACHED, now: NOW, ref: "main" });
      expectValidMessage(message);
      expect(message.embeds[0]!.footer?.text).toBe("cached 11 min ago · main · pinned to a1b2c3d");
    }
  });
});
