import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGitHubStandIn, type GitHubStandIn } from "../../../src/sandbox/github/index.js";
import { DEMO_CODEOWNERS_PATH, DEMO_PARTS, partPath } from "../../../src/sandbox/github/demoOwnership.js";
import { runGitChecked } from "../../../src/sandbox/github/gitProcess.js";
import { graphql } from "./helpers.js";

let standIn: GitHubStandIn;
let gitDir: string;

beforeAll(async () => {
  standIn = await startGitHubStandIn();
  gitDir = standIn.world.repository("demo", "widgets")!.gitDir;
});

afterAll(async () => {
  await standIn.close();
});

async function git(...args: string[]): Promise<string> {
  return (await runGitChecked(args, { gitDir })).toString("utf8");
}

const HISTORY = `query H($owner: String!, $name: String!, $expression: String!, $path: String, $first: Int, $after: String, $since: GitTimestamp, $until: GitTimestamp, $author: CommitAuthor) {
  repository(owner: $owner, name: $name) { object(expression: $expression) { ... on Commit {
    history(path: $path, first: $first, after: $after, since: $since, until: $until, author: $author) {
      totalCount pageInfo { hasNextPage endCursor }
      nodes { oid additions deletions author { email user { login } } committedDate } } } } } }`;

interface HistoryPage {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: Array<{ oid: string; additions: number; deletions: number; author: { email: string } }>;
}

async function history(variables: Record<string, unknown>): Promise<HistoryPage> {
  const answer = await graphql(standIn, HISTORY, {
    owner: "demo",
    name: "widgets",
    expression: "main",
    first: 100,
    ...variables,
  });
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data.repository.object.history;
}

/** `git log --format=%H` with extra arguments, as a list of ids. */
async function gitLog(...args: string[]): Promise<string[]> {
  return (await git("log", "--format=%H", ...args)).split("\n").filter(Boolean);
}

