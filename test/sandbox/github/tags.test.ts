import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_PATHS,
  DEMO_REFS,
  ensureDemoWorld,
  startGitHubStandIn,
  type GitHubStandIn,
} from "../../../src/sandbox/github/index.js";
import { runGitChecked } from "../../../src/sandbox/github/gitProcess.js";
import { DOCUMENTS, graphql } from "./helpers.js";
import { TAGGER, createTaggedRepository, type TaggedRepository } from "./taggedRepository.js";

/*
 * Annotated tags as GitHub answers them: `object(expression: "<tag>")` is the `Tag` object (not the
 * commit it tags), with its `target`; `<tag>:<path>` is peeled by git to the tagged commit's tree.
 */

let standIn: GitHubStandIn;
let folder: string;
let tagged: TaggedRepository;
let widgetsGitDir: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "standin-tags-"));
  tagged = await createTaggedRepository(folder);
  const demo = await ensureDemoWorld();
  const definition = structuredClone(demo.definition);
  definition.repositories.push({ owner: "demo", name: "tagged", id: 880001, gitDir: tagged.gitDir });
  standIn = await startGitHubStandIn({ world: definition });
  widgetsGitDir = standIn.world.repository("demo", "widgets")!.gitDir;
});

afterAll(async () => {
  await standIn?.close();
  await rm(folder, { recursive: true, force: true });
});

async function revParse(gitDir: string, expression: string): Promise<string> {
  return (await runGitChecked(["rev-parse", "--verify", expression], { gitDir })).toString("utf8").trim();
}

/** `object(expression)` with the Tag fields RepoScout may read. */
const TAG_QUERY = `query TagObject($owner: String!, $name: String!, $expression: String!) {
  repository(owner: $owner, name: $name) {
    object(expression: $expression) { __typename oid abbreviatedOid
      ... on Tag { name message tagger { name email } target { __typename oid } } } } }`;

describe("an annotated tag in the stand-in", () => {
  it("answers `object(expression)` of an annotated tag with the Tag itself: oid, name, message, tagger, target", async () => {
    const tagOid = await revParse(widgetsGitDir, DEMO_REFS.annotatedTag);
    const commitOid = await revParse(widgetsGitDir, `${DEMO_REFS.annotatedTag}^{commit}`);
    expect(tagOid).not.toBe(commitOid);
    const answer = await graphql(standIn, TAG_QUERY, {
      owner: "demo",
      name: "widgets",
      expression: DEMO_REFS.annotatedTag,
    });
    expect(answer.body).toEqual({
      data: {
        repository: {
          object: {
            __typename: "Tag",
            oid: tagOid,
            abbreviatedOid: tagOid.slice(0, 7),
            name: DEMO_REFS.annotatedTag,
            message: "Widgets 1.0.0\n\nThe first stable engine.",
            tagger: { name: "Alice Liddell", email: expect.any(String) },
            target: { __typename: "Commit", oid: commitOid },
          },
        },
      },
    });
    // The same object by its id.
    const byOid = await graphql(
      standIn,
      `
        query ByOid($oid: GitObjectID!) {
          repository(owner: "demo", name: "widgets") {
            object(oid: $oid) {
              __typename
              oid
            }
          }
        }
      `,
      { oid: tagOid },
    );
    expect(byOid.body.data.repository.object).toEqual({ __typename: "Tag", oid: tagOid });
  });

  it("answers a lightweight tag with the commit it names", async () => {
    const answer = await graphql(standIn, TAG_QUERY, {
      owner: "demo",
      name: "widgets",
      expression: DEMO_REFS.lightweightTag,
    });
    expect(answer.body.data.repository.object).toEqual({
      __typename: "Commit",
      oid: await revParse(widgetsGitDir, DEMO_REFS.lightweightTag),
      abbreviatedOid: expect.any(String),
    });
  });

  it("answers the Blame document at an annotated tag with the tagged commit's blame on the target, identical to the blame at that commit", async () => {
    const commitOid = await revParse(widgetsGitDir, `${DEMO_REFS.annotatedTag}^{commit}`);
    const variables = { owner: "demo", name: "widgets", path: DEMO_PATHS.readme };
    const atTag = await graphql(standIn, DOCUMENTS.blame, {
      ...variables,
      expression: DEMO_REFS.annotatedTag,
    });
    const atCommit = await graphql(standIn, DOCUMENTS.blame, { ...variables, expression: commitOid });
    expect(atTag.body.errors).toBeUndefined();
    const object = atTag.body.data.repository.object;
    expect(object.__typename).toBe("Tag");
    expect(Object.keys(object).sort()).toEqual(["__typename", "target"]);
    expect(object.target).toEqual(atCommit.body.data.repository.object);
    expect(object.target.oid).toBe(commitOid);
    const text = (
      await runGitChecked(["show", `${commitOid}:${DEMO_PATHS.readme}`], { gitDir: widgetsGitDir })
    ).toString("utf8");
    expect(object.target.file.object.text).toBe(text);
    expect(object.target.blame.ranges.at(-1).endingLine).toBe(text.split("\n").length - 1);
  });

  it("answers the Contents document at an annotated tag: the Tag's target commit, and `<tag>:<path>` peeled to its tree", async () => {
    const commitOid = await revParse(widgetsGitDir, `${DEMO_REFS.annotatedTag}^{commit}`);
    const answer = await graphql(standIn, DOCUMENTS.contents, {
      owner: "demo",
      name: "widgets",
      commitExpression: DEMO_REFS.annotatedTag,
      objectExpression: `${DEMO_REFS.annotatedTag}:${DEMO_PATHS.readme}`,
      path: DEMO_PATHS.readme,
      hasPath: true,
    });
    expect(answer.body.errors).toBeUndefined();
    const repository = answer.body.data.repository;
    expect(repository.commit).toEqual({
      __typename: "Tag",
      target: {
        __typename: "Commit",
        oid: commitOid,
        url: `https://github.com/demo/widgets/commit/${commitOid}`,
        committedDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        file: { type: "blob", mode: 0o100644 },
      },
    });
    expect(repository.object).toMatchObject({
      __typename: "Blob",
      oid: await revParse(widgetsGitDir, `${commitOid}:${DEMO_PATHS.readme}`),
    });
  });
});

