import type { UserFacingError } from "./errors.js";
import {
  GitHubError,
  RateLimitedError,
  UpstreamError,
  UpstreamTimeoutError,
  type GitHubRequestInfo,
  type GitHubResponseInfo,
} from "./github/errors.js";

/**
 * What a log line says about a user-facing error: its code and the facts it carries (the
 * repository, path, ref, login or option the user named; when to retry; GitHub's operation, status
 * and request id), as flat fields. No stack trace and no sentence: the stack of an error the user
 * caused points at our own code, which is not where anything went wrong, and the sentence is
 * derived from these facts.
 */

/** Fields of an error that are not facts: the raw exchange, what Error itself holds. */
const NOT_FACTS = new Set(["request", "response", "name", "message", "stack", "cause"]);
/** A user may type 6,000 characters into an option; a log line keeps the start. */
const MAX_FACT_LENGTH = 200;

function cut(text: string): string {
  return text.length > MAX_FACT_LENGTH ? `${text.slice(0, MAX_FACT_LENGTH - 1)}…` : text;
}

function factValue(value: unknown): string | number | boolean | undefined {
  if (typeof value === "string") return cut(value);
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? value.toISOString() : undefined;
  if (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { owner?: unknown }).owner === "string" &&
    typeof (value as { name?: unknown }).name === "string"
  ) {
    // A RepoRef: logged as people write it.
    const repo = value as { owner: string; name: string };
    return cut(`${repo.owner}/${repo.name}`);
  }
  return undefined;
}

function githubFacts(
  request: GitHubRequestInfo | undefined,
  response: GitHubResponseInfo | undefined,
): Record<string, string | number> | undefined {
  const facts: Record<string, string | number> = {};
  if (request) facts["operation"] = request.operation;
  if (response) {
    facts["status"] = response.status;
    const requestId = response.headers["x-github-request-id"];
    if (requestId) facts["requestId"] = requestId;
  }
  return Object.keys(facts).length > 0 ? facts : undefined;
}

/**
 * The facts of a user-facing error for one log line: `code`, each field the error carries that is
 * plain data (strings cut to 200 characters, a repository as `owner/name`, a time as ISO text), and
 * for a GitHub answer `github: { operation, status, requestId }`.
 */
export function errorFacts(error: UserFacingError): Record<string, unknown> {
  const facts: Record<string, unknown> = { code: error.code };
  for (const [key, value] of Object.entries(error)) {
    if (NOT_FACTS.has(key) || key in facts) continue;
    const fact = factValue(value);
    if (fact !== undefined) facts[key] = fact;
  }
  if (error instanceof GitHubError) {
    const github = githubFacts(error.request, error.response);
    if (github) facts["github"] = github;
  }
  return facts;
}

/**
 * Whether a user-facing error is also something an operator must look at: GitHub failing, too slow,
 * or limiting the bot. The rest (a name that does not exist, a folder where a file was wanted, an
 * empty repository...) is an answer about what the user asked, not about the service.
 */
export function concernsOperator(error: UserFacingError): boolean {
  return (
    error instanceof RateLimitedError ||
    error instanceof UpstreamTimeoutError ||
    error instanceof UpstreamError
  );
}
