import { DEMO_ISSUES, DEMO_REFS, DEMO_REPOSITORIES } from "./demoConstants.js";
import type { WorldCommitChecks, WorldIssue, WorldLabel } from "./worldIssues.js";

const BUG: WorldLabel = { name: "bug", color: "d73a4a", description: "Something isn't working" };
const GEARS: WorldLabel = { name: "area: gears", color: "0e8a16" };
/** A label named with a backtick: text, never markup. */
const BACKTICK: WorldLabel = { name: "`", color: "ededed" };
const HOSTILE_LABEL: WorldLabel = { name: "@everyone ```", color: "000000" };
const WONTFIX: WorldLabel = { name: "wontfix", color: "ffffff" };

const I = DEMO_ISSUES;

/** The issues and pull requests of `demo/widgets`: every state GitHub gives, one number sequence. */
function widgetsIssues(): WorldIssue[] {
  return [
    {
      number: I.open,
      title: "Ticks drift after an hour",
      body:
        "After an hour of running, every widget is a tick late.\n\n```ts\nsetInterval(tick, 1000);\n```\n\n" +
        "Steps: start the engine, wait an hour, compare the clocks.",
      author: "alice",
      createdAt: "2025-06-22T08:00:00Z",
      updatedAt: "2025-06-25T10:30:00Z",
      state: "OPEN",
      labels: [BUG, BACKTICK],
      assignees: ["bob", "carol"],
      comments: 4,
    },
    {
      number: I.completed,
      title: "Gears slip under load",
      body: "Ratios go wrong when the load is high.",
      author: "carol",
      createdAt: "2019-03-01T09:00:00Z",
      updatedAt: "2019-03-20T16:00:00Z",
      closedAt: "2019-03-20T16:00:00Z",
      state: "CLOSED",
      stateReason: "COMPLETED",
      labels: [BUG, GEARS],
      assignees: ["alice"],
      comments: 2,
    },
    {
      number: I.mergedPull,
      title: "Gears: a module and a ratio helper",
      body: "Adds `src/gears.ts`.\n\nFixes #2",
      author: "alice",
      createdAt: "2019-03-10T09:00:00Z",
      updatedAt: "2019-03-20T16:00:00Z",
      closedAt: "2019-03-20T16:00:00Z",
      state: "CLOSED",
      labels: [GEARS],
      comments: 1,
      pullRequest: {
        baseRefName: DEMO_REFS.defaultBranch,
        headRefName: DEMO_REFS.featureBranch,
        // Merged since: its diff is kept from where the branch started.
        diffBase: `${DEMO_REFS.featureBranch}~2`,
        mergedAt: "2019-03-20T16:00:00Z",
        reviews: [{ author: "bob", state: "APPROVED", submittedAt: "2019-03-19T12:00:00Z" }],
        reviewRequired: true,
        closes: [I.completed],
      },
    },
    {
      number: I.notPlanned,
      title: "Rewrite the engine in another language",
      author: "dave",
      createdAt: "2024-01-05T10:00:00Z",
      updatedAt: "2024-01-06T10:00:00Z",
      closedAt: "2024-01-06T10:00:00Z",
      state: "CLOSED",
      stateReason: "NOT_PLANNED",
      labels: [WONTFIX],
      comments: 12,
    },
    {
      number: I.openPull,
      title: "Fix tick drift",
      body: "Keeps the remainder of each tick.\n\nCloses #1",
      author: "bob",
      createdAt: "2025-06-23T09:00:00Z",
      updatedAt: "2025-06-26T11:00:00Z",
      state: "OPEN",
      labels: [BUG],
      assignees: ["bob"],
      comments: 3,
      pullRequest: {
        baseRefName: DEMO_REFS.defaultBranch,
        headRefName: DEMO_REFS.fixBranch,
        reviews: [
          { author: "alice", state: "APPROVED", submittedAt: "2025-06-24T09:00:00Z" },
          { author: "carol", state: "CHANGES_REQUESTED", submittedAt: "2025-06-25T09:00:00Z" },
        ],
        reviewRequired: true,
        mergeable: "MERGEABLE",
        closes: [I.open],
      },
    },
    {
      number: I.hostile,
      title: "@everyone <@123> ``` **look** [here](https://example.com)",
      body: "@here ```\nnot closed\n<@&456> <#789>",
      // A deleted account: `author` is null.
      author: null,
      createdAt: "2025-05-01T00:00:00Z",
      updatedAt: "2025-05-01T00:00:00Z",
      state: "OPEN",
      labels: [HOSTILE_LABEL, BACKTICK],
      comments: 0,
    },
    {
      number: I.draftPull,
      title: "WIP: faster ticks",
      body: "",
      author: "carol",
      createdAt: "2025-06-21T17:00:00Z",
      updatedAt: "2025-06-21T17:00:00Z",
      state: "OPEN",
      comments: 0,
      pullRequest: {
        baseRefName: DEMO_REFS.defaultBranch,
        headRefName: DEMO_REFS.develop,
        isDraft: true,
        reviewRequired: true,
        mergeable: "UNKNOWN",
      },
    },
    {
      number: I.closedPull,
      title: "Spin the gears backwards",
      author: "dave",
      createdAt: "2025-06-23T12:00:00Z",
      updatedAt: "2025-06-24T12:00:00Z",
      closedAt: "2025-06-24T12:00:00Z",
      state: "CLOSED",
      comments: 1,
      pullRequest: {
        baseRefName: DEMO_REFS.defaultBranch,
        headRefName: DEMO_REFS.spinBranch,
        reviews: [{ author: "alice", state: "COMMENTED", submittedAt: "2025-06-24T10:00:00Z" }],
        mergeable: "CONFLICTING",
      },
    },
    {
      number: I.fixturesPull,
      title: "Add a fixture for every gear case",
      body: "301 fixtures, written by three of us.",
      author: "carol",
      createdAt: "2025-06-24T08:00:00Z",
      updatedAt: "2025-06-24T08:00:00Z",
      state: "OPEN",
      comments: 0,
      pullRequest: { baseRefName: DEMO_REFS.defaultBranch, headRefName: DEMO_REFS.fixturesBranch },
    },
    {
      number: I.reopened,
      title: "Logo looks blurry",
      author: "erin",
      createdAt: "2024-05-01T00:00:00Z",
      updatedAt: "2024-06-01T00:00:00Z",
      state: "OPEN",
      stateReason: "REOPENED",
      comments: 2,
    },
  ];
}

