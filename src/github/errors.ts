// Over 300 lines: every error GitHub answers with, as data (one small class per fact, with what the user is told kept in format/); read together, they are the client's error contract.
import { UserFacingError } from "../errors.js";
import type { RepoRef, RepositoryAccess } from "./types.js";

/**
 * The error taxonomy of the GitHub client. Every answer GitHub can give that is not the data asked
 * for becomes one of these classes (GITHUB-FACTS.md, SPEC section 2):
 *
 * - a {@link GitHubError} (a {@link UserFacingError}) carries the facts of the condition (the
 *   repository, path, ref, when to retry), never raw upstream text and never the token; the
 *   sentence the user reads is derived from them in src/format/errorSentence.ts;
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
  /**
   * The repository GitHub answered with, when the error is about something inside it (a ref, a
   * path): its visibility decides whether a public-only token may even say so (SPEC section 4).
   */
  repository?: RepositoryAccess;
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

/** Where the token GitHub answered came from (SPEC section 4), as the Scout resolved it. */
export type ReaderOrigin = "user" | "server" | "default";

/** Base of the user-facing GitHub errors: carries the request and response for the log. */
export abstract class GitHubError extends UserFacingError {
  readonly request: GitHubRequestInfo | undefined;
  readonly response: GitHubResponseInfo | undefined;
  /**
   * Whose token GitHub answered: the asker's own sign-in, the server's token or the default one.
   * The client does not know; the Scout, which resolved the token, records it with
   * {@link readWith} as the error passes, so the sentence can give advice that fits (no `/login`
   * for someone already signed in).
   */
  tokenOrigin: ReaderOrigin | undefined;
  /** Set with {@link tokenOrigin}: the token reads public repositories only (the default token). */
  publicOnly: boolean | undefined;
  /**
   * The repository GitHub showed, when the error is about something inside it (see
   * {@link GitHubErrorContext.repository}): a missing path of a private repository must read, to a
   * public-only token, as the repository being private, or it tells what the repository holds.
   */
  readonly seenRepository: RepositoryAccess | undefined;

  constructor(context: GitHubErrorContext = {}) {
    super(context.cause === undefined ? undefined : { cause: context.cause });
    this.request = context.request;
    this.response = context.response;
    this.seenRepository = context.repository;
  }

  /** Records whose token read, unless already recorded (the first reader is the one GitHub saw). */
  readWith(reader: { origin: ReaderOrigin; publicOnly: boolean }): this {
    if (this.tokenOrigin === undefined) {
      this.tokenOrigin = reader.origin;
      this.publicOnly = reader.publicOnly;
    }
    return this;
  }
}

/** 401 (bad or revoked token), or no token at all. */
export class GitHubUnauthorizedError extends GitHubError {
  readonly code = "github_unauthorized";
}

/** Something the user named does not exist, or the token cannot see it. */
export abstract class GitHubNotFoundError extends GitHubError {
  abstract readonly resource: "repository" | "owner" | "ref" | "path" | "issue";
}

/** `repository(owner, name)` is null, or REST answered 404. Private and missing look the same. */
export class RepositoryNotFoundError extends GitHubNotFoundError {
  readonly code = "repository_not_found";
  readonly resource = "repository";
  constructor(
    readonly repo: RepoRef,
    context?: GitHubErrorContext,
  ) {
    super(context);
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
    super(context);
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
    super(context);
  }
}

/** `issueOrPullRequest(number)` is null: the repository has no issue or pull request by that number. */
export class IssueNotFoundError extends GitHubNotFoundError {
  readonly code = "issue_not_found";
  readonly resource = "issue";
  constructor(
    readonly repo: RepoRef,
    readonly number: number,
    context?: GitHubErrorContext,
  ) {
    super(context);
  }
}

/** The revision exists but the path does not exist at it. */
export class PathNotFoundError extends GitHubNotFoundError {
  readonly code = "path_not_found";
  readonly resource = "path";
  constructor(
    readonly repo: RepoRef,
    readonly path: string,
    /** The revision the user named; undefined: the default branch. */
    readonly ref: string | undefined,
    context?: GitHubErrorContext,
  ) {
    super(context);
  }
}

/**
 * The revision does not lead to a commit: a tree or blob expression (`main:src`), an annotated tag
 * of a tree or a blob, or a chain of tags deeper than RepoScout follows (`TAG_DEPTH` in ./documents.ts).
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
    super(context);
    this.objectType = found.objectType;
    this.tags = found.tags;
  }
}

/** The path exists but is not a file where a file is needed: a folder, or a submodule. */
export class NotAFileError extends GitHubError {
  readonly code = "not_a_file";
  constructor(
    readonly repo: RepoRef,
    readonly path: string,
    readonly found: "folder" | "submodule" | "symlink",
    context?: GitHubErrorContext,
    /** For a symbolic link: its target, as git stores it (relative to the link's folder). */
    readonly target?: string,
  ) {
    super(context);
  }
}

/** The token may not read this (missing permission, SSO not authorized for the organization). */
export class GitHubForbiddenError extends GitHubError {
  readonly code = "github_forbidden";
  constructor(
    readonly repo: RepoRef | undefined,
    context?: GitHubErrorContext,
  ) {
    super(context);
  }
}

/** Base of every "wait, then try again" answer. `retryAt` says when. */
export abstract class RateLimitedError extends GitHubError {
  constructor(
    readonly retryAt: Date,
    context?: GitHubErrorContext,
  ) {
    super(context);
  }
}

/** The token's hourly budget is spent (GraphQL `RATE_LIMIT`, REST 403/429 with remaining 0). */
export class PrimaryRateLimitError extends RateLimitedError {
  readonly code = "rate_limited";
}

/** GitHub's secondary limit (too many requests too fast, or too many points a minute). */
export class SecondaryRateLimitError extends RateLimitedError {
  readonly code = "secondary_rate_limited";
}

/**
 * 403 after many bad sign-in attempts. GitHub then refuses even good tokens for a while, so this is
 * a "wait" answer rather than "replace the token": telling an admin to replace a working token
 * would be wrong advice, and a bad token shows up as a 401 once the lockout ends.
 */
export class AuthLockoutError extends RateLimitedError {
  readonly code = "auth_lockout";
}

/** Contributors 403: "The history or contributor list is too large". */
export class TooLargeError extends GitHubError {
  readonly code = "too_large";
  constructor(
    readonly repo: RepoRef,
    context?: GitHubErrorContext,
  ) {
    super(context);
  }
}

/** The repository has no commits (contributors 204, no default branch). */
export class EmptyRepositoryError extends GitHubError {
  readonly code = "empty_repository";
  constructor(
    readonly repo: RepoRef,
    context?: GitHubErrorContext,
  ) {
    super(context);
  }
}

/** Our deadline passed, 502/504, or GitHub's "Something went wrong while executing your query". */
export class UpstreamTimeoutError extends GitHubError {
  readonly code = "upstream_timeout";
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
    super(context);
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
