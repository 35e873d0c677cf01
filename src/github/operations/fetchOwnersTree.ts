import { CODEOWNERS_LOCATIONS } from "../../owners/codeowners.js";
import { NotAFileError } from "../errors.js";
import { ownersTreeDataSchema, type TreeEntryData } from "../ownershipSchemas.js";
import type { FolderFile, OwnersTarget, OwnersTree } from "../ownershipTypes.js";
import type { RepoRef } from "../types.js";
import {
  missingPathObject,
  normalizePath,
  repositoryAtRevision,
  toPinnedCommit,
  toRepositoryHeader,
} from "./answerParts.js";
import { toGitAuthor } from "./fetchHistory.js";
import type { Credentials, OperationDeps } from "./operationDeps.js";

/** The files of a listed tree (depth first), and the folders whose entries the listing did not reach. */
function filesOf(
  entries: readonly TreeEntryData[],
  parent: string,
): { files: FolderFile[]; deeper: string[] } {
  const files: FolderFile[] = [];
  const deeper: string[] = [];
  for (const entry of entries) {
    const path = entry.path ?? (parent === "" ? entry.name : `${parent}/${entry.name}`);
    if (entry.type === "blob") {
      files.push({
        path,
        size: entry.size,
        isBinary: entry.object?.__typename === "Blob" ? entry.object.isBinary : null,
      });
    } else if (entry.type === "tree") {
      const below = entry.object?.__typename === "Tree" ? entry.object.entries : undefined;
      if (below === undefined || below === null) {
        deeper.push(path);
      } else {
        const inner = filesOf(below, path);
        files.push(...inner.files);
        deeper.push(...inner.deeper);
      }
    }
    // A submodule (`commit`) is another repository: it has no lines here.
  }
  return { files, deeper };
}

/**
 * Everything `/owners` reads before blame, in ONE request (`OwnersTree` document): the commit the
 * answer is pinned to, what is at `path` (a file, or a folder's files), the first CODEOWNERS file
 * of GitHub's three places, and the commits since `since` that touched the path (at most 100).
 */
export async function fetchOwnersTree(
  deps: OperationDeps,
  credentials: Credentials,
  args: { repo: RepoRef; ref?: string; path: string; since: Date },
): Promise<OwnersTree> {
  const { repo, ref } = args;
  const path = normalizePath(args.path);
  const commitExpression = ref ?? "HEAD";
  const [first, second, third] = CODEOWNERS_LOCATIONS.map((location) => `${commitExpression}:${location}`);
  const answer = await deps.graphql.execute({
    ...credentials,
    operation: "OwnersTree",
    variables: {
      owner: repo.owner,
      name: repo.name,
      commitExpression,
      objectExpression: `${commitExpression}:${path}`,
      path: path === "" ? null : path,
      filePath: path,
      hasPath: path !== "",
      since: args.since.toISOString(),
      codeowners1: first,
      codeowners2: second,
      codeowners3: third,
    },
    schema: ownersTreeDataSchema,
  });
  const { repository, context, commit } = repositoryAtRevision(answer, (found) => found.commit, {
    field: ["repository", "commit"],
    repo,
    expression: commitExpression,
  });
  const object = repository.object;
  if (!object)
    throw missingPathObject({ errors: answer.errors, entry: commit.file, repo, path, ref, context });
  let target: OwnersTarget;
  if (object.__typename === "Blob") {
    target = { kind: "file", byteSize: object.byteSize, isBinary: object.isBinary };
  } else if (object.__typename === "Tree") {
    const { files, deeper } = filesOf(object.entries ?? [], path);
    target = { kind: "folder", files, deeperFolders: deeper };
  } else {
    throw new NotAFileError(repo, path, "submodule", context);
  }
  const found = [repository.codeowners1, repository.codeowners2, repository.codeowners3]
    .map((blob, index) => ({ blob, path: CODEOWNERS_LOCATIONS[index]! }))
    .find((candidate) => candidate.blob?.__typename === "Blob");
  const codeowners =
    found && found.blob?.__typename === "Blob"
      ? { path: found.path, text: found.blob.text, byteSize: found.blob.byteSize }
      : null;
  return {
    repository: toRepositoryHeader(repository),
    commit: toPinnedCommit(commit),
    path,
    target,
    codeowners,
    recent: commit.history.nodes.map((node) => ({
      oid: node.oid,
      authoredDate: node.authoredDate,
      author: toGitAuthor(node.author),
    })),
    recentTotal: commit.history.totalCount,
    since: args.since.toISOString(),
  };
}
