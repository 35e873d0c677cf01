import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FIXTURE_FILES, DEMO_ISSUES, DEMO_REFS } from "../../../src/sandbox/github/demoConstants.js";
import { runGitChecked } from "../../../src/sandbox/github/gitProcess.js";
import { OTHER_TOKEN, startGitHubStandIn, type GitHubStandIn } from "../../../src/sandbox/github/index.js";
import { graphql, rest } from "./helpers.js";

let standIn: GitHubStandIn;

beforeAll(async () => {
  standIn = await startGitHubStandIn();
});

afterAll(async () => {
  await standIn.close();
});

async function revParse(expression: string): Promise<string> {
  const gitDir = standIn.world.repository("demo", "widgets")!.gitDir;
  return (await runGitChecked(["rev-parse", expression], { gitDir })).toString("utf8").trim();
}

const ITEM = `query Item($number: Int!) { repository(owner: "demo", name: "widgets") {
  issueOrPullRequest(number: $number) { __typename
    ... on Issue { number title url state stateReason author { __typename login } createdAt updatedAt closedAt
      labels(first: 10) { totalCount nodes { name color } } assignees(first: 10) { nodes { login } }
      comments { totalCount } body
      closedByPullRequestsReferences(first: 5) { nodes { number } } }
    ... on PullRequest { number title url pullState: state isDraft mergedAt baseRefName headRefName reviewDecision
      additions deletions changedFiles mergeable author { login }
      closingIssuesReferences(first: 5) { nodes { number } }
      commits(last: 1) { nodes { commit { oid statusCheckRollup { state contexts(first: 0) {
        checkRunCount checkRunCountsByState { state count } statusContextCount statusContextCountsByState { state count } } } } } } } } } }`;

async function item(number: number, token?: string) {
  const answer = await graphql(standIn, ITEM, { number }, token);
  return answer.body;
}

