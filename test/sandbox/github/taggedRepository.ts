import { join } from "node:path";
import {
  FastImportScript,
  initBareRepository,
  runFastImport,
} from "../../../src/sandbox/github/fastImport.js";
import { runGitChecked } from "../../../src/sandbox/github/gitProcess.js";

/**
 * A small bare repository with every kind of tag a ref can name, for the stand-in and end-to-end
 * tests of tags: two commits on `main`, and tags of the first commit (annotated, a tag of that tag,
 * a chain of four annotated tags, a lightweight tag), of a tree and of a blob.
 */
export interface TaggedRepository {
  gitDir: string;
  /** The first commit (what every commit tag names) and the second (the tip of `main`). */
  first: string;
  second: string;
  /** The file of the repository, changed by the second commit. */
  file: string;
  /** Its text at the first commit and at the second. */
  firstText: string;
  secondText: string;
  tags: {
    /** Annotated tag of `first`. */
    annotated: string;
    /** Annotated tag of {@link annotated}. */
    ofTag: string;
    /** Four annotated tags deep, the last one naming `first`: deeper than RepoScout follows. */
    deep: string;
    /** Lightweight tag of `first`. */
    lightweight: string;
    /** Annotated tag of the first commit's root tree. */
    ofTree: string;
    /** Annotated tag of the file's blob at the first commit. */
    ofBlob: string;
  };
}

export const TAGGER = { name: "Tess Tagger", email: "tess@tags.example" };

/** Creates the repository in `folder` (as `tagged.git`). */
export async function createTaggedRepository(folder: string): Promise<TaggedRepository> {
  const gitDir = join(folder, "tagged.git");
  await initBareRepository(gitDir, "main");
  const file = "NOTES.md";
  const firstText = "# Notes\n\nFirst release.\n";
  const secondText = "# Notes\n\nFirst release.\nSecond thoughts.\n";
  const script = new FastImportScript();
  const author = { ...TAGGER, timezone: "+0000" };
  const one = script.commit({
    ref: "refs/heads/main",
    author: { ...author, time: 1_600_000_000 },
    message: "First release\n",
    changes: [{ path: file, content: firstText }],
  });
  script.commit({
    ref: "refs/heads/main",
    from: one,
    author: { ...author, time: 1_600_500_000 },
    message: "Second thoughts\n",
    changes: [{ path: file, content: secondText }],
  });
  await runFastImport(gitDir, script);

  const git = async (args: string[], input?: string): Promise<string> =>
    (await runGitChecked(args, { gitDir, ...(input === undefined ? {} : { input }) }))
      .toString("utf8")
      .trim();
  const first = await git(["rev-parse", "--verify", "main~1"]);
  const second = await git(["rev-parse", "--verify", "main"]);
  let time = 1_600_100_000;
  /** Writes an annotated tag object of `object` (of git type `type`) and points refs/tags/<name> at it. */
  const annotatedTag = async (name: string, object: string, type: string): Promise<string> => {
    time += 60;
    const body = `object ${object}\ntype ${type}\ntag ${name}\ntagger ${TAGGER.name} <${TAGGER.email}> ${time} +0000\n\nTag ${name}\n`;
    const oid = await git(["mktag"], body);
    await git(["update-ref", `refs/tags/${name}`, oid]);
    return oid;
  };

  const tags = {
    annotated: "v1.0",
    ofTag: "v1.0-signed",
    deep: "deep-4",
    lightweight: "v1.0-light",
    ofTree: "tree-tag",
    ofBlob: "blob-tag",
  };
  const annotated = await annotatedTag(tags.annotated, first, "commit");
  await annotatedTag(tags.ofTag, annotated, "tag");
  let chain = await annotatedTag("deep-1", first, "commit");
  for (let level = 2; level <= 4; level += 1) chain = await annotatedTag(`deep-${level}`, chain, "tag");
  await git(["update-ref", `refs/tags/${tags.lightweight}`, first]);
  await annotatedTag(tags.ofTree, await git(["rev-parse", "--verify", `${first}^{tree}`]), "tree");
  await annotatedTag(tags.ofBlob, await git(["rev-parse", "--verify", `${first}:${file}`]), "blob");
  return { gitDir, first, second, file, firstText, secondText, tags };
}
