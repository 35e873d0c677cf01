import { BLAME_BATCH } from "../ownershipDocuments.js";
import { blameAliasSchema, ownersBlameDataSchema } from "../ownershipSchemas.js";
import type { BlameBatch } from "../ownershipTypes.js";
import type { RepoRef } from "../types.js";
import { missingRepository } from "./answerParts.js";
import { toGitAuthor } from "./fetchHistory.js";
import type { Credentials, OperationDeps } from "./operationDeps.js";

/**
 * The blame of up to BLAME_BATCH files at the commit `oid` in ONE request (`OwnersBlame`
 * document, one alias per file), reduced to the lines each commit last changed. A file GitHub could
 * not blame (its alias null: a timeout, a file too large) has `lines: null`; the others stand.
 */
export async function fetchOwnersBlame(
  deps: OperationDeps,
  credentials: Credentials,
  args: { repo: RepoRef; oid: string; paths: readonly string[] },
): Promise<BlameBatch> {
  const { repo, oid, paths } = args;
  if (paths.length === 0 || paths.length > BLAME_BATCH) {
    throw new RangeError(`a blame batch holds 1 to ${BLAME_BATCH} files, not ${paths.length}`);
  }
  const variables: Record<string, unknown> = { owner: repo.owner, name: repo.name, oid };
  for (let index = 0; index < BLAME_BATCH; index += 1) {
    // Unused aliases are skipped by `@include`; their path must still be a string.
    variables[`p${index}`] = paths[index] ?? "";
    variables[`i${index}`] = index < paths.length;
  }
  const { data, errors, context } = await deps.graphql.execute({
    ...credentials,
    operation: "OwnersBlame",
    variables,
    schema: ownersBlameDataSchema,
  });
  const repository = data.repository;
  if (!repository) throw missingRepository(errors, repo, context);
  const files = paths.map((path, index) => {
    // Already checked by the document's schema; read again here for its type.
    const alias = blameAliasSchema.parse((repository as Record<string, unknown>)[`f${index}`]);
    if (!alias) return { path, lines: null };
    return {
      path,
      lines: alias.blame.ranges.map((range) => ({
        lines: range.endingLine - range.startingLine + 1,
        oid: range.commit.oid,
        authoredDate: range.commit.authoredDate,
        author: toGitAuthor(range.commit.author),
      })),
    };
  });
  return {
    repository: {
      nameWithOwner: repository.nameWithOwner,
      isPrivate: repository.isPrivate,
      visibility: repository.visibility,
    },
    files,
  };
}
