import { UserFacingError } from "../errors.js";
import { TAG_DEPTH } from "./documents.js";
import type { RepoRef } from "./types.js";

/**
 * The error taxonomy of the GitHub client. Every answer GitHub can give that is not the data asked
 * for becomes one of these classes (GITHUB-FACTS.md, SPEC section 2):
 *
 * - a {@link GitHubError} (a {@link UserFacingError}) carries the one or two sentences the user
 *   reads, never raw upstream text and never the token;
 * - a {@link GitHubQueryError} is our own bug (a query GitHub rejects, a body it cannot parse): a
 *   plain Error, so the bot logs it loudly and the user reads a generic line with an error id.
 *
 * Like octokit's RequestError, each error keeps the request (operation, method, URL, variables;
 * never headers, so never the token) and the response (status, headers, body) for the log.
 */

/** What was asked of GitHub, for the log. Headers are left out on purpose: they carry the token. */
export interface GitHubRequestInfo {
  /** The GraphQL operation name (`Blame`...) or a REST operation name (`contributors`). */
  operation: string;
  method: "GET" | "POST";
  url: string;
  variables?: Readonly<Record<string, unknown>>;
}

/** What GitHub answered, for the log. The body is cut to {@link MAX_LOGGED_BODY} characters. */
export interface GitHubResponseInfo {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Everything an error may keep about the exchange that caused it. */
export interface GitHubErrorContext {
  request?: GitHubRequestInfo;
  response?: GitHubResponseInfo;
  cause?: unknown;
}

/** Bodies are kept for the log, not in full: a blob answer can be half a megabyte. */
export const MAX_LOGGED_BODY = 4_000;

/** Builds the response part of an error context from what came over the wire. */
export function responseInfo(status: number, headers: Headers, body: string): GitHubResponseInfo {
  return {
    status,
    headers: Object.fromEntries(headers.entries()),
    body:
      body.length > MAX_LOGGED_BODY ? `${body.slice(0, MAX_LOGGED_BODY)}... (${body.length} chars)` : body,
  };
}

/**
 * Shows a user-given or upstream name inside inline code in a sentence. Backticks would end the
 * code span early, so they are dropped; very long values are cut so the sentence stays short.
 */
export function inlineCode(value: string): string {
  const clean = value.replace(/`/g, "").replace(/\s+/g, " ");
  const cut = clean.length > 100 ? `${clean.slice(0, 99)}…` : clean;
  return `\`${cut === "" ? " " : cut}\``;
}

function repoName(repo: RepoRef): string {
  return inlineCode(`${repo.owner}/${repo.name}`);
}

/** A Discord timestamp rendered relative to the reader's clock ("in 5 minutes"). */
export function discordRelativeTime(date: Date): string {
  return `<t:${Math.ceil(date.getTime() / 1000)}:R>`;
}

/** Base of the user-facing GitHub errors: carries the request and response for the log. */
export abstract class GitHubError extends UserFacingError {
  readonly request: GitHubRequestInfo | undefined;
  readonly response: GitHubResponseInfo | undefined;

  constructor(userMessage: string, context: GitHubErrorContext = {}) {
    super(userMessage, context.cause === undefined ? undefined : { cause: context.cause });
    this.request = context.request;
    this.response = context.response;
  }
}

/** 401 (bad or revoked token), or no token at all. */
export class GitHubUnauthorizedError extends GitHubError {
  readonly code = "github_unauthorized";
  constructor(context?: GitHubErrorContext) {
    super("The server's GitHub token is missing or no longer valid. An admin can run `/token set`.", context);
  }
}

/** Something the user named does not exist, or the token cannot see it. */
export abstract class GitHubNotFoundError extends GitHubError {
  abstract readonly resource: "repository" | "owner" | "ref" | "path";
}

/** `repository(owner, name)` is null, or REST answered 404. Private and missing look the same. */
export class RepositoryNotFoundError extends GitHubNotFoundError {
  readonly code = "repository_not_found";
  readonly resource = "repository";
  constructor(
    readonly repo: RepoRef,
    context?: GitHubErrorContext,
  ) {
    super(`Repository ${repoName(repo)} was not found, or the token in effect cannot see it.`, context);
  }
}

/** `repositoryOwner(login)` is null: no user or organization has that login. */
export class OwnerNotFoundError extends GitHubNotFoundError {
  readonly code = "owner_not_found";
  readonly resource = "owner";
  constructor(
    readonly login: string,
    context?: GitHubErrorContext,
  ) {
    super(
      `No GitHub user or organization called ${inlineCode(login)} was found. Check the spelling of \`owner\`.`,
      context,
    );
  }
}

/** `object(expression: ref)` resolved to nothing: no such branch, tag or commit. */
export class RefNotFoundError extends GitHubNotFoundError {
  readonly code = "ref_not_found";
  readonly resource = "ref";
  constructor(
    readonly repo: RepoRef,
    readonly ref: string,
    context?: GitHubErrorContext,
  ) {
    super(
      `Revision ${inlineCode(ref)} was not found in ${repoName(repo)}. Check \`ref\`: a branch, a tag or a commit id.`,
      context,
    );
  }
}

/** The revision exists but the path does not exist at it. */
export class PathNotFoundError extends GitHubNotFoundError {
  readonly code = "path_not_found";
  readonly resource = "path";
  constructor(
    readonly repo: RepoRef,
    readonly path: string,
    readonly ref: string | undefined,
    context?: GitHubErrorContext,
  ) {
    super(
      `Path ${inlineCode(path === "" ? "/" : path)} was not found in ${repoName(repo)} at ${
        ref === undefined ? "the default branch" : inlineCode(ref)
      }. Check \`path\`.`,
      context,
    );
  }
}

/**
 * The revision does not lead to a commit: a tree or blob expression (`main:src`), an annotated tag
 * of a tree or a blob, or a chain of tags deeper than RepoScout follows ({@link TAG_DEPTH}).
 * An annotated tag of a commit is read at that commit, so it never gives this error.
 */
export class NotACommitError extends GitHubError {
  readonly code = "not_a_commit";
  /** What the revision led to: `Tree`, `Blob`, or `Tag` for a chain of tags deeper than followed. */
  readonly objectType: string;
  /** How many annotated tags were followed before reaching {@link objectType}. */
  readonly tags: number;

  constructor(
    readonly repo: RepoRef,
    readonly ref: string,
    found: { objectType: string; tags: number },
    context?: GitHubErrorContext,
  ) {
    super(notACommitMessage(repo, ref, found), context);
    this.objectType = found.objectType;
    this.tags = found.tags;
  }
}

function notACommitMessage(repo: RepoRef, ref: string, found: { objectType: string; tags: number }): string {
  const revision = `Revision ${inlineCode(ref)} of ${repoName(repo)}`;
  if (found.tags === 0) {
    return `${revision} does not name a commit. Give a branch, a tag or a commit id as \`ref\`.`;
  }
  if (found.objectType === "Tag") {
    return `${revision} is a tag of a tag nested more than ${TAG_DEPTH} deep, which RepoScout does not follow. Give the commit id it leads to as \`ref\`.`;
  }
  const what = found.objectType === "Tree" ? "a folder (a Git tree)" : "a single file (a Git blob)";
  return `${revision} is a tag of ${what}, not of a commit, so it has no history to show. Give a branch, a tag of a commit or a commit id as \`ref\`.`;
}

/** The path exists but is not a file where a file is needed: a folder, or a submodule. */
export class NotAFileError extends GitHubError {
  readonly code = "not_a_file";
  constructor(
    readonly repo: RepoRef,
    readonly path: string,
    readonly found: "folder" | "submodule",
    context?: GitHubErrorContext,
  ) {
    super(
      found === "folder"
        ? `${inlineCode(path)} in ${repoName(repo)} is a folder, and blame works on files. Use \`/contents\` to list it, or give a file as \`path\`.`
        : `${inlineCode(path)} in ${repoName(repo)} is a submodule: its files live in another repository.`,
      context,
    );
  }
}

/** The token may not read this (missing permission, SSO not authorized for the organization). */
export class GitHubForbiddenError extends GitHubError {
  readonly code = "github_forbidden";
  constructor(
    readonly repo: RepoRef | undefined,
    context?: GitHubErrorContext,
  ) {
    super(
      `GitHub refused access to ${repo ? repoName(repo) : "this"} with the token in effect (a missing permission, or an organization that requires SSO authorization). An admin can run \`/token set\` with a token that has access.`,
      context,
    );
  }
}

/** Base of every "wait, then try again" answer. `retryAt` says when. */
export abstract class RateLimitedError extends GitHubError {
  constructor(
    userMessage: string,
    readonly retryAt: Date,
    context?: GitHubErrorContext,
  ) {
    super(userMessage, context);
  }
}

/** The token's hourly budget is spent (GraphQL `RATE_LIMIT`, REST 403/429 with remaining 0). */
export class PrimaryRateLimitError extends RateLimitedError {
  readonly code = "rate_limited";
  constructor(retryAt: Date, context?: GitHubErrorContext) {
    super(
      `GitHub's rate limit for the token in effect is used up. Try again ${discordRelativeTime(retryAt)}.`,
      retryAt,
      context,
    );
  }
}

/** GitHub's secondary limit (too many requests too fast, or too many points a minute). */
export class SecondaryRateLimitError extends RateLimitedError {
  readonly code = "secondary_rate_limited";
  constructor(retryAt: Date, context?: GitHubErrorContext) {
    super(
      `GitHub asked RepoScout to slow down (a secondary rate limit). Try again ${discordRelativeTime(retryAt)}.`,
      retryAt,
      context,
    );
  }
}

/**
 * 403 after many bad sign-in attempts. GitHub then refuses even good tokens for a while, so this is
 * a "wait" answer rather than "replace the token": telling an admin to replace a working token
 * would be wrong advice, and a bad token shows up as a 401 once the lockout ends.
 */
export class AuthLockoutError extends RateLimitedError {
  readonly code = "auth_lockout";
  constructor(retryAt: Date, context?: GitHubErrorContext) {
    super(
      `GitHub is refusing requests for a while after too many failed sign-in attempts. Try again ${discordRelativeTime(retryAt)}; if it keeps failing, an admin can check the token with \`/token set\`.`,
      retryAt,
      context,
    );
  }
}

/** Contributors 403: "The history or contributor list is too large". */
export class TooLargeError extends GitHubError {
  readonly code = "too_large";
  constructor(
    readonly repo: RepoRef,
    context?: GitHubErrorContext,
  ) {
    super(
      `GitHub will not list the contributors of a repository as large as ${repoName(repo)}. Its contributors page on GitHub shows them.`,
      context,
    );
  }
}

/** The repository has no commits (contributors 204, no default branch). */
export class EmptyRepositoryError extends GitHubError {
  readonly code = "empty_repository";
  constructor(
    readonly repo: RepoRef,
    context?: GitHubErrorContext,
  ) {
    super(
      `Repository ${repoName(repo)} has no commits yet, so there is nothing to show. Try again once something is pushed.`,
      context,
    );
  }
}

/** Our deadline passed, 502/504, or GitHub's "Something went wrong while executing your query". */
export class UpstreamTimeoutError extends GitHubError {
  readonly code = "upstream_timeout";
  constructor(context?: GitHubErrorContext) {
    super("GitHub did not answer in time. Try again in a moment.", context);
  }
}

/**
 * GitHub failed in another way: a 5xx (`server_error`), an answer that is not JSON or does not
 * have the shape we asked for (`unreadable`), or no connection at all (`unreachable`).
 */
export class UpstreamError extends GitHubError {
  readonly code = "upstream_error";
  constructor(
    readonly reason: "server_error" | "unreadable" | "unreachable",
    context?: GitHubErrorContext,
  ) {
    super(
      reason === "unreachable"
        ? "GitHub could not be reached. Try again in a moment."
        : reason === "unreadable"
          ? "GitHub sent an answer RepoScout could not read. Try again in a moment."
          : // SPEC section 2 reads every 5xx as "did not answer in time": say that, and what happened.
            "GitHub did not answer in time: it failed with a server error. Try again in a moment.",
      context,
    );
  }
}

/**
 * GitHub rejected the request itself: a GraphQL validation or syntax error (`undefinedField`...),
 * `EXCESSIVE_PAGINATION`, 400 "Problems parsing JSON", or an unexpected 4xx such as a GraphQL URL
 * that answers 404. That is a bug or a misconfiguration on our side, not something the user can
 * fix, so it is NOT a {@link UserFacingError}: the bot logs it and shows a generic line.
 */
export class GitHubQueryError extends Error {
  readonly code = "github_bad_query";
  readonly request: GitHubRequestInfo | undefined;
  readonly response: GitHubResponseInfo | undefined;

  constructor(
    /** GitHub's messages, verbatim (they go to the log, never to the user). */
    readonly messages: readonly string[],
    context: GitHubErrorContext = {},
  ) {
    super(
      `GitHub rejected ${context.request ? `the ${context.request.operation} request` : "a request"}: ${
        messages.join("; ") || "(no message)"
      }`,
      context.cause === undefined ? undefined : { cause: context.cause },
    );
    this.name = "GitHubQueryError";
    this.request = context.request;
    this.response = context.response;
  }
}
