import { describe, expect, it } from "vitest";
import {
  formatFilePreview,
  formatPreviewReply,
  PREVIEW_MAX_LINES,
  withPrivateMark,
  type PreviewLines,
} from "../../src/format/linkPreview.js";
import type { ContentsAnswer, FileBody } from "../../src/github/types.js";
import { expectValidMessage } from "./checks.js";

const OID = "0123456789abcdef0123456789abcdef01234567";

function blob(
  text: string | null,
  path = "src/engine.ts",
  name = "demo/widgets",
): Extract<ContentsAnswer, { kind: "blob" }> {
  const file: FileBody =
    text === null
      ? { kind: "binary", byteSize: 2048 }
      : { kind: "text", text, byteSize: text.length, isTruncated: false };
  return {
    kind: "blob",
    repository: {
      nameWithOwner: name,
      url: `https://github.com/${name}`,
      isPrivate: false,
      visibility: "PUBLIC",
      defaultBranch: "main",
    },
    commit: {
      oid: OID,
      url: `https://github.com/${name}/commit/${OID}`,
      committedDate: "2026-01-01T00:00:00Z",
    },
    path,
    file,
  };
}

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n");
const reply = (answer: Extract<ContentsAnswer, { kind: "blob" }>, lines: PreviewLines, privateMark = false) =>
  formatPreviewReply([formatFilePreview(answer, lines, privateMark)], "222222222222222222");
const lineNumbers = (text: string | undefined) =>
  [...(text ?? "").matchAll(/^\s*(\d+) │/gm)].map((match) => Number(match[1]));

describe("a file link's compact preview", () => {
  it("shows the lines asked for, linked at the commit, with a Dismiss button naming the author", () => {
    const message = reply(blob(numbered(50)), { start: 10, end: 12 });
    expectValidMessage(message);
    const embed = message.embeds[0]!;
    expect(embed.title).toBe("demo/widgets src/engine.ts lines 10–12");
    expect(embed.url).toBe(`https://github.com/demo/widgets/blob/${OID}/src/engine.ts#L10-L12`);
    expect(lineNumbers(embed.description)).toEqual([10, 11, 12]);
    expect(embed.footer?.text).toBe("📄 0123456");
    expect(message.components[0]?.components[0]).toMatchObject({
      label: "Dismiss",
      custom_id: "dismiss-preview:222222222222222222",
    });
  });

  it(`shows at most ${PREVIEW_MAX_LINES} lines and counts the rest`, () => {
    const embed = reply(blob(numbered(500)), { start: 100, end: 300 }).embeds[0]!;
    expect(lineNumbers(embed.description)).toHaveLength(PREVIEW_MAX_LINES);
    expect(embed.description).toMatch(/… 186 more lines$/);
  });

  it("moves lines past the end back into the file, and says so for a binary or an empty file", () => {
    expect(lineNumbers(reply(blob(numbered(5)), { start: 40, end: 42 }).embeds[0]?.description)).toEqual([
      3, 4, 5,
    ]);
    expect(reply(blob(null), { start: 1, end: 1 }).embeds[0]?.description).toContain("binary");
    expect(reply(blob(""), { start: 1, end: 1 }).embeds[0]?.description).toBe("This file is empty.");
  });

  it("marks any preview as private once, after its own footer", () => {
    expect(withPrivateMark({ title: "x" }).footer?.text).toBe("🔒 private repository");
    const marked = withPrivateMark(withPrivateMark({ title: "x", footer: { text: "📄 0123456" } }));
    expect(marked.footer?.text).toBe("📄 0123456 · 🔒 private repository");
  });

  it("marks a private repository's preview", () => {
    expect(reply(blob("x"), { start: 1, end: 1 }, true).embeds[0]?.footer?.text).toContain(
      "🔒 private repository",
    );
  });

  it("keeps hostile text harmless: a fence in the file, mentions in the path, very long lines and names", () => {
    const hostile = ["```", "@everyone <@123> ``` **x**", "`".repeat(40), "y".repeat(5000)].join("\n");
    const path = `weird/@everyone <@123> \`\`\` *x* [y](z)${"/deep".repeat(100)}.md`;
    const message = reply(blob(hostile, path, `evil/${"n".repeat(100)}`), { start: 1, end: 4 });
    expectValidMessage(message);
    const description = message.embeds[0]!.description!;
    expect(description.split("```")).toHaveLength(3);
    expect(message.embeds[0]!.title!.length).toBeLessThanOrEqual(256);
  });

  it("keeps three previews of long files within Discord's 6,000 characters", () => {
    const wide = Array.from({ length: 100 }, () => "z".repeat(300)).join("\n");
    const embeds = [1, 2, 3, 4].map(() => formatFilePreview(blob(wide), { start: 1, end: 100 }));
    const message = formatPreviewReply(embeds, "1");
    expectValidMessage(message);
    expect(message.embeds).toHaveLength(3);
  });
});
