import { describe, expect, it } from "vitest";
import { sentenceOf } from "../sentenceOf.js";
import { TAG_DEPTH } from "../../src/github/documents.js";
import { NotACommitError, PathNotFoundError, RefNotFoundError } from "../../src/github/errors.js";
import {
  DEMO,
  TOKEN,
  caught,
  clientWith,
  entryFor,
  entryOfType,
  fakeFetch,
  json,
  variablesOf,
} from "./fakeGitHub.js";

/*
 * A ref naming an annotated tag. GitHub's `object(expression: "v1.0")` answers the `Tag` object (it
 * does not peel it); the Blame and Contents documents ask for the commit again on the tag's
 * `target`, so the answer comes in the same single request, pinned to the tagged commit.
 */

const REPOSITORY = {
  nameWithOwner: "demo/widgets",
  url: "https://github.com/demo/widgets",
  isPrivate: false,
  defaultBranchRef: { name: "main" },
};
const TAGGED = {
  __typename: "Commit",
  oid: "d".repeat(40),
  url: `https://github.com/demo/widgets/commit/${"d".repeat(40)}`,
  committedDate: "2023-03-01T08:00:00Z",
};
const BLOB = {
  __typename: "Blob",
  oid: "b".repeat(40),
  text: "one\ntwo\n",
  isBinary: false,
  byteSize: 8,
  isTruncated: false,
};
const BLAMED_COMMIT = {
  ...TAGGED,
  blame: {
    ranges: [
      {
        startingLine: 1,
        endingLine: 2,
        age: 10,
        commit: {
          oid: TAGGED.oid,
          abbreviatedOid: TAGGED.oid.slice(0, 7),
          messageHeadline: "Release",
          url: TAGGED.url,
          authoredDate: TAGGED.committedDate,
          committedDate: TAGGED.committedDate,
          author: { name: "Ann", email: "ann@example.com", user: { login: "ann" } },
        },
      },
    ],
  },
  file: { path: "README.md", object: BLOB },
};

/** An annotated tag of `target`, as GitHub answers it under `... on Tag { target { ... } }`. */
function tagOf(target: unknown): Record<string, unknown> {
  return { __typename: "Tag", target };
}

/** A client whose GitHub answers every request with `body`, and the requests it saw. */
function answering(body: unknown) {
  const github = fakeFetch(() => json(body));
  return { client: clientWith(github.fetch).client, requests: github.requests };
}

describe("blame at an annotated tag", () => {
  it("reads the tagged commit, in one request, pinned to that commit", async () => {
    const { client, requests } = answering({
      data: {
        repository: { ...REPOSITORY, object: tagOf(BLAMED_COMMIT), entry: tagOf(entryFor(BLAMED_COMMIT)) },
      },
    });
    const answer = await client.blame(TOKEN, { repo: DEMO, ref: "v1.0", path: "README.md" });
    expect(answer.commit).toEqual({ oid: TAGGED.oid, url: TAGGED.url, committedDate: TAGGED.committedDate });
    expect(answer.file).toEqual({ kind: "text", text: "one\ntwo\n", byteSize: 8, isTruncated: false });
    expect(answer.ranges.map((range) => [range.startingLine, range.endingLine, range.commit.oid])).toEqual([
      [1, 2, TAGGED.oid],
    ]);
    expect(requests).toHaveLength(1);
    // The tag name travels as a variable, never inside the query text.
    expect(variablesOf(requests[0]!)).toMatchObject({ expression: "v1.0", path: "README.md" });
    expect((requests[0]!.body as { query: string }).query).not.toContain("v1.0");
  });

  it("follows a tag of a tag (and a tag of that) to the commit", async () => {
    for (const depth of [2, TAG_DEPTH]) {
      let object: unknown = BLAMED_COMMIT;
      for (let level = 0; level < depth; level += 1) object = tagOf(object);
      const { client, requests } = answering({
        data: { repository: { ...REPOSITORY, object, entry: entryFor(object) } },
      });
      const answer = await client.blame(TOKEN, { repo: DEMO, ref: "v1.0-signed", path: "README.md" });
      expect(answer.commit.oid).toBe(TAGGED.oid);
      expect(requests).toHaveLength(1);
    }
  });

  it("refuses a tag of a tree or of a blob, saying what it tags", async () => {
    const ofTree = answering({
      data: {
        repository: {
          ...REPOSITORY,
          object: tagOf({ __typename: "Tree" }),
          entry: tagOf({ __typename: "Tree" }),
        },
      },
    });
    const treeError = await caught(ofTree.client.blame(TOKEN, { repo: DEMO, ref: "tree-tag", path: "a" }));
    expect(treeError).toBeInstanceOf(NotACommitError);
    expect(treeError).toMatchObject({ code: "not_a_commit", objectType: "Tree", tags: 1 });
    expect(sentenceOf(treeError)).toBe(
      "Revision `tree-tag` of `demo/widgets` is a tag of a folder (a Git tree), not of a commit, so it has no history to show. Give a branch, a tag of a commit or a commit id as `ref`.",
    );

    const ofBlob = answering({
      data: {
        repository: {
          ...REPOSITORY,
          object: tagOf(tagOf({ __typename: "Blob" })),
          entry: tagOf(tagOf({ __typename: "Blob" })),
        },
      },
    });
    const blobError = await caught(ofBlob.client.blame(TOKEN, { repo: DEMO, ref: "key", path: "a" }));
    expect(blobError).toMatchObject({ objectType: "Blob", tags: 2 });
    expect(sentenceOf(blobError)).toContain("is a tag of a single file (a Git blob)");
  });

  it("refuses a chain of tags deeper than the documents follow, naming the bound", async () => {
    // The innermost tag the document reaches has no `target` asked.
    let object: Record<string, unknown> = { __typename: "Tag" };
    for (let level = 0; level < TAG_DEPTH; level += 1) object = tagOf(object);
    const { client } = answering({
      data: { repository: { ...REPOSITORY, object, entry: entryFor(object) } },
    });
    const error = await caught(client.blame(TOKEN, { repo: DEMO, ref: "deep", path: "a" }));
    expect(error).toBeInstanceOf(NotACommitError);
    expect(error).toMatchObject({ objectType: "Tag", tags: TAG_DEPTH });
    expect(sentenceOf(error)).toContain(`nested more than ${TAG_DEPTH} deep`);
  });

  it("a path missing at the tagged commit: the path was not found at the tag the user named", async () => {
    // `blame` and a tag's `target` are both non-null: the null reaches `object`.
    const { client } = answering({
      data: { repository: { ...REPOSITORY, object: null, entry: tagOf(entryOfType(null)) } },
      errors: [
        {
          type: "NOT_FOUND",
          path: ["repository", "object", "target", "blame"],
          locations: [{ line: 9, column: 3 }],
          message: "Could not resolve file for path 'nope.md'.",
        },
        {
          type: "NOT_FOUND",
          path: ["repository", "object", "target", "file"],
          locations: [{ line: 11, column: 3 }],
          message: "Could not resolve file for path 'nope.md'.",
        },
        {
          type: "NOT_FOUND",
          path: ["repository", "entry", "target", "file"],
          locations: [{ line: 12, column: 3 }],
          message: "Could not resolve file for path 'nope.md'.",
        },
      ],
    });
    const error = await caught(client.blame(TOKEN, { repo: DEMO, ref: "v1.0", path: "nope.md" }));
    expect(error).toBeInstanceOf(PathNotFoundError);
    expect(sentenceOf(error)).toContain("at `v1.0`");
  });

  it("a null `file` below the tag's target is explained by the errors at that place", async () => {
    const { client } = answering({
      data: {
        repository: {
          ...REPOSITORY,
          object: tagOf({ ...BLAMED_COMMIT, file: null }),
          entry: tagOf(entryOfType(null)),
        },
      },
      errors: [
        {
          type: "NOT_FOUND",
          path: ["repository", "object", "target", "file"],
          message: "Could not resolve file for path 'nope.md'.",
        },
      ],
    });
    expect(await caught(client.blame(TOKEN, { repo: DEMO, ref: "v1.0", path: "nope.md" }))).toBeInstanceOf(
      PathNotFoundError,
    );
  });

  it("a tag name that resolves to nothing is still a ref not found", async () => {
    const { client } = answering({ data: { repository: { ...REPOSITORY, object: null, entry: null } } });
    const error = await caught(client.blame(TOKEN, { repo: DEMO, ref: "v9.9", path: "a" }));
    expect(error).toBeInstanceOf(RefNotFoundError);
  });
});

