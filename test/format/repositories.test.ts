import { describe, expect, it } from "vitest";
import { ZWSP } from "../../src/format/escape.js";
import { formatRepositories } from "../../src/format/repositories.js";
import type { RepositoriesPage, RepositorySummary } from "../../src/github/types.js";
import { descriptionOf, expectValidMessage } from "./checks.js";
import { FRESH, NOW } from "./fixtures.js";

const meta = { freshness: FRESH, now: NOW };

function repository(name: string, overrides: Partial<RepositorySummary> = {}): RepositorySummary {
  return {
    name,
    nameWithOwner: `octo/${name}`,
    url: `https://github.com/octo/${name}`,
    pushedAt: "2024-05-01T10:00:00Z",
    isPrivate: false,
    visibility: "PUBLIC",
    description: `The ${name} project`,
    ...overrides,
  };
}

function page(
  repositories: RepositorySummary[],
  overrides: Partial<RepositoriesPage> = {},
): RepositoriesPage {
  return {
    owner: { login: "octo", type: "Organization" },
    totalCount: 42,
    repositories,
    pageInfo: { startCursor: "a", endCursor: "b", hasNextPage: true, hasPreviousPage: true },
    ...overrides,
  };
}

describe("formatRepositories", () => {
  const message = formatRepositories(
    page([
      repository("widgets"),
      repository("secret", { isPrivate: true, visibility: "PRIVATE", pushedAt: null, description: null }),
    ]),
    { sort: "pushed", pageNumber: 2, perPage: 10 },
    { ...meta, buttons: { previous: "repos:p", next: "repos:n" } },
  );

  it("titles the owner, counts the total and the page", () => {
    expectValidMessage(message);
    expect(message.embeds[0]!.title).toBe("Repositories of octo (organization)");
    expect(message.embeds[0]!.url).toBe("https://github.com/octo");
    expect(descriptionOf(message).split("\n")[0]).toBe(
      "**42** repositories · most recently pushed first · page 2 (11–12)",
    );
  });

  it("links each name, marks private ones, gives the last push and the description", () => {
    const lines = descriptionOf(message).split("\n");
    expect(lines[1]).toBe(
      `[widgets](https://github.com/octo/widgets) · pushed <t:${Date.parse("2024-05-01T10:00:00Z") / 1000}:R> — The widgets project`,
    );
    expect(lines[2]).toBe("[secret](https://github.com/octo/secret) 🔒 · never pushed");
  });

  it("has Previous, Next and Open on GitHub buttons", () => {
    expect(message.components[0]!.components).toMatchObject([
      { custom_id: "repos:p", label: "◀ Previous" },
      { custom_id: "repos:n", label: "Next ▶" },
      { label: "Open on GitHub", url: "https://github.com/octo" },
    ]);
  });

  it("escapes hostile descriptions onto one short line", () => {
    const hostile = formatRepositories(
      page([
        repository("x", {
          description: `*_~|> @everyone <@1> [x](https://evil.example)\n# heading ${"y".repeat(5000)}`,
        }),
      ]),
      { sort: "name", pageNumber: 1, perPage: 30 },
      meta,
    );
    expectValidMessage(hostile);
    const line = descriptionOf(hostile).split("\n")[1]!;
    expect(line).toContain(`\\*\\_\\~\\|\\> @${ZWSP}everyone`);
    expect(line).toContain("\\# heading");
    expect(line.endsWith("…")).toBe(true);
    expect(descriptionOf(hostile)).toContain("by name");
  });

  it("fits a page of 100 repositories with long names and descriptions", () => {
    const many = Array.from({ length: 100 }, (_, index) =>
      repository(`${"n".repeat(90)}${index}`, { description: "d".repeat(400) }),
    );
    const big = formatRepositories(
      page(many, { totalCount: 5000 }),
      { sort: "pushed", pageNumber: 1, perPage: 100 },
      meta,
    );
    expectValidMessage(big);
    expect(descriptionOf(big)).toMatch(/… \d+ more on this page, in the attachment\./);
    expect(big.files[0]!.data.toString()).toContain(`octo/${"n".repeat(90)}99`);
  });

  it("says when an owner has no repositories, and shows a user without '(organization)'", () => {
    const empty = formatRepositories(
      page([], { totalCount: 0, owner: { login: "solo", type: "User" } }),
      { sort: "pushed", pageNumber: 1, perPage: 10 },
      meta,
    );
    expectValidMessage(empty);
    expect(empty.embeds[0]!.title).toBe("Repositories of solo");
    expect(descriptionOf(empty)).toContain("solo has no repositories this token can see.");
    expect(empty.components[0]!.components.every((button) => button.disabled)).toBe(true);
  });
});
