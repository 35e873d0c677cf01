import { NotAFileError } from "../errors.js";
import { contentsDataSchema } from "../schemas.js";
import { SYMLINK_MODE, type ContentsAnswer, type RepoRef, type TreeEntry } from "../types.js";
import {
  missingPathObject,
  normalizePath,
  repositoryAtRevision,
  toFileBody,
  toPinnedCommit,
  toRepositoryHeader,
} from "./answerParts.js";
import type { Credentials, OperationDeps } from "./operationDeps.js";

/**
 * A folder's entries or a file's text (`Contents` document), pinned to the commit `ref` (or `HEAD`,
 * the default branch) resolved to. `path` "" is the root (`HEAD:`). A ref naming an annotated tag is
 * pinned to the commit it tags, in the same single request (`<tag>:<path>` is peeled by GitHub).
 * A submodule is told from a missing path by the commit's tree entry at the path (type `commit`),
 * and a symbolic link from a file by its mode (`kind: "symlink"` with its target).
 */
export async function fetchContents(
  deps: OperationDeps,
  credentials: Credentials,
  args: { repo: RepoRef; ref?: string; path: string },
): Promise<ContentsAnswer> {
  const { repo, ref } = args;
  const path = normalizePath(args.path);
  const commitExpression = ref ?? "HEAD";
  const objectExpression = `${commitExpression}:${path}`;

  const answer = await deps.graphql.execute({
    ...credentials,
    operation: "Contents",
    // The root is no tree entry, so `file(path)` is only asked below it (`hasPath`).
    variables: {
      owner: repo.owner,
      name: repo.name,
      commitExpression,
      objectExpression,
      path,
      hasPath: path !== "",
    },
    schema: contentsDataSchema,
  });

  const { repository, context, commit } = repositoryAtRevision(answer, (found) => found.commit, {
    field: ["repository", "commit"],
    repo,
    expression: commitExpression,
  });

  const object = repository.object;
  if (!object)
    throw missingPathObject({ errors: answer.errors, entry: commit.file, repo, path, ref, context });
  const header = toRepositoryHeader(repository);
  const pinned = toPinnedCommit(commit);

  switch (object.__typename) {
    case "Tree":
      return {
        kind: "tree",
        repository: header,
        commit: pinned,
        path,
        entries: (object.entries ?? []).map((entry): TreeEntry => ({
          name: entry.name,
          path: entry.path ?? (path === "" ? entry.name : `${path}/${entry.name}`),
          type: entry.type,
          mode: entry.mode,
          size: entry.size,
          isBinary: entry.object?.__typename === "Blob" ? entry.object.isBinary : null,
        })),
      };
    case "Blob":
      // A symbolic link is a Blob too; only its tree entry's mode says so, and its text is the target.
      if (commit.file?.mode === SYMLINK_MODE) {
        const target = object.isBinary === true ? null : object.text;
        return { kind: "symlink", repository: header, commit: pinned, path, target };
      }
      return { kind: "blob", repository: header, commit: pinned, path, file: toFileBody(object) };
    default:
      // A submodule's commit (or a tag object): nothing in this repository to show.
      throw new NotAFileError(repo, path, "submodule", context);
  }
}
