import { describe, expect, it } from "vitest";
import type { CommitAnswer, IssueAnswer } from "../../src/github/issueTypes.js";
import { formatCommit } from "../../src/format/commit.js";
import { formatIssue } from "../../src/format/issue.js";
import { commitPreviewEmbed, issuePreviewEmbed, issueStateLine } from "../../src/format/linkPreview.js";
import { emptyMessage } from "../../src/format/message.js";
import { descriptionOf, expectValidMessage } from "./checks.js";

const NOW = new Date("2025-07-01T00:00:00Z");
const META = { freshness: { fetchedAt: NOW.toISOString(), fromCache: false }, now: NOW };
const REPOSITORY = {
  nameWithOwner: "demo/widgets",
  url: "https://github.com/demo/widgets",
  isPrivate: false,
  visibility: "PUBLIC" as const,
  defaultBranch: "main",
};
const HOSTILE = "@everyone <@123> ``` **bold** [x](https://evil.example) <#9> @here\n```\nline";

function pull(overrides: Partial<IssueAnswer> = {}): IssueAnswer {
  return {
    kind: "pullRequest",
    repository: REPOSITORY,
    number: 5,
    title: "Fix tick drift",
    url: "https://github.com/demo/widgets/pull/5",
    state: "open",
    author: "bob",
    createdAt: "2025-06-23T09:00:00Z",
    updatedAt: "2025-06-26T11:00:00Z",
    closedAt: null,
    labels: [{ name: "bug", color: "d73a4a" }],
    labelCount: 1,
    assignees: ["bob"],
    assigneeCount: 1,
    comments: 3,
    body: "Keeps the remainder.\n\nCloses #1",
    linked: [
      { number: 1, title: "Ticks drift", url: "https://github.com/demo/widgets/issues/1", state: "open" },
    ],
    linkedCount: 1,
    pullRequest: {
      base: "main",
      head: "fix/tick-drift",
      headOwner: null,
      reviewDecision: "CHANGES_REQUESTED",
      additions: 12,
      deletions: 3,
      changedFiles: 2,
      mergeable: "MERGEABLE",
      checks: { state: "FAILURE", passing: 1, failing: 1, pending: 2 },
      headOid: "a".repeat(40),
    },
    ...overrides,
  };
}

function commit(overrides: Partial<CommitAnswer> = {}): CommitAnswer {
  return {
    repository: REPOSITORY,
    oid: "b".repeat(40),
    abbreviatedOid: "bbbbbbb",
    url: `https://github.com/demo/widgets/commit/${"b".repeat(40)}`,
    headline: "Add a fixture for every gear case",
    body: "One file a case.\n\nCo-authored-by: Alice <alice@widgets.example>",
    authoredDate: "2025-06-24T08:00:00Z",
    committedDate: "2025-06-24T08:00:00Z",
    author: { name: "Carol Danvers", login: "carol" },
    coAuthors: [
      { name: "Alice Liddell", login: "alice" },
      { name: "Mallory", login: null },
    ],
    additions: 602,
    deletions: 0,
    changedFiles: 301,
    checks: { state: "SUCCESS", passing: 3, failing: 0, pending: 0 },
    pullRequests: [
      { number: 9, title: "Fixtures", url: "https://github.com/demo/widgets/pull/9", state: "open" },
    ],
    pullRequestCount: 1,
    isMerge: false,
    files: Array.from({ length: 300 }, (_, index) => ({
      path: `fixtures/case-${String(index + 1).padStart(3, "0")}.txt`,
      status: "added",
      additions: 2,
      deletions: 0,
    })),
    ...overrides,
  };
}

function fieldsOf(message: ReturnType<typeof formatIssue>): Record<string, string> {
  return Object.fromEntries((message.embeds[0]?.fields ?? []).map((field) => [field.name, field.value]));
}

