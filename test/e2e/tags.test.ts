import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  DEMO_PATHS,
  DEMO_REFS,
  DEMO_REPOSITORIES,
  DEMO_TOKEN,
  ensureDemoWorld,
} from "../../src/sandbox/github/index.js";
import { runGitChecked } from "../../src/sandbox/github/gitProcess.js";
import type { SandboxWorld } from "../../src/sandbox/harness.js";
import { createTaggedRepository, type TaggedRepository } from "../sandbox/github/taggedRepository.js";
import { answerOf, commitOf, errorText, expectDeliveredWithoutPings, press, startWorld } from "./helpers.js";

/*
 * /blame and /contents with a tag as `ref`, through the real bot and both stand-ins. GitHub answers
 * `object(expression: "<annotated tag>")` with the Tag object, not the commit; the bot must still
 * answer, pinned to the tagged commit, in one GraphQL request.
 */

const WIDGETS = DEMO_REPOSITORIES.widgets;
const TAGGED = "demo/tagged";
/**
 * The bot remembers for a while which commit a ref named (its answer told it), and asks GitHub by
 * that commit id next time. Each test that must reach GitHub with the tag's own name spells the
 * annotated tag differently, so the name is new to the bot: `v1.0.0`, `refs/tags/v1.0.0`, `tags/v1.0.0`.
 */
const FULL_TAG_REF = `refs/tags/${DEMO_REFS.annotatedTag}`;

let world: SandboxWorld;
let folder: string;
let tagged: TaggedRepository;

beforeAll(async () => {
  // The demo world plus `demo/tagged`: tags of tags, of a tree, of a blob, and a chain too deep.
  folder = await mkdtemp(join(tmpdir(), "reposcout-e2e-tags-"));
  tagged = await createTaggedRepository(folder);
  const definition = structuredClone((await ensureDemoWorld()).definition);
  definition.repositories.push({ owner: "demo", name: "tagged", id: 880002, gitDir: tagged.gitDir });
  world = await startWorld({ github: { world: definition }, client: { holdWhileLimited: false } });
});

afterAll(async () => {
  await world?.close();
  await rm(folder, { recursive: true, force: true });
});

beforeEach(() => {
  world.github.faults.clear();
  world.github.setRateLimit(DEMO_TOKEN, { remaining: 5000 });
});

/** The text of a file at a revision of a world repository, as git has it. */
async function fileAt(nameWithOwner: string, revision: string, path: string): Promise<string> {
  const [owner = "", name = ""] = nameWithOwner.split("/");
  const gitDir = world.github.world.repository(owner, name)!.gitDir;
  return (await runGitChecked(["show", `${revision}:${path}`], { gitDir })).toString("utf8");
}

/** The text of the numbered lines of a code block (blame: after the gutter; contents: after the number). */
function codeTexts(description: string): string[] {
  const block = description.split("```")[1] ?? "";
  return block
    .split("\n")
    .slice(1)
    .flatMap((line) => {
      const match = /^\s*\d+ (?:.*? )?│ (.*)$/.exec(line);
      return match ? [match[1]!] : [];
    });
}

/** Runs a command and returns its answer, with the GraphQL operations and variables it sent. */
async function answer(name: "blame" | "contents", options: Record<string, string>) {
  const before = world.github.requests.length;
  const record = await world.run({ kind: "slash", name, options });
  expectDeliveredWithoutPings(record);
  const sent = world.github.requests.slice(before);
  return { ...answerOf(record), sent };
}

