import { describe, expect, it } from "vitest";
import { ownerRule, parseCodeowners, patternMatcher } from "../../src/owners/codeowners.js";

/** The owners of a path under a CODEOWNERS text, or null when no rule matches. */
function ownersOf(text: string, path: string): { line: number; owners: string[] } | null {
  const rule = ownerRule(parseCodeowners(text), path);
  return rule ? { line: rule.line, owners: rule.owners } : null;
}

describe("CODEOWNERS patterns, as GitHub documents them", () => {
  it("`*` matches every file; `*.js` a file name anywhere", () => {
    expect(patternMatcher("*")("a/b/c.txt")).toBe(true);
    const js = patternMatcher("*.js");
    expect(js("index.js")).toBe(true);
    expect(js("deep/down/app.js")).toBe(true);
    expect(js("app.jsx")).toBe(false);
  });

  it("`/build/logs/` is anchored at the root and owns everything below it", () => {
    const logs = patternMatcher("/build/logs/");
    expect(logs("build/logs/a.log")).toBe(true);
    expect(logs("build/logs/deeper/b.log")).toBe(true);
    expect(logs("src/build/logs/a.log")).toBe(false);
    expect(logs("build/logs")).toBe(false);
  });

  it("`docs/*` owns the files directly in docs, not those further down", () => {
    const docs = patternMatcher("docs/*");
    expect(docs("docs/getting-started.md")).toBe(true);
    expect(docs("docs/build-app/troubleshooting.md")).toBe(false);
  });

  it("`apps/` owns a folder named apps anywhere; `**/logs` and `/docs/**` as in gitignore", () => {
    const apps = patternMatcher("apps/");
    expect(apps("apps/a.ts")).toBe(true);
    expect(apps("src/apps/b/c.ts")).toBe(true);
    expect(apps("apps.ts")).toBe(false);
    const logs = patternMatcher("**/logs");
    expect(logs("logs/x")).toBe(true);
    expect(logs("build/logs/x")).toBe(true);
    expect(logs("build/logsy/x")).toBe(false);
    const deepDocs = patternMatcher("/docs/**");
    expect(deepDocs("docs/a/b/c.md")).toBe(true);
    expect(deepDocs("src/docs/a.md")).toBe(false);
  });

  it("matches case-sensitively", () => {
    expect(patternMatcher("*.MD")("README.md")).toBe(false);
    expect(patternMatcher("/Docs/")("docs/a.md")).toBe(false);
  });
});

describe("CODEOWNERS rules", () => {
  const file = [
    "# a comment",
    "*       @global-owner1 @global-owner2",
    "*.js    @js-owner #This is an inline comment.",
    "/docs/  @org/docs-team",
    "",
    "/docs/generated/",
    "docs/*.md  docs@example.com",
    "!/docs/private/ @nobody",
    "[Rr]eadme.md @readers",
    "/apps/  not-an-owner",
    "\\#notes.txt @hash",
  ].join("\n");

  it("reads rules with their line numbers; an inline comment is no owner", () => {
    const parsed = parseCodeowners(file);
    expect(parsed.rules.map((rule) => [rule.line, rule.pattern, rule.owners])).toEqual([
      [2, "*", ["@global-owner1", "@global-owner2"]],
      [3, "*.js", ["@js-owner"]],
      [4, "/docs/", ["@org/docs-team"]],
      [6, "/docs/generated/", []],
      [7, "docs/*.md", ["docs@example.com"]],
      [11, "#notes.txt", ["@hash"]],
    ]);
  });

  it("skips the lines GitHub cannot parse (negation, ranges, an owner that is not one); the others apply", () => {
    expect(parseCodeowners(file).skipped).toEqual([
      { line: 8, reason: "negation" },
      { line: 9, reason: "range" },
      { line: 10, reason: "owner" },
    ]);
    // The skipped `/apps/` line does not take apps/ from the catch-all.
    expect(ownersOf(file, "apps/x.ts")).toEqual({ line: 2, owners: ["@global-owner1", "@global-owner2"] });
    expect(ownersOf(file, "docs/private/a.txt")).toEqual({ line: 4, owners: ["@org/docs-team"] });
  });

  it("gives the last matching rule, not the most specific one", () => {
    expect(ownersOf(file, "docs/intro.md")).toEqual({ line: 7, owners: ["docs@example.com"] });
    expect(ownersOf(file, "docs/tool.js")).toEqual({ line: 4, owners: ["@org/docs-team"] });
    expect(ownersOf(file, "src/tool.js")).toEqual({ line: 3, owners: ["@js-owner"] });
    expect(ownersOf(file, "#notes.txt")).toEqual({ line: 11, owners: ["@hash"] });
  });

  it("a rule with no owners leaves what it matches unowned, even under an owned folder", () => {
    expect(ownersOf(file, "docs/generated/api.txt")).toEqual({ line: 6, owners: [] });
  });

  it("no rule matches in a file without a catch-all", () => {
    expect(ownersOf("/src/ @a\n", "lib/x.ts")).toBeNull();
    expect(ownersOf("", "lib/x.ts")).toBeNull();
  });
});
