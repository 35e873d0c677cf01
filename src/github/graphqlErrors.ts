import {
  GitHubForbiddenError,
  GitHubQueryError,
  UpstreamError,
  UpstreamTimeoutError,
  type GitHubErrorContext,
} from "./errors.js";
import type { GraphQLEnvelope, GraphQLErrorItem } from "./schemas.js";
import type { RepoRef } from "./types.js";
import { isTimeoutBody, type HttpExchange } from "./transport/exchangeWithRetry.js";
import {
  contextOf,
  isSecondaryLimitMessage,
  primaryLimitError,
  secondaryLimitError,
  type FailureContext,
} from "./transport/failureContext.js";

/** Error types that mean our query asked for something GitHub will not do: our bug. */
const QUERY_ERROR_TYPES = new Set(["EXCESSIVE_PAGINATION", "MAX_NODE_LIMIT_EXCEEDED"]);

/** GraphQL's primary limit: type `RATE_LIMIT` (older `RATE_LIMITED`), code `graphql_rate_limit`. */
export function isPrimaryLimitItem(error: GraphQLErrorItem): boolean {
  return error.type === "RATE_LIMIT" || error.type === "RATE_LIMITED" || error.code === "graphql_rate_limit";
}

/**
 * A static validation error (`undefinedField`, `argumentLiteralsIncompatible`...): graphql-ruby
 * puts its code in `extensions.code` and GitHub gives it no `type`.
 */
function isValidationItem(error: GraphQLErrorItem): boolean {
  return error.type === undefined && typeof error.extensions?.["code"] === "string";
}

/**
 * The error that fails a whole GraphQL answer (HTTP 200), or undefined when the answer carries data
 * to read field by field. Rate limits, GitHub's timeout body and errors of the query itself win
 * over any data; errors on single fields are left to {@link explainNullField}.
 */
export function requestLevelError(
  envelope: GraphQLEnvelope,
  exchange: HttpExchange,
  ctx: FailureContext,
): Error | undefined {
  const errors = envelope.errors ?? [];
  const context = contextOf(ctx, exchange);
  const messages = errors.map((error) => error.message);

  if (errors.some(isPrimaryLimitItem)) return primaryLimitError(ctx, exchange);
  if (errors.some((error) => isSecondaryLimitMessage(error.message)))
    return secondaryLimitError(ctx, exchange);
  if (errors.some((error) => isTimeoutBody(error.message))) return new UpstreamTimeoutError(context);
  if (errors.some((error) => QUERY_ERROR_TYPES.has(error.type ?? "") || isValidationItem(error))) {
    return new GitHubQueryError(messages, context);
  }
  if (envelope.data === undefined || envelope.data === null) {
    if (errors.length === 0) return new UpstreamError("unreadable", context);
    // Errors without a type and no data: a syntax error or a body GitHub could not use.
    if (errors.some((error) => error.type === undefined)) return new GitHubQueryError(messages, context);
    return new UpstreamError("server_error", context);
  }
  return undefined;
}

/** The errors whose `path` is `path` or lies below it. */
export function errorsUnder(
  errors: readonly GraphQLErrorItem[],
  path: readonly (string | number)[],
): GraphQLErrorItem[] {
  return errors.filter(
    (error) =>
      error.path !== undefined &&
      error.path.length >= path.length &&
      path.every((segment, index) => error.path![index] === segment),
  );
}

/**
 * Explains why a field we need is null, from the errors at or below its path: no error (GitHub's
 * way for `repositoryOwner`) or `NOT_FOUND` gives `notFound()`; `FORBIDDEN` gives
 * {@link GitHubForbiddenError}; any other error type is GitHub failing on its side.
 */
export function explainNullField(
  errors: readonly GraphQLErrorItem[],
  path: readonly (string | number)[],
  context: GitHubErrorContext,
  notFound: () => Error,
  repo?: RepoRef,
): Error {
  const under = errorsUnder(errors, path);
  if (under.length === 0 || under.some((error) => error.type === "NOT_FOUND")) return notFound();
  if (under.some((error) => error.type === "FORBIDDEN")) return new GitHubForbiddenError(repo, context);
  return new UpstreamError("server_error", context);
}
