import { setTimeout as delay } from "node:timers/promises";
import { concernsOperator, errorFacts } from "../errorFacts.js";
import type { Logger } from "../logger.js";
import { createMemoryConditionalStore, type ConditionalStore } from "./conditionalStore.js";
import { GitHubError, GitHubQueryError, GitHubUnauthorizedError } from "./errors.js";
import { createGraphQLTransport } from "./graphqlTransport.js";
import { fetchBlame } from "./operations/fetchBlame.js";
import { fetchContents } from "./operations/fetchContents.js";
import { fetchCommit } from "./operations/fetchCommit.js";
import { fetchContributors } from "./operations/fetchContributors.js";
import { fetchIssueOrPullRequest } from "./operations/fetchIssueOrPullRequest.js";
import { fetchHistory } from "./operations/fetchHistory.js";
import { fetchOwnersBlame } from "./operations/fetchOwnersBlame.js";
import { fetchOwnersTree } from "./operations/fetchOwnersTree.js";
import type { BlameBatch, HistoryPage, OwnersTree } from "./ownershipTypes.js";
import { fetchRepositories } from "./operations/fetchRepositories.js";
import { fetchRepositoryAccess } from "./operations/fetchRepositoryAccess.js";
import { fetchRefCommit } from "./operations/fetchRefCommit.js";
import { fetchRepositoryInfo } from "./operations/fetchRepositoryInfo.js";
import { fetchViewer } from "./operations/fetchViewer.js";
import type { Credentials, OperationDeps } from "./operations/operationDeps.js";
import { createRateLimitBook } from "./rateLimits.js";
import { sharingBook, type SharedHolds } from "./sharedHolds.js";
import type { CommitAnswer, IssueAnswer } from "./issueTypes.js";
import { createRestTransport } from "./restTransport.js";
import type { TokenUse } from "./tokenSpend.js";
import type {
  BlameAnswer,
  ContentsAnswer,
  ContributorsPage,
  RateLimitSnapshot,
  RepoRef,
  RepositoriesPage,
  RefCommit,
  RepositoryAccess,
  RepositoryInfo,
  RepositorySort,
  Viewer,
} from "./types.js";

/** GitHub cuts requests at 10 seconds; so does RepoScout, retries included. */
export const DEFAULT_TIMEOUT_MS = 10_000;
export const MAX_TIMEOUT_MS = 10_000;

export interface GitHubClientOptions {
  /** GraphQL v4 endpoint (`https://api.github.com/graphql`, `https://HOST/api/graphql`). */
  graphqlUrl: string;
  /** REST v3 base (`https://api.github.com`, `https://HOST/api/v3`). */
  restUrl: string;
  /** RepoScout's version, for the User-Agent. */
  version: string;
  /** Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Deadline of one call, retries included; default and maximum 10,000 ms. */
  timeoutMs?: number;
  logger: Logger;
  /** A keyed fingerprint of a token: what rate-limit figures and stored ETags are keyed by. */
  fingerprint: (token: string) => string;
  /** Where REST ETags and bodies are kept; default in memory, 500 entries. */
  conditionalStore?: ConditionalStore;
  /** For the retry jitter; default `Math.random`. */
  random?: () => number;
  /** For the pause before a retry; default a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** The clock, for rate-limit times; default `new Date()`. */
  now?: () => Date;
  /**
   * While a token is under a secondary limit (until its `retry-after`, else at least a minute) or
   * an authentication lockout, fail its calls at once with the same error instead of asking GitHub
   * again (GitHub warns that requests made while limited can get an integration banned). Default
   * true; tests that script one fault and expect the next call to reach the server turn it off.
   */
  holdWhileLimited?: boolean;
  /**
   * Holds shared with other processes (secondary limits, lockouts), with REDIS_URL: a hold one
   * process meets stops the others sending with that token too.
   */
  holds?: SharedHolds;
  /**
   * GitHub refused a token (401), given by its fingerprint. The answer, when there is one, is thrown
   * instead of the generic error: a person's own sign-in that ended is dropped and they read so
   * (src/tokens/userTokens.ts), rather than "the server's token is no longer valid".
   */
  onUnauthorized?: (fingerprint: string) => Promise<Error | undefined>;
  /** Told of every call's end: its operation and `ok` or the error's code (metrics). */
  onCall?: (operation: string, status: string) => void;
}

