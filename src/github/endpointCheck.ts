import type { Logger } from "../logger.js";

/** A GitHub URL setting that does not lead to GitHub's API, by the variable to fix. */
export interface EndpointProblem {
  variable: "GITHUB_API_URL" | "GITHUB_GRAPHQL_URL";
  message: string;
}

/** How long one probe may take; GitHub answers both in well under a second. */
const PROBE_TIMEOUT_MS = 5_000;
/** While a problem stands, `/readyz` probes again at most this often. */
const RECHECK_MS = 30_000;

type Probe = { status: number; json: unknown } | { unreachable: string };

async function probe(
  url: string,
  init: RequestInit,
  fetchImpl: typeof fetch,
  timeoutMs: number,
): Promise<Probe> {
  try {
    const response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // An HTML page or nothing: not an API's answer.
    }
    return { status: response.status, json };
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const why =
      typeof cause?.code === "string" ? cause.code : error instanceof Error ? error.message : String(error);
    return { unreachable: why };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** GitHub's own refusal (`{"message": ...}` with 401 or 403): the URL is right, only the caller is not. */
function isGitHubRefusal(answer: { status: number; json: unknown }): boolean {
  return (
    (answer.status === 401 || answer.status === 403) && isObject(answer.json) && "message" in answer.json
  );
}

/**
 * Checks that the REST base and the GraphQL endpoint are GitHub's, with one cheap read each and no
 * token: `GET {api}/rate_limit` (which counts against no budget) must answer GitHub's budgets, and
 * a POST to the GraphQL endpoint must answer as GraphQL does (data, errors, or GitHub's "requires
 * you to be authenticated"). A wrong host reads "could not be reached" and a wrong path a 404 or a
 * page: either way, the variable to fix is named.
 * @returns the problems found, empty when both answer as GitHub does.
 */
export async function checkGitHubEndpoints(options: {
  apiUrl: string;
  graphqlUrl: string;
  /** Whether GITHUB_GRAPHQL_URL was set (else it was derived from GITHUB_API_URL). */
  graphqlUrlSet: boolean;
  fetch?: typeof fetch;
  timeoutMs?: number;
}): Promise<EndpointProblem[]> {
  const fetchImpl = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const headers = { "user-agent": "RepoScout", accept: "application/json" };
  const [rest, graphql] = await Promise.all([
    probe(`${options.apiUrl}/rate_limit`, { headers }, fetchImpl, timeoutMs),
    probe(
      options.graphqlUrl,
      {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ query: "query { rateLimit { limit } }" }),
      },
      fetchImpl,
      timeoutMs,
    ),
  ]);
  const problems: EndpointProblem[] = [];
  if ("unreachable" in rest) {
    problems.push({
      variable: "GITHUB_API_URL",
      message: `${options.apiUrl} could not be reached (${rest.unreachable}): check the host, or whether this machine may reach it`,
    });
  } else if (
    !(rest.status === 200 && isObject(rest.json) && isObject(rest.json.resources)) &&
    !isGitHubRefusal(rest)
  ) {
    problems.push({
      variable: "GITHUB_API_URL",
      message: `${options.apiUrl}/rate_limit answered ${rest.status}, not as GitHub's REST API does: the base is https://api.github.com, or https://HOST/api/v3 on GitHub Enterprise Server`,
    });
  }
  // When the REST base is unreachable, a derived GraphQL URL on the same host says nothing more.
  const derivedAndDown = !options.graphqlUrlSet && "unreachable" in rest && "unreachable" in graphql;
  if ("unreachable" in graphql) {
    if (!derivedAndDown)
      problems.push({
        variable: "GITHUB_GRAPHQL_URL",
        message: `${options.graphqlUrl} could not be reached (${graphql.unreachable})`,
      });
  } else if (
    !(
      graphql.status === 200 &&
      isObject(graphql.json) &&
      ("data" in graphql.json || "errors" in graphql.json)
    ) &&
    !isGitHubRefusal(graphql)
  ) {
    problems.push({
      variable: "GITHUB_GRAPHQL_URL",
      message: `${options.graphqlUrl}${options.graphqlUrlSet ? "" : " (derived from GITHUB_API_URL)"} answered ${graphql.status}, not as GitHub's GraphQL API does: https://api.github.com/graphql, or https://HOST/api/graphql on GitHub Enterprise Server`,
    });
  }
  return problems;
}

/** The start-up check of the GitHub URLs, and what `/readyz` reads of it. */
export interface GitHubEndpointsCheck {
  /** Runs the check (at start); logs each problem once, by variable. */
  run(): Promise<void>;
  /** Whether GitHub answered as GitHub; while a problem stands, checks again every 30 s at most. */
  ready(): Promise<boolean>;
}

/**
 * Creates the check of `GITHUB_API_URL` and `GITHUB_GRAPHQL_URL` (see {@link checkGitHubEndpoints}):
 * a warning per problem at start, one info line when a later check finds them answering.
 */
export function createGitHubEndpointsCheck(options: {
  apiUrl: string;
  graphqlUrl: string;
  graphqlUrlSet: boolean;
  logger: Logger;
  fetch?: typeof fetch;
  now?: () => number;
}): GitHubEndpointsCheck {
  const now = options.now ?? Date.now;
  let ok = false;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let reported = "";
  let running: Promise<void> | null = null;
  const run = (): Promise<void> =>
    (running ??= (async () => {
      try {
        const problems = await checkGitHubEndpoints(options);
        checkedAt = now();
        ok = problems.length === 0;
        const summary = problems.map((problem) => `${problem.variable} ${problem.message}`).join("\n");
        if (!ok && summary !== reported) {
          for (const problem of problems)
            options.logger.warn({ variable: problem.variable }, `${problem.variable}: ${problem.message}`);
        } else if (ok && reported !== "") {
          options.logger.info("GitHub answers at GITHUB_API_URL and GITHUB_GRAPHQL_URL now");
        }
        reported = summary;
      } finally {
        running = null;
      }
    })());
  return {
    run,
    async ready() {
      if (!ok && now() - checkedAt >= RECHECK_MS) await run();
      else if (running) await running;
      return ok;
    },
  };
}