describe("tags of tags, trees and blobs", () => {
  async function blameObject(expression: string, path = tagged.file) {
    const answer = await graphql(standIn, DOCUMENTS.blame, {
      owner: "demo",
      name: "tagged",
      expression,
      path,
    });
    return answer.body;
  }

  it("follows a tag of a tag through both targets to the commit", async () => {
    const body = await blameObject(tagged.tags.ofTag);
    expect(body.errors).toBeUndefined();
    const object = body.data.repository.object;
    expect(object.__typename).toBe("Tag");
    expect(object.target.__typename).toBe("Tag");
    expect(object.target.target.__typename).toBe("Commit");
    expect(object.target.target.oid).toBe(tagged.first);
    expect(object.target.target.file.object.text).toBe(tagged.firstText);
  });

  it("stops where the document stops asking: a chain of four tags ends in a Tag without target", async () => {
    const body = await blameObject(tagged.tags.deep);
    expect(body.errors).toBeUndefined();
    expect(body.data.repository.object).toEqual({
      __typename: "Tag",
      target: { __typename: "Tag", target: { __typename: "Tag", target: { __typename: "Tag" } } },
    });
  });

  it("answers a tag of a tree and a tag of a blob with their targets", async () => {
    expect((await blameObject(tagged.tags.ofTree)).data.repository.object).toEqual({
      __typename: "Tag",
      target: { __typename: "Tree" },
    });
    expect((await blameObject(tagged.tags.ofBlob)).data.repository.object).toEqual({
      __typename: "Tag",
      target: { __typename: "Blob" },
    });
  });

  it("a path missing at the tagged commit: NOT_FOUND below the target, the null reaching `object`", async () => {
    const body = await blameObject(tagged.tags.annotated, "nope.md");
    expect(body.data.repository.object).toBeNull();
    // `file` fails too (as it does at a commit named directly); both errors sit below the target.
    // `entry` reaches the same commit through the tag and finds nothing at the path either.
    expect(body.errors).toEqual(
      [
        ["object", "blame"],
        ["object", "file"],
        ["entry", "file"],
      ].map(([root, field]) =>
        expect.objectContaining({
          type: "NOT_FOUND",
          path: ["repository", root, "target", field],
          message: "Could not resolve file for path 'nope.md'.",
        }),
      ),
    );
    expect(body.data.repository.entry).toEqual({
      __typename: "Tag",
      target: { __typename: "Commit", file: null },
    });
  });

  it("keeps the Tag's message and tagger as written", async () => {
    const answer = await graphql(standIn, TAG_QUERY, {
      owner: "demo",
      name: "tagged",
      expression: tagged.tags.annotated,
    });
    expect(answer.body.data.repository.object).toMatchObject({
      __typename: "Tag",
      name: tagged.tags.annotated,
      message: `Tag ${tagged.tags.annotated}`,
      tagger: { name: TAGGER.name, email: TAGGER.email },
      target: { __typename: "Commit", oid: tagged.first },
    });
  });

  it("fails loudly for a Tag field it does not implement", async () => {
    const answer = await graphql(
      standIn,
      `
        query {
          repository(owner: "demo", name: "tagged") {
            object(expression: "v1.0") {
              ... on Tag {
                commitUrl
              }
            }
          }
        }
      `,
    );
    expect(answer.body.data.repository.object).toBeNull();
    expect(answer.body.errors).toEqual([
      expect.objectContaining({
        type: "NOT_IMPLEMENTED_BY_STAND_IN",
        message: "The field 'Tag.commitUrl' is not implemented by the stand-in",
      }),
    ]);
  });
});

describe("RefCommit (where a ref points now) in the stand-in", () => {
  it("answers a branch, HEAD and an annotated tag (through its target) with the commit git names", async () => {
    const main = await revParse(widgetsGitDir, "main");
    const tagged = await revParse(widgetsGitDir, `${DEMO_REFS.annotatedTag}^{commit}`);
    const ask = (expression: string) =>
      graphql(standIn, DOCUMENTS.refCommit, { owner: "demo", name: "widgets", expression });
    const branch = await ask("main");
    expect(branch.body.errors).toBeUndefined();
    expect(branch.body.data.repository).toMatchObject({
      nameWithOwner: "demo/widgets",
      isPrivate: false,
      visibility: "PUBLIC",
      object: { __typename: "Commit", oid: main },
    });
    expect((await ask("HEAD")).body.data.repository.object.oid).toBe(main);
    const tag = (await ask(DEMO_REFS.annotatedTag)).body.data.repository.object;
    expect(tag).toMatchObject({ __typename: "Tag", target: { __typename: "Commit", oid: tagged } });
    expect((await ask("no-such-branch")).body.data.repository.object).toBeNull();
  });
});