/**
 * RepoScout's reads of GitHub. `token` is an argument of each call because each Discord server may
 * have its own; a {@link MeteredToken} also learns what each call cost (fair use of a shared token). Answers are plain JSON-serializable data (src/github/types.ts), ready to cache.
 * Failures are thrown as the classes of src/github/errors.ts.
 */
export interface GitHubClient {
  /** The token's login and GraphQL budget. */
  viewer(token: TokenUse): Promise<Viewer>;
  /** A repository's header, emptiness and default-branch tip. */
  repositoryInfo(token: TokenUse, repo: RepoRef): Promise<RepositoryInfo>;
  /**
   * Whether the token sees a repository, and its visibility: one cheap GraphQL read.
   * @throws RepositoryNotFoundError when it cannot (missing, or access lost).
   */
  repositoryAccess(token: TokenUse, repo: RepoRef): Promise<RepositoryAccess>;
  /**
   * Where `ref` (default: the default branch) points now, and the repository's visibility: one
   * cheap read, to tell whether a branch moved without fetching its answer again.
   */
  refCommit(token: TokenUse, args: { repo: RepoRef; ref?: string }): Promise<RefCommit>;
  /** Blame ranges and the file's text, pinned to the commit `ref` (default branch) resolved to. */
  blame(token: TokenUse, args: { repo: RepoRef; ref?: string; path: string }): Promise<BlameAnswer>;
  /** A folder's entries or a file's text, pinned likewise; `path` "" is the root. */
  contents(token: TokenUse, args: { repo: RepoRef; ref?: string; path: string }): Promise<ContentsAnswer>;
  /**
   * One page (`first` 1..100) of an owner's repositories: `pushed` (newest first) or `name`;
   * `publicOnly`: public ones only (GitHub filters, so counts and pages agree).
   */
  repositories(
    token: TokenUse,
    args: { login: string; first: number; after?: string; sort: RepositorySort; publicOnly?: boolean },
  ): Promise<RepositoriesPage>;
  /** One page of contributors (REST, anonymous included, ETag-conditional); `perPage` default 30. */
  contributors(
    token: TokenUse,
    args: { repo: RepoRef; page: number; perPage?: number },
  ): Promise<ContributorsPage>;
  /** An issue or a pull request by number (one GraphQL read). */
  issueOrPullRequest(token: TokenUse, args: { repo: RepoRef; number: number }): Promise<IssueAnswer>;
  /** A commit by revision (default: the default branch), and its files' first page (REST). */
  commit(token: TokenUse, args: { repo: RepoRef; ref?: string }): Promise<CommitAnswer>;
  /** One page (`first` 1..100) of the commits that touched `path` ("" for all), newest first. */
  history(
    token: TokenUse,
    args: { repo: RepoRef; ref?: string; path: string; first: number; after?: string },
  ): Promise<HistoryPage>;
  /** What `/owners` reads before blame: pinned commit, the path's files, CODEOWNERS, recent commits. */
  ownersTree(
    token: TokenUse,
    args: { repo: RepoRef; ref?: string; path: string; since: Date },
  ): Promise<OwnersTree>;
  /** The blame of up to 10 files at one commit, in one request. */
  ownersBlame(
    token: TokenUse,
    args: { repo: RepoRef; oid: string; paths: readonly string[] },
  ): Promise<BlameBatch>;
  /**
   * The last `x-ratelimit-*` figures seen for a token fingerprint (REST or GraphQL headers, or the
   * Viewer query's `rateLimit`), optionally for one resource (`graphql`, `core`).
   */
  rateLimit(fingerprint: string, resource?: string): RateLimitSnapshot | undefined;
}

/** `RepoScout/<version> (+https://github.com/reposcout)`. */
export function userAgentFor(version: string): string {
  return `RepoScout/${version} (+https://github.com/reposcout)`;
}

/**
 * Creates the GitHub client: GraphQL and REST both through `fetch` (one POST a GraphQL call), with a
 * deadline of at most 10 s per call, one retry of a reset connection or a 502/503, rate-limit
 * bookkeeping per token fingerprint, and every answer checked with zod.
 */
/** A failed call's status for metrics: the error's stable code, else `error`. */
function errorStatus(error: unknown): string {
  const code =
    typeof error === "object" && error !== null && "code" in error
      ? (error as { code: unknown }).code
      : undefined;
  return typeof code === "string" && /^[a-z_]{1,40}$/.test(code) ? code : "error";
}

