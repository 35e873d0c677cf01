import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type * as DemoWorldModule from "../../../src/sandbox/github/demoWorld.js";
import type { DemoWorld } from "../../../src/sandbox/github/demoWorld.js";
import { REPOS_PER_PAGE } from "../../../commands/repos.js";
import {
  DEMO_KATA_COUNT,
  DEMO_KATA_OWNER,
  DEMO_LONG_MESSAGE_HEADLINE,
  DEMO_PATHS,
  DEMO_REPOSITORIES,
  DEMO_TOKEN,
  OTHER_TOKEN,
  World,
} from "../../../src/sandbox/github/index.js";
import { runGit, runGitChecked } from "../../../src/sandbox/github/gitProcess.js";

let dataDir: string;
let worlds: DemoWorld[];
let world: World;

/** A fresh copy of the generator module, as a second test worker would have. */
async function freshGenerator(): Promise<typeof DemoWorldModule> {
  vi.resetModules();
  return import("../../../src/sandbox/github/demoWorld.js");
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "standin-demo-"));
  // Two generators that do not share memory race for the same folder.
  const [one, two] = [await freshGenerator(), await freshGenerator()];
  worlds = await Promise.all([one.ensureDemoWorld({ dataDir }), two.ensureDemoWorld({ dataDir })]);
  world = new World(worlds[0]!.definition);
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function git(repository: string, ...args: string[]): Promise<string> {
  const [owner = "", name = ""] = repository.split("/");
  return (await runGitChecked(args, { gitDir: world.repository(owner, name)!.gitDir })).toString("utf8");
}

