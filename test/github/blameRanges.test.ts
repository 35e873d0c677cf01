import { describe, expect, it } from "vitest";
import { UpstreamError } from "../../src/github/errors.js";
import { blameRangesSchema } from "../../src/github/blameRangesSchema.js";
import { BLAME_QUERY } from "../../src/github/documents.js";
import {
  DEMO,
  DEMO_REPOSITORY as REPOSITORY,
  TOKEN,
  caught,
  clientWith,
  entryFor,
  fakeFetch,
  json,
} from "./fakeGitHub.js";

const OID = "0123456789abcdef0123456789abcdef01234567";
const BLOB = {
  __typename: "Blob",
  oid: "b".repeat(40),
  text: "x\ny\n",
  isBinary: false,
  byteSize: 4,
  isTruncated: false,
};

/** A range as the Blame document asks it, with `commit` fields replaced as given. */
function range(start: number, commit: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    startingLine: start,
    endingLine: start,
    age: 3,
    commit: {
      oid: OID,
      messageHeadline: "Fix the widget",
      authoredDate: "2026-01-02T03:04:05Z",
      committedDate: "2026-01-03T03:04:05Z",
      author: { name: "Ann", user: { login: "ann" } },
      ...commit,
    },
  };
}

/** A client whose GitHub answers the Blame document with these ranges. */
function blamedWith(ranges: unknown) {
  const object = {
    __typename: "Commit",
    oid: "c".repeat(40),
    url: `https://github.com/demo/widgets/commit/${"c".repeat(40)}`,
    committedDate: "2026-01-04T00:00:00Z",
    blame: { ranges },
    file: { path: "a.txt", object: BLOB },
  };
  const github = fakeFetch(() =>
    json({ data: { repository: { ...REPOSITORY, entry: entryFor(object), object } } }),
  );
  return clientWith(github.fetch).client;
}

describe("a blame's ranges as GitHub writes them", () => {
  it("the document asks a range's commit for nothing the answer can derive", () => {
    const commit = /ranges \{[^{]*commit \{([^}]*)/.exec(BLAME_QUERY)?.[1] ?? "";
    expect(commit).toContain("oid");
    expect(commit).not.toMatch(/\burl\b|\babbreviatedOid\b|\bemail\b/);
  });

  it("a commit's web address and short oid are derived from the repository and the oid", async () => {
    const answer = await blamedWith([range(1), range(2, { author: { name: null, user: null } })]).blame(
      TOKEN,
      {
        repo: DEMO,
        path: "a.txt",
      },
    );
    expect(answer.ranges).toHaveLength(2);
    const commit = answer.ranges[0]!.commit;
    expect(commit).toMatchObject({
      oid: OID,
      abbreviatedOid: "0123456",
      url: `https://github.com/demo/widgets/commit/${OID}`,
      messageHeadline: "Fix the widget",
      authoredDate: "2026-01-02T03:04:05Z",
      committedDate: "2026-01-03T03:04:05Z",
      authorName: "Ann",
      authorLogin: "ann",
    });
    // One commit object for both ranges, as before.
    expect(answer.ranges[1]!.commit).toBe(commit);
  });

  it("fields the document did not ask are accepted and not carried into the answer", async () => {
    const extra = range(1, {
      url: "https://elsewhere.invalid/x",
      abbreviatedOid: "zzzzzzz",
      author: { name: "Ann", email: "ann@example.com", user: { login: "ann" } },
    });
    const answer = await blamedWith([{ ...extra, somethingNew: 1 }]).blame(TOKEN, {
      repo: DEMO,
      path: "a.txt",
    });
    const commit = answer.ranges[0]!.commit;
    expect(commit.url).toBe(`https://github.com/demo/widgets/commit/${OID}`);
    expect(commit.abbreviatedOid).toBe("0123456");
    expect(JSON.stringify(answer)).not.toContain("ann@example.com");
  });

  it("ranges are checked where they lie, not copied", () => {
    const ranges = [range(1), range(2, { author: null })];
    const parsed = blameRangesSchema.safeParse(ranges);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toBe(ranges);
    expect(parsed.data![0]).toBe(ranges[0]);
  });

  const broken: Array<[string, unknown, Array<string | number>]> = [
    ["not a list", { 0: range(1) }, []],
    ["a range that is not an object", [range(1), "x"], [1]],
    ["a range that is a list", [[]], [0]],
    ["a line that is not an integer", [range(1), { ...range(2), startingLine: 2.5 }], [1, "startingLine"]],
    ["an ending line missing", [{ ...range(1), endingLine: undefined }], [0, "endingLine"]],
    ["an age given as text", [{ ...range(1), age: "3" }], [0, "age"]],
    ["no commit", [{ ...range(1), commit: null }], [0, "commit"]],
    ["an oid that is a number", [range(1, { oid: 7 })], [0, "commit", "oid"]],
    ["a headline nulled", [range(1, { messageHeadline: null })], [0, "commit", "messageHeadline"]],
    ["no committed date", [range(1, { committedDate: undefined })], [0, "commit", "committedDate"]],
    ["no author field at all", [range(1, { author: undefined })], [0, "commit", "author"]],
    [
      "an author's name that is a number",
      [range(1, { author: { name: 1, user: null } })],
      [0, "commit", "author", "name"],
    ],
    [
      "a user without a login",
      [range(1, { author: { name: "Ann", user: {} } })],
      [0, "commit", "author", "user", "login"],
    ],
    [
      "a user that is text",
      [range(1, { author: { name: "Ann", user: "ann" } })],
      [0, "commit", "author", "user"],
    ],
  ];
  for (const [name, ranges, path] of broken) {
    it(`${name}: an issue at its path, and an unreadable answer`, async () => {
      const parsed = blameRangesSchema.safeParse(ranges);
      expect(parsed.success).toBe(false);
      expect(parsed.error!.issues[0]!.path).toEqual(path);
      const error = await caught(blamedWith(ranges).blame(TOKEN, { repo: DEMO, path: "a.txt" }));
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as UpstreamError).reason).toBe("unreadable");
    });
  }
});
