import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_PATHS,
  DEMO_TOKEN,
  OTHER_TOKEN,
  startGitHubStandIn,
  type GitHubStandIn,
} from "../../../src/sandbox/github/index.js";
import { runGitChecked } from "../../../src/sandbox/github/gitProcess.js";
import { DOCUMENTS, graphql, locationOf } from "./helpers.js";

let standIn: GitHubStandIn;

beforeAll(async () => {
  standIn = await startGitHubStandIn();
});

afterAll(async () => {
  await standIn.close();
});

async function git(repository: string, ...args: string[]): Promise<string> {
  const [owner = "", name = ""] = repository.split("/");
  const found = standIn.world.repository(owner, name);
  if (!found) throw new Error(`no ${repository}`);
  return (await runGitChecked(args, { gitDir: found.gitDir })).toString("utf8");
}

describe("query Viewer", () => {
  it("answers the token's login and its budget", async () => {
    const before = Date.now();
    const answer = await graphql(standIn, DOCUMENTS.viewer);
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    const { viewer, rateLimit } = answer.body.data;
    expect(viewer).toEqual({ login: "demo-user" });
    expect(rateLimit).toMatchObject({ limit: 5000, cost: 1 });
    expect(rateLimit.remaining + rateLimit.used).toBe(5000);
    const reset = Date.parse(rateLimit.resetAt);
    expect(reset).toBeGreaterThan(before + 59 * 60_000);
    expect(reset).toBeLessThanOrEqual(before + 61 * 60_000);
    expect((await graphql(standIn, DOCUMENTS.viewer, {}, OTHER_TOKEN)).body.data.viewer).toEqual({
      login: "other-user",
    });
  });
});

