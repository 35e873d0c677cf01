import { describe, expect, it } from "vitest";
import {
  DEMO,
  DEMO_REPOSITORY as REPOSITORY,
  TOKEN,
  clientWith,
  entryOfType,
  fakeFetch,
  json,
} from "./fakeGitHub.js";

const COMMIT = {
  __typename: "Commit",
  oid: "c".repeat(40),
  url: "https://github.com/demo/widgets/commit/cccc",
  committedDate: "2024-05-01T10:00:00Z",
};

function rangeOf(start: number, end: number, oid: string, login: string | null) {
  return {
    startingLine: start,
    endingLine: end,
    age: 3,
    commit: {
      oid,
      abbreviatedOid: oid.slice(0, 7),
      messageHeadline: `change ${oid.slice(0, 3)}`,
      url: `https://github.com/demo/widgets/commit/${oid}`,
      authoredDate: "2024-04-30T09:00:00Z",
      committedDate: "2024-04-30T09:30:00Z",
      author: { name: "Ann", email: "ann@example.com", user: login === null ? null : { login } },
    },
  };
}

function answering(body: unknown) {
  const github = fakeFetch(() => json(body));
  return clientWith(github.fetch).client;
}

describe("answers as plain data", () => {
  it("blame: ranges sorted, authors, the file's text and the commit it is pinned to", async () => {
    const client = answering({
      data: {
        repository: {
          ...REPOSITORY,
          entry: entryOfType("blob"),
          object: {
            ...COMMIT,
            blame: { ranges: [rangeOf(3, 4, "b".repeat(40), null), rangeOf(1, 2, "a".repeat(40), "ann")] },
            file: {
              path: "src/a.ts",
              object: {
                __typename: "Blob",
                oid: "f",
                text: "1\n2\n3\n4\n",
                isBinary: false,
                byteSize: 8,
                isTruncated: false,
              },
            },
          },
        },
      },
    });
    const answer = await client.blame(TOKEN, { repo: DEMO, path: "src/a.ts" });
    expect(answer).toEqual({
      repository: {
        nameWithOwner: "demo/widgets",
        url: "https://github.com/demo/widgets",
        isPrivate: false,
        visibility: "PUBLIC",
        defaultBranch: "main",
      },
      commit: { oid: COMMIT.oid, url: COMMIT.url, committedDate: COMMIT.committedDate },
      path: "src/a.ts",
      file: { kind: "text", text: "1\n2\n3\n4\n", byteSize: 8, isTruncated: false },
      ranges: [
        {
          startingLine: 1,
          endingLine: 2,
          age: 3,
          commit: {
            oid: "a".repeat(40),
            abbreviatedOid: "aaaaaaa",
            messageHeadline: "change aaa",
            url: `https://github.com/demo/widgets/commit/${"a".repeat(40)}`,
            authoredDate: "2024-04-30T09:00:00Z",
            committedDate: "2024-04-30T09:30:00Z",
            authorName: "Ann",
            authorLogin: "ann",
          },
        },
        expect.objectContaining({
          startingLine: 3,
          endingLine: 4,
          commit: expect.objectContaining({ authorLogin: null }),
        }),
      ],
    });
    // Plain data: it survives a JSON round trip unchanged (what a cache does).
    expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
  });

  it("blame: the ranges of one commit share one commit, as GitHub's answer names it once per range", async () => {
    const [a, b] = ["a".repeat(40), "b".repeat(40)];
    const client = answering({
      data: {
        repository: {
          ...REPOSITORY,
          entry: entryOfType("blob"),
          object: {
            ...COMMIT,
            blame: {
              ranges: [rangeOf(1, 1, a, "ann"), rangeOf(2, 2, b, null), rangeOf(3, 3, a, "ann")],
            },
            file: {
              path: "src/a.ts",
              object: {
                __typename: "Blob",
                oid: "f",
                text: "1\n2\n3\n",
                isBinary: false,
                byteSize: 6,
                isTruncated: false,
              },
            },
          },
        },
      },
    });
    const { ranges } = await client.blame(TOKEN, { repo: DEMO, path: "src/a.ts" });
    expect(ranges.map((range) => range.commit.oid)).toEqual([a, b, a]);
    expect(ranges[2]!.commit).toBe(ranges[0]!.commit);
    expect(ranges[1]!.commit).not.toBe(ranges[0]!.commit);
  });

  it("blame of a binary file: no text, its size", async () => {
    const client = answering({
      data: {
        repository: {
          ...REPOSITORY,
          entry: entryOfType("blob"),
          object: {
            ...COMMIT,
            blame: { ranges: [] },
            file: {
              path: "logo.png",
              object: {
                __typename: "Blob",
                oid: "f",
                text: null,
                isBinary: true,
                byteSize: 5000,
                isTruncated: false,
              },
            },
          },
        },
      },
    });
    const answer = await client.blame(TOKEN, { repo: DEMO, path: "logo.png" });
    expect(answer.file).toEqual({ kind: "binary", byteSize: 5000 });
  });

  it("contents of a folder: entries with types, sizes and binary flags", async () => {
    const client = answering({
      data: {
        repository: {
          ...REPOSITORY,
          commit: COMMIT,
          object: {
            __typename: "Tree",
            oid: "t",
            entries: [
              {
                name: "src",
                path: "src",
                type: "tree",
                mode: 16384,
                size: 0,
                object: { __typename: "Tree" },
              },
              { name: "lib", path: "lib", type: "commit", mode: 57344, size: 0, object: null },
              {
                name: "README.md",
                path: "README.md",
                type: "blob",
                mode: 33188,
                size: 120,
                object: { __typename: "Blob", byteSize: 120, isBinary: false },
              },
            ],
          },
        },
      },
    });
    const answer = await client.contents(TOKEN, { repo: DEMO, path: "" });
    expect(answer).toMatchObject({ kind: "tree", path: "", commit: { oid: COMMIT.oid } });
    expect(answer.kind === "tree" ? answer.entries : []).toEqual([
      { name: "src", path: "src", type: "tree", mode: 16384, size: 0, isBinary: null },
      { name: "lib", path: "lib", type: "commit", mode: 57344, size: 0, isBinary: null },
      { name: "README.md", path: "README.md", type: "blob", mode: 33188, size: 120, isBinary: false },
    ]);
  });

  it("contents of a file: its text, cut by GitHub at 512,000 bytes", async () => {
    const client = answering({
      data: {
        repository: {
          ...REPOSITORY,
          commit: COMMIT,
          object: {
            __typename: "Blob",
            oid: "b",
            text: "x".repeat(10),
            isBinary: false,
            byteSize: 600_000,
            isTruncated: true,
          },
        },
      },
    });
    const answer = await client.contents(TOKEN, { repo: DEMO, ref: "main", path: "big.txt" });
    expect(answer).toMatchObject({
      kind: "blob",
      path: "big.txt",
      file: { kind: "text", byteSize: 600_000, isTruncated: true },
    });
  });

  it("contents of a symbolic link: told from a file by its entry's mode (120000), its text is the target", async () => {
    const blobOf = (text: string) => ({
      __typename: "Blob",
      oid: "l",
      text,
      isBinary: false,
      byteSize: Buffer.byteLength(text),
      isTruncated: false,
    });
    // GitHub gives a tree entry's mode as the integer of git's octal mode: 120000 is 40960.
    const link = answering({
      data: {
        repository: {
          ...REPOSITORY,
          commit: { ...COMMIT, file: { type: "blob", mode: 40960 } },
          object: blobOf("guide/intro.md"),
        },
      },
    });
    expect(await link.contents(TOKEN, { repo: DEMO, path: "docs/latest.md" })).toMatchObject({
      kind: "symlink",
      path: "docs/latest.md",
      target: "guide/intro.md",
      commit: { oid: COMMIT.oid },
    });

    const file = answering({
      data: {
        repository: {
          ...REPOSITORY,
          commit: { ...COMMIT, file: { type: "blob", mode: 33188 } },
          object: blobOf("guide/intro.md"),
        },
      },
    });
    expect(await file.contents(TOKEN, { repo: DEMO, path: "docs/notes.md" })).toMatchObject({
      kind: "blob",
      file: { kind: "text", text: "guide/intro.md" },
    });
  });

  it("repositories: owner, total, nodes (null ones skipped) and the page info", async () => {
    const client = answering({
      data: {
        repositoryOwner: {
          __typename: "Organization",
          login: "demo",
          repositories: {
            totalCount: 2,
            pageInfo: { endCursor: "Y3Vy", hasNextPage: true, hasPreviousPage: false, startCursor: "c3Rh" },
            nodes: [
              {
                name: "widgets",
                nameWithOwner: "demo/widgets",
                url: "https://github.com/demo/widgets",
                pushedAt: "2024-05-01T10:00:00Z",
                isPrivate: false,
                visibility: "PUBLIC",
                description: "Widgets",
              },
              null,
              {
                name: "fresh",
                nameWithOwner: "demo/fresh",
                url: "https://github.com/demo/fresh",
                pushedAt: null,
                isPrivate: true,
                visibility: "INTERNAL",
                description: null,
              },
            ],
          },
        },
      },
    });
    const page = await client.repositories(TOKEN, { login: "demo", first: 2, sort: "pushed" });
    expect(page).toEqual({
      owner: { login: "demo", type: "Organization" },
      totalCount: 2,
      repositories: [
        {
          name: "widgets",
          nameWithOwner: "demo/widgets",
          url: "https://github.com/demo/widgets",
          pushedAt: "2024-05-01T10:00:00Z",
          isPrivate: false,
          visibility: "PUBLIC",
          description: "Widgets",
        },
        {
          name: "fresh",
          nameWithOwner: "demo/fresh",
          url: "https://github.com/demo/fresh",
          pushedAt: null,
          isPrivate: true,
          visibility: "INTERNAL",
          description: null,
        },
      ],
      pageInfo: { startCursor: "c3Rh", endCursor: "Y3Vy", hasNextPage: true, hasPreviousPage: false },
    });
  });

  it("repositoryInfo: header, emptiness and the default branch's tip", async () => {
    const client = answering({
      data: {
        repository: {
          ...REPOSITORY,
          isEmpty: false,
          defaultBranchRef: { name: "main", target: { oid: "d".repeat(40) } },
        },
      },
    });
    expect(await client.repositoryInfo(TOKEN, DEMO)).toEqual({
      nameWithOwner: "demo/widgets",
      url: "https://github.com/demo/widgets",
      isPrivate: false,
      visibility: "PUBLIC",
      defaultBranch: "main",
      isEmpty: false,
      defaultBranchOid: "d".repeat(40),
    });
    const empty = answering({
      data: { repository: { ...REPOSITORY, isEmpty: true, defaultBranchRef: null } },
    });
    expect(await empty.repositoryInfo(TOKEN, DEMO)).toMatchObject({
      isEmpty: true,
      defaultBranch: null,
      defaultBranchOid: null,
    });
  });

  it("repositoryAccess: the name and visibility the token is shown, or not found once it sees nothing", async () => {
    const client = answering({
      data: { repository: { nameWithOwner: "demo/handbook", isPrivate: true, visibility: "INTERNAL" } },
    });
    expect(await client.repositoryAccess(TOKEN, DEMO)).toEqual({
      nameWithOwner: "demo/handbook",
      isPrivate: true,
      visibility: "INTERNAL",
    });
    const gone = answering({
      data: { repository: null },
      errors: [
        {
          type: "NOT_FOUND",
          path: ["repository"],
          message: "Could not resolve to a Repository with the name 'demo/widgets'.",
        },
      ],
    });
    await expect(gone.repositoryAccess(TOKEN, DEMO)).rejects.toMatchObject({ code: "repository_not_found" });
  });

  it("reads a visibility GitHub may add one day as private, so such an answer never reaches a channel", async () => {
    const client = answering({
      data: { repository: { nameWithOwner: "demo/widgets", isPrivate: false, visibility: "FRIENDS_ONLY" } },
    });
    expect(await client.repositoryAccess(TOKEN, DEMO)).toMatchObject({ visibility: "PRIVATE" });
  });

  it("viewer: the login and the budget from the rateLimit field", async () => {
    const client = answering({
      data: {
        viewer: { login: "octocat" },
        rateLimit: { limit: 5000, remaining: 4990, used: 10, resetAt: "2025-01-01T13:00:00Z", cost: 1 },
      },
    });
    expect(await client.viewer(TOKEN)).toEqual({
      login: "octocat",
      rateLimit: {
        resource: "graphql",
        limit: 5000,
        remaining: 4990,
        used: 10,
        resetAt: "2025-01-01T13:00:00.000Z",
        observedAt: "2025-01-01T12:00:00.000Z",
      },
    });
  });
});
