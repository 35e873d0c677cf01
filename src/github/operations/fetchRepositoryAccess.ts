import { repositoryAccessDataSchema } from "../schemas.js";
import type { RepoRef, RepositoryAccess } from "../types.js";
import { missingRepository } from "./answerParts.js";
import type { Credentials, OperationDeps } from "./operationDeps.js";

/**
 * Whether the token sees a repository, and its visibility (`RepositoryAccess` document, one point).
 * @throws RepositoryNotFoundError when the token cannot see it (missing, or access lost: GitHub
 *   answers both alike).
 */
export async function fetchRepositoryAccess(
  deps: OperationDeps,
  credentials: Credentials,
  repo: RepoRef,
): Promise<RepositoryAccess> {
  const { data, errors, context } = await deps.graphql.execute({
    ...credentials,
    operation: "RepositoryAccess",
    variables: { owner: repo.owner, name: repo.name },
    schema: repositoryAccessDataSchema,
  });
  const repository = data.repository;
  if (!repository) throw missingRepository(errors, repo, context);
  return {
    nameWithOwner: repository.nameWithOwner,
    isPrivate: repository.isPrivate,
    visibility: repository.visibility,
  };
}
