/**
 * The transport rules of GitHub's API: how the Authorization header is read, how a GraphQL body is
 * accepted or refused, and GitHub's bodies for those refusals.
 */

export const GRAPHQL_DOCS = "https://docs.github.com/graphql";
export const REST_DOCS = "https://docs.github.com/rest";

/** What the Authorization header holds. */
export type Authorization =
  | { kind: "missing" }
  /** Present but not `<scheme> <credentials>` with a scheme GitHub knows (`bearerX`, two spaces...). */
  | { kind: "malformed" }
  | { kind: "token"; token: string }
  /** HTTP Basic: GitHub takes a token as the password. */
  | { kind: "basic"; login: string; password: string };

/**
 * Reads the Authorization header as GitHub does: `bearer <token>` or `token <token>`, scheme in any
 * case, exactly one space, then the token (HTTP Basic with the token as password works too). No
 * space (`bearer<token>`), two spaces or another scheme is malformed.
 */
export function parseAuthorization(header: string | string[] | undefined): Authorization {
  if (header === undefined) return { kind: "missing" };
  if (Array.isArray(header)) return { kind: "malformed" };
  const bearer = /^(?:bearer|token) ([^\s]+)$/i.exec(header);
  if (bearer?.[1]) return { kind: "token", token: bearer[1] };
  const basic = /^basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header);
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0)
      return { kind: "basic", login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  return { kind: "malformed" };
}

/** A GraphQL request as the stand-in runs it. */
export interface GraphQLRequestBody {
  query: string;
  variables: Record<string, unknown> | null;
  operationName: string | null;
}

/** A GraphQL body that was refused: the HTTP status and GitHub's body. */
export interface RefusedBody {
  status: number;
  payload: Record<string, unknown>;
}

const PROBLEMS_PARSING_JSON: RefusedBody = {
  status: 400,
  payload: { message: "Problems parsing JSON", documentation_url: GRAPHQL_DOCS },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Accepts a GraphQL POST body as GitHub does, or says how GitHub refuses it:
 * - not JSON, or a `query` that is not a string (a nested object, as the seed states): 400
 *   "Problems parsing JSON";
 * - JSON that is not an object: 400 "Body should be a JSON object";
 * - no `query`, or an empty one: "A query attribute must be specified and must be a string."
 *   (status unconfirmed; the stand-in answers 200 like GitHub's other GraphQL-level errors);
 * - `variables` or `operationName` of the wrong type: 400 "Problems parsing JSON" (unconfirmed).
 */
export function parseGraphQLBody(raw: Buffer): GraphQLRequestBody | RefusedBody {
  const text = raw.toString("utf8");
  let parsed: unknown;
  if (text.trim() === "") {
    parsed = {};
  } else {
    try {
      parsed = JSON.parse(text);
    } catch {
      return PROBLEMS_PARSING_JSON;
    }
  }
  if (!isPlainObject(parsed)) {
    return {
      status: 400,
      payload: { message: "Body should be a JSON object", documentation_url: GRAPHQL_DOCS },
    };
  }
  const { query, variables, operationName } = parsed;
  if (query !== undefined && query !== null && typeof query !== "string") return PROBLEMS_PARSING_JSON;
  if (typeof query !== "string" || query.trim() === "") {
    return {
      status: 200,
      payload: { errors: [{ message: "A query attribute must be specified and must be a string." }] },
    };
  }
  if (variables !== undefined && variables !== null && !isPlainObject(variables))
    return PROBLEMS_PARSING_JSON;
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") {
    return PROBLEMS_PARSING_JSON;
  }
  return {
    query,
    variables: (variables as Record<string, unknown> | null | undefined) ?? null,
    operationName: (operationName as string | null | undefined) ?? null,
  };
}

/** Whether a parse result is a refusal. */
export function isRefusedBody(value: GraphQLRequestBody | RefusedBody): value is RefusedBody {
  return "status" in value;
}

/** GitHub's 401 bodies. */
export const UNAUTHORIZED = {
  /** GraphQL without credentials (no header, or one GitHub cannot read). */
  graphqlRequiresAuthentication: {
    message: "This endpoint requires you to be authenticated.",
    documentation_url:
      "https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql",
  },
  graphqlBadCredentials: { message: "Bad credentials", documentation_url: GRAPHQL_DOCS },
  restBadCredentials: { message: "Bad credentials", documentation_url: REST_DOCS, status: "401" },
} as const;

/** GitHub's REST 404 body. */
export function restNotFound(documentationUrl = REST_DOCS): Record<string, unknown> {
  return { message: "Not Found", documentation_url: documentationUrl, status: "404" };
}