/** Checks reported on `demo/widgets` commits, by revision. */
function widgetsChecks(): WorldCommitChecks[] {
  return [
    {
      commit: DEMO_REFS.fixBranch,
      runs: [
        { name: "build", status: "COMPLETED", conclusion: "SUCCESS" },
        { name: "test", status: "COMPLETED", conclusion: "FAILURE" },
        { name: "lint", status: "IN_PROGRESS" },
      ],
      statuses: [{ context: "ci/coverage", state: "PENDING" }],
    },
    {
      commit: DEMO_REFS.featureBranch,
      runs: [
        { name: "build", status: "COMPLETED", conclusion: "SUCCESS" },
        { name: "test", status: "COMPLETED", conclusion: "SUCCESS" },
      ],
    },
    {
      commit: DEMO_REFS.fixturesBranch,
      runs: [
        { name: "build", status: "COMPLETED", conclusion: "SUCCESS" },
        { name: "test", status: "COMPLETED", conclusion: "SKIPPED" },
      ],
      statuses: [{ context: "ci/coverage", state: "SUCCESS" }],
    },
    {
      commit: DEMO_REFS.spinBranch,
      runs: [{ name: "build", status: "COMPLETED", conclusion: "CANCELLED" }],
    },
  ];
}

/** Issues and checks of the demo world's repositories, by `owner/name`. */
export function demoIssuesByRepository(): Record<
  string,
  { issues: WorldIssue[]; checks: WorldCommitChecks[] }
> {
  return {
    [DEMO_REPOSITORIES.widgets]: { issues: widgetsIssues(), checks: widgetsChecks() },
    [DEMO_REPOSITORIES.secret]: {
      issues: [
        {
          number: 1,
          title: "Pick the launch day",
          body: "Members only: Tuesday or Thursday?",
          author: "alice",
          createdAt: "2024-09-04T09:00:00Z",
          updatedAt: "2024-09-05T09:00:00Z",
          state: "OPEN",
          comments: 1,
        },
      ],
      checks: [],
    },
  };
}