describe("query OwnerRepositories", () => {
  const byPushed = { field: "PUSHED_AT", direction: "DESC" };

  async function allPages(login: string, orderBy: object, token = DEMO_TOKEN, first = 3) {
    const names: string[] = [];
    const pushed: Array<string | null> = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page += 1) {
      const answer = await graphql(
        standIn,
        DOCUMENTS.ownerRepositories,
        { login, first, after, orderBy },
        token,
      );
      expect(answer.body.errors).toBeUndefined();
      const { repositories } = answer.body.data.repositoryOwner;
      expect(repositories.pageInfo.hasPreviousPage).toBe(page > 0);
      for (const node of repositories.nodes) {
        names.push(node.name);
        pushed.push(node.pushedAt);
      }
      if (!repositories.pageInfo.hasNextPage) return { names, pushed, totalCount: repositories.totalCount };
      after = repositories.pageInfo.endCursor;
    }
    throw new Error("too many pages");
  }

  it("lists an organization's repositories page by page, newest push first", async () => {
    const first = await graphql(standIn, DOCUMENTS.ownerRepositories, {
      login: "demo",
      first: 3,
      after: null,
      orderBy: byPushed,
    });
    expect(first.body.data.repositoryOwner).toMatchObject({ __typename: "Organization", login: "demo" });
    expect(first.body.data.repositoryOwner.repositories.nodes[0]).toEqual({
      name: "gadgets",
      nameWithOwner: "demo/gadgets",
      url: "https://github.com/demo/gadgets",
      pushedAt: "2025-05-28T12:00:00Z",
      isPrivate: false,
      visibility: "PUBLIC",
      description: "Small things.",
    });
    const { names, pushed, totalCount } = await allPages("demo", byPushed);
    expect(totalCount).toBe(7);
    expect(names).toHaveLength(7);
    expect(new Set(names).size).toBe(7);
    // Descending, and the empty repository (never pushed) last.
    expect(pushed[pushed.length - 1]).toBeNull();
    const times = pushed.slice(0, -1).map((value) => Date.parse(value ?? ""));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(names[names.length - 1]).toBe("empty");
  });

  it("orders by name in either direction", async () => {
    const ascending = await allPages("demo", { field: "NAME", direction: "ASC" }, DEMO_TOKEN, 4);
    expect(ascending.names).toEqual([
      "crowd",
      "empty",
      "gadgets",
      "huge-history",
      "secret",
      "sprockets",
      "widgets",
    ]);
    const descending = await allPages("demo", { field: "NAME", direction: "DESC" }, DEMO_TOKEN, 100);
    expect(descending.names).toEqual([...ascending.names].reverse());
  });

  it("hides private repositories from a token that cannot see them", async () => {
    const other = await allPages("demo", byPushed, OTHER_TOKEN);
    expect(other.totalCount).toBe(6);
    expect(other.names).not.toContain("secret");
    const own = await allPages("demo-user", { field: "NAME", direction: "ASC" });
    expect(own.names).toEqual(["dotfiles", "notes", "playground"]);
    const seenByOther = await allPages("demo-user", { field: "NAME", direction: "ASC" }, OTHER_TOKEN);
    expect(seenByOther.names).toEqual(["dotfiles", "playground"]);
  });

  it("answers a user as User", async () => {
    const answer = await graphql(standIn, DOCUMENTS.ownerRepositories, {
      login: "DEMO-USER",
      first: 1,
      after: null,
      orderBy: byPushed,
    });
    expect(answer.body.data.repositoryOwner).toMatchObject({ __typename: "User", login: "demo-user" });
  });

  it("answers null and no error for an unknown login", async () => {
    const answer = await graphql(standIn, DOCUMENTS.ownerRepositories, {
      login: "nobody-here",
      first: 10,
      after: null,
      orderBy: byPushed,
    });
    expect(answer.body).toEqual({ data: { repositoryOwner: null } });
  });

  it("refuses more than 100 records with EXCESSIVE_PAGINATION", async () => {
    const answer = await graphql(standIn, DOCUMENTS.ownerRepositories, {
      login: "demo",
      first: 101,
      after: null,
      orderBy: byPushed,
    });
    expect(answer.body).toEqual({
      data: { repositoryOwner: null },
      errors: [
        {
          type: "EXCESSIVE_PAGINATION",
          path: ["repositoryOwner", "repositories"],
          locations: [locationOf(DOCUMENTS.ownerRepositories, "repositories(")],
          message:
            "Requesting 101 records on the `repositories` connection exceeds the `first` limit of 100 records.",
        },
      ],
    });
  });

  it("needs first or last to list nodes (MISSING_PAGINATION_BOUNDARIES), not to count", async () => {
    const listing = await graphql(
      standIn,
      `
        {
          repositoryOwner(login: "demo") {
            repositories {
              nodes {
                name
              }
            }
          }
        }
      `,
    );
    expect(listing.body.errors[0]).toMatchObject({
      type: "MISSING_PAGINATION_BOUNDARIES",
      path: ["repositoryOwner", "repositories"],
      message:
        "You must provide a `first` or `last` value to properly paginate the `repositories` connection.",
    });
    const counting = await graphql(
      standIn,
      `
        {
          repositoryOwner(login: "demo") {
            repositories {
              totalCount
            }
          }
        }
      `,
    );
    expect(counting.body).toEqual({ data: { repositoryOwner: { repositories: { totalCount: 7 } } } });
  });

  it("refuses a cursor it did not give", async () => {
    const answer = await graphql(standIn, DOCUMENTS.ownerRepositories, {
      login: "demo",
      first: 2,
      after: "bm90IGEgY3Vyc29y",
      orderBy: byPushed,
    });
    expect(answer.body.errors[0]).toMatchObject({ type: "INVALID_CURSOR_ARGUMENTS" });
  });
});

