import {
  EmptyRepositoryError,
  GitHubForbiddenError,
  GitHubQueryError,
  GitHubUnauthorizedError,
  RepositoryNotFoundError,
  TooLargeError,
  UpstreamError,
  UpstreamTimeoutError,
} from "../errors.js";
import type { RepoRef } from "../types.js";
import { isTimeoutBody, type HttpExchange } from "./exchangeWithRetry.js";
import {
  contextOf,
  isLockoutMessage,
  isPrimaryLimitMessage,
  isSecondaryLimitMessage,
  lockoutError,
  primaryLimitError,
  secondaryLimitError,
  type FailureContext,
} from "./failureContext.js";

/** Parses a body as JSON; undefined when it is not JSON (an HTML error page, a cut answer). */
export function parseJsonBody(bodyText: string): unknown {
  if (bodyText.trim() === "") return undefined;
  try {
    return JSON.parse(bodyText) as unknown;
  } catch {
    return undefined;
  }
}

/** The messages of an error body: REST's `message` and GraphQL's `errors[].message`. */
export function messagesOfBody(json: unknown): string[] {
  if (typeof json !== "object" || json === null) return [];
  const messages: string[] = [];
  if ("message" in json && typeof json.message === "string") messages.push(json.message);
  if ("errors" in json && Array.isArray(json.errors)) {
    for (const item of json.errors as unknown[]) {
      if (
        typeof item === "object" &&
        item !== null &&
        "message" in item &&
        typeof item.message === "string"
      ) {
        messages.push(item.message);
      }
    }
  }
  return messages;
}

/**
 * Turns an answer whose HTTP status is not the expected success into the error it means
 * (GITHUB-FACTS.md). `repo` is the repository the request is about, for REST's 404, 403 "too large"
 * and 409; the GraphQL endpoint has no such statuses for a missing repository.
 *
 * - 401: the token is bad or missing.
 * - 403/429: a secondary limit (its message, or `retry-after`, or any 429), the primary limit
 *   (`x-ratelimit-remaining: 0`), a sign-in lockout, "too large" (contributors), else forbidden.
 * - 502/504 and GitHub's timeout body: a timeout. Other 5xx: an upstream error.
 * - 400 ("Problems parsing JSON") and any other 4xx: our bug ({@link GitHubQueryError}).
 */
export function httpFailure(
  exchange: HttpExchange,
  ctx: FailureContext,
  options: { api: "graphql" | "rest"; repo?: RepoRef },
): Error {
  const { status, headers } = exchange;
  const messages = messagesOfBody(parseJsonBody(exchange.bodyText));
  const text = messages.join(" ");
  const context = contextOf(ctx, exchange);

  if (status === 401) return new GitHubUnauthorizedError(context);
  if (status === 403 || status === 429) {
    if (isSecondaryLimitMessage(text)) return secondaryLimitError(ctx, exchange);
    if (headers.get("x-ratelimit-remaining")?.trim() === "0" || isPrimaryLimitMessage(text)) {
      return primaryLimitError(ctx, exchange);
    }
    if (isLockoutMessage(text)) return lockoutError(ctx, exchange);
    if (status === 429 || headers.has("retry-after")) return secondaryLimitError(ctx, exchange);
    if (options.repo && /too large/i.test(text)) return new TooLargeError(options.repo, context);
    return new GitHubForbiddenError(options.repo, context);
  }
  if (options.api === "rest" && options.repo) {
    if (status === 404) return new RepositoryNotFoundError(options.repo, context);
    if (status === 409 && /empty/i.test(text)) return new EmptyRepositoryError(options.repo, context);
  }
  if (status === 502 || status === 504 || (status >= 500 && isTimeoutBody(exchange.bodyText))) {
    return new UpstreamTimeoutError(context);
  }
  if (status >= 500) return new UpstreamError("server_error", context);
  if (status >= 400) {
    return new GitHubQueryError(messages.length > 0 ? messages : [`HTTP ${status}`], context);
  }
  // A status we never ask for (a 3xx not followed, a 304 without a stored body).
  return new UpstreamError("unreadable", context);
}
