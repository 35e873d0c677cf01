import { describe, expect, it } from "vitest";
import { githubLinksOf, linkKey } from "../../src/input/githubLinks.js";

const HOSTS = ["github.com"];
const WIDGETS = { owner: "demo", name: "widgets" };

function kinds(content: string, options: Parameters<typeof githubLinksOf>[1] = { webHosts: HOSTS }) {
  return githubLinksOf(content, options).links.map((link) => [link.kind, linkKey(link)]);
}

describe("GitHub links in a message", () => {
  it("reads issue and pull request URLs, with their tails, as the issue or pull request", () => {
    const found = githubLinksOf(
      "see https://github.com/demo/widgets/issues/3 and https://github.com/demo/widgets/pull/7/files, " +
        "https://github.com/demo/widgets/pull/8#issuecomment-1 https://github.com/Demo/Widgets/pull/7/checks",
      { webHosts: HOSTS },
    );
    expect(found.links).toMatchObject([
      { kind: "issue", repo: WIDGETS, number: 3, form: "url" },
      { kind: "issue", repo: WIDGETS, number: 7, url: "https://github.com/demo/widgets/pull/7/files" },
      { kind: "issue", repo: WIDGETS, number: 8 },
    ]);
  });

  it("reads commit URLs, a pull request's commit included, 7 to 40 hex digits", () => {
    const sha = "a".repeat(40);
    const found = githubLinksOf(
      `https://github.com/demo/widgets/commit/${sha} https://github.com/demo/widgets/pull/7/commits/ABCDEF1 ` +
        "https://github.com/demo/widgets/commit/abc12 https://github.com/demo/widgets/commit/xyz1234",
      { webHosts: HOSTS },
    );
    expect(found.links).toMatchObject([
      { kind: "commit", repo: WIDGETS, sha },
      { kind: "commit", repo: WIDGETS, sha: "abcdef1" },
    ]);
    expect(found.unsupported).toBe(2);
  });

  it("reads files with and without a line anchor, folders and repositories", () => {
    const found = githubLinksOf(
      "https://github.com/demo/widgets/blob/main/src/engine.ts#L10-L20 " +
        "https://github.com/demo/widgets/blob/main/README.md " +
        "https://github.com/demo/widgets/tree/main/docs https://github.com/demo/gadgets.",
      { webHosts: HOSTS },
    );
    expect(found.links).toMatchObject([
      { kind: "file", argument: { path: "src/engine.ts", lines: { start: 10, end: 20 } } },
      { kind: "file", argument: { path: "README.md" } },
      { kind: "folder", argument: { path: "docs", ref: "main" } },
      { kind: "repository", repo: { owner: "demo", name: "gadgets" } },
    ]);
    expect(found.links[1]).not.toHaveProperty("argument.lines");
  });

  it("reads owner/name#N anywhere, and a bare #N only with a default repository", () => {
    const text = "fixed in demo/gadgets#12 (was #4), see &#38; <#123456789> and issue#5";
    expect(kinds(text)).toEqual([["issue", "issue demo/gadgets#12"]]);
    expect(kinds(text, { webHosts: HOSTS, defaultRepo: WIDGETS })).toEqual([
      ["issue", "issue demo/gadgets#12"],
      ["issue", "issue demo/widgets#4"],
    ]);
  });

  it("never reads a URL's fragment or path as a reference", () => {
    expect(
      kinds("https://example.com/demo/widgets#12 https://github.com/demo/widgets/pull/9#3", {
        webHosts: HOSTS,
        defaultRepo: WIDGETS,
      }),
    ).toEqual([["issue", "issue demo/widgets#9"]]);
  });

  it("keeps the order written, drops repeats whatever their spelling, and counts links past the maximum", () => {
    const found = githubLinksOf(
      "demo/widgets#2 https://github.com/demo/widgets/issues/1 https://github.com/DEMO/widgets/pull/2 " +
        "#3 #4 #5 #6",
      { webHosts: HOSTS, defaultRepo: WIDGETS },
    );
    expect(found.links.map((link) => (link.kind === "issue" ? link.number : 0))).toEqual([2, 1, 3, 4, 5]);
    expect(found.skipped).toBe(1);
  });

  it("tells the host of a link elsewhere, and counts GitHub pages that are no answer", () => {
    const found = githubLinksOf(
      "https://gitlab.com/a/b https://github.com/demo https://github.com/demo/widgets/compare/a...b",
      { webHosts: HOSTS },
    );
    expect(found).toEqual({ links: [], skipped: 0, otherHost: "gitlab.com", unsupported: 2 });
  });

  it("leaves out links in <...>, code blocks and inline code when asked (automatic previews)", () => {
    const text =
      "<https://github.com/demo/widgets/pull/1> `https://github.com/demo/widgets/pull/2` " +
      "```\nhttps://github.com/demo/widgets/pull/3\n#9\n``` ``demo/widgets#4`` " +
      "https://github.com/demo/widgets/pull/5 demo/widgets#6";
    expect(kinds(text, { webHosts: HOSTS, defaultRepo: WIDGETS, skipSuppressed: true })).toEqual([
      ["issue", "issue demo/widgets#5"],
      ["issue", "issue demo/widgets#6"],
    ]);
    expect(kinds(text, { webHosts: HOSTS, max: 10 })).toHaveLength(6);
  });

  it("reads a link in a markdown link and one after an unclosed fence", () => {
    expect(
      kinds(
        "[the fix](https://github.com/demo/widgets/pull/12) ```https://github.com/demo/widgets/issues/3",
        {
          webHosts: HOSTS,
          skipSuppressed: true,
        },
      ),
    ).toEqual([
      ["issue", "issue demo/widgets#12"],
      ["issue", "issue demo/widgets#3"],
    ]);
  });
});
