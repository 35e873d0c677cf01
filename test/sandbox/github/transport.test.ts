import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_TOKEN,
  OTHER_TOKEN,
  startGitHubStandIn,
  type GitHubStandIn,
} from "../../../src/sandbox/github/index.js";
import { parseAuthorization, parseGraphQLBody } from "../../../src/sandbox/github/transport.js";
import { DOCUMENTS, graphql, locationOf, raw, rest } from "./helpers.js";

let standIn: GitHubStandIn;

beforeAll(async () => {
  standIn = await startGitHubStandIn();
});

afterAll(async () => {
  await standIn.close();
});

const VIEWER = JSON.stringify({ query: "{ viewer { login } }" });

function post(authorization: string | null, body: string = VIEWER, url = standIn.graphqlUrl) {
  return raw(url, {
    method: "POST",
    headers: authorization === null ? {} : { authorization },
    body,
  });
}

describe("Authorization on /graphql", () => {
  it("accepts `bearer <token>`, the scheme in any case, and `token <token>`", async () => {
    for (const header of [
      `bearer ${DEMO_TOKEN}`,
      `Bearer ${DEMO_TOKEN}`,
      `BEARER ${DEMO_TOKEN}`,
      `token ${DEMO_TOKEN}`,
    ]) {
      const answer = await post(header);
      expect(answer.status, header).toBe(200);
      expect(answer.body).toEqual({ data: { viewer: { login: "demo-user" } } });
    }
    expect((await post(`bearer ${OTHER_TOKEN}`)).body).toEqual({ data: { viewer: { login: "other-user" } } });
  });

  it("answers 401 'requires authentication' without an Authorization header", async () => {
    const answer = await post(null);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      message: "This endpoint requires you to be authenticated.",
      documentation_url:
        "https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql",
    });
  });

  it("answers 401 to a malformed header: no space, two spaces, another scheme", async () => {
    for (const header of [`bearer${DEMO_TOKEN}`, `bearer  ${DEMO_TOKEN}`, `Digest ${DEMO_TOKEN}`, "bearer"]) {
      const answer = await post(header);
      expect(answer.status, header).toBe(401);
      expect(answer.body.message).toBe("This endpoint requires you to be authenticated.");
    }
  });

  it("answers 401 Bad credentials to an unknown token", async () => {
    const answer = await post("bearer ghp_notAToken000000000000000000000000000");
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      message: "Bad credentials",
      documentation_url: "https://docs.github.com/graphql",
    });
  });

  it("accepts HTTP Basic with the token as password, as GitHub does", async () => {
    const basic = Buffer.from(`demo-user:${DEMO_TOKEN}`).toString("base64");
    expect((await post(`Basic ${basic}`)).status).toBe(200);
    const wrongLogin = Buffer.from(`other-user:${DEMO_TOKEN}`).toString("base64");
    expect((await post(`Basic ${wrongLogin}`)).status).toBe(401);
  });

  it("serves the Enterprise Server path /api/graphql as well", async () => {
    const answer = await post(`bearer ${DEMO_TOKEN}`, VIEWER, standIn.enterpriseGraphqlUrl);
    expect(answer.body).toEqual({ data: { viewer: { login: "demo-user" } } });
  });
});

describe("GET /graphql", () => {
  it("answers 401 without a good token, like POST (the seed's `bearer<token>` case)", async () => {
    const noSpace = await raw(standIn.graphqlUrl, { headers: { authorization: `bearer${DEMO_TOKEN}` } });
    expect(noSpace.status).toBe(401);
    expect((await raw(standIn.graphqlUrl)).status).toBe(401);
    const bad = await raw(standIn.graphqlUrl, { headers: { authorization: "bearer nope" } });
    expect(bad.body.message).toBe("Bad credentials");
  });

  it("answers the schema with a good token: introspection, or the IDL on request", async () => {
    const introspection = await raw(standIn.graphqlUrl, {
      headers: { authorization: `bearer ${DEMO_TOKEN}` },
    });
    expect(introspection.status).toBe(200);
    expect(introspection.body.data.__schema.queryType).toMatchObject({ name: "Query" });
    const idl = await raw(standIn.graphqlUrl, {
      headers: { authorization: `bearer ${DEMO_TOKEN}`, accept: "application/vnd.github.v4.idl" },
    });
    expect(idl.body.data).toContain("type BlameRange");
  });
});

