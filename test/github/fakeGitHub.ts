import { silentLogger } from "../../src/logger.js";
import { createGitHubClient, type GitHubClient, type GitHubClientOptions } from "../../src/github/client.js";

/** One request the client sent, as a fake GitHub saw it. */
export interface SeenRequest {
  url: string;
  method: string;
  headers: Headers;
  bodyText: string | undefined;
  /** The JSON body, parsed (GraphQL). */
  body: unknown;
}

export type Handler = (request: SeenRequest, index: number) => Response | Promise<Response>;

/** A `fetch` that answers from `handler` and remembers every request. */
export function fakeFetch(handler: Handler): { fetch: typeof fetch; requests: SeenRequest[] } {
  const requests: SeenRequest[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const bodyText = init?.body === undefined || init.body === null ? undefined : await request.text();
    const seen: SeenRequest = {
      url: request.url,
      method: request.method,
      headers: request.headers,
      bodyText,
      body: bodyText === undefined ? undefined : (JSON.parse(bodyText) as unknown),
    };
    requests.push(seen);
    return handler(seen, requests.length - 1);
  };
  return { fetch: fetchImpl, requests };
}

/** A JSON answer with GitHub's content type. */
export function json(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { "content-type": "application/json; charset=utf-8", ...init.headers },
  });
}

/** The variables of a GraphQL request body. */
export function variablesOf(request: SeenRequest): Record<string, unknown> {
  return (request.body as { variables: Record<string, unknown> }).variables;
}

export const TOKEN = "ghp_testtoken0123456789abcdefABCDEF0123";
export const FINGERPRINT = "fp-test";
export const NOW = new Date("2025-01-01T12:00:00.000Z");

/** A client over `fetch` with fixed clock, no real pauses and a recognisable fingerprint. */
export function clientWith(
  fetchImpl: typeof fetch,
  overrides: Partial<GitHubClientOptions> = {},
): { client: GitHubClient; sleeps: number[] } {
  const sleeps: number[] = [];
  const client = createGitHubClient({
    graphqlUrl: "https://api.example.test/graphql",
    restUrl: "https://api.example.test",
    version: "1.2.3",
    fetch: fetchImpl,
    logger: silentLogger(),
    fingerprint: (token) => (token === TOKEN ? FINGERPRINT : `fp-${token.length}`),
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    now: () => NOW,
    ...overrides,
  });
  return { client, sleeps };
}

/** Runs `promise` and returns what it threw (fails the test when it resolves). */
export async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`threw a non-Error: ${String(error)}`);
  }
  throw new Error("expected a rejection, but the promise resolved");
}

export const DEMO = { owner: "demo", name: "widgets" };

/** demo/widgets as a document's `repository { nameWithOwner url isPrivate visibility defaultBranchRef }` answers it. */
export const DEMO_REPOSITORY = {
  nameWithOwner: "demo/widgets",
  url: "https://github.com/demo/widgets",
  isPrivate: false,
  visibility: "PUBLIC",
  defaultBranchRef: { name: "main" },
};

/**
 * The `entry` GitHub answers beside a Blame document's `object`: the same commit, through the same
 * tags, asked only for the type of the tree entry at the path. Derived from a successful `object`;
 * an `object` nulled by a failed blame gives no clue, so those tests spell `entry` out.
 */
export function entryFor(object: unknown): unknown {
  if (object === null || typeof object !== "object") return null;
  const answered = object as { __typename: string; target?: unknown; file?: unknown };
  if (answered.__typename === "Tag") {
    return "target" in answered
      ? { __typename: "Tag", target: entryFor(answered.target) }
      : { __typename: "Tag" };
  }
  if (answered.__typename !== "Commit") return { __typename: answered.__typename };
  const file = answered.file as { object: { __typename: string } | null } | null | undefined;
  if (!file) return { __typename: "Commit", file: null };
  const type = file.object === null ? "commit" : file.object.__typename === "Tree" ? "tree" : "blob";
  return { __typename: "Commit", file: { type, mode: GIT_MODES[type] } };
}

/** The modes git gives each kind of tree entry (GitHub's `TreeEntry.mode`, as an integer). */
const GIT_MODES = { blob: 0o100644, tree: 0o40000, commit: 0o160000 } as const;

/** The `entry` of a Blame answer whose commit has `type` at the path (null: nothing there). */
export function entryOfType(type: "blob" | "tree" | "commit" | null): unknown {
  return { __typename: "Commit", file: type === null ? null : { type, mode: GIT_MODES[type] } };
}
