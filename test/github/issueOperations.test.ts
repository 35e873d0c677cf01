import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IssueNotFoundError, RefNotFoundError, RepositoryNotFoundError } from "../../src/github/errors.js";
import type { GitHubClient } from "../../src/github/index.js";
import { DEMO_FIXTURE_FILES, DEMO_ISSUES, DEMO_REFS } from "../../src/sandbox/github/demoConstants.js";
import {
  DEMO_TOKEN,
  OTHER_TOKEN,
  startGitHubStandIn,
  type GitHubStandIn,
} from "../../src/sandbox/github/index.js";
import { standInClient } from "./standInClient.js";

const WIDGETS = { owner: "demo", name: "widgets" };
let standIn: GitHubStandIn;
let client: GitHubClient;

beforeAll(async () => {
  standIn = await startGitHubStandIn();
  client = standInClient(standIn);
});
afterAll(async () => {
  await standIn.close();
});

describe("fetchIssueOrPullRequest", () => {
  it("reads an open pull request: refs, review decision, +/-, mergeable, checks counted, issues it closes", async () => {
    const pull = await client.issueOrPullRequest(DEMO_TOKEN, { repo: WIDGETS, number: DEMO_ISSUES.openPull });
    expect(pull).toMatchObject({
      kind: "pullRequest",
      repository: { nameWithOwner: "demo/widgets", isPrivate: false, visibility: "PUBLIC" },
      number: 5,
      title: "Fix tick drift",
      state: "open",
      author: "bob",
      labels: [{ name: "bug", color: "d73a4a" }],
      assignees: ["bob"],
      comments: 3,
      linked: [{ number: 1, title: "Ticks drift after an hour", state: "open" }],
      pullRequest: {
        base: "main",
        head: DEMO_REFS.fixBranch,
        headOwner: null,
        reviewDecision: "CHANGES_REQUESTED",
        mergeable: "MERGEABLE",
        changedFiles: 2,
        checks: { state: "FAILURE", passing: 1, failing: 1, pending: 2 },
      },
    });
  });

  it("tells every state in words: completed, not planned, merged, draft, closed unmerged", async () => {
    const states = await Promise.all(
      [
        DEMO_ISSUES.open,
        DEMO_ISSUES.completed,
        DEMO_ISSUES.notPlanned,
        DEMO_ISSUES.reopened,
        DEMO_ISSUES.mergedPull,
        DEMO_ISSUES.draftPull,
        DEMO_ISSUES.closedPull,
      ].map(async (number) => (await client.issueOrPullRequest(DEMO_TOKEN, { repo: WIDGETS, number })).state),
    );
    expect(states).toEqual(["open", "completed", "notPlanned", "open", "merged", "draft", "closed"]);
  });

  it("reads an issue's closing pull requests, and a deleted author as null", async () => {
    const open = await client.issueOrPullRequest(DEMO_TOKEN, { repo: WIDGETS, number: DEMO_ISSUES.open });
    expect(open).toMatchObject({ kind: "issue", linked: [{ number: 5, state: "open" }], linkedCount: 1 });
    expect(open).not.toHaveProperty("pullRequest");
    const hostile = await client.issueOrPullRequest(DEMO_TOKEN, {
      repo: WIDGETS,
      number: DEMO_ISSUES.hostile,
    });
    expect(hostile.author).toBeNull();
  });

  it("fails with IssueNotFoundError for an unknown number, RepositoryNotFoundError for a hidden repository", async () => {
    await expect(
      client.issueOrPullRequest(DEMO_TOKEN, { repo: WIDGETS, number: 999 }),
    ).rejects.toBeInstanceOf(IssueNotFoundError);
    await expect(
      client.issueOrPullRequest(OTHER_TOKEN, { repo: { owner: "demo", name: "secret" }, number: 1 }),
    ).rejects.toBeInstanceOf(RepositoryNotFoundError);
  });
});

describe("fetchCommit", () => {
  it("reads a commit with co-authors, +/-, checks, its pull request and 300 files of 301", async () => {
    const commit = await client.commit(DEMO_TOKEN, { repo: WIDGETS, ref: DEMO_REFS.fixturesBranch });
    expect(commit).toMatchObject({
      headline: "Add a fixture for every gear case",
      author: { name: "Carol Danvers", login: "carol" },
      coAuthors: [
        { name: "Alice Liddell", login: "alice" },
        { name: "Mallory Unmapped", login: null },
      ],
      additions: DEMO_FIXTURE_FILES * 2,
      deletions: 0,
      changedFiles: DEMO_FIXTURE_FILES,
      checks: { state: "SUCCESS", passing: 3, failing: 0, pending: 0 },
      pullRequests: [{ number: DEMO_ISSUES.fixturesPull, state: "open" }],
      isMerge: false,
    });
    expect(commit.body).toContain("Co-authored-by:");
    expect(commit.files).toHaveLength(300);
    expect(commit.files[0]).toEqual({
      path: "fixtures/case-001.txt",
      status: "added",
      additions: 2,
      deletions: 0,
    });
    // The files were asked by the commit id the GraphQL answer pinned.
    expect(standIn.requests.some((request) => request.path.endsWith(`/commits/${commit.oid}`))).toBe(true);
  });

  it("follows the default branch and an annotated tag; an unknown ref is RefNotFoundError", async () => {
    const head = await client.commit(DEMO_TOKEN, { repo: WIDGETS });
    expect(head.checks).toBeNull();
    const tagged = await client.commit(DEMO_TOKEN, { repo: WIDGETS, ref: DEMO_REFS.annotatedTag });
    expect(tagged.oid).toMatch(/^[0-9a-f]{40}$/);
    await expect(client.commit(DEMO_TOKEN, { repo: WIDGETS, ref: "no-such-branch" })).rejects.toBeInstanceOf(
      RefNotFoundError,
    );
  });
});

describe("errors about what is inside a repository", () => {
  it("carry the repository GitHub showed, private, from /commit, /history and /owners as from /blame", async () => {
    // What lets a public-only token's answer be "the repository is private", not "no such ref".
    const secret = { owner: "demo", name: "secret" };
    const ref = "no-such-branch";
    const failures = await Promise.all([
      client.commit(DEMO_TOKEN, { repo: secret, ref }).catch((error: unknown) => error),
      client.history(DEMO_TOKEN, { repo: secret, ref, path: "", first: 10 }).catch((error: unknown) => error),
      client
        .ownersTree(DEMO_TOKEN, { repo: secret, ref, path: "", since: new Date(0) })
        .catch((error: unknown) => error),
      client.blame(DEMO_TOKEN, { repo: secret, ref, path: "README.md" }).catch((error: unknown) => error),
    ]);
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(RefNotFoundError);
      expect((failure as RefNotFoundError).seenRepository).toEqual({
        nameWithOwner: "demo/secret",
        isPrivate: true,
        visibility: "PRIVATE",
      });
    }
  });
});