describe("query RepositoryInfo", () => {
  it("answers a repository with its default branch and tip", async () => {
    const answer = await graphql(standIn, DOCUMENTS.repositoryInfo, { owner: "demo", name: "widgets" });
    const tip = (await git("demo/widgets", "rev-parse", "main")).trim();
    expect(answer.body).toEqual({
      data: {
        repository: {
          nameWithOwner: "demo/widgets",
          url: "https://github.com/demo/widgets",
          isPrivate: false,
          visibility: "PUBLIC",
          isEmpty: false,
          defaultBranchRef: { name: "main", target: { oid: tip } },
        },
      },
    });
  });

  it("matches owner and name without regard to case, answering the canonical spelling", async () => {
    const answer = await graphql(standIn, DOCUMENTS.repositoryInfo, { owner: "Demo", name: "WIDGETS" });
    expect(answer.body.data.repository.nameWithOwner).toBe("demo/widgets");
  });

  it("answers an empty repository: isEmpty, no default branch", async () => {
    const answer = await graphql(standIn, DOCUMENTS.repositoryInfo, { owner: "demo", name: "empty" });
    expect(answer.body.data.repository).toMatchObject({ isEmpty: true, defaultBranchRef: null });
  });

  it("answers GitHub's NOT_FOUND for an unknown repository and for a private one the token cannot see", async () => {
    for (const [owner, name, token] of [
      ["demo", "no-such-repo", DEMO_TOKEN],
      ["nobody", "widgets", DEMO_TOKEN],
      ["demo", "secret", OTHER_TOKEN],
    ] as const) {
      const answer = await graphql(standIn, DOCUMENTS.repositoryInfo, { owner, name }, token);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        data: { repository: null },
        errors: [
          {
            type: "NOT_FOUND",
            path: ["repository"],
            locations: [locationOf(DOCUMENTS.repositoryInfo, "repository(")],
            message: `Could not resolve to a Repository with the name '${owner}/${name}'.`,
          },
        ],
      });
    }
    const visible = await graphql(standIn, DOCUMENTS.repositoryInfo, { owner: "demo", name: "secret" });
    expect(visible.body.data.repository).toMatchObject({
      nameWithOwner: "demo/secret",
      isPrivate: true,
      visibility: "PRIVATE",
    });
  });
});

describe("query RepositoryAccess", () => {
  it("answers the visibility to a token that sees the repository, NOT_FOUND to one that does not", async () => {
    const seen = await graphql(standIn, DOCUMENTS.repositoryAccess, { owner: "demo", name: "secret" });
    expect(seen.body).toEqual({
      data: { repository: { nameWithOwner: "demo/secret", isPrivate: true, visibility: "PRIVATE" } },
    });
    const hidden = await graphql(
      standIn,
      DOCUMENTS.repositoryAccess,
      { owner: "demo", name: "secret" },
      OTHER_TOKEN,
    );
    expect(hidden.body.data).toEqual({ repository: null });
    expect(hidden.body.errors[0]).toMatchObject({ type: "NOT_FOUND", path: ["repository"] });
  });
});

describe("query OwnerRepositories with privacy PUBLIC", () => {
  it("leaves the private repositories out of the nodes and the count", async () => {
    const answer = await graphql(standIn, DOCUMENTS.ownerRepositories, {
      login: "demo",
      first: 100,
      after: null,
      orderBy: { field: "NAME", direction: "ASC" },
      privacy: "PUBLIC",
    });
    const { totalCount, nodes } = answer.body.data.repositoryOwner.repositories;
    expect(totalCount).toBe(6);
    expect(nodes.map((node: { name: string }) => node.name)).not.toContain("secret");
    expect(nodes.every((node: { visibility: string }) => node.visibility === "PUBLIC")).toBe(true);
  });
});

