import { DOCUMENTS as CLIENT_DOCUMENTS } from "../../../src/github/documents.js";
import type { GitHubStandIn } from "../../../src/sandbox/github/index.js";
import { DEMO_TOKEN } from "../../../src/sandbox/github/index.js";

/** The bot's GraphQL documents, verbatim, as the GitHub client sends them (its own constants). */
export const DOCUMENTS = {
  viewer: CLIENT_DOCUMENTS.Viewer,
  ownerRepositories: CLIENT_DOCUMENTS.OwnerRepositories,
  repositoryInfo: CLIENT_DOCUMENTS.RepositoryInfo,
  repositoryAccess: CLIENT_DOCUMENTS.RepositoryAccess,
  refCommit: CLIENT_DOCUMENTS.RefCommit,
  blame: CLIENT_DOCUMENTS.Blame,
  /**
   * The bot's Blame document asks a range's commit for no author email since issue 23 (it never
   * showed one), nor its `abbreviatedOid` and `url` (derived from the oid); the stand-in still
   * answers them as GitHub does, and this asks for them to check that.
   */
  blameInFull: CLIENT_DOCUMENTS.Blame.replace(
    "commit { oid messageHeadline authoredDate committedDate author { name user { login } } }",
    "commit { oid abbreviatedOid messageHeadline url authoredDate committedDate author { name email user { login } } }",
  ),
  contents: CLIENT_DOCUMENTS.Contents,
} as const;

/** A GitHub GraphQL answer, loosely typed for assertions. */
export interface GraphQLAnswer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are checked field by field
  body: any;
}

/** POSTs a query to the stand-in, as the bot does (`bearer`, one space, the token). */
export async function graphql(
  standIn: GitHubStandIn,
  query: string,
  variables: Record<string, unknown> = {},
  token: string | null = DEMO_TOKEN,
): Promise<GraphQLAnswer> {
  const response = await fetch(standIn.graphqlUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token === null ? {} : { authorization: `bearer ${token}` }),
    },
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === "" ? null : JSON.parse(text) };
}

/** Sends a raw request (any method, headers and body) and reads the JSON answer when there is one. */
export async function raw(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<GraphQLAnswer> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    // HTML or empty: keep the text.
  }
  return { status: response.status, headers: response.headers, body };
}

/** GETs a REST path of the stand-in with a token (null: none). */
export function rest(
  standIn: GitHubStandIn,
  path: string,
  token: string | null = DEMO_TOKEN,
  headers: Record<string, string> = {},
): Promise<GraphQLAnswer> {
  return raw(`${standIn.restUrl}${path}`, {
    headers: { ...(token === null ? {} : { authorization: `bearer ${token}` }), ...headers },
  });
}

/** Line and column (1-based) of the first occurrence of `needle` in a query, as GraphQL locations count. */
export function locationOf(query: string, needle: string): { line: number; column: number } {
  const index = query.indexOf(needle);
  if (index < 0) throw new Error(`"${needle}" is not in the query`);
  const before = query.slice(0, index).split("\n");
  return { line: before.length, column: (before[before.length - 1] ?? "").length + 1 };
}
