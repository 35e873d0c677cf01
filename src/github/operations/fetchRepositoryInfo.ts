import { repositoryInfoDataSchema } from "../schemas.js";
import type { RepoRef, RepositoryInfo } from "../types.js";
import { missingRepository, toRepositoryHeader } from "./answerParts.js";
import type { Credentials, OperationDeps } from "./operationDeps.js";

/** A repository's header, whether it is empty, and the commit at the tip of its default branch. */
export async function fetchRepositoryInfo(
  deps: OperationDeps,
  credentials: Credentials,
  repo: RepoRef,
): Promise<RepositoryInfo> {
  const { data, errors, context } = await deps.graphql.execute({
    ...credentials,
    operation: "RepositoryInfo",
    variables: { owner: repo.owner, name: repo.name },
    schema: repositoryInfoDataSchema,
  });
  const repository = data.repository;
  if (!repository) {
    throw missingRepository(errors, repo, context);
  }
  return {
    ...toRepositoryHeader(repository),
    isEmpty: repository.isEmpty,
    defaultBranchOid: repository.defaultBranchRef?.target?.oid ?? null,
  };
}
