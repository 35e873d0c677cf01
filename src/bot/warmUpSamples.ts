import type { CommitAnswer, IssueAnswer } from "../github/issueTypes.js";
import type { BlameAnswer, BlameCommit, ContentsAnswer, RepositoryHeader } from "../github/types.js";

/**
 * Built-in sample answers for the warm-up (see warmUp.ts): shaped like GitHub's, and holding the
 * text that makes formatting work (backticks, a code fence, mentions, markdown, long lines), so the
 * first real answers meet escaping, fitting and the attachment already compiled. `round` makes each
 * round a new answer, as a burst of different questions would be.
 */
export function sampleAnswers(round: number): {
  blame: BlameAnswer;
  contents: ContentsAnswer;
  issue: IssueAnswer;
  commit: CommitAnswer;
} {
  const repository: RepositoryHeader = {
    nameWithOwner: `reposcout/sample-${round}`,
    url: `https://github.com/reposcout/sample-${round}`,
    isPrivate: false,
    visibility: "PUBLIC",
    defaultBranch: "main",
  };
  const oid = (n: number) => (round * 7 + n).toString(16).padStart(40, "a");
  const pinned = {
    oid: oid(0),
    url: `${repository.url}/commit/${oid(0)}`,
    committedDate: "2025-05-01T10:00:00Z",
  };
  const text = Array.from({ length: 80 }, (_, index) =>
    index % 9 === 4
      ? `  // \`${index}\` @everyone <@${round}> **bold** \`\`\` fence ${"x".repeat(index * 2)}`
      : `export const value${index} = compute(${index}, "${"word ".repeat(index % 7)}");`,
  ).join("\n");
  const file = {
    kind: "text" as const,
    text: `${text}\n`,
    byteSize: Buffer.byteLength(text) + 1,
    isTruncated: false,
  };
  const commit = (n: number): BlameCommit => ({
    oid: oid(n),
    abbreviatedOid: oid(n).slice(0, 7),
    messageHeadline: `Change ${n}: fix \`parse\` for @here [link](https://example.com)`,
    url: `${repository.url}/commit/${oid(n)}`,
    authoredDate: `2025-0${1 + (n % 4)}-1${n % 10}T12:00:00Z`,
    committedDate: `2025-0${1 + (n % 4)}-1${n % 10}T12:00:00Z`,
    authorName: `Author ${n}`,
    authorLogin: n % 2 === 0 ? `author-${n}` : null,
  });
  const ranges = Array.from({ length: 10 }, (_, index) => ({
    startingLine: index * 8 + 1,
    endingLine: index * 8 + 8,
    age: (index % 10) + 1,
    commit: commit(index % 4),
  }));
  const blame: BlameAnswer = { repository, commit: pinned, path: "src/sample.ts", file, ranges };
  const contents: ContentsAnswer = { kind: "blob", repository, commit: pinned, path: "src/sample.ts", file };
  const issue: IssueAnswer = {
    kind: "pullRequest",
    repository,
    number: round + 1,
    title: "Fix `parse` for <@1> and @everyone **now**",
    url: `${repository.url}/pull/${round + 1}`,
    state: "open",
    author: "author-1",
    createdAt: "2025-05-01T10:00:00Z",
    updatedAt: "2025-05-02T10:00:00Z",
    closedAt: null,
    labels: [{ name: "bug `x`", color: "d73a4a" }],
    labelCount: 1,
    assignees: ["author-2"],
    assigneeCount: 1,
    comments: 3,
    body: `${text.slice(0, 1500)}\n\`\`\`ts\nconst a = 1;\n\`\`\``,
    linked: [{ number: 1, title: "An issue @here", url: `${repository.url}/issues/1`, state: "completed" }],
    linkedCount: 1,
    pullRequest: {
      base: "main",
      head: "fix/parse",
      headOwner: "reposcout",
      reviewDecision: "REVIEW_REQUIRED",
      additions: 12,
      deletions: 3,
      changedFiles: 2,
      mergeable: "MERGEABLE",
      checks: { state: "SUCCESS", passing: 4, failing: 0, pending: 0 },
      headOid: oid(5),
    },
  };
  const sampleCommit: CommitAnswer = {
    repository,
    oid: oid(0),
    abbreviatedOid: oid(0).slice(0, 7),
    url: pinned.url,
    headline: "Change 0: fix `parse` for @here",
    body: text.slice(0, 800),
    authoredDate: "2025-05-01T10:00:00Z",
    committedDate: "2025-05-01T10:00:00Z",
    author: { name: "Author 0", login: "author-0" },
    coAuthors: [{ name: "Author 1", login: null }],
    additions: 12,
    deletions: 3,
    changedFiles: 2,
    checks: { state: "SUCCESS", passing: 4, failing: 0, pending: 0 },
    pullRequests: [{ number: 2, title: "Fix it", url: `${repository.url}/pull/2`, state: "merged" }],
    pullRequestCount: 1,
    isMerge: false,
    files: [
      { path: "src/sample.ts", status: "modified", additions: 10, deletions: 2 },
      { path: "src/new.ts", previousPath: "src/old.ts", status: "renamed", additions: 2, deletions: 1 },
    ],
  };
  return { blame, contents, issue, commit: sampleCommit };
}
