/**
 * Errors a resolver raises to produce GitHub's error entries (`{"type":"NOT_FOUND", ...}`), and the
 * loud failure of a field the stand-in does not implement.
 */

/** A GraphQL error of GitHub's own kind: it carries GitHub's `type` (`NOT_FOUND`, ...). */
export class GitHubFieldError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = "GitHubFieldError";
  }
}

/**
 * A field of GitHub's schema the stand-in has no resolver for. It fails loudly, never as a silent
 * null, so a query that strays outside what the stand-in knows is noticed in tests.
 */
export class NotImplementedByStandInError extends Error {
  readonly type = "NOT_IMPLEMENTED_BY_STAND_IN";
  constructor(what: string) {
    super(`${what} is not implemented by the stand-in`);
    this.name = "NotImplementedByStandInError";
  }
}

/** GitHub's error for `repository(owner, name)` that is unknown or not visible to the token. */
export function repositoryNotFound(owner: string, name: string): GitHubFieldError {
  return new GitHubFieldError(
    "NOT_FOUND",
    `Could not resolve to a Repository with the name '${owner}/${name}'.`,
  );
}

/** GitHub's error for `Commit.file(path)` of a path that does not exist at the commit. */
export function fileNotFound(path: string): GitHubFieldError {
  return new GitHubFieldError("NOT_FOUND", `Could not resolve file for path '${path}'.`);
}

/** The message of GitHub's generic failure (timeouts, bugs), with a request id to quote. */
export function somethingWentWrong(requestId: string): string {
  return (
    "Something went wrong while executing your query. This may be the result of a timeout, or it could " +
    `be a GitHub bug. Please include \`${requestId}\` when reporting this issue.`
  );
}