describe("query Blame", () => {
  it("answers blame and the file of a small file at the default branch", async () => {
    const answer = await graphql(standIn, DOCUMENTS.blameInFull, {
      owner: "demo",
      name: "widgets",
      expression: "main",
      path: DEMO_PATHS.readme,
    });
    expect(answer.body.errors).toBeUndefined();
    const { repository } = answer.body.data;
    const tip = (await git("demo/widgets", "rev-parse", "main")).trim();
    expect(repository).toMatchObject({
      nameWithOwner: "demo/widgets",
      isPrivate: false,
      defaultBranchRef: { name: "main" },
    });
    const commit = repository.object;
    expect(commit).toMatchObject({
      __typename: "Commit",
      oid: tip,
      url: `https://github.com/demo/widgets/commit/${tip}`,
    });
    const text = await git("demo/widgets", "show", `main:${DEMO_PATHS.readme}`);
    expect(commit.file).toEqual({
      path: DEMO_PATHS.readme,
      object: {
        __typename: "Blob",
        oid: (await git("demo/widgets", "rev-parse", `main:${DEMO_PATHS.readme}`)).trim(),
        text,
        isBinary: false,
        byteSize: Buffer.byteLength(text),
        isTruncated: false,
      },
    });
    const ranges = commit.blame.ranges;
    expect(ranges[0].startingLine).toBe(1);
    expect(ranges[ranges.length - 1].endingLine).toBe(text.split("\n").length - 1);
    const last = ranges[ranges.length - 1].commit;
    expect(last).toMatchObject({
      messageHeadline: "Describe the demo world in the README",
      author: { name: "Demo User", email: "demo-user@reposcout.example", user: { login: "demo-user" } },
    });
    expect(last.abbreviatedOid).toBe(last.oid.slice(0, 7));
    expect(last.url).toBe(`https://github.com/demo/widgets/commit/${last.oid}`);
    expect(last.committedDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("answers an author without an account with user null", async () => {
    const log = await git(
      "demo/widgets",
      "log",
      "--format=%H",
      "--author=mallory",
      "-1",
      "main",
      "--",
      DEMO_PATHS.engine,
    );
    const answer = await graphql(standIn, DOCUMENTS.blameInFull, {
      owner: "demo",
      name: "widgets",
      expression: log.trim(),
      path: DEMO_PATHS.engine,
    });
    const authors = answer.body.data.repository.object.blame.ranges.map(
      (range: { commit: { author: { email: string; user: unknown } } }) => range.commit.author,
    );
    expect(authors).toContainEqual({
      name: "Mallory Unmapped",
      email: "mallory@nowhere.example",
      user: null,
    });
  });

  it("answers null + NOT_FOUND for a path missing at the commit", async () => {
    const answer = await graphql(standIn, DOCUMENTS.blame, {
      owner: "demo",
      name: "widgets",
      expression: "main",
      path: "no/such/file.ts",
    });
    expect(answer.body.data.repository.object).toBeNull();
    expect(answer.body.errors).toEqual([
      {
        type: "NOT_FOUND",
        path: ["repository", "object", "blame"],
        locations: [locationOf(DOCUMENTS.blame, "blame(")],
        message: "Could not resolve file for path 'no/such/file.ts'.",
      },
      {
        type: "NOT_FOUND",
        path: ["repository", "object", "file"],
        locations: [locationOf(DOCUMENTS.blame, "file(")],
        message: "Could not resolve file for path 'no/such/file.ts'.",
      },
      {
        type: "NOT_FOUND",
        path: ["repository", "entry", "file"],
        locations: [locationOf(DOCUMENTS.blame, "file(path: $path) { type mode }")],
        message: "Could not resolve file for path 'no/such/file.ts'.",
      },
    ]);
    expect(answer.body.data.repository.entry).toEqual({ __typename: "Commit", file: null });
  });

  it("answers object null, without an error, for an expression that resolves to nothing", async () => {
    for (const expression of [
      "no-such-branch",
      "-h",
      "--output=/tmp/x",
      "main~99999",
      "main:./README.md",
      "main@{upstream}",
    ]) {
      const answer = await graphql(standIn, DOCUMENTS.blame, {
        owner: "demo",
        name: "widgets",
        expression,
        path: DEMO_PATHS.readme,
      });
      expect(answer.body, expression).toEqual({
        data: {
          repository: {
            nameWithOwner: "demo/widgets",
            url: "https://github.com/demo/widgets",
            isPrivate: false,
            visibility: "PUBLIC",
            defaultBranchRef: { name: "main" },
            object: null,
            entry: null,
          },
        },
      });
    }
  });
});

describe("query Contents", () => {
  async function contents(objectExpression: string, commitExpression = "main") {
    // As the client sends it: the path after the colon, and `file(path)` asked only below the root.
    const path = objectExpression.slice(objectExpression.indexOf(":") + 1);
    const answer = await graphql(standIn, DOCUMENTS.contents, {
      owner: "demo",
      name: "widgets",
      commitExpression,
      objectExpression,
      path,
      hasPath: path !== "",
    });
    expect(answer.body.errors).toBeUndefined();
    return answer.body.data.repository;
  }

  it("answers the root folder: entries with types, modes, sizes and objects", async () => {
    const repository = await contents("main:");
    expect(repository.commit.__typename).toBe("Commit");
    expect(repository.object.__typename).toBe("Tree");
    const listing = (await git("demo/widgets", "ls-tree", "-l", "main")).trim().split("\n");
    const entries = repository.object.entries;
    expect(entries.map((entry: { name: string }) => entry.name)).toEqual(
      listing.map((line) => line.split("\t")[1]),
    );
    const byName = new Map(entries.map((entry: { name: string }) => [entry.name, entry]));
    expect(byName.get("README.md")).toEqual({
      name: "README.md",
      path: "README.md",
      type: "blob",
      mode: 0o100644,
      size: Number(listing.find((line) => line.endsWith("\tREADME.md"))?.split(/\s+/)[3]),
      object: { __typename: "Blob", byteSize: expect.any(Number), isBinary: false },
    });
    expect(byName.get("src")).toMatchObject({
      type: "tree",
      mode: 0o40000,
      size: 0,
      object: { __typename: "Tree" },
    });
    expect(byName.get("vendor")).toMatchObject({ type: "tree" });
  });

  it("answers a nested folder with full paths, a submodule, a symlink and an executable", async () => {
    const docs = await contents("main:docs");
    const paths = docs.object.entries.map((entry: { path: string }) => entry.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        DEMO_PATHS.hostile,
        DEMO_PATHS.symlink,
        DEMO_PATHS.spacedName,
        DEMO_PATHS.unicodeName,
        "docs/guide",
      ]),
    );
    const symlink = docs.object.entries.find((entry: { path: string }) => entry.path === DEMO_PATHS.symlink);
    expect(symlink).toMatchObject({ type: "blob", mode: 0o120000 });
    const vendor = await contents("main:vendor");
    expect(vendor.object.entries).toEqual([
      { name: "gearbox", path: DEMO_PATHS.submodule, type: "commit", mode: 0o160000, size: 0, object: null },
    ]);
    const scripts = await contents("main:scripts");
    expect(scripts.object.entries[0]).toMatchObject({ path: DEMO_PATHS.script, mode: 0o100755 });
    const nested = await contents(`main:${DEMO_PATHS.nestedFolder}`);
    expect(nested.object.entries[0].path).toBe(DEMO_PATHS.nestedFile);
  });

  it("answers a symbolic link as GitHub does: a Blob whose text is the target, its entry a blob of mode 120000", async () => {
    const link = await contents(`main:${DEMO_PATHS.symlink}`);
    const target = await git("demo/widgets", "cat-file", "-p", `main:${DEMO_PATHS.symlink}`);
    expect(target).toBe("guide/intro.md");
    expect(link.object).toMatchObject({
      __typename: "Blob",
      text: target,
      isBinary: false,
      byteSize: Buffer.byteLength(target),
      isTruncated: false,
    });
    // TreeEntry.mode is an Int: git's octal 120000 read as a number, 40960.
    expect(link.commit.file).toEqual({ type: "blob", mode: 40960 });
    const readme = await contents("main:README.md");
    expect(readme.commit.file).toEqual({ type: "blob", mode: 0o100644 });
  });

  it("answers a text file, a binary file and a file cut at 512,000 bytes", async () => {
    const hostile = await contents(`main:${DEMO_PATHS.hostile}`);
    expect(hostile.object).toMatchObject({ __typename: "Blob", isBinary: false, isTruncated: false });
    expect(hostile.object.text).toContain("@everyone");
    expect(hostile.object.text).toContain("```");

    const logo = await contents(`main:${DEMO_PATHS.logo}`);
    expect(logo.object).toMatchObject({ __typename: "Blob", text: null, isBinary: true, isTruncated: false });
    expect(logo.object.byteSize).toBeGreaterThan(1000);

    const large = await contents(`main:${DEMO_PATHS.large}`);
    const full = await git("demo/widgets", "show", `main:${DEMO_PATHS.large}`);
    expect(large.object.byteSize).toBe(Buffer.byteLength(full));
    expect(large.object.byteSize).toBeGreaterThan(512_000);
    expect(large.object.isTruncated).toBe(true);
    const cutBytes = Buffer.byteLength(large.object.text);
    expect(cutBytes).toBeLessThanOrEqual(512_000);
    expect(cutBytes).toBeGreaterThan(511_990);
    expect(full.startsWith(large.object.text)).toBe(true);

    const wide = await contents(`main:${DEMO_PATHS.wide}`);
    expect(wide.object.byteSize).toBe(603_000);
    expect(wide.object.isTruncated).toBe(true);
  });

  it("answers a commit pinned by id and a tag", async () => {
    const tip = (await git("demo/widgets", "rev-parse", "main")).trim();
    const pinned = await contents(`${tip}:${DEMO_PATHS.readme}`, tip);
    expect(pinned.commit.oid).toBe(tip);
    expect(pinned.object.__typename).toBe("Blob");
    const tagged = await graphql(
      standIn,
      `
        {
          repository(owner: "demo", name: "widgets") {
            object(expression: "v1.0.0") {
              __typename
              ... on Tag {
                name
                message
                target {
                  __typename
                }
                tagger {
                  name
                }
              }
            }
          }
        }
      `,
    );
    expect(tagged.body.data.repository.object).toEqual({
      __typename: "Tag",
      name: "v1.0.0",
      message: "Widgets 1.0.0\n\nThe first stable engine.",
      target: { __typename: "Commit" },
      tagger: { name: "Alice Liddell" },
    });
  });

  it("answers Commit.file of a missing path with null and NOT_FOUND", async () => {
    const query = `{ repository(owner: "demo", name: "widgets") { object(expression: "main") { ... on Commit { file(path: "nope.md") { path } } } } }`;
    const answer = await graphql(standIn, query);
    expect(answer.body).toEqual({
      data: { repository: { object: { file: null } } },
      errors: [
        {
          type: "NOT_FOUND",
          path: ["repository", "object", "file"],
          locations: [locationOf(query, "file(")],
          message: "Could not resolve file for path 'nope.md'.",
        },
      ],
    });
  });
});

describe("a folder or a submodule where a file is asked", () => {
  const widgets = { owner: "demo", name: "widgets" };

  it("Blame of a folder: blame fails and nulls `object` (the stand-in's NOT_FOUND), `entry` says `tree`", async () => {
    const answer = await graphql(standIn, DOCUMENTS.blame, { ...widgets, expression: "main", path: "docs" });
    const { repository } = answer.body.data;
    expect(repository.object).toBeNull();
    expect(answer.body.errors).toEqual([
      expect.objectContaining({ type: "NOT_FOUND", path: ["repository", "object", "blame"] }),
    ]);
    expect(repository.entry).toEqual({ __typename: "Commit", file: { type: "tree", mode: 0o40000 } });
  });

  it("Blame of a submodule: `object` null the same way, `entry` says `commit` (a gitlink)", async () => {
    const answer = await graphql(standIn, DOCUMENTS.blame, {
      ...widgets,
      expression: "HEAD",
      path: DEMO_PATHS.submodule,
    });
    expect(answer.body.data.repository.object).toBeNull();
    expect(answer.body.errors.map((error: { path: string[] }) => error.path)).toEqual([
      ["repository", "object", "blame"],
    ]);
    expect(answer.body.data.repository.entry).toEqual({
      __typename: "Commit",
      file: { type: "commit", mode: 0o160000 },
    });
  });

  it("Contents of a submodule: the gitlink's commit is not in the repository, so `object` is null without an error; the commit's entry says `commit`", async () => {
    const answer = await graphql(standIn, DOCUMENTS.contents, {
      ...widgets,
      commitExpression: "HEAD",
      objectExpression: `HEAD:${DEMO_PATHS.submodule}`,
      path: DEMO_PATHS.submodule,
      hasPath: true,
    });
    expect(answer.body.errors).toBeUndefined();
    const { repository } = answer.body.data;
    expect(repository.object).toBeNull();
    expect(repository.commit).toMatchObject({ __typename: "Commit", file: { type: "commit" } });
    // git itself has no object for it: the id in the tree belongs to another repository.
    const entry = await git("demo/widgets", "ls-tree", "HEAD", DEMO_PATHS.submodule);
    expect(entry).toMatch(/^160000 commit [0-9a-f]{40}\t/);
  });

  it("Contents of the root: `file` is not asked (`hasPath` false), so the commit has no `file`", async () => {
    const answer = await graphql(standIn, DOCUMENTS.contents, {
      ...widgets,
      commitExpression: "HEAD",
      objectExpression: "HEAD:",
      path: "",
      hasPath: false,
    });
    expect(answer.body.errors).toBeUndefined();
    expect(Object.keys(answer.body.data.repository.commit).sort()).toEqual([
      "__typename",
      "committedDate",
      "oid",
      "url",
    ]);
    expect(answer.body.data.repository.object.__typename).toBe("Tree");
  });

  it("Contents of a missing path: `object` null without an error, `file` null with NOT_FOUND", async () => {
    const answer = await graphql(standIn, DOCUMENTS.contents, {
      ...widgets,
      commitExpression: "main",
      objectExpression: "main:vendor/nope",
      path: "vendor/nope",
      hasPath: true,
    });
    expect(answer.body.data.repository.object).toBeNull();
    expect(answer.body.data.repository.commit.file).toBeNull();
    expect(answer.body.errors).toEqual([
      {
        type: "NOT_FOUND",
        path: ["repository", "commit", "file"],
        locations: [locationOf(DOCUMENTS.contents, "file(")],
        message: "Could not resolve file for path 'vendor/nope'.",
      },
    ]);
  });
});

describe("validation and unimplemented fields", () => {
  it("refuses a misspelled field with GitHub's message, HTTP 200 and no data", async () => {
    const misspelled = DOCUMENTS.repositoryInfo.replace("nameWithOwner", "nameWithOwnr");
    const answer = await graphql(standIn, misspelled, { owner: "demo", name: "widgets" });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      errors: [
        {
          path: ["query RepositoryInfo", "repository", "nameWithOwnr"],
          extensions: { code: "undefinedField", typeName: "Repository", fieldName: "nameWithOwnr" },
          locations: [locationOf(misspelled, "nameWithOwnr")],
          message: "Field 'nameWithOwnr' doesn't exist on type 'Repository'",
        },
      ],
    });
  });

  it("refuses an unknown argument and a missing one in graphql-ruby's words", async () => {
    const unknown = await graphql(
      standIn,
      `
        {
          repository(owner: "demo", name: "widgets", colour: "red") {
            name
          }
        }
      `,
    );
    expect(unknown.body.errors[0]).toMatchObject({
      extensions: { code: "argumentNotAccepted", argumentName: "colour" },
      message: "Field 'repository' doesn't accept argument 'colour'",
    });
    const missing = await graphql(
      standIn,
      `
        {
          repository(owner: "demo") {
            name
          }
        }
      `,
    );
    expect(missing.body.errors[0]).toMatchObject({
      extensions: { code: "missingRequiredArguments" },
      message: "Field 'repository' is missing required arguments: name",
    });
  });

  it("fails loudly on a field the stand-in does not implement", async () => {
    const query = `{ repository(owner: "demo", name: "widgets") { name forkCount } }`;
    const answer = await graphql(standIn, query);
    expect(answer.body.data).toEqual({ repository: null });
    expect(answer.body.errors).toEqual([
      {
        type: "NOT_IMPLEMENTED_BY_STAND_IN",
        path: ["repository", "forkCount"],
        locations: [locationOf(query, "forkCount")],
        message: "The field 'Repository.forkCount' is not implemented by the stand-in",
      },
    ]);
  });

  it("runs every document of the bot without a 'not implemented' error", async () => {
    const tip = (await git("demo/widgets", "rev-parse", "main")).trim();
    const answers = await Promise.all([
      graphql(standIn, DOCUMENTS.viewer),
      graphql(standIn, DOCUMENTS.ownerRepositories, {
        login: "demo",
        first: 30,
        after: null,
        orderBy: { field: "NAME", direction: "ASC" },
      }),
      graphql(standIn, DOCUMENTS.repositoryInfo, { owner: "demo", name: "widgets" }),
      graphql(standIn, DOCUMENTS.blame, {
        owner: "demo",
        name: "widgets",
        expression: tip,
        path: DEMO_PATHS.engine,
      }),
      graphql(standIn, DOCUMENTS.contents, {
        owner: "demo",
        name: "widgets",
        commitExpression: tip,
        objectExpression: `${tip}:src`,
        path: "src",
        hasPath: true,
      }),
      graphql(standIn, DOCUMENTS.contents, {
        owner: "demo",
        name: "widgets",
        commitExpression: "main",
        objectExpression: `main:${DEMO_PATHS.engine}`,
        path: DEMO_PATHS.engine,
        hasPath: true,
      }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
      expect(JSON.stringify(answer.body)).not.toContain("not implemented");
    }
  });
});