describe("the GraphQL body", () => {
  const auth = `bearer ${DEMO_TOKEN}`;

  it("answers 400 'Problems parsing JSON' to a body that is not JSON", async () => {
    const answer = await post(auth, "{ viewer { login } }");
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: "Problems parsing JSON",
      documentation_url: "https://docs.github.com/graphql",
    });
  });

  it("answers 400 'Problems parsing JSON' when the query is a nested object, as the seed states", async () => {
    const answer = await post(auth, JSON.stringify({ query: { viewer: { login: true } } }));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe("Problems parsing JSON");
  });

  it("answers 400 'Body should be a JSON object' to JSON that is not an object", async () => {
    for (const body of ["[]", '"query"', "42", "null"]) {
      const answer = await post(auth, body);
      expect(answer.status, body).toBe(400);
      expect(answer.body).toEqual({
        message: "Body should be a JSON object",
        documentation_url: "https://docs.github.com/graphql",
      });
    }
  });

  it("refuses a missing or empty query with GitHub's message", async () => {
    for (const body of ["{}", JSON.stringify({ query: "" }), JSON.stringify({ variables: {} })]) {
      const answer = await post(auth, body);
      expect(answer.body, body).toEqual({
        errors: [{ message: "A query attribute must be specified and must be a string." }],
      });
    }
  });

  it("refuses variables that are not an object", async () => {
    for (const variables of ['"{}"', "[1]", "3"]) {
      const answer = await post(auth, `{"query":"{ viewer { login } }","variables":${variables}}`);
      expect(answer.status, variables).toBe(400);
      expect(answer.body.message).toBe("Problems parsing JSON");
    }
  });

  it("takes null variables and an operationName", async () => {
    const body = JSON.stringify({
      query: "query A { viewer { login } } query B { viewer { name } }",
      variables: null,
      operationName: "B",
    });
    expect((await post(auth, body)).body).toEqual({ data: { viewer: { name: "Demo User" } } });
    const ambiguous = await post(
      auth,
      JSON.stringify({ query: "query A { viewer { login } } query B { viewer { name } }" }),
    );
    expect(ambiguous.body.errors[0].message).toBe("An operation name is required");
  });

  it("answers a syntax error with errors and no data", async () => {
    const answer = await graphql(standIn, "{ viewer { login }");
    expect(answer.status).toBe(200);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors[0].message).toMatch(/^Unexpected end of document|^Parse error/);
    expect(answer.body.errors[0].locations).toBeDefined();
  });

  it("answers GitHub's shape to a variable of the wrong type or missing", async () => {
    const answer = await graphql(standIn, DOCUMENTS.repositoryInfo, { owner: "demo" });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      errors: [
        {
          extensions: { value: null, problems: [{ path: [], explanation: "Expected value to not be null" }] },
          locations: [locationOf(DOCUMENTS.repositoryInfo, "$name")],
          message: "Variable $name of type String! was provided invalid value",
        },
      ],
    });
  });
});

describe("REST transport", () => {
  it("serves public data without a token, and refuses an unknown or malformed one", async () => {
    expect((await rest(standIn, "/repos/demo/widgets/contributors", null)).status).toBe(200);
    const bad = await rest(standIn, "/repos/demo/widgets/contributors", "ghp_nope");
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({
      message: "Bad credentials",
      documentation_url: "https://docs.github.com/rest",
      status: "401",
    });
    const malformed = await raw(`${standIn.restUrl}/repos/demo/widgets/contributors`, {
      headers: { authorization: `bearer${DEMO_TOKEN}` },
    });
    expect(malformed.status).toBe(401);
  });

  it("answers 404 Not Found to routes it does not serve", async () => {
    const answer = await rest(standIn, "/repos/demo/widgets/issues");
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ message: "Not Found", status: "404" });
  });
});

describe("parsers", () => {
  it("reads Authorization headers as GitHub does", () => {
    expect(parseAuthorization(undefined)).toEqual({ kind: "missing" });
    expect(parseAuthorization("bearer abc")).toEqual({ kind: "token", token: "abc" });
    expect(parseAuthorization("tOkEn abc")).toEqual({ kind: "token", token: "abc" });
    expect(parseAuthorization("bearerabc")).toEqual({ kind: "malformed" });
    expect(parseAuthorization("bearer  abc")).toEqual({ kind: "malformed" });
    expect(parseAuthorization("bearer abc def")).toEqual({ kind: "malformed" });
    expect(parseAuthorization("Negotiate abc")).toEqual({ kind: "malformed" });
  });

  it("accepts a well-formed GraphQL body", () => {
    expect(
      parseGraphQLBody(Buffer.from('{"query":"{ a }","variables":{"x":1},"operationName":null}')),
    ).toEqual({
      query: "{ a }",
      variables: { x: 1 },
      operationName: null,
    });
  });
});