describe("/blame at a tag", () => {
  it("blames README.md at the annotated tag v1.0.0: the tagged commit's file, pinned to that commit, in ONE request", async () => {
    const { embed, sent } = await answer("blame", {
      repo: WIDGETS,
      path: DEMO_PATHS.readme,
      ref: DEMO_REFS.annotatedTag,
    });
    const taggedCommit = commitOf(world, WIDGETS, DEMO_REFS.annotatedTag);
    expect(taggedCommit).not.toBe(commitOf(world, WIDGETS, DEMO_REFS.defaultBranch));
    expect(embed.footer?.text).toBe(
      `fetched now · ${DEMO_REFS.annotatedTag} · pinned to ${taggedCommit.slice(0, 7)}`,
    );
    expect(embed.url).toMatch(
      new RegExp(`^https://github\\.com/demo/widgets/blob/${taggedCommit}/README\\.md`),
    );
    // README.md grew after the tag: the answer shows it as it was at the tag.
    const atTag = await fileAt(WIDGETS, taggedCommit, DEMO_PATHS.readme);
    const lines = atTag.replace(/\n$/, "").split("\n");
    expect(lines.length).toBeLessThan(
      (await fileAt(WIDGETS, "main", DEMO_PATHS.readme)).split("\n").length - 1,
    );
    expect(embed.description).toMatch(new RegExp(`^Lines 1–${lines.length} of ${lines.length}\\.`));
    expect(codeTexts(embed.description!)).toEqual(lines);
    for (const field of embed.fields ?? []) expect(field.name).toMatch(/ [0-9a-f]{7}$/);

    expect(sent.map((request) => request.operationName)).toEqual(["Blame"]);
    expect(sent[0]!.variables).toMatchObject({ expression: DEMO_REFS.annotatedTag, path: DEMO_PATHS.readme });
  });

  it("blames at the lightweight tag v0.9.0, pinned to the commit it names", async () => {
    const { embed, sent } = await answer("blame", {
      repo: WIDGETS,
      path: DEMO_PATHS.engine,
      ref: DEMO_REFS.lightweightTag,
      lines: "1-5",
    });
    const commit = commitOf(world, WIDGETS, DEMO_REFS.lightweightTag);
    expect(embed.footer?.text).toBe(
      `fetched now · ${DEMO_REFS.lightweightTag} · pinned to ${commit.slice(0, 7)}`,
    );
    const atTag = (await fileAt(WIDGETS, commit, DEMO_PATHS.engine)).split("\n");
    expect(codeTexts(embed.description!)).toEqual(atTag.slice(0, 5));
    expect(sent.map((request) => request.operationName)).toEqual(["Blame"]);
  });

  it("follows a tag of a tag to its commit", async () => {
    const { embed, sent } = await answer("blame", {
      repo: TAGGED,
      path: tagged.file,
      ref: tagged.tags.ofTag,
    });
    expect(embed.footer?.text).toBe(
      `fetched now · ${tagged.tags.ofTag} · pinned to ${tagged.first.slice(0, 7)}`,
    );
    expect(codeTexts(embed.description!)).toEqual(tagged.firstText.replace(/\n$/, "").split("\n"));
    expect(sent.map((request) => request.variables?.expression)).toEqual([tagged.tags.ofTag]);
  });

  it("says a tag of a folder has no history to blame, and what to give instead", async () => {
    const text = await errorText(world, {
      kind: "slash",
      name: "blame",
      options: { repo: TAGGED, path: tagged.file, ref: tagged.tags.ofTree },
    });
    expect(text).toContain("`tree-tag`");
    expect(text).toContain("is a tag of a folder (a Git tree), not of a commit");
    expect(text).toContain("`ref`");
  });

  it("says a chain of tags deeper than it follows is not followed, and to give the commit id", async () => {
    const text = await errorText(world, {
      kind: "slash",
      name: "blame",
      options: { repo: TAGGED, path: tagged.file, ref: tagged.tags.deep },
    });
    expect(text).toContain("nested more than 3 deep");
    expect(text).toContain("commit id");
  });
});

