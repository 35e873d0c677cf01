import { describe, expect, it } from "vitest";
import { sentenceOf } from "../sentenceOf.js";
import {
  GitHubForbiddenError,
  NotAFileError,
  PathNotFoundError,
  RefNotFoundError,
} from "../../src/github/errors.js";
import { DEMO, TOKEN, caught, clientWith, entryOfType, fakeFetch, json, variablesOf } from "./fakeGitHub.js";

/*
 * A folder or a submodule where a file was asked for, with GitHub's answers as GitHub shapes them.
 *
 * Blame: `Commit.blame(path)` is non-null, so when it fails its error nulls the whole `object`, and
 * `file(path)` with it; the document's `entry` (the same commit, asked only for the type of the
 * tree entry at the path) survives and says what is there.
 * Contents: a submodule's gitlink names a commit of another repository, so `object(expression:
 * "HEAD:vendor/x")` is null as for a missing path; the commit's `file(path) { type }` says "commit".
 */

const REPOSITORY = {
  nameWithOwner: "demo/widgets",
  url: "https://github.com/demo/widgets",
  isPrivate: false,
  defaultBranchRef: { name: "main" },
};
const PIN = {
  __typename: "Commit",
  oid: "e".repeat(40),
  url: `https://github.com/demo/widgets/commit/${"e".repeat(40)}`,
  committedDate: "2024-05-01T10:00:00Z",
};

/** A client whose GitHub answers every request with `body`, and the requests it saw. */
function answering(body: unknown) {
  const github = fakeFetch(() => json(body));
  return { client: clientWith(github.fetch).client, requests: github.requests };
}

/** GitHub's error for a path blame or file cannot resolve, at `path` of the answer. */
function notFoundAt(path: string[], file: string) {
  return {
    type: "NOT_FOUND",
    path,
    locations: [{ line: 4, column: 5 }],
    message: `Could not resolve file for path '${file}'.`,
  };
}

/** A Blame answer whose blame failed on `path`: `object` null, and `entry` as given. */
function failedBlame(path: string, entry: unknown, below: string[] = []) {
  return {
    data: { repository: { ...REPOSITORY, object: null, entry } },
    errors: [
      notFoundAt(["repository", "object", ...below, "blame"], path),
      notFoundAt(["repository", "object", ...below, "file"], path),
    ],
  };
}

describe("blame of a path that is not a file", () => {
  it("a folder: says it is a folder and points to /contents, from ONE request", async () => {
    const { client, requests } = answering(failedBlame("docs", entryOfType("tree")));
    const error = await caught(client.blame(TOKEN, { repo: DEMO, path: "docs" }));
    expect(error).toBeInstanceOf(NotAFileError);
    expect(error).toMatchObject({ code: "not_a_file", found: "folder", path: "docs" });
    expect(sentenceOf(error)).toBe(
      "`docs` in `demo/widgets` is a folder, and blame works on files. Use `/contents` to list it, or give a file as `path`.",
    );
    expect(requests).toHaveLength(1);
    expect(variablesOf(requests[0]!)).toEqual({
      owner: "demo",
      name: "widgets",
      expression: "HEAD",
      path: "docs",
    });
  });

  it("a folder, whatever error GitHub gives blame for it (its wording there is unconfirmed)", async () => {
    const { client } = answering({
      data: { repository: { ...REPOSITORY, object: null, entry: entryOfType("tree") } },
      errors: [{ path: ["repository", "object", "blame"], message: "Path is a directory" }],
    });
    expect(await caught(client.blame(TOKEN, { repo: DEMO, ref: "main", path: "src/" }))).toMatchObject({
      found: "folder",
      path: "src",
    });
  });

  it("a submodule: says its files live in another repository", async () => {
    const { client } = answering(failedBlame("vendor/gearbox", entryOfType("commit")));
    const error = await caught(client.blame(TOKEN, { repo: DEMO, path: "vendor/gearbox" }));
    expect(error).toMatchObject({ code: "not_a_file", found: "submodule" });
    expect(sentenceOf(error)).toBe(
      "`vendor/gearbox` in `demo/widgets` is a submodule: its files live in another repository, which `/contents path:.gitmodules` names. Ask about that repository instead.",
    );
  });

  it("a folder at an annotated tag: the entry is read through the tag's target", async () => {
    const { client } = answering(
      failedBlame("docs", { __typename: "Tag", target: entryOfType("tree") }, ["target"]),
    );
    expect(await caught(client.blame(TOKEN, { repo: DEMO, ref: "v1.0", path: "docs" }))).toMatchObject({
      found: "folder",
    });
  });

  it("nothing at the path (entry without a file): still the path was not found", async () => {
    const { client } = answering({
      ...failedBlame("nope.ts", entryOfType(null)),
      errors: [
        notFoundAt(["repository", "object", "blame"], "nope.ts"),
        notFoundAt(["repository", "object", "file"], "nope.ts"),
        notFoundAt(["repository", "entry", "file"], "nope.ts"),
      ],
    });
    const error = await caught(client.blame(TOKEN, { repo: DEMO, path: "nope.ts" }));
    expect(error).toBeInstanceOf(PathNotFoundError);
    expect(sentenceOf(error)).toBe(
      "Path `nope.ts` was not found in `demo/widgets` at the default branch. Check `path`; `/contents` lists the files that are there.",
    );
  });

  it("a ref that resolves to nothing: object and entry both null, no error: the ref was not found", async () => {
    const { client } = answering({ data: { repository: { ...REPOSITORY, object: null, entry: null } } });
    expect(await caught(client.blame(TOKEN, { repo: DEMO, ref: "nope", path: "docs" }))).toBeInstanceOf(
      RefNotFoundError,
    );
  });

  it("a blame refused with FORBIDDEN and no entry: forbidden, not a folder", async () => {
    const { client } = answering({
      data: { repository: { ...REPOSITORY, object: null, entry: null } },
      errors: [
        { type: "FORBIDDEN", path: ["repository", "object", "blame"], message: "Resource protected by SSO" },
      ],
    });
    expect(await caught(client.blame(TOKEN, { repo: DEMO, path: "docs" }))).toBeInstanceOf(
      GitHubForbiddenError,
    );
  });

  it("a file at the path: the entry does not get in the way of the answer", async () => {
    const { client } = answering({
      data: {
        repository: {
          ...REPOSITORY,
          entry: entryOfType("blob"),
          object: {
            ...PIN,
            blame: { ranges: [] },
            file: {
              path: "src/empty.ts",
              object: {
                __typename: "Blob",
                oid: "f",
                text: "",
                isBinary: false,
                byteSize: 0,
                isTruncated: false,
              },
            },
          },
        },
      },
    });
    const answer = await client.blame(TOKEN, { repo: DEMO, path: "src/empty.ts" });
    expect(answer).toMatchObject({ path: "src/empty.ts", ranges: [], commit: { oid: PIN.oid } });
  });
});