describe("formatIssue", () => {
  it("shows a pull request's state, branches, review, checks with counts, changes, mergeable and what it closes", () => {
    const message = formatIssue(pull(), META);
    expectValidMessage(message);
    const embed = message.embeds[0]!;
    expect(embed.title).toBe("#5 Fix tick drift");
    expect(embed.url).toBe("https://github.com/demo/widgets/pull/5");
    expect(descriptionOf(message)).toContain("🟢 Open pull request · opened <t:");
    expect(descriptionOf(message)).toContain("by **bob**");
    expect(fieldsOf(message)).toMatchObject({
      Branches: "`main` ← `fix/tick-drift`",
      Review: "✋ changes requested",
      Checks: "❌ 1 failing · ⏳ 2 pending · ✅ 1 passing",
      Changes: "+12 −3 in 2 files",
      Mergeable: "yes, no conflicts",
      Labels: "`bug`",
      Closes: "[#1](https://github.com/demo/widgets/issues/1) Ticks drift (open)",
    });
  });

  it("words and colours every state, and leaves mergeable out once a pull request is done", () => {
    const cases = [
      [pull({ state: "merged", closedAt: "2025-06-27T00:00:00Z" }), "🟣 Merged pull request", 0x8250df],
      [pull({ state: "draft" }), "⚪ Draft pull request", 0x6e7781],
      [pull({ state: "closed" }), "🔴 Closed without merging pull request", 0xcf222e],
      [pull({ kind: "issue", state: "completed" }), "🟣 Closed as completed issue", 0x8250df],
      [pull({ kind: "issue", state: "notPlanned" }), "⚪ Closed as not planned issue", 0x6e7781],
    ] as const;
    for (const [answer, words, color] of cases) {
      const message = formatIssue(
        { ...answer, ...(answer.kind === "issue" ? { pullRequest: undefined } : {}) },
        META,
      );
      expect(descriptionOf(message)).toContain(words);
      expect(message.embeds[0]!.color).toBe(color);
    }
    expect(fieldsOf(formatIssue(pull({ state: "merged" }), META))).not.toHaveProperty("Mergeable");
  });

  it("keeps a hostile title, body, label and login as text: no ping, no markup, no open fence", () => {
    const message = formatIssue(
      pull({
        title: HOSTILE,
        body: `${HOSTILE}\n`.repeat(50),
        labels: [
          { name: "`", color: "000000" },
          { name: "@everyone ```", color: "000000" },
        ],
        labelCount: 2,
        author: null,
        assignees: ["@here"],
      }),
      META,
    );
    expectValidMessage(message);
    expect(fieldsOf(message).Labels).toBe("`` ` ``, `` @\u200beveryone `\u200b`\u200b` ``");
    expect(descriptionOf(message)).toContain("by ghost");
    expect(descriptionOf(message)).toContain("…");
    expect(descriptionOf(message)).not.toContain("](https://evil.example)");
  });

  it("stays within a small share of a message (several links in one reply) and within Discord's limits when huge", () => {
    const huge = pull({
      title: "t".repeat(1000),
      body: "word ".repeat(5000),
      labels: Array.from({ length: 20 }, (_, index) => ({
        name: `label-${index}-${"x".repeat(40)}`,
        color: "000000",
      })),
      labelCount: 100,
      linked: Array.from({ length: 5 }, (_, index) => ({
        number: index,
        title: "y".repeat(300),
        url: "https://github.com/demo/widgets/issues/1",
        state: "open" as const,
      })),
      linkedCount: 40,
    });
    expectValidMessage(formatIssue(huge, META));
    const shared = formatIssue(huge, { ...META, embedBudget: 1200 });
    expectValidMessage(shared);
    expect(fieldsOf(shared).Labels).toContain("and 90 more");
  });
});

describe("formatCommit", () => {
  it("shows author, co-authors, +/-, checks, its pull request and 20 of 301 files, pinned to the commit", () => {
    const message = formatCommit(commit(), { ...META, ref: "chore/fixtures" });
    expectValidMessage(message);
    const embed = message.embeds[0]!;
    expect(embed.title).toBe("Add a fixture for every gear case");
    expect(fieldsOf(message)).toMatchObject({
      Author: "**Carol Danvers** (carol)",
      "Co-authors": "**Alice Liddell** (alice), **Mallory**",
      Changes: "+602 −0 in 301 files",
      Checks: "✅ 3 passing",
    });
    const description = descriptionOf(message);
    expect(description).toContain("fixtures/case-020.txt");
    expect(description).not.toContain("fixtures/case-021.txt");
    expect(description).toContain("… and 281 more files");
    expect(embed.footer?.text).toBe("fetched now · chore/fixtures · pinned to bbbbbbb");
  });

  it("keeps a hostile message and paths as text, and fits a small share", () => {
    const hostile = commit({
      headline: HOSTILE,
      body: HOSTILE.repeat(40),
      files: [
        {
          path: "docs/```@everyone.md",
          status: "renamed",
          previousPath: "<@123>.md",
          additions: 1,
          deletions: 1,
        },
      ],
      changedFiles: 1,
    });
    expectValidMessage(formatCommit(hostile, META));
    expectValidMessage(formatCommit(hostile, { ...META, embedBudget: 900 }));
  });
});

describe("compact previews", () => {
  it("gives an issue or pull request's state line and a commit's headline and +/-", () => {
    expect(issueStateLine(pull())).toMatch(
      /^🟢 Open pull request by \*\*bob\*\* · ❌ 1 failing · ⏳ 2 pending · ✅ 1 passing · changes requested · \+12 −3 · updated <t:\d+:R>$/,
    );
    const issue = issuePreviewEmbed(
      pull({ kind: "issue", state: "notPlanned", pullRequest: undefined, comments: 1 }),
    );
    expect(issue.description).toContain("⚪ Closed as not planned issue by **bob** · 1 comment");
    const preview = commitPreviewEmbed(commit());
    expect(preview.title).toBe("Add a fixture for every gear case");
    expect(preview.description).toMatch(
      /^`bbbbbbb` by \*\*carol\*\* and 2 more · \+602 −0 in 301 files · ✅ 3 passing/,
    );
    const message = emptyMessage();
    message.embeds.push(
      issuePreviewEmbed(pull({ title: HOSTILE.repeat(10) })),
      commitPreviewEmbed(commit({ headline: HOSTILE })),
    );
    expectValidMessage(message);
  });
});
