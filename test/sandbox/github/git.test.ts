import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDemoWorld, World, DEMO_PATHS } from "../../../src/sandbox/github/index.js";
import { CatFileProcess } from "../../../src/sandbox/github/catFile.js";
import { gitEnvironment, runGit } from "../../../src/sandbox/github/gitProcess.js";
import {
  GitRepository,
  isSafeExpression,
  isSafeTreePath,
} from "../../../src/sandbox/github/gitRepository.js";

let repository: GitRepository;

beforeAll(async () => {
  const world = new World((await ensureDemoWorld()).definition);
  repository = new GitRepository(world.repository("demo", "widgets")!.gitDir);
});

afterAll(() => {
  repository.close();
});

describe("running git safely", () => {
  it("runs git without system or global configuration and without the caller's environment", () => {
    const environment = gitEnvironment();
    expect(environment.GIT_CONFIG_NOSYSTEM).toBe("1");
    expect(environment.GIT_CONFIG_GLOBAL).toBe("/dev/null");
    expect(
      Object.keys(environment).filter((key) => key.startsWith("GIT_") && !/CONFIG|PROMPT|LOCKS/.test(key)),
    ).toEqual([]);
  });

  it("runs git through the runner: input and binary output whole, exit codes, a git that is not there", async () => {
    // 3 MB of every byte value in, its object id out, and the same bytes back out of git.
    const bytes = Buffer.alloc(3 * 1024 * 1024);
    for (let index = 0; index < bytes.length; index++) bytes[index] = (index * 7) % 256;
    const [hashed, failed] = await Promise.all([
      runGit(["hash-object", "--stdin"], { input: bytes }),
      runGit(["rev-parse", "--verify", "no-such-ref"], { gitDir: repository.gitDir }),
    ]);
    expect(hashed.code).toBe(0);
    const blobId = createHash("sha1")
      .update(Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes]))
      .digest("hex");
    expect(hashed.stdout.toString("utf8").trim()).toBe(blobId);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).not.toBe("");
    const shown = await runGit(["show", "HEAD:" + DEMO_PATHS.engine], { gitDir: repository.gitDir });
    expect(shown.code).toBe(0);
    expect(shown.stdout.length).toBeGreaterThan(0);
    await expect(runGit(["--version"], { gitBinary: "/nonexistent/git" })).rejects.toMatchObject({
      code: "ENOENT",
    });
    // The runner is still there for the next command.
    expect((await runGit(["--version"])).stdout.toString("utf8")).toMatch(/^git version /);
  });

  it("never lets an expression or a path pass as an option", () => {
    expect(isSafeExpression("main")).toBe(true);
    expect(isSafeExpression("main:src/a.ts")).toBe(true);
    expect(isSafeExpression("-h")).toBe(false);
    expect(isSafeExpression("--output=/tmp/x")).toBe(false);
    expect(isSafeExpression("main\ncontents HEAD")).toBe(false);
    expect(isSafeExpression("")).toBe(false);
    // These make cat-file abort in a bare repository.
    expect(isSafeExpression("main:./README.md")).toBe(false);
    expect(isSafeExpression("HEAD:../x")).toBe(false);
    expect(isSafeExpression("main@{upstream}")).toBe(false);
    expect(isSafeExpression("main:docs/./x")).toBe(true);
    expect(isSafeTreePath("src/a.ts")).toBe(true);
    expect(isSafeTreePath("/etc/passwd")).toBe(false);
    expect(isSafeTreePath("src/../../x")).toBe(false);
    expect(isSafeTreePath("src//a.ts")).toBe(false);
  });

  it("resolves rev-parse expressions through the long-lived cat-file", async () => {
    const tip = await repository.resolve("main");
    expect(tip?.type).toBe("commit");
    expect((await repository.resolve("HEAD"))?.oid).toBe(tip?.oid);
    expect((await repository.resolve(`main:${DEMO_PATHS.engine}`))?.type).toBe("blob");
    expect((await repository.resolve(`${tip!.oid}:src`))?.type).toBe("tree");
    expect((await repository.resolve("v1.0.0"))?.type).toBe("tag");
    expect(await repository.resolve("-h")).toBeNull();
    expect(await repository.resolve("main\ninfo HEAD")).toBeNull();
    expect(await repository.resolve("no-such-ref")).toBeNull();
  });

  it("answers many concurrent reads, large and small, each with its own object", async () => {
    const names = [DEMO_PATHS.engine, DEMO_PATHS.large, DEMO_PATHS.readme, DEMO_PATHS.logo, DEMO_PATHS.wide];
    const infos = await Promise.all(names.map((name) => repository.resolve(`main:${name}`)));
    const reads = await Promise.all(
      Array.from({ length: 100 }, (_, index) => repository.object(infos[index % names.length]!.oid)),
    );
    reads.forEach((object, index) => {
      expect(object?.content.length).toBe(infos[index % names.length]!.size);
    });
  });

  it("blames nothing for a path that could be an option or is missing", async () => {
    const tip = (await repository.resolve("main"))!.oid;
    expect(await repository.blame(tip, "--help")).toBeNull();
    expect(await repository.blame(tip, "nope")).toBeNull();
    expect(await repository.blame("main", DEMO_PATHS.readme)).toBeNull();
  });

  it("survives a command that kills cat-file: that one fails, the others are answered", async () => {
    const reader = new CatFileProcess(repository.gitDir);
    try {
      const before = reader.info("main");
      const fatal = reader.info("main:./README.md");
      const after = Promise.all([reader.info("HEAD"), reader.contents(`main:${DEMO_PATHS.readme}`)]);
      expect((await before)?.type).toBe("commit");
      await expect(fatal).rejects.toThrow(/exited/);
      const [head, readme] = await after;
      expect(head?.type).toBe("commit");
      expect(readme?.content.toString("utf8")).toMatch(/^# widgets/);
      expect((await reader.info("main"))?.type).toBe("commit");
    } finally {
      reader.close();
    }
  });

  it("fails requests once closed", async () => {
    const closing = new GitRepository(repository.gitDir);
    expect(await closing.resolve("main")).not.toBeNull();
    closing.close();
    await expect(closing.resolve("main")).rejects.toThrow(/closed/);
  });
});