describe("contents of a submodule", () => {
  it("the commit's entry at the path is a gitlink and the object is null: says it is a submodule", async () => {
    const { client, requests } = answering({
      data: {
        repository: {
          ...REPOSITORY,
          commit: { ...PIN, file: { type: "commit", mode: 0o160000 } },
          object: null,
        },
      },
    });
    const error = await caught(client.contents(TOKEN, { repo: DEMO, path: "vendor/gearbox" }));
    expect(error).toBeInstanceOf(NotAFileError);
    expect(error).toMatchObject({ code: "not_a_file", found: "submodule", path: "vendor/gearbox" });
    expect(sentenceOf(error)).toBe(
      "`vendor/gearbox` in `demo/widgets` is a submodule: its files live in another repository, which `/contents path:.gitmodules` names. Ask about that repository instead.",
    );
    expect(requests).toHaveLength(1);
    expect(variablesOf(requests[0]!)).toEqual({
      owner: "demo",
      name: "widgets",
      commitExpression: "HEAD",
      objectExpression: "HEAD:vendor/gearbox",
      path: "vendor/gearbox",
      hasPath: true,
    });
  });

  it("a submodule at an annotated tag: the entry is read on the tag's target", async () => {
    const { client } = answering({
      data: {
        repository: {
          ...REPOSITORY,
          commit: { __typename: "Tag", target: { ...PIN, file: { type: "commit", mode: 0o160000 } } },
          object: null,
        },
      },
    });
    expect(
      await caught(client.contents(TOKEN, { repo: DEMO, ref: "v1.0", path: "vendor/gearbox" })),
    ).toMatchObject({
      found: "submodule",
    });
  });

  it("nothing at the path: file and object null: the path was not found", async () => {
    const { client } = answering({
      data: { repository: { ...REPOSITORY, commit: { ...PIN, file: null }, object: null } },
      errors: [notFoundAt(["repository", "commit", "file"], "vendor/nope")],
    });
    const error = await caught(client.contents(TOKEN, { repo: DEMO, ref: "main", path: "vendor/nope" }));
    expect(error).toBeInstanceOf(PathNotFoundError);
    expect(sentenceOf(error)).toContain("`vendor/nope` was not found");
  });

  it("a folder still lists (its entry is a tree), and the root asks for no entry", async () => {
    const tree = {
      __typename: "Tree",
      oid: "t".repeat(40),
      entries: [
        { name: "gearbox", path: "vendor/gearbox", type: "commit", mode: 0o160000, size: 0, object: null },
      ],
    };
    const folder = answering({
      data: {
        repository: {
          ...REPOSITORY,
          commit: { ...PIN, file: { type: "tree", mode: 0o40000 } },
          object: tree,
        },
      },
    });
    const listing = await folder.client.contents(TOKEN, { repo: DEMO, path: "vendor" });
    expect(listing).toMatchObject({ kind: "tree", entries: [{ name: "gearbox", type: "commit" }] });

    // `@include(if: $hasPath)` is false for the root: GitHub leaves `file` out of the answer.
    const root = answering({ data: { repository: { ...REPOSITORY, commit: PIN, object: tree } } });
    expect(await root.client.contents(TOKEN, { repo: DEMO, path: "/" })).toMatchObject({
      kind: "tree",
      path: "",
    });
    expect(variablesOf(root.requests[0]!)).toMatchObject({
      path: "",
      hasPath: false,
      objectExpression: "HEAD:",
    });
  });
});