describe("issues and pull requests on the local GitHub", () => {
  it("serves an open issue with labels, assignees, comments and the pull request that closes it", async () => {
    const { data } = await item(DEMO_ISSUES.open);
    expect(data.repository.issueOrPullRequest).toMatchObject({
      __typename: "Issue",
      number: 1,
      url: "https://github.com/demo/widgets/issues/1",
      state: "OPEN",
      stateReason: null,
      author: { __typename: "User", login: "alice" },
      labels: { totalCount: 2, nodes: [{ name: "bug", color: "d73a4a" }, { name: "`" }] },
      assignees: { nodes: [{ login: "bob" }, { login: "carol" }] },
      comments: { totalCount: 4 },
      closedByPullRequestsReferences: { nodes: [{ number: DEMO_ISSUES.openPull }] },
    });
  });

  it("tells closed as completed, not planned, reopened, and a deleted author", async () => {
    const [completed, notPlanned, reopened, hostile] = await Promise.all(
      [DEMO_ISSUES.completed, DEMO_ISSUES.notPlanned, DEMO_ISSUES.reopened, DEMO_ISSUES.hostile].map((n) =>
        item(n),
      ),
    );
    expect(completed.data.repository.issueOrPullRequest).toMatchObject({
      state: "CLOSED",
      stateReason: "COMPLETED",
      closedByPullRequestsReferences: { nodes: [{ number: DEMO_ISSUES.mergedPull }] },
    });
    expect(notPlanned.data.repository.issueOrPullRequest).toMatchObject({
      state: "CLOSED",
      stateReason: "NOT_PLANNED",
    });
    expect(reopened.data.repository.issueOrPullRequest).toMatchObject({
      state: "OPEN",
      stateReason: "REOPENED",
    });
    expect(hostile.data.repository.issueOrPullRequest).toMatchObject({ author: null });
    expect(hostile.data.repository.issueOrPullRequest.title).toContain("@everyone");
  });

  it("serves an open pull request: changes requested, a failing and a pending check, its diff from git", async () => {
    const { data } = await item(DEMO_ISSUES.openPull);
    const pull = data.repository.issueOrPullRequest;
    const base = await revParse(`main`);
    const diff = (
      await runGitChecked(["diff", "--numstat", base, DEMO_REFS.fixBranch], {
        gitDir: standIn.world.repository("demo", "widgets")!.gitDir,
      })
    )
      .toString("utf8")
      .trim()
      .split("\n")
      .map((line) => line.split("\t").map(Number));
    expect(pull).toMatchObject({
      __typename: "PullRequest",
      url: "https://github.com/demo/widgets/pull/5",
      pullState: "OPEN",
      isDraft: false,
      baseRefName: "main",
      headRefName: DEMO_REFS.fixBranch,
      reviewDecision: "CHANGES_REQUESTED",
      mergeable: "MERGEABLE",
      changedFiles: diff.length,
      additions: diff.reduce((sum, [added]) => sum + (added ?? 0), 0),
      deletions: diff.reduce((sum, [, deleted]) => sum + (deleted ?? 0), 0),
      closingIssuesReferences: { nodes: [{ number: DEMO_ISSUES.open }] },
    });
    const head = pull.commits.nodes[0].commit;
    expect(head.oid).toBe(await revParse(DEMO_REFS.fixBranch));
    expect(head.statusCheckRollup).toEqual({
      state: "FAILURE",
      contexts: {
        checkRunCount: 3,
        checkRunCountsByState: [
          { state: "SUCCESS", count: 1 },
          { state: "FAILURE", count: 1 },
          { state: "IN_PROGRESS", count: 1 },
        ],
        statusContextCount: 1,
        statusContextCountsByState: [{ state: "PENDING", count: 1 }],
      },
    });
  });

  it("serves merged, draft and closed-unmerged pull requests", async () => {
    const [merged, draft, closed] = await Promise.all(
      [DEMO_ISSUES.mergedPull, DEMO_ISSUES.draftPull, DEMO_ISSUES.closedPull].map((n) => item(n)),
    );
    expect(merged.data.repository.issueOrPullRequest).toMatchObject({
      pullState: "MERGED",
      mergedAt: "2019-03-20T16:00:00Z",
      reviewDecision: "APPROVED",
      changedFiles: 1,
      commits: { nodes: [{ commit: { statusCheckRollup: { state: "SUCCESS" } } }] },
    });
    expect(draft.data.repository.issueOrPullRequest).toMatchObject({
      pullState: "OPEN",
      isDraft: true,
      reviewDecision: "REVIEW_REQUIRED",
      mergeable: "UNKNOWN",
      commits: { nodes: [{ commit: { statusCheckRollup: null } }] },
    });
    expect(closed.data.repository.issueOrPullRequest).toMatchObject({
      pullState: "CLOSED",
      mergedAt: null,
      reviewDecision: null,
    });
  });

  it("answers an unknown number, and issue() on a pull request's number, with GitHub's NOT_FOUND", async () => {
    const missing = await item(999);
    expect(missing.data.repository.issueOrPullRequest).toBeNull();
    expect(missing.errors[0]).toMatchObject({
      type: "NOT_FOUND",
      path: ["repository", "issueOrPullRequest"],
      message: "Could not resolve to an issue or pull request with the number of 999.",
    });
    const wrongKind = await graphql(
      standIn,
      `{ repository(owner: "demo", name: "widgets") { issue(number: ${DEMO_ISSUES.openPull}) { title } } }`,
    );
    expect(wrongKind.body.errors[0]).toMatchObject({ type: "NOT_FOUND" });
  });

  it("hides a private repository's issues from a token that cannot see it", async () => {
    const query = `{ repository(owner: "demo", name: "secret") { issueOrPullRequest(number: 1) { ... on Issue { title } } } }`;
    expect((await graphql(standIn, query)).body.data.repository.issueOrPullRequest.title).toBe(
      "Pick the launch day",
    );
    expect((await graphql(standIn, query, {}, OTHER_TOKEN)).body.errors[0]).toMatchObject({
      type: "NOT_FOUND",
    });
  });
});

