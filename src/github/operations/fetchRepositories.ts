import { OwnerNotFoundError } from "../errors.js";
import { explainNullField } from "../graphqlErrors.js";
import { ownerRepositoriesDataSchema } from "../schemas.js";
import type { RepositoriesPage, RepositorySort, RepositorySummary } from "../types.js";
import type { Credentials, OperationDeps } from "./operationDeps.js";

/** GitHub's `first` takes 1 to 100; more is `EXCESSIVE_PAGINATION`. */
export const MAX_PAGE_SIZE = 100;

const ORDER: Record<RepositorySort, { field: "PUSHED_AT" | "NAME"; direction: "ASC" | "DESC" }> = {
  pushed: { field: "PUSHED_AT", direction: "DESC" },
  name: { field: "NAME", direction: "ASC" },
};

/**
 * One page of the repositories an owner (user or organization) owns, most recently pushed first
 * or by name. `after` is the `endCursor` of the previous page. `publicOnly` asks GitHub for public
 * repositories only (`privacy: PUBLIC`), so the count and the pages leave the others out.
 * @throws RangeError when `first` is not an integer from 1 to 100 (a caller's bug, nothing is sent).
 */
export async function fetchRepositories(
  deps: OperationDeps,
  credentials: Credentials,
  args: { login: string; first: number; after?: string; sort: RepositorySort; publicOnly?: boolean },
): Promise<RepositoriesPage> {
  if (!Number.isInteger(args.first) || args.first < 1 || args.first > MAX_PAGE_SIZE) {
    throw new RangeError(`first must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${args.first}`);
  }
  const { data, errors, context } = await deps.graphql.execute({
    ...credentials,
    operation: "OwnerRepositories",
    variables: {
      login: args.login,
      first: args.first,
      after: args.after ?? null,
      orderBy: ORDER[args.sort],
      privacy: args.publicOnly ? "PUBLIC" : null,
    },
    schema: ownerRepositoriesDataSchema,
  });
  const owner = data.repositoryOwner;
  if (!owner) {
    // GitHub answers an unknown login with a null owner and no error at all.
    throw explainNullField(
      errors,
      ["repositoryOwner"],
      context,
      () => new OwnerNotFoundError(args.login, context),
    );
  }
  const connection = owner.repositories;
  return {
    owner: { login: owner.login, type: owner.__typename },
    totalCount: connection.totalCount,
    repositories: (connection.nodes ?? []).flatMap((node): RepositorySummary[] =>
      node
        ? [
            {
              name: node.name,
              nameWithOwner: node.nameWithOwner,
              url: node.url,
              pushedAt: node.pushedAt,
              isPrivate: node.isPrivate,
              visibility: node.visibility,
              description: node.description,
            },
          ]
        : [],
    ),
    pageInfo: {
      startCursor: connection.pageInfo.startCursor,
      endCursor: connection.pageInfo.endCursor,
      hasNextPage: connection.pageInfo.hasNextPage,
      hasPreviousPage: connection.pageInfo.hasPreviousPage,
    },
    ...(args.publicOnly ? { publicOnly: true } : {}),
  };
}