describe("generating the demo world", () => {
  it("survives two generators racing for one folder: one wins, both use its world", async () => {
    expect(worlds[0]!.root).toBe(worlds[1]!.root);
    expect(worlds.filter((candidate) => candidate.generated).length).toBeGreaterThanOrEqual(1);
    expect(await readdir(dataDir)).toEqual([`github-demo-${worlds[0]!.stamp}`]);
    expect((await readFile(join(worlds[0]!.root, "STAMP"), "utf8")).trim()).toBe(worlds[0]!.stamp);
  });

  it("reuses a generated world, in a folder named after the generator's version stamp", async () => {
    const again = await (await freshGenerator()).ensureDemoWorld({ dataDir });
    expect(again.generated).toBe(false);
    expect(again.root).toBe(worlds[0]!.root);
    expect(again.stamp).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe("the demo world", () => {
  it("has tokens, users, an organization and at least five repositories for demo", () => {
    expect(world.userForToken(DEMO_TOKEN)?.login).toBe("demo-user");
    expect(world.userForToken(OTHER_TOKEN)?.login).toBe("other-user");
    expect(world.repositoriesOwnedBy("demo").length).toBeGreaterThanOrEqual(5);
    expect(world.repositoriesOwnedBy("demo-user").length).toBeGreaterThanOrEqual(2);
    const secret = world.repository("demo", "secret")!;
    expect(secret.isPrivate).toBe(true);
    expect(world.canSee("demo-user", secret)).toBe(true);
    expect(world.canSee("other-user", secret)).toBe(false);
    expect(world.repository("demo", "huge-history")!.contributorsTooLarge).toBe(true);
    expect(world.userForEmail("alice.liddell@oldmail.example")?.login).toBe("alice");
    expect(world.userForEmail("90015+erin@users.noreply.github.com")?.login).toBe("erin");
    expect(world.userForEmail("1+erin@users.noreply.github.com")).toBeUndefined();
  });

  it("gives one owner more repositories than a page of /repos, each pushed on its own day", () => {
    const katas = world.repositoriesOwnedBy(DEMO_KATA_OWNER);
    expect(katas).toHaveLength(DEMO_KATA_COUNT);
    expect(katas.length).toBeGreaterThan(REPOS_PER_PAGE * 2);
    expect(new Set(katas.map((repository) => repository.pushedAt)).size).toBe(katas.length);
    // One template: one git directory for all, so the world stays quick to generate.
    expect(new Set(katas.map((repository) => repository.gitDir)).size).toBe(1);
  });

  it("says what each repository is there for", () => {
    for (const repository of world.definition.repositories)
      expect(repository.note, repository.name).toMatch(/\S/);
  });

  it("gives widgets a 2,000-line file touched by 50 commits over years, by several authors", async () => {
    const lines =
      (await git(DEMO_REPOSITORIES.widgets, "show", `main:${DEMO_PATHS.engine}`)).split("\n").length - 1;
    expect(lines).toBeGreaterThan(1900);
    expect(lines).toBeLessThan(2100);
    const touches = (
      await git(DEMO_REPOSITORIES.widgets, "log", "--format=%ct %aE", "main", "--", DEMO_PATHS.engine)
    )
      .trim()
      .split("\n");
    expect(touches).toHaveLength(50);
    const times = touches.map((line) => Number(line.split(" ")[0]));
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(8 * 365 * 86400);
    expect(new Set(touches.map((line) => line.split(" ")[1])).size).toBeGreaterThanOrEqual(5);
  });

  it("says in its note (what /demo shows) the line and commit counts its git history holds", async () => {
    const lines =
      (await git(DEMO_REPOSITORIES.widgets, "show", `main:${DEMO_PATHS.engine}`)).split("\n").length - 1;
    const commits = (
      await git(DEMO_REPOSITORIES.widgets, "log", "--format=%H", "main", "--", DEMO_PATHS.engine)
    )
      .trim()
      .split("\n").length;
    const widgets = world.repository("demo", "widgets")!;
    expect(widgets.note).toContain(
      `blame ${DEMO_PATHS.engine} (${lines.toLocaleString("en-US")} lines, ${commits} commits)`,
    );
  });

  it("gives widgets the files the bot must render", async () => {
    const tree = await git(
      DEMO_REPOSITORIES.widgets,
      "-c",
      "core.quotePath=false",
      "ls-tree",
      "-r",
      "-l",
      "main",
    );
    for (const path of Object.values(DEMO_PATHS).filter((path) => path !== DEMO_PATHS.nestedFolder)) {
      expect(tree, path).toContain(`\t${path}`);
    }
    const wide = (await git(DEMO_REPOSITORIES.widgets, "show", `main:${DEMO_PATHS.wide}`))
      .split("\n")
      .slice(0, -1);
    expect(wide).toHaveLength(3000);
    expect(new Set(wide.map((line) => line.length))).toEqual(new Set([200]));
    const hostile = await git(DEMO_REPOSITORIES.widgets, "show", `main:${DEMO_PATHS.hostile}`);
    for (const needle of ["```", "@everyone", "<@123>"]) expect(hostile).toContain(needle);
    const large = Number(
      (await git(DEMO_REPOSITORIES.widgets, "cat-file", "-s", `main:${DEMO_PATHS.large}`)).trim(),
    );
    expect(large).toBeGreaterThan(512_000);
    const logo = await runGit(["cat-file", "blob", `main:${DEMO_PATHS.logo}`], {
      gitDir: world.repository("demo", "widgets")!.gitDir,
    });
    expect(logo.stdout.subarray(1, 4).toString("latin1")).toBe("PNG");
    const long = await git(
      DEMO_REPOSITORIES.widgets,
      "log",
      "--format=%B%x00",
      "--grep",
      DEMO_LONG_MESSAGE_HEADLINE,
      "main",
    );
    expect(long.split("\0")[0]!.replace(/\n+$/, "")).toHaveLength(5000);
    const messages = await git(DEMO_REPOSITORIES.widgets, "log", "--format=%B", "main");
    expect(messages).toContain("@everyone");
  });

  it("has an empty repository and a crowd of 75 accounts and 10 guests", async () => {
    expect(await git(DEMO_REPOSITORIES.empty, "for-each-ref")).toBe("");
    const emails = new Set(
      (await git(DEMO_REPOSITORIES.crowd, "log", "--format=%aE", "main")).trim().split("\n"),
    );
    const accounts = new Set([...emails].map((email) => world.userForEmail(email)?.login).filter(Boolean));
    expect(accounts.size).toBe(75);
    expect([...emails].filter((email) => !world.userForEmail(email))).toHaveLength(10);
  });
});