describe("commits on the local GitHub", () => {
  it("gives a commit's check suites, their runs, and the rollup's contexts as nodes", async () => {
    const { body } = await graphql(
      standIn,
      `
        query ($expression: String!) {
          repository(owner: "demo", name: "widgets") {
            object(expression: $expression) {
              ... on Commit {
                checkSuites(first: 5) {
                  totalCount
                  nodes {
                    app {
                      name
                    }
                    status
                    conclusion
                    checkRuns(first: 10) {
                      nodes {
                        name
                        status
                        conclusion
                      }
                    }
                  }
                }
                statusCheckRollup {
                  contexts(first: 10) {
                    totalCount
                    nodes {
                      __typename
                      ... on CheckRun {
                        name
                        conclusion
                      }
                      ... on StatusContext {
                        context
                        state
                      }
                    }
                  }
                }
              }
            }
          }
        }
      `,
      { expression: DEMO_REFS.fixBranch },
    );
    const commit = body.data.repository.object;
    expect(commit.checkSuites).toEqual({
      totalCount: 1,
      nodes: [
        {
          app: { name: "GitHub Actions" },
          status: "IN_PROGRESS",
          conclusion: null,
          checkRuns: {
            nodes: [
              { name: "build", status: "COMPLETED", conclusion: "SUCCESS" },
              { name: "test", status: "COMPLETED", conclusion: "FAILURE" },
              { name: "lint", status: "IN_PROGRESS", conclusion: null },
            ],
          },
        },
      ],
    });
    expect(commit.statusCheckRollup.contexts).toEqual({
      totalCount: 4,
      nodes: [
        { __typename: "CheckRun", name: "build", conclusion: "SUCCESS" },
        { __typename: "CheckRun", name: "test", conclusion: "FAILURE" },
        { __typename: "CheckRun", name: "lint", conclusion: null },
        { __typename: "StatusContext", context: "ci/coverage", state: "PENDING" },
      ],
    });
  });

  it("gives a commit's co-authors from its trailers, its +/-, files, checks and pull requests", async () => {
    const { body } = await graphql(
      standIn,
      `
        query ($expression: String!) {
          repository(owner: "demo", name: "widgets") {
            object(expression: $expression) {
              ... on Commit {
                authors(first: 5) {
                  totalCount
                  nodes {
                    name
                    email
                    user {
                      login
                    }
                  }
                }
                additions
                deletions
                changedFilesIfAvailable
                parents(first: 2) {
                  totalCount
                }
                statusCheckRollup {
                  state
                }
                associatedPullRequests(first: 5) {
                  nodes {
                    number
                  }
                }
              }
            }
          }
        }
      `,
      { expression: DEMO_REFS.fixturesBranch },
    );
    expect(body.data.repository.object).toEqual({
      authors: {
        totalCount: 3,
        nodes: [
          { name: "Carol Danvers", email: "carol@widgets.example", user: { login: "carol" } },
          { name: "Alice Liddell", email: "alice@widgets.example", user: { login: "alice" } },
          { name: "Mallory Unmapped", email: "mallory@nowhere.example", user: null },
        ],
      },
      additions: DEMO_FIXTURE_FILES * 2,
      deletions: 0,
      changedFilesIfAvailable: DEMO_FIXTURE_FILES,
      parents: { totalCount: 1 },
      statusCheckRollup: { state: "SUCCESS" },
      associatedPullRequests: { nodes: [{ number: DEMO_ISSUES.fixturesPull }] },
    });
  });

  it("lists a commit's files by REST, 300 a page with GitHub's Link header", async () => {
    const sha = await revParse(DEMO_REFS.fixturesBranch);
    const first = await rest(standIn, `/repos/demo/widgets/commits/${DEMO_REFS.fixturesBranch}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      sha,
      html_url: `https://github.com/demo/widgets/commit/${sha}`,
      author: { login: "carol" },
      stats: { additions: DEMO_FIXTURE_FILES * 2, deletions: 0, total: DEMO_FIXTURE_FILES * 2 },
    });
    expect(first.body.commit.message).toContain("Co-authored-by: Alice Liddell");
    expect(first.body.files).toHaveLength(300);
    expect(first.body.files[0]).toMatchObject({
      filename: "fixtures/case-001.txt",
      status: "added",
      additions: 2,
      deletions: 0,
      changes: 2,
    });
    const link = first.headers.get("link") ?? "";
    expect(link).toContain(`/repositories/700001/commits/${sha}?page=2>; rel="next"`);
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    const second = await rest(standIn, next.slice(standIn.restUrl.length));
    expect(second.body.files.map((file: { filename: string }) => file.filename)).toEqual([
      "fixtures/case-301.txt",
    ]);
    expect(second.headers.get("link")).toContain('rel="prev"');
  });

  it("answers 422 for a ref that names no commit, and 404 for a repository the token cannot see", async () => {
    const unknown = await rest(standIn, "/repos/demo/widgets/commits/no-such-branch");
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ message: "No commit found for SHA: no-such-branch" });
    expect((await rest(standIn, "/repos/demo/secret/commits/main", OTHER_TOKEN)).status).toBe(404);
  });
});
