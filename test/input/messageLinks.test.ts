import { describe, expect, it } from "vitest";
import { fileLinksOf, MAX_MENU_LINKS } from "../../src/input/messageLinks.js";

const HOSTS = ["github.com"];
const FILE = "https://github.com/demo/widgets/blob/main/src/engine.ts";

describe("the GitHub file links of a message", () => {
  it("reads a permalink with its lines, column anchors included", () => {
    const [link] = fileLinksOf(`see ${FILE}#L10C3-L20C5.`, HOSTS).files;
    expect(link?.url).toBe(`${FILE}#L10C3-L20C5`);
    expect(link?.argument).toMatchObject({
      repo: { owner: "demo", name: "widgets" },
      kind: "blob",
      ref: "main",
      path: "src/engine.ts",
      lines: { start: 10, end: 20 },
    });
  });

  it("finds links inside markdown: angle brackets, masked links, spoilers, code, quotes", () => {
    const content = [
      `<${FILE}#L1>`,
      `[the loop](${FILE}#L2)`,
      `||${FILE}#L3||`,
      "```\n" + `${FILE}#L4` + "\n```",
      `"${FILE}#L5"`,
    ].join(" ");
    expect(fileLinksOf(content, HOSTS).files.map((link) => link.argument.lines?.start)).toEqual([
      1, 2, 3, 4, 5,
    ]);
  });

  it("keeps the first five distinct links and counts the rest", () => {
    const content = Array.from({ length: 8 }, (_, index) => `${FILE}#L${index + 1}`).join(" ");
    const found = fileLinksOf(`${content} ${FILE}#L1`, HOSTS);
    expect(found.files).toHaveLength(MAX_MENU_LINKS);
    expect(found.skipped).toBe(3);
  });

  it("follows only the configured hosts, and tells a folder or repository link from a file", () => {
    expect(fileLinksOf("https://gitlab.com/demo/widgets/-/blob/main/a.ts", HOSTS)).toMatchObject({
      files: [],
      otherHost: "gitlab.com",
      notFile: false,
    });
    expect(
      fileLinksOf("https://github.com/demo/widgets/tree/main/src https://github.com/demo", HOSTS),
    ).toMatchObject({
      files: [],
      notFile: true,
    });
    expect(fileLinksOf("https://github.evil.com/demo/widgets/blob/main/a.ts", HOSTS).files).toEqual([]);
    const enterprise = fileLinksOf("https://git.example.com/o/r/blob/main/a.ts#L3", [
      "git.example.com",
      "github.com",
    ]);
    expect(enterprise.files[0]?.argument.repo).toEqual({ owner: "o", name: "r" });
  });

  it("reads a message of 4,000 characters of hostile text and finds nothing in it", () => {
    const hostile = "@everyone <@1> ``` https://" + "a".repeat(3_900) + " http://";
    expect(fileLinksOf(hostile, HOSTS).files).toEqual([]);
  });
});