describe("contents at an annotated tag", () => {
  const FILE_AT_TAG = BLOB;

  it("reads the path through the tag (`<tag>:<path>`) and pins the answer to the tagged commit", async () => {
    const { client, requests } = answering({
      data: { repository: { ...REPOSITORY, commit: tagOf(TAGGED), object: FILE_AT_TAG } },
    });
    const answer = await client.contents(TOKEN, { repo: DEMO, ref: "v1.0", path: "/README.md" });
    expect(answer).toMatchObject({
      kind: "blob",
      path: "README.md",
      commit: { oid: TAGGED.oid, url: TAGGED.url, committedDate: TAGGED.committedDate },
      file: { kind: "text", text: "one\ntwo\n" },
    });
    expect(requests).toHaveLength(1);
    expect(variablesOf(requests[0]!)).toMatchObject({
      commitExpression: "v1.0",
      objectExpression: "v1.0:README.md",
    });
  });

  it("follows a tag of a tag to the commit", async () => {
    const { client } = answering({
      data: { repository: { ...REPOSITORY, commit: tagOf(tagOf(TAGGED)), object: FILE_AT_TAG } },
    });
    const answer = await client.contents(TOKEN, { repo: DEMO, ref: "v1.0-signed", path: "README.md" });
    expect(answer.commit.oid).toBe(TAGGED.oid);
  });

  it("refuses a tag of a tree, even though `<tag>:<path>` finds the path", async () => {
    const { client } = answering({
      data: {
        repository: { ...REPOSITORY, commit: tagOf({ __typename: "Tree" }), object: FILE_AT_TAG },
      },
    });
    const error = await caught(client.contents(TOKEN, { repo: DEMO, ref: "tree-tag", path: "README.md" }));
    expect(error).toBeInstanceOf(NotACommitError);
    expect(error).toMatchObject({ objectType: "Tree", tags: 1 });
  });

  it("refuses a tag whose answer does not have the shape asked for as unreadable, not as a tag", async () => {
    // A `target` that is neither a commit, a tree, a blob nor a tag is not something GitHub sends.
    const { client } = answering({
      data: { repository: { ...REPOSITORY, commit: tagOf({ __typename: "Mystery" }), object: FILE_AT_TAG } },
    });
    expect(await caught(client.contents(TOKEN, { repo: DEMO, ref: "v1.0", path: "" }))).toMatchObject({
      code: "upstream_error",
      reason: "unreadable",
    });
  });
});
