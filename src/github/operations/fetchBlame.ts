import { NotAFileError, PathNotFoundError } from "../errors.js";
import { errorsUnder, explainNullField } from "../graphqlErrors.js";
import { blameDataSchema, type BlameData } from "../schemas.js";
import { SYMLINK_MODE, type BlameAnswer, type BlameCommit, type BlameRange, type RepoRef } from "../types.js";
import {
  answeredRepository,
  normalizePath,
  peelTags,
  revisionCommit,
  toFileBody,
  toPinnedCommit,
  toRepositoryHeader,
} from "./answerParts.js";
import type { Credentials, OperationDeps } from "./operationDeps.js";

/**
 * Blame of one file with its text, in ONE request (`Blame` document). Without `ref` the expression
 * is `HEAD`, which GitHub resolves to the default branch; the answer is pinned to the commit it
 * resolved to, so it can be cached for long. A ref naming an annotated tag (or a tag of a tag) is
 * read at the commit it tags, still in one request: the document asks for the commit's blame on the
 * tag's `target` too.
 *
 * Which thing is missing is told apart by where GitHub put the null: `repository` (the repository),
 * `object` with no error below it (the ref; or an empty repository when there is no default
 * branch), an error below `object` or a null `file` (the path). A failed blame nulls `object`
 * whole, so a folder or a submodule given as `path` is recognised by the type of the entry at the
 * path, which the document asks in `entry` (see BLAME_QUERY).
 */
export async function fetchBlame(
  deps: OperationDeps,
  credentials: Credentials,
  args: { repo: RepoRef; ref?: string; path: string },
): Promise<BlameAnswer> {
  const { repo, ref } = args;
  const path = normalizePath(args.path);
  // The root is a folder; GitHub would only answer with an error for it.
  if (path === "") throw new NotAFileError(repo, "/", "folder");
  const expression = ref ?? "HEAD";

  const answer = await deps.graphql.execute({
    ...credentials,
    operation: "Blame",
    variables: { owner: repo.owner, name: repo.name, expression, path },
    schema: blameDataSchema,
  });

  const { errors } = answer;
  const { repository, context } = answeredRepository(answer, repo);
  const pathNotFound = () => new PathNotFoundError(repo, path, ref, context);

  const answered = repository.object;
  if (!answered) {
    // `blame` is non-null in GitHub's schema (and so is a tag's `target`): when blame(path) fails,
    // its error sits below `object` and the null reaches `object` itself.
    // `entry` asked the same commit for the type of what is at the path, outside the failed
    // selection: a folder or a submodule is not a file, whatever error GitHub gave blame for it.
    const below = errorsUnder(errors, ["repository", "object"]).filter((error) => error.path!.length > 2);
    if (below.length > 0) {
      const found = notAFileKind(repository.entry);
      if (found !== undefined) throw new NotAFileError(repo, path, found, context);
      throw explainNullField(below, ["repository", "object"], context, pathNotFound, repo);
    }
  }
  const { commit: object, path: peeledPath } = revisionCommit(answered, {
    errors,
    field: ["repository", "object"],
    repository,
    repo,
    expression,
    context,
  });

  const file = object.file;
  if (!file) {
    const filePath = ["repository", "object", ...peeledPath, "file"];
    throw explainNullField(errors, filePath, context, pathNotFound, repo);
  }
  const blob = file.object;
  if (!blob || blob.__typename !== "Blob") {
    throw new NotAFileError(repo, path, blob?.__typename === "Tree" ? "folder" : "submodule", context);
  }

  // A symbolic link's blob is its target's path: there are no lines of its own to blame.
  const entry = repository.entry ? peelTags(repository.entry).object : undefined;
  const entryMode = entry?.__typename === "Commit" ? entry.file?.mode : undefined;
  if (entryMode === SYMLINK_MODE && blob.text !== null) {
    throw new NotAFileError(repo, path, "symlink", context, blob.text);
  }

  // GitHub repeats a commit in every range it owns (578 ranges, 50 commits on a 2,000-line file):
  // one object per commit, shared by its ranges, is what the answer holds and what the cache stores.
  const commits = new Map<string, BlameCommit>();
  const commitUrlBase = `${repository.url}/commit/`;
  const commitOf = (commit: BlameRangeData["commit"]): BlameCommit => {
    let held = commits.get(commit.oid);
    if (held === undefined) {
      held = {
        oid: commit.oid,
        // Derived, not asked (BLAME_QUERY): GitHub's own abbreviation and web address of a commit.
        abbreviatedOid: commit.oid.slice(0, 7),
        messageHeadline: commit.messageHeadline,
        url: commitUrlBase + commit.oid,
        authoredDate: commit.authoredDate,
        committedDate: commit.committedDate,
        authorName: commit.author?.name ?? null,
        authorLogin: commit.author?.user?.login ?? null,
      };
      commits.set(commit.oid, held);
    }
    return held;
  };
  const ranges: BlameRange[] = object.blame.ranges
    .map((range) => ({
      startingLine: range.startingLine,
      endingLine: range.endingLine,
      age: range.age,
      commit: commitOf(range.commit),
    }))
    .sort((a, b) => a.startingLine - b.startingLine);

  return {
    repository: toRepositoryHeader(repository),
    commit: toPinnedCommit(object),
    path: file.path ?? path,
    file: toFileBody(blob),
    ranges,
  };
}

/** One range of a Blame answer as GitHub writes it. */
type BlameRangeData = Extract<
  NonNullable<NonNullable<BlameData["repository"]>["object"]>,
  { __typename: "Commit" }
>["blame"]["ranges"][number];

/** The `entry` part of a Blame answer: the commit again, with the type of the entry at the path. */
type EntryAnswer = NonNullable<BlameData["repository"]>["entry"];

/**
 * What is at the path when it is not a file: `folder` for a tree entry of type `tree`, `submodule`
 * for `commit` (a gitlink); undefined for a file, nothing at the path, or a ref that leads to no
 * commit (those are explained by the errors, as before).
 */
function notAFileKind(entry: EntryAnswer): "folder" | "submodule" | undefined {
  if (!entry) return undefined;
  const commit = peelTags(entry).object;
  if (commit.__typename !== "Commit") return undefined;
  const type = commit.file?.type;
  return type === "tree" ? "folder" : type === "commit" ? "submodule" : undefined;
}