describe("Commit.history on the stand-in", () => {
  it("lists the commits that touched a file, newest first, as git log -- path does", async () => {
    const page = await history({ path: "src/lib/util/strings.ts" });
    const expected = await gitLog("main", "--", "src/lib/util/strings.ts");
    expect(page.nodes.map((node) => node.oid)).toEqual(expected);
    expect(page.totalCount).toBe(expected.length);
  });

  it("lists a folder's commits and the whole history without a path", async () => {
    const folder = await history({ path: `${DEMO_PARTS.folder}/` });
    expect(folder.nodes.map((node) => node.oid)).toEqual(await gitLog("main", "--", DEMO_PARTS.folder));
    const all = await history({ first: 5 });
    expect(all.totalCount).toBe((await gitLog("main")).length);
  });

  it("pages with first and after until hasNextPage is false", async () => {
    const expected = await gitLog("main", "--", "src/engine.ts");
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: HistoryPage = await history({ path: "src/engine.ts", first: 10, after });
      seen.push(...page.nodes.map((node) => node.oid));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(expected);
  });

  it("counts additions and deletions of the whole commit, as git's numstat does", async () => {
    const page = await history({ path: partPath(42), first: 3 });
    for (const node of page.nodes) {
      const numstat = (await git("show", "--numstat", "--format=", "--diff-merges=first-parent", node.oid))
        .split("\n")
        .filter(Boolean)
        .map((line) => line.split("\t"));
      const sum = (column: 0 | 1) =>
        numstat.reduce((total, fields) => total + (fields[column] === "-" ? 0 : Number(fields[column])), 0);
      expect([node.additions, node.deletions]).toEqual([sum(0), sum(1)]);
    }
    expect(page.nodes.some((node) => node.additions > 1)).toBe(true);
  });

  it("filters by since and until on the committer date", async () => {
    const page = await history({ since: "2025-05-04T00:00:00Z", until: "2025-05-13T00:00:00Z" });
    const expected = await gitLog("main", "--since=2025-05-04T00:00:00Z", "--until=2025-05-13T00:00:00Z");
    expect(page.nodes.map((node) => node.oid)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });

  it("filters by author emails, and by account id across both of an account's emails", async () => {
    const byEmail = await history({ author: { emails: ["alice.liddell@oldmail.example"] } });
    expect(byEmail.nodes.map((node) => node.oid)).toEqual(
      await gitLog("main", "--author=alice.liddell@oldmail.example"),
    );
    const alice = standIn.world.user("alice")!;
    const id = Buffer.from(`04:User${alice.id}`).toString("base64");
    const byAccount = await history({ author: { id } });
    const both = await gitLog(
      "main",
      "--author=alice@widgets.example",
      "--author=alice.liddell@oldmail.example",
    );
    expect(byAccount.nodes.map((node) => node.oid)).toEqual(both);
    expect(byAccount.totalCount).toBeGreaterThan(byEmail.totalCount);
  });

  it("refuses more than 100 a page, as connections do", async () => {
    const answer = await graphql(standIn, HISTORY, {
      owner: "demo",
      name: "widgets",
      expression: "main",
      first: 101,
    });
    expect(answer.body.errors[0].type).toBe("EXCESSIVE_PAGINATION");
  });
});

describe("blame of many files in one request", () => {
  it("answers aliased blames of many files, each as git blame sees it", async () => {
    const paths = Array.from({ length: 12 }, (_, index) => partPath(index + 1));
    const aliases = paths
      .map(
        (_, index) =>
          `f${index}: object(expression: "main") { ... on Commit { blame(path: $p${index}) { ranges { startingLine endingLine commit { oid } } } } }`,
      )
      .join("\n");
    const variables = paths.map((_, index) => `$p${index}: String!`).join(", ");
    const query = `query Many($owner: String!, $name: String!, ${variables}) { repository(owner: $owner, name: $name) { ${aliases} } }`;
    const answer = await graphql(standIn, query, {
      owner: "demo",
      name: "widgets",
      ...Object.fromEntries(paths.map((path, index) => [`p${index}`, path])),
    });
    expect(answer.body.errors).toBeUndefined();
    for (const [index, path] of paths.entries()) {
      const lines = (await git("blame", "--line-porcelain", "main", "--", path))
        .split("\n")
        .filter((line) => /^[0-9a-f]{40} \d+ \d+/.test(line))
        .map((line) => line.slice(0, 40));
      const ranges = answer.body.data.repository[`f${index}`].blame.ranges as Array<{
        startingLine: number;
        endingLine: number;
        commit: { oid: string };
      }>;
      const fromRanges = ranges.flatMap((range) =>
        Array.from({ length: range.endingLine - range.startingLine + 1 }, () => range.commit.oid),
      );
      expect(fromRanges, path).toEqual(lines);
    }
  });

  it("refuses a query over GitHub's node limit before running it, and charges nothing", async () => {
    const used = async (): Promise<number> =>
      (await graphql(standIn, "query { rateLimit { used } }")).body.data.rateLimit.used as number;
    const before = await used();
    // 100 + 100 x 100 + 100 x 100 x 60 = 610,100 possible nodes, past 500,000 at the third history.
    const query = `query Big { repository(owner: "demo", name: "widgets") { object(expression: "main") { ... on Commit {
      history(first: 100) { nodes { history(first: 100) { nodes { history(first: 60) { totalCount } } } } } } } } }`;
    const answer = await graphql(standIn, query);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toEqual([
      {
        type: "MAX_NODE_LIMIT_EXCEEDED",
        message:
          "By the time this query traverses to the history connection, it is requesting up to 610,100 possible nodes which exceeds the maximum limit of 500,000.",
      },
    ]);
    // Only the two rateLimit reads were charged.
    expect(await used()).toBe(before + 1);
  });
});

describe("the demo world's ownership content", () => {
  it("has a CODEOWNERS file and a folder of 150 entries, one binary", async () => {
    expect(await git("show", `main:${DEMO_CODEOWNERS_PATH}`)).toContain("@demo/maintainers");
    const entries = (await git("ls-tree", "--name-only", `main:${DEMO_PARTS.folder}`))
      .split("\n")
      .filter(Boolean);
    expect(entries).toHaveLength(DEMO_PARTS.entries);
    expect(entries).toContain("diagram.png");
    const authors = new Set(
      (await git("log", "--format=%aE", "main", "--", DEMO_PARTS.folder)).split("\n").filter(Boolean),
    );
    expect(authors.size).toBeGreaterThanOrEqual(8);
    expect(authors).toContain("alice@widgets.example");
    expect(authors).toContain("alice.liddell@oldmail.example");
  });
});
