import { describe, expect, it } from "vitest";
import { DOCUMENTS } from "../../src/github/documents.js";
import { DEMO, TOKEN, clientWith, fakeFetch, json, variablesOf } from "./fakeGitHub.js";

const OWNER_PAGE = {
  data: {
    repositoryOwner: {
      __typename: "User",
      login: "x",
      repositories: {
        totalCount: 0,
        pageInfo: { endCursor: null, hasNextPage: false, hasPreviousPage: false, startCursor: null },
        nodes: [],
      },
    },
  },
};

describe("the GraphQL request on the wire", () => {
  it("POSTs a JSON object with the query text, the operation name and the variables", async () => {
    const github = fakeFetch(() => json(OWNER_PAGE));
    const { client } = clientWith(github.fetch);
    await client.repositories(TOKEN, { login: "octo", first: 10, sort: "pushed" });

    expect(github.requests).toHaveLength(1);
    const [request] = github.requests;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("https://api.example.test/graphql");
    expect(request!.headers.get("content-type")).toBe("application/json");
    expect(request!.headers.get("accept")).toBe("application/json");
    expect(request!.body).toEqual({
      query: DOCUMENTS.OwnerRepositories,
      operationName: "OwnerRepositories",
      variables: {
        login: "octo",
        first: 10,
        after: null,
        orderBy: { field: "PUSHED_AT", direction: "DESC" },
        privacy: null,
      },
    });
  });

  it("sends `bearer`, one space and the token, and a User-Agent naming RepoScout and its version", async () => {
    const github = fakeFetch(() => json({ data: { viewer: { login: "octo" }, rateLimit: null } }));
    const { client } = clientWith(github.fetch);
    await client.viewer(TOKEN);

    const [request] = github.requests;
    expect(request!.headers.get("authorization")).toBe(`bearer ${TOKEN}`);
    expect(request!.headers.get("user-agent")).toBe("RepoScout/1.2.3 (+https://github.com/reposcout)");
    expect(request!.body).toMatchObject({ query: DOCUMENTS.Viewer, operationName: "Viewer", variables: {} });
  });

  it("keeps hostile user input in the variables, never in the query text", async () => {
    const hostile = 'evil") { viewer { login } } #{"';
    const github = fakeFetch(() => json({ data: { repositoryOwner: null } }));
    const { client } = clientWith(github.fetch);
    await client
      .repositories(TOKEN, { login: hostile, first: 5, after: "Y3Vyc29y", sort: "name" })
      .catch(() => {});

    const [request] = github.requests;
    const body = request!.body as { query: string; variables: Record<string, unknown> };
    expect(body.query).toBe(DOCUMENTS.OwnerRepositories);
    expect(body.query).not.toContain("evil");
    expect(body.variables).toEqual({
      login: hostile,
      first: 5,
      after: "Y3Vyc29y",
      orderBy: { field: "NAME", direction: "ASC" },
      privacy: null,
    });
  });

  it("asks GitHub for public repositories only when told (privacy PUBLIC), and says so on the page", async () => {
    const github = fakeFetch(() => json(OWNER_PAGE));
    const { client } = clientWith(github.fetch);
    const page = await client.repositories(TOKEN, {
      login: "octo",
      first: 10,
      sort: "pushed",
      publicOnly: true,
    });
    expect(github.requests.map(variablesOf)).toEqual([expect.objectContaining({ privacy: "PUBLIC" })]);
    expect(page.publicOnly).toBe(true);
  });

  it("puts the ref and the path of blame and contents in variables (HEAD when no ref)", async () => {
    const github = fakeFetch(() => json({ data: { repository: null } }));
    const { client } = clientWith(github.fetch);
    await client.blame(TOKEN, { repo: DEMO, path: "src/a.ts" }).catch(() => {});
    await client.blame(TOKEN, { repo: DEMO, ref: "feature/x", path: "src/a.ts" }).catch(() => {});
    await client.contents(TOKEN, { repo: DEMO, path: "" }).catch(() => {});
    await client.contents(TOKEN, { repo: DEMO, ref: "v1", path: "/docs/" }).catch(() => {});

    expect(github.requests.map(variablesOf)).toEqual([
      { owner: "demo", name: "widgets", expression: "HEAD", path: "src/a.ts" },
      { owner: "demo", name: "widgets", expression: "feature/x", path: "src/a.ts" },
      {
        owner: "demo",
        name: "widgets",
        commitExpression: "HEAD",
        objectExpression: "HEAD:",
        path: "",
        hasPath: false,
      },
      {
        owner: "demo",
        name: "widgets",
        commitExpression: "v1",
        objectExpression: "v1:docs",
        path: "docs",
        hasPath: true,
      },
    ]);
  });

  it("never sends an empty or malformed token", async () => {
    const github = fakeFetch(() => json({}));
    const { client } = clientWith(github.fetch);
    await expect(client.viewer("")).rejects.toMatchObject({ code: "github_unauthorized" });
    await expect(client.viewer("ghp_with space")).rejects.toMatchObject({ code: "github_unauthorized" });
    expect(github.requests).toHaveLength(0);
  });
});

describe("the REST request on the wire", () => {
  it("GETs the contributors with page, per_page and anon, the path parts percent-encoded", async () => {
    const github = fakeFetch(() => json([]));
    const { client } = clientWith(github.fetch);
    await client.contributors(TOKEN, { repo: { owner: "o", name: "a b#c" }, page: 3, perPage: 50 });

    const [request] = github.requests;
    expect(request!.method).toBe("GET");
    expect(request!.url).toBe(
      "https://api.example.test/repos/o/a%20b%23c/contributors?page=3&per_page=50&anon=1",
    );
    expect(request!.headers.get("authorization")).toBe(`bearer ${TOKEN}`);
    expect(request!.headers.get("user-agent")).toMatch(/^RepoScout\/1\.2\.3\b/);
    expect(request!.headers.get("if-none-match")).toBeNull();
  });
});
