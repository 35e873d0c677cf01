import { describe, expect, it } from "vitest";
import {
  codeBlock,
  escapeLabel,
  escapeMarkdown,
  inlineCode,
  sanitizeLanguage,
  sanitizeSingleLine,
  truncate,
  ZWSP,
} from "../../src/format/escape.js";
import { countFences, markdownProblems } from "../../src/format/limits.js";

describe("escapeMarkdown", () => {
  it("puts a backslash before every markdown character", () => {
    expect(escapeMarkdown("*a* _b_ ~~c~~ ||d|| > e # f - g `h` [i](j)")).toBe(
      "\\*a\\* \\_b\\_ \\~\\~c\\~\\~ \\|\\|d\\|\\| \\> e \\# f \\- g \\`h\\` \\[i\\]\\(j\\)",
    );
  });

  it("escapes backslashes first, so an escape in the text cannot un-escape ours", () => {
    expect(escapeMarkdown("\\*")).toBe("\\\\\\*");
  });

  it("keeps ordered lists from forming", () => {
    expect(escapeMarkdown("1. first\n  2. second")).toBe("1\\. first\n  2\\. second");
  });

  it("makes @everyone, @here and every kind of mention render as text", () => {
    const escaped = escapeMarkdown("@everyone @here @Everyone <@123> <@!456> <@&789> <#1011> </cmd:1>");
    expect(escaped).toContain(`@${ZWSP}everyone`);
    expect(escaped).toContain(`@${ZWSP}here`);
    expect(escaped).toContain(`@${ZWSP}Everyone`);
    expect(escaped).toContain(`<${ZWSP}@123\\>`);
    expect(escaped).toContain(`<${ZWSP}@!456\\>`);
    expect(escaped).toContain(`<${ZWSP}@&789\\>`);
    expect(escaped).toContain(`<${ZWSP}\\#1011\\>`);
    expect(markdownProblems(escaped)).toEqual([]);
  });

  it("cannot form a masked link", () => {
    const escaped = escapeMarkdown("[click me](https://evil.example)");
    expect(escaped).not.toMatch(/(?<!\\)\[[^\]]*(?<!\\)\]\(/);
  });
});

describe("codeBlock", () => {
  it("cannot be closed by backticks inside", () => {
    const block = codeBlock("a ``` b\n````\n`````` c\n``", "ts");
    expect(countFences(block)).toBe(2);
    expect(block.startsWith("```ts\n")).toBe(true);
    expect(block.endsWith("\n```")).toBe(true);
    expect(block).toContain(`\`${ZWSP}\`${ZWSP}\``);
  });

  it("sanitizes the language hint", () => {
    expect(codeBlock("x", "C++\n```evil")).toMatch(/^```c\+\+evil\n/);
    expect(sanitizeLanguage("Objective-C#")).toBe("objective-c#");
    expect(sanitizeLanguage(undefined)).toBe("");
  });

  it("gives an empty block something to show", () => {
    expect(codeBlock("")).toBe(`\`\`\`\n${ZWSP}\n\`\`\``);
  });
});

describe("inlineCode", () => {
  it("wraps plain text in single backticks", () => {
    expect(inlineCode("src/app.ts")).toBe("`src/app.ts`");
  });

  it("uses double backticks around text holding backticks, and breaks runs inside", () => {
    const code = inlineCode("a`b``c");
    expect(code.startsWith("`` ")).toBe(true);
    expect(code.endsWith(" ``")).toBe(true);
    expect(code.slice(3, -3)).not.toContain("``");
  });

  it("keeps to one line and is never empty", () => {
    expect(inlineCode("a\nb")).toBe("`a b`");
    expect(inlineCode("")).toBe(`\`${ZWSP}\``);
  });
});

describe("truncate", () => {
  it("leaves short text alone and cuts long text visibly", () => {
    expect(truncate("hello", 5)).toBe("hello");
    expect(truncate("hello world", 6)).toBe("hello…");
    expect(truncate("hello", 1)).toBe("…");
    expect(truncate("hello", 0)).toBe("");
  });

  it("never splits a surrogate pair", () => {
    const cut = truncate("ab😀😀😀", 4);
    expect(cut).toBe("ab…");
    expect(cut.length).toBeLessThanOrEqual(4);
  });
});

describe("sanitizeSingleLine", () => {
  it("joins lines and drops control and bidirectional characters", () => {
    expect(sanitizeSingleLine(" a\r\nb\n\tc\u0000\u001b[31m\u202e d \u2028e ")).toBe("a b c[31m d e");
  });
});

describe("escapeLabel", () => {
  it("cuts before escaping, so the result fits and no escape is split", () => {
    const label = escapeLabel("*".repeat(300), 256);
    expect(label.length).toBeLessThanOrEqual(256);
    expect(label.endsWith("…")).toBe(true);
    expect(label.replace(/…$/, "")).toMatch(/^(\\\*)+$/);
  });
});

describe("escapeMarkdown's shortcut for text with nothing to escape", () => {
  // The four replacements it skips, as written before the shortcut: the two must always agree.
  const everyReplacement = (text: string): string =>
    text
      .replace(/[\\*_~|>#\-[\]()`]/g, "\\$&")
      .replace(/^(\s*\d+)\./gm, "$1\\.")
      .replace(/@(everyone|here)/gi, "@\u200b$1")
      .replace(/<(?=\S)/g, "<\u200b");

  it("gives what the replacements give, on random text over the characters that matter", () => {
    const alphabet = ["a", "Z", "0", "7", ".", " ", "\n", "\\", "*", "_", "~", "|", ">", "#", "-", "[", "]"];
    alphabet.push("(", ")", "`", "@", "<", "everyone", "here", "é", "🙂", "/");
    let seed = 23;
    const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    for (let n = 0; n < 5_000; n++) {
      let text = "";
      for (let length = next() % 12; length > 0; length--) text += alphabet[next() % alphabet.length];
      expect(escapeMarkdown(text)).toBe(everyReplacement(text));
    }
  });
});
