import { describe, expect, it } from "vitest";
import { formatContributors } from "../../src/format/contributors.js";
import { ZWSP } from "../../src/format/escape.js";
import type { Contributor, ContributorsPage } from "../../src/github/types.js";
import { descriptionOf, expectValidMessage, renderedTexts } from "./checks.js";
import { FRESH, NOW } from "./fixtures.js";

const meta = { freshness: FRESH, now: NOW };
const view = { repo: "octo/widgets", repoUrl: "https://github.com/octo/widgets" };

function page(contributors: Contributor[], overrides: Partial<ContributorsPage> = {}): ContributorsPage {
  return {
    page: 2,
    perPage: 30,
    contributors,
    lastPage: 5,
    hasNextPage: true,
    hasPreviousPage: true,
    ...overrides,
  };
}

describe("formatContributors", () => {
  const message = formatContributors(
    page([
      {
        kind: "account",
        login: "alice",
        htmlUrl: "https://github.com/alice",
        type: "User",
        contributions: 1234,
      },
      {
        kind: "account",
        login: "dependabot[bot]",
        htmlUrl: "https://github.com/apps/dependabot",
        type: "Bot",
        contributions: 99,
      },
      { kind: "anonymous", name: "Jane Doe", email: "jane@example.com", contributions: 1 },
      { kind: "anonymous", name: null, email: "ghost@example.com", contributions: 7 },
    ]),
    view,
    { ...meta, buttons: { previous: "contributors:p" } },
  );

  it("says the page out of the last page", () => {
    expectValidMessage(message);
    expect(message.embeds[0]!.title).toBe("Contributors of octo/widgets");
    expect(message.embeds[0]!.url).toBe("https://github.com/octo/widgets");
    expect(descriptionOf(message).split("\n")[0]).toBe("Page 2 of 5");
  });

  it("ranks and links contributors, marks bots and anonymous ones, and never shows an email", () => {
    expect(descriptionOf(message).split("\n").slice(1)).toEqual([
      "**31.** [alice](https://github.com/alice) · 1,234 contributions",
      "**32.** [dependabot\\[bot\\]](https://github.com/apps/dependabot) 🤖 · 99 contributions",
      "**33.** Jane Doe (anonymous, no GitHub account) · 1 contribution",
      "**34.** anonymous (no GitHub account) · 7 contributions",
    ]);
    for (const text of renderedTexts(message)) expect(text).not.toMatch(/@example\.com/);
  });

  it("has Previous, a disabled Next when no id is given, and a link to the graph", () => {
    expect(message.components[0]!.components).toMatchObject([
      { custom_id: "contributors:p" },
      { disabled: true, label: "Next ▶" },
      { url: "https://github.com/octo/widgets/graphs/contributors" },
    ]);
  });

  it("says 'Page N' when the last page is unknown, and explains an empty page", () => {
    const empty = formatContributors(page([], { lastPage: 3, page: 4 }), view, meta);
    expectValidMessage(empty);
    expect(descriptionOf(empty)).toContain("the last page is 3");
    const unknown = formatContributors(page([], { lastPage: null, page: 1 }), { repo: "a/b" }, meta);
    expect(descriptionOf(unknown)).toContain("Page 1\nNo contributors on this page.");
    expect(unknown.embeds[0]!.url).toBeUndefined();
  });

  it("escapes hostile names", () => {
    const hostile = formatContributors(
      page([
        {
          kind: "anonymous",
          name: "@everyone <@1> *_~|> [x](https://evil.example)",
          email: null,
          contributions: 1,
        },
        { kind: "account", login: "a_b", htmlUrl: "javascript:alert(1)", type: "User", contributions: 1 },
      ]),
      view,
      meta,
    );
    expectValidMessage(hostile);
    expect(descriptionOf(hostile)).toContain(`@${ZWSP}everyone <${ZWSP}@1\\> \\*\\_\\~\\|\\>`);
    // A link that is not http(s) is shown as plain text.
    expect(descriptionOf(hostile)).toContain("**32.** a\\_b · 1 contribution");
  });

  it("fits 100 contributors with long logins", () => {
    const many: Contributor[] = Array.from({ length: 100 }, (_, index) => ({
      kind: "account",
      login: `${"l".repeat(38)}${index}`,
      htmlUrl: `https://github.com/${"l".repeat(38)}${index}`,
      type: "User",
      contributions: 1000 - index,
    }));
    const big = formatContributors(page(many, { perPage: 100 }), view, meta);
    expectValidMessage(big);
    expect(descriptionOf(big)).toMatch(/… \d+ more on this page, in the attachment\./);
    expect(big.files[0]!.data.toString()).toContain(`${"l".repeat(38)}99`);
  });
});
