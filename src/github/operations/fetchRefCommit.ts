import { refCommitDataSchema } from "../schemas.js";
import type { RefCommit, RepoRef } from "../types.js";
import { repositoryAtRevision } from "./answerParts.js";
import type { Credentials, OperationDeps } from "./operationDeps.js";

/**
 * The commit `ref` (default: `HEAD`, the default branch) points to now, and the repository's
 * visibility (`RefCommit` document, one point). Fails as Blame and Contents fail for the ref: a
 * missing repository, an empty one, a ref that names nothing or no commit.
 */
export async function fetchRefCommit(
  deps: OperationDeps,
  credentials: Credentials,
  args: { repo: RepoRef; ref?: string },
): Promise<RefCommit> {
  const { repo } = args;
  const expression = args.ref ?? "HEAD";
  const answer = await deps.graphql.execute({
    ...credentials,
    operation: "RefCommit",
    variables: { owner: repo.owner, name: repo.name, expression },
    schema: refCommitDataSchema,
  });
  const { repository, commit } = repositoryAtRevision(answer, (found) => found.object, {
    field: ["repository", "object"],
    repo,
    expression,
  });
  return {
    repository: {
      nameWithOwner: repository.nameWithOwner,
      isPrivate: repository.isPrivate,
      visibility: repository.visibility,
    },
    oid: commit.oid,
  };
}
