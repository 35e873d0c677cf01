import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors.js";
import { parseLines } from "../../src/input/linesArgument.js";
import { parsePath } from "../../src/input/pathArgument.js";
import { parseRef } from "../../src/input/refArgument.js";
import { parseOwner, parseRepoArgument } from "../../src/input/repoArgument.js";

const HOSTS = ["github.com", "ghe.example.com"];

function optionOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionError);
    return (error as InvalidOptionError).option;
  }
  throw new Error("expected an InvalidOptionError");
}

describe("repo option", () => {
  it("takes owner/name", () => {
    expect(parseRepoArgument("octo-org/widgets.js", HOSTS)).toEqual({
      repo: { owner: "octo-org", name: "widgets.js" },
    });
  });

  it("takes the repository URL, with or without scheme, .git or a trailing slash", () => {
    for (const url of [
      "https://github.com/demo/widgets",
      "https://github.com/demo/widgets/",
      "github.com/demo/widgets",
      "https://www.github.com/demo/widgets.git",
    ]) {
      expect(parseRepoArgument(url, HOSTS).repo).toEqual({ owner: "demo", name: "widgets" });
    }
  });

  it("fills ref, path and lines from a file URL", () => {
    expect(
      parseRepoArgument("https://github.com/demo/widgets/blob/main/src/engine.ts#L10-L20", HOSTS),
    ).toMatchObject({
      repo: { owner: "demo", name: "widgets" },
      kind: "blob",
      ref: "main",
      path: "src/engine.ts",
      lines: { start: 10, end: 20 },
    });
    expect(
      parseRepoArgument("https://github.com/demo/widgets/blob/a1b2c3d/README.md#L7", HOSTS).lines,
    ).toEqual({
      start: 7,
      end: 7,
    });
  });

  it("reads GitHub's column anchors as lines", () => {
    expect(
      parseRepoArgument("https://github.com/demo/widgets/blob/main/a.ts#L10C5-L20C3", HOSTS).lines,
    ).toEqual({
      start: 10,
      end: 20,
    });
  });

  it("offers every way to split a URL's ref and path, for branches named with a slash", () => {
    const parsed = parseRepoArgument(
      "https://github.com/demo/widgets/blob/feature/gears/src/gears.ts",
      HOSTS,
    );
    expect(parsed.ref).toBe("feature");
    expect(parsed.splits).toEqual([
      { ref: "feature", path: "gears/src/gears.ts" },
      { ref: "feature/gears", path: "src/gears.ts" },
      { ref: "feature/gears/src", path: "gears.ts" },
      { ref: "feature/gears/src/gears.ts", path: "" },
    ]);
    expect(parseRepoArgument("https://github.com/demo/widgets/blob/main", HOSTS).splits).toBeUndefined();
  });

  it("fills ref and path from a folder URL on an Enterprise host, decoding segments", () => {
    expect(
      parseRepoArgument("https://ghe.example.com/team/app/tree/v1.0/docs/my%20notes", HOSTS),
    ).toMatchObject({
      repo: { owner: "team", name: "app" },
      kind: "tree",
      ref: "v1.0",
      path: "docs/my notes",
    });
  });

  it.each([
    ["widgets"],
    ["a/b/c"],
    ["-demo/widgets"],
    ["demo--x/widgets"],
    ["demo/.."],
    ["demo/wid gets"],
    ["https://gitlab.com/demo/widgets"],
    ["https://github.com/demo/widgets/issues/3"],
    ["https://github.com/demo/widgets/blob/main/../../etc/passwd"],
    ["https://github.com/demo/widgets/blob/main/a.ts#L20-L10"],
    ["https://github.com/demo/widgets/blob/-x/a.ts"],
    [""],
  ])("refuses %j, naming the repo option", (value) => {
    expect(optionOf(() => parseRepoArgument(value, HOSTS))).toBe("repo");
  });

  it("owner logins follow GitHub's rule", () => {
    expect(parseOwner("demo-user")).toBe("demo-user");
    expect(parseOwner("@demo")).toBe("demo");
    expect(optionOf(() => parseOwner("a".repeat(40)))).toBe("owner");
    expect(optionOf(() => parseOwner("bad_name"))).toBe("owner");
  });
});

describe("lines option", () => {
  it("takes a line or a span", () => {
    expect(parseLines("12")).toEqual({ start: 12, end: 12 });
    expect(parseLines("12-40")).toEqual({ start: 12, end: 40 });
    expect(parseLines(" L3 - L9 ")).toEqual({ start: 3, end: 9 });
  });

  it.each(["50-10", "0", "0-3", "abc", "1-", "-5", "1-2-3", ""])("refuses %j", (value) => {
    expect(optionOf(() => parseLines(value))).toBe("lines");
  });

  it("says a backwards span ends before it starts", () => {
    expect(() => parseLines("50-10")).toThrow(/ends before it starts/);
  });
});

describe("path option", () => {
  it("normalizes slashes and accepts the root", () => {
    expect(parsePath("/src//app.ts/")).toBe("src/app.ts");
    expect(parsePath("")).toBe("");
  });

  it.each(["../secret", "src/../../x", "a/./b", "a\u0000b", "a\nb"])("refuses %j", (value) => {
    expect(optionOf(() => parsePath(value))).toBe("path");
  });
});

describe("ref option", () => {
  it("takes branches, tags, commit ids and revisions", () => {
    for (const ref of ["main", "feature/x", "v1.2.0", "a1b2c3d", "main~2", "HEAD^"]) {
      expect(parseRef(ref)).toBe(ref);
    }
  });

  it.each(["main:secret", "-x", "a..b", "a b", "x@{1}", "a.lock", ""])("refuses %j", (value) => {
    expect(optionOf(() => parseRef(value))).toBe("ref");
  });
});
