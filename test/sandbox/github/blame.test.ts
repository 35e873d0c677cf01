import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_LONG_MESSAGE_HEADLINE,
  DEMO_PATHS,
  DEMO_TOKEN,
  startGitHubStandIn,
  type GitHubStandIn,
} from "../../../src/sandbox/github/index.js";
import {
  FastImportScript,
  initBareRepository,
  runFastImport,
} from "../../../src/sandbox/github/fastImport.js";
import { runGitChecked } from "../../../src/sandbox/github/gitProcess.js";
import { DOCUMENTS, graphql } from "./helpers.js";

interface Range {
  startingLine: number;
  endingLine: number;
  age: number;
  commit: { oid: string; committedDate: string; messageHeadline: string };
}

let standIn: GitHubStandIn;
let widgetsGitDir: string;

beforeAll(async () => {
  standIn = await startGitHubStandIn();
  widgetsGitDir = standIn.world.repository("demo", "widgets")!.gitDir;
});

afterAll(async () => {
  await standIn.close();
});

async function git(...args: string[]): Promise<string> {
  return (await runGitChecked(args, { gitDir: widgetsGitDir })).toString("utf8");
}

async function blame(expression: string, path: string): Promise<Range[]> {
  const answer = await graphql(standIn, DOCUMENTS.blame, {
    owner: "demo",
    name: "widgets",
    expression,
    path,
  });
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data.repository.object.blame.ranges;
}

/** The commit of every line, as `git blame` itself says. */
async function gitBlameLines(commit: string, path: string): Promise<string[]> {
  const output = await git("blame", "--line-porcelain", commit, "--", path);
  return output
    .split("\n")
    .filter((line) => /^[0-9a-f]{40} \d+ \d+/.test(line))
    .map((line) => line.slice(0, 40));
}

function expand(ranges: Range[]): string[] {
  return ranges.flatMap((range) =>
    Array.from({ length: range.endingLine - range.startingLine + 1 }, () => range.commit.oid),
  );
}