export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const logger = options.logger.child({ component: "github" });
  const timeoutMs = Math.min(MAX_TIMEOUT_MS, Math.max(1, options.timeoutMs ?? DEFAULT_TIMEOUT_MS));
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const now = options.now ?? (() => new Date());
  const holds = options.holds;
  const shared = holds ? sharingBook(createRateLimitBook(), holds) : undefined;
  const book = shared ?? createRateLimitBook();
  const userAgent = userAgentFor(options.version);
  const holdWhileLimited = options.holdWhileLimited ?? true;
  const common = {
    userAgent,
    fetch: fetchImpl,
    timeoutMs,
    random,
    sleep,
    now,
    logger,
    book,
    holdWhileLimited,
    ...(shared ? { adoptSharedHolds: shared.adoptShared } : {}),
  };

  const deps: OperationDeps = {
    graphql: createGraphQLTransport({ ...common, url: options.graphqlUrl }),
    rest: createRestTransport(common),
    restUrl: options.restUrl.replace(/\/+$/, ""),
    conditionalStore: options.conditionalStore ?? createMemoryConditionalStore({ maxEntries: 500 }),
    book,
    logger,
    now,
  };

  /** Runs one operation with the token's fingerprint and logs its failure once, here. */
  async function run<T>(
    operation: string,
    use: TokenUse,
    body: (credentials: Credentials) => Promise<T>,
  ): Promise<T> {
    const token = typeof use === "string" ? use : use.token;
    const credentials: Credentials = {
      token,
      fingerprint: options.fingerprint(token),
      ...(typeof use === "string" ? {} : { onSpend: (spend) => use.onSpend(spend) }),
    };
    try {
      const result = await body(credentials);
      options.onCall?.(operation, "ok");
      return result;
    } catch (error) {
      options.onCall?.(operation, errorStatus(error));
      if (error instanceof GitHubQueryError) {
        logger.error({ operation, err: error }, "github rejected our request (a bug in RepoScout)");
      } else if (error instanceof GitHubError) {
        // One line, no stack: the stack points at our parsing code, not at what went wrong. An
        // outage or a limit is the operator's to look at; any other answer (a name that does not
        // exist...) is the user's, and the router logs it with the interaction.
        if (concernsOperator(error)) logger.warn(errorFacts(error), "github request failed");
        else logger.debug(errorFacts(error), "github answered with a user-facing error");
      } else {
        logger.error({ operation, err: error }, "github request failed unexpectedly");
      }
      if (error instanceof GitHubUnauthorizedError && options.onUnauthorized) {
        throw (await options.onUnauthorized(credentials.fingerprint)) ?? error;
      }
      throw error;
    }
  }

  return {
    viewer: (token) => run("Viewer", token, (credentials) => fetchViewer(deps, credentials)),
    repositoryInfo: (token, repo) =>
      run("RepositoryInfo", token, (credentials) => fetchRepositoryInfo(deps, credentials, repo)),
    repositoryAccess: (token, repo) =>
      run("RepositoryAccess", token, (credentials) => fetchRepositoryAccess(deps, credentials, repo)),
    refCommit: (token, args) =>
      run("RefCommit", token, (credentials) => fetchRefCommit(deps, credentials, args)),
    blame: (token, args) => run("Blame", token, (credentials) => fetchBlame(deps, credentials, args)),
    contents: (token, args) =>
      run("Contents", token, (credentials) => fetchContents(deps, credentials, args)),
    repositories: (token, args) =>
      run("OwnerRepositories", token, (credentials) => fetchRepositories(deps, credentials, args)),
    contributors: (token, args) =>
      run("Contributors", token, (credentials) => fetchContributors(deps, credentials, args)),
    issueOrPullRequest: (token, args) =>
      run("IssueOrPullRequest", token, (credentials) => fetchIssueOrPullRequest(deps, credentials, args)),
    commit: (token, args) => run("Commit", token, (credentials) => fetchCommit(deps, credentials, args)),
    history: (token, args) => run("History", token, (credentials) => fetchHistory(deps, credentials, args)),
    ownersTree: (token, args) =>
      run("OwnersTree", token, (credentials) => fetchOwnersTree(deps, credentials, args)),
    ownersBlame: (token, args) =>
      run("OwnersBlame", token, (credentials) => fetchOwnersBlame(deps, credentials, args)),
    rateLimit: (fingerprint, resource) => book.latest(fingerprint, resource),
  };
}