describe("/contents at a tag", () => {
  it("shows README.md at the annotated tag (as refs/tags/v1.0.0), pinned to the tagged commit, in ONE request", async () => {
    const { embed, sent } = await answer("contents", {
      repo: WIDGETS,
      path: DEMO_PATHS.readme,
      ref: FULL_TAG_REF,
    });
    const taggedCommit = commitOf(world, WIDGETS, DEMO_REFS.annotatedTag);
    expect(embed.title).toBe("📄 demo/widgets/README.md");
    expect(embed.footer?.text).toBe(`fetched now · ${FULL_TAG_REF} · pinned to ${taggedCommit.slice(0, 7)}`);
    expect(embed.url).toMatch(
      new RegExp(`^https://github\\.com/demo/widgets/blob/${taggedCommit}/README\\.md`),
    );
    const atTag = await fileAt(WIDGETS, taggedCommit, DEMO_PATHS.readme);
    expect(codeTexts(embed.description!)).toEqual(atTag.replace(/\n$/, "").split("\n"));
    expect(embed.description).not.toContain("Usage");

    expect(sent.map((request) => request.operationName)).toEqual(["Contents"]);
    expect(sent[0]!.variables).toMatchObject({
      commitExpression: FULL_TAG_REF,
      objectExpression: `${FULL_TAG_REF}:${DEMO_PATHS.readme}`,
    });
  });

  it("lists the root folder at the annotated tag, linked at the tagged commit", async () => {
    const { embed, sent } = await answer("contents", {
      repo: WIDGETS,
      ref: `tags/${DEMO_REFS.annotatedTag}`,
    });
    const taggedCommit = commitOf(world, WIDGETS, DEMO_REFS.annotatedTag);
    expect(embed.title).toBe("📁 demo/widgets");
    expect(embed.url).toBe(`https://github.com/demo/widgets/tree/${taggedCommit}`);
    expect(embed.footer?.text).toBe(
      `fetched now · tags/${DEMO_REFS.annotatedTag} · pinned to ${taggedCommit.slice(0, 7)}`,
    );
    expect(embed.description).toContain("README.md");
    expect(sent.map((request) => request.variables?.objectExpression)).toEqual([
      `tags/${DEMO_REFS.annotatedTag}:`,
    ]);
  });

  it("shows a file at the lightweight tag v0.9.0, pinned to the commit it names", async () => {
    const { embed } = await answer("contents", {
      repo: WIDGETS,
      path: DEMO_PATHS.engine,
      ref: DEMO_REFS.lightweightTag,
      lines: "1-3",
    });
    const commit = commitOf(world, WIDGETS, DEMO_REFS.lightweightTag);
    expect(embed.footer?.text).toBe(
      `fetched now · ${DEMO_REFS.lightweightTag} · pinned to ${commit.slice(0, 7)}`,
    );
    expect(codeTexts(embed.description!)).toEqual(
      (await fileAt(WIDGETS, commit, DEMO_PATHS.engine)).split("\n").slice(0, 3),
    );
  });

  it("follows a tag of a tag to its commit, and refuses a tag of a blob", async () => {
    const { embed, sent } = await answer("contents", {
      repo: TAGGED,
      path: tagged.file,
      ref: `refs/tags/${tagged.tags.ofTag}`,
    });
    expect(sent.map((request) => request.variables?.commitExpression)).toEqual([
      `refs/tags/${tagged.tags.ofTag}`,
    ]);
    expect(embed.footer?.text).toBe(
      `fetched now · refs/tags/${tagged.tags.ofTag} · pinned to ${tagged.first.slice(0, 7)}`,
    );
    expect(codeTexts(embed.description!)).toEqual(tagged.firstText.replace(/\n$/, "").split("\n"));

    const text = await errorText(world, {
      kind: "slash",
      name: "contents",
      options: { repo: TAGGED, ref: tagged.tags.ofBlob },
    });
    expect(text).toContain("is a tag of a single file (a Git blob), not of a commit");
  });
});

describe("the tag asked for, page after page", () => {
  it.each(["blame", "contents"] as const)(
    "/%s names the tag in the footer of every page Next and Previous turn to",
    async (name) => {
      const commit = commitOf(world, WIDGETS, DEMO_REFS.lightweightTag);
      const footer = `${DEMO_REFS.lightweightTag} · pinned to ${commit.slice(0, 7)}`;
      const { last } = await answer(name, {
        repo: WIDGETS,
        path: DEMO_PATHS.engine,
        ref: DEMO_REFS.lightweightTag,
        lines: "1-5",
      });
      expect(last.message.embeds[0]!.footer?.text).toMatch(new RegExp(` · ${footer}$`));

      const next = await press(world, last, /Next lines/);
      expect(next.after.message.embeds[0]!.description).toMatch(/^Lines 6–10 of /);
      expect(next.after.message.embeds[0]!.footer?.text).toMatch(new RegExp(` · ${footer}$`));
      const back = await press(world, next.after, /Previous lines/);
      expect(back.after.message.embeds[0]!.footer?.text).toMatch(new RegExp(` · ${footer}$`));
    },
  );
});