describe("blame of the 2,000-line demo file", () => {
  it("equals git blame at the tip and at older commits", async () => {
    const commits = (await git("log", "--format=%H", "main", "--", DEMO_PATHS.engine)).trim().split("\n");
    expect(commits.length).toBe(50);
    for (const commit of [commits[0]!, commits[10]!, commits[25]!, commits[49]!]) {
      const ranges = await blame(commit, DEMO_PATHS.engine);
      expect(expand(ranges)).toEqual(await gitBlameLines(commit, DEMO_PATHS.engine));
    }
  });

  it("gives sorted, 1-based, inclusive ranges that cover the file, adjacent lines of a commit merged", async () => {
    const ranges = await blame("main", DEMO_PATHS.engine);
    const lineCount = (await git("show", `main:${DEMO_PATHS.engine}`)).split("\n").length - 1;
    expect(lineCount).toBeGreaterThan(1900);
    expect(ranges[0]!.startingLine).toBe(1);
    expect(ranges[ranges.length - 1]!.endingLine).toBe(lineCount);
    ranges.forEach((range, index) => {
      expect(range.endingLine).toBeGreaterThanOrEqual(range.startingLine);
      const previous = ranges[index - 1];
      if (previous) {
        expect(range.startingLine).toBe(previous.endingLine + 1);
        expect(range.commit.oid).not.toBe(previous.commit.oid);
      }
    });
    // One commit owns several ranges that are not adjacent.
    const initial = ranges.filter((range) => range.commit.messageHeadline.startsWith("Initial commit"));
    expect(initial.length).toBeGreaterThan(1);
  });

  it("spreads ages over 1 (newest) to 10 (oldest) by recency", async () => {
    const ranges = await blame("main", DEMO_PATHS.engine);
    expect(new Set(ranges.map((range) => range.age))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    const byTime = [...ranges].sort(
      (a, b) => Date.parse(b.commit.committedDate) - Date.parse(a.commit.committedDate),
    );
    expect(byTime[0]!.age).toBe(1);
    expect(byTime[byTime.length - 1]!.age).toBe(10);
    for (let index = 1; index < byTime.length; index += 1) {
      expect(byTime[index]!.age).toBeGreaterThanOrEqual(byTime[index - 1]!.age);
    }
  });

  it("answers the same ranges again at the same commit id", async () => {
    const tip = (await git("rev-parse", "main")).trim();
    const first = await blame(tip, DEMO_PATHS.engine);
    const again = await blame(tip, DEMO_PATHS.engine);
    expect(again).toEqual(first);
  });
});

describe("blame of other files", () => {
  it("gives age 10 to a file with one commit", async () => {
    const ranges = await blame("main", DEMO_PATHS.hostile);
    expect(ranges.map((range) => range.age)).toEqual([10]);
  });

  it("blames a binary file as git does: a range per run of its newline-separated bytes", async () => {
    // GITHUB-FACTS.md says nothing of blame on a binary file; GitHub's blame is git's, which
    // splits any content at its newline bytes. The demo PNG was added, then changed once.
    const ranges = await blame("main", DEMO_PATHS.logo);
    expect(expand(ranges)).toEqual(await gitBlameLines("main", DEMO_PATHS.logo));
    const headlines = new Set(ranges.map((range) => range.commit.messageHeadline));
    expect(headlines).toEqual(new Set(["Add the widget logo", "Update the logo"]));
    const last = (await git("log", "-1", "--format=%H", "main", "--", DEMO_PATHS.logo)).trim();
    const newest = [...ranges].sort(
      (a, b) => Date.parse(b.commit.committedDate) - Date.parse(a.commit.committedDate),
    )[0]!;
    expect(newest.commit.oid).toBe(last);
  });

  it("gives no ranges for an empty file", async () => {
    expect(await blame("main", DEMO_PATHS.emptyFile)).toEqual([]);
  });

  it("answers NOT_FOUND for a folder, like a missing path", async () => {
    const answer = await graphql(standIn, DOCUMENTS.blame, {
      owner: "demo",
      name: "widgets",
      expression: "main",
      path: "src",
    });
    expect(answer.body.errors[0]).toMatchObject({
      type: "NOT_FOUND",
      path: ["repository", "object", "blame"],
    });
  });

  it("carries hostile text and a 5,000-character message as they are", async () => {
    const hostile = await blame("main", DEMO_PATHS.hostile);
    expect(hostile[0]!.commit.messageHeadline).toContain("```");
    expect(hostile[0]!.commit.messageHeadline).toContain("@everyone");
    expect(hostile[0]!.commit.messageHeadline).toContain("<@123>");

    const oid = (await git("log", "--format=%H", "--grep", DEMO_LONG_MESSAGE_HEADLINE, "main")).trim();
    const answer = await graphql(
      standIn,
      `
        query ($oid: GitObjectID!) {
          repository(owner: "demo", name: "widgets") {
            object(oid: $oid) {
              ... on Commit {
                message
                messageHeadline
                messageBody
              }
            }
          }
        }
      `,
      { oid },
    );
    const commit = answer.body.data.repository.object;
    expect(commit.message).toHaveLength(5000);
    expect(commit.messageHeadline).toBe(DEMO_LONG_MESSAGE_HEADLINE);
    expect(commit.messageBody.length).toBeGreaterThan(4800);
  });
});

describe("answers that follow refs", () => {
  let folder: string;
  let other: GitHubStandIn;
  let gitDir: string;
  let first: string;
  let second: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "standin-refs-"));
    gitDir = join(folder, "moving.git");
    await initBareRepository(gitDir, "main");
    const script = new FastImportScript();
    const author = { name: "Alice Liddell", email: "alice@widgets.example", timezone: "+0000" };
    const one = script.commit({
      ref: "refs/heads/main",
      author: { ...author, time: 1_600_000_000 },
      message: "one\n",
      changes: [{ path: "a.txt", content: "first\n" }],
    });
    script.commit({
      ref: "refs/heads/main",
      from: one,
      author: { ...author, time: 1_600_100_000 },
      message: "two\n",
      changes: [{ path: "a.txt", content: "first\nsecond\n" }],
    });
    script.reset("refs/heads/other", one);
    await runFastImport(gitDir, script);
    const log = (await runGitChecked(["log", "--format=%H", "main"], { gitDir }))
      .toString("utf8")
      .trim()
      .split("\n");
    [second, first] = log as [string, string];
    other = await startGitHubStandIn({
      world: {
        users: [{ login: "alice", id: 1, emails: ["alice@widgets.example"] }],
        organizations: [],
        repositories: [{ owner: "alice", name: "moving", id: 10, gitDir }],
        tokens: { [DEMO_TOKEN]: "alice" },
      },
    });
  });

  afterAll(async () => {
    await other.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("sees a branch move and a new default branch between identical queries", async () => {
    const variables = { owner: "alice", name: "moving", expression: "main", path: "a.txt" };
    const before = await graphql(other, DOCUMENTS.blame, variables);
    expect(before.body.data.repository.object.oid).toBe(second);
    expect(before.body.data.repository.object.blame.ranges).toHaveLength(2);
    expect((await graphql(other, DOCUMENTS.blame, variables)).body).toEqual(before.body);

    await runGitChecked(["update-ref", "refs/heads/main", first], { gitDir });
    const after = await graphql(other, DOCUMENTS.blame, variables);
    expect(after.body.data.repository.object.oid).toBe(first);
    expect(after.body.data.repository.object.blame.ranges).toHaveLength(1);

    await writeFile(join(gitDir, "HEAD"), "ref: refs/heads/other\n");
    const renamed = await graphql(other, DOCUMENTS.blame, variables);
    expect(renamed.body.data.repository.defaultBranchRef).toEqual({ name: "other" });
  });
});
