import { describe, expect, it } from "vitest";
import { sentenceOf } from "../sentenceOf.js";
import {
  AuthLockoutError,
  EmptyRepositoryError,
  GitHubForbiddenError,
  GitHubQueryError,
  GitHubUnauthorizedError,
  NotACommitError,
  NotAFileError,
  OwnerNotFoundError,
  PathNotFoundError,
  PrimaryRateLimitError,
  RefNotFoundError,
  RepositoryNotFoundError,
  SecondaryRateLimitError,
  TooLargeError,
  UpstreamError,
  UpstreamTimeoutError,
} from "../../src/github/errors.js";
import { UserFacingError } from "../../src/errors.js";
import {
  DEMO,
  NOW,
  TOKEN,
  caught,
  clientWith,
  entryFor,
  entryOfType,
  fakeFetch,
  json,
} from "./fakeGitHub.js";

const NOT_FOUND_REPOSITORY = {
  data: { repository: null },
  errors: [
    {
      type: "NOT_FOUND",
      path: ["repository"],
      locations: [{ line: 2, column: 3 }],
      message: "Could not resolve to a Repository with the name 'demo/nope'.",
    },
  ],
};

const TIMEOUT_BODY = {
  data: null,
  errors: [
    {
      message:
        "Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug. Please include `ABCD:1234` when reporting this issue.",
    },
  ],
};

const COMMIT = {
  __typename: "Commit",
  oid: "a".repeat(40),
  url: "https://github.com/demo/widgets/commit/aaaa",
  committedDate: "2024-05-01T10:00:00Z",
};
const REPOSITORY = {
  nameWithOwner: "demo/widgets",
  url: "https://github.com/demo/widgets",
  isPrivate: false,
  defaultBranchRef: { name: "main" },
};
const BLOB = {
  __typename: "Blob",
  oid: "b".repeat(40),
  text: "x\n",
  isBinary: false,
  byteSize: 2,
  isTruncated: false,
};

/** A Blame answer; `entry` is derived from `object` unless given (a failed blame gives no clue). */
function blameData(object: unknown, repository: Record<string, unknown> = {}) {
  return { data: { repository: { ...REPOSITORY, entry: entryFor(object), ...repository, object } } };
}

/** A client whose GitHub always gives `response` (a fresh copy each time). */
function answering(response: () => Response) {
  const github = fakeFetch(() => response());
  return { ...clientWith(github.fetch), requests: github.requests };
}

describe("GraphQL answers that are not the data asked for", () => {
  it("repository null with NOT_FOUND: the repository was not found (and says so by name)", async () => {
    const { client } = answering(() => json(NOT_FOUND_REPOSITORY));
    const error = await caught(client.blame(TOKEN, { repo: { owner: "demo", name: "nope" }, path: "a" }));
    expect(error).toBeInstanceOf(RepositoryNotFoundError);
    expect(error).toBeInstanceOf(UserFacingError);
    expect(sentenceOf(error)).toBe(
      "Repository `demo/nope` was not found, or the token in effect cannot see it. Check the owner and name in `repo`.",
    );
    expect(await caught(client.repositoryInfo(TOKEN, DEMO))).toBeInstanceOf(RepositoryNotFoundError);
    expect(await caught(client.contents(TOKEN, { repo: DEMO, path: "" }))).toBeInstanceOf(
      RepositoryNotFoundError,
    );
  });

  it("repositoryOwner null without errors: the owner was not found", async () => {
    const { client } = answering(() => json({ data: { repositoryOwner: null } }));
    const error = await caught(client.repositories(TOKEN, { login: "ghost-x", first: 10, sort: "pushed" }));
    expect(error).toBeInstanceOf(OwnerNotFoundError);
    expect(sentenceOf(error)).toContain("`ghost-x`");
    expect((error as OwnerNotFoundError).code).toBe("owner_not_found");
  });

  it("object null: the ref was not found", async () => {
    const { client } = answering(() => json(blameData(null)));
    const error = await caught(client.blame(TOKEN, { repo: DEMO, ref: "nope", path: "a.ts" }));
    expect(error).toBeInstanceOf(RefNotFoundError);
    expect(sentenceOf(error)).toBe(
      "Revision `nope` was not found in `demo/widgets`. Check `ref`: a branch, a tag or a commit id.",
    );
  });

  it("an error about something inside a repository carries the repository GitHub showed, with its visibility", async () => {
    const secret = { ...REPOSITORY, nameWithOwner: "demo/Secret", isPrivate: true, visibility: "PRIVATE" };
    const { client } = answering(() => json(blameData(null, secret)));
    const error = await caught(client.blame(TOKEN, { repo: DEMO, ref: "nope", path: "a.ts" }));
    expect(error).toBeInstanceOf(RefNotFoundError);
    expect((error as RefNotFoundError).seenRepository).toEqual({
      nameWithOwner: "demo/Secret",
      isPrivate: true,
      visibility: "PRIVATE",
    });
    // A repository GitHub did not show carries none: there is nothing inside to tell of.
    const missing = answering(() => json(NOT_FOUND_REPOSITORY)).client;
    const notFound = await caught(missing.blame(TOKEN, { repo: DEMO, path: "a.ts" }));
    expect((notFound as RepositoryNotFoundError).seenRepository).toBeUndefined();
  });

  it("object null in an empty repository (no default branch): the repository has no commits", async () => {
    const { client } = answering(() =>
      json({
        data: {
          repository: { ...REPOSITORY, defaultBranchRef: null, object: null, entry: null, commit: null },
        },
      }),
    );
    expect(await caught(client.blame(TOKEN, { repo: DEMO, path: "a.ts" }))).toBeInstanceOf(
      EmptyRepositoryError,
    );
    expect(await caught(client.contents(TOKEN, { repo: DEMO, path: "" }))).toBeInstanceOf(
      EmptyRepositoryError,
    );
  });

  it("file null with NOT_FOUND: the path was not found", async () => {
    const { client } = answering(() =>
      json({
        data: {
          repository: {
            ...REPOSITORY,
            object: { ...COMMIT, blame: { ranges: [] }, file: null },
            entry: entryOfType(null),
          },
        },
        errors: [
          {
            type: "NOT_FOUND",
            path: ["repository", "object", "file"],
            message: "Could not resolve file for path 'x'.",
          },
          {
            type: "NOT_FOUND",
            path: ["repository", "entry", "file"],
            message: "Could not resolve file for path 'x'.",
          },
        ],
      }),
    );
    const error = await caught(client.blame(TOKEN, { repo: DEMO, path: "x" }));
    expect(error).toBeInstanceOf(PathNotFoundError);
    expect(sentenceOf(error)).toBe(
      "Path `x` was not found in `demo/widgets` at the default branch. Check `path`; `/contents` lists the files that are there.",
    );
  });

  it("blame failing on a missing path (the null reaches object): the path was not found", async () => {
    const { client } = answering(() =>
      json({
        ...blameData(null, { entry: entryOfType(null) }),
        errors: [
          { type: "NOT_FOUND", path: ["repository", "object", "blame"], message: "Could not resolve file" },
          { type: "NOT_FOUND", path: ["repository", "entry", "file"], message: "Could not resolve file" },
        ],
      }),
    );
    const error = await caught(client.blame(TOKEN, { repo: DEMO, ref: "main", path: "missing.ts" }));
    expect(error).toBeInstanceOf(PathNotFoundError);
    expect(sentenceOf(error)).toContain("at `main`");
  });

  it("contents: object null while the commit resolves: the path was not found", async () => {
    const { client } = answering(() =>
      json({
        data: { repository: { ...REPOSITORY, commit: { ...COMMIT, file: null }, object: null } },
        errors: [
          {
            type: "NOT_FOUND",
            path: ["repository", "commit", "file"],
            message: "Could not resolve file for path 'nope'.",
          },
        ],
      }),
    );
    expect(await caught(client.contents(TOKEN, { repo: DEMO, path: "nope" }))).toBeInstanceOf(
      PathNotFoundError,
    );
  });

  it("a folder or a submodule given to blame: not a file", async () => {
    const folder = answering(() =>
      json(
        blameData({
          ...COMMIT,
          blame: { ranges: [] },
          file: { path: "src", object: { __typename: "Tree" } },
        }),
      ),
    );
    const error = await caught(folder.client.blame(TOKEN, { repo: DEMO, path: "src" }));
    expect(error).toBeInstanceOf(NotAFileError);
    expect(sentenceOf(error)).toContain("`/contents`");
    const root = await caught(folder.client.blame(TOKEN, { repo: DEMO, path: "/" }));
    expect(root).toBeInstanceOf(NotAFileError);
    expect(folder.requests).toHaveLength(1); // the root is refused without asking

    const submodule = answering(() =>
      json(blameData({ ...COMMIT, blame: { ranges: [] }, file: { path: "vendor/x", object: null } })),
    );
    expect(await caught(submodule.client.blame(TOKEN, { repo: DEMO, path: "vendor/x" }))).toMatchObject({
      code: "not_a_file",
      found: "submodule",
    });
  });

  it("a ref naming a tree (`main:src`): not a commit", async () => {
    const { client } = answering(() => json(blameData({ __typename: "Tree" })));
    const error = await caught(client.blame(TOKEN, { repo: DEMO, ref: "main:src", path: "a" }));
    expect(error).toBeInstanceOf(NotACommitError);
    expect(sentenceOf(error)).toBe(
      "Revision `main:src` of `demo/widgets` does not name a commit. Give a branch, a tag or a commit id as `ref`.",
    );
  });

  it("FORBIDDEN on the repository (SSO): forbidden, with what to do", async () => {
    const { client } = answering(() =>
      json({
        data: { repository: null },
        errors: [
          {
            type: "FORBIDDEN",
            path: ["repository"],
            message: "Resource protected by organization SAML enforcement.",
          },
        ],
      }),
    );
    const error = await caught(client.repositoryInfo(TOKEN, DEMO));
    expect(error).toBeInstanceOf(GitHubForbiddenError);
    expect(sentenceOf(error)).not.toContain("SAML enforcement");
  });

  it("EXCESSIVE_PAGINATION is our bug, not the user's", async () => {
    const { client } = answering(() =>
      json({
        data: null,
        errors: [
          {
            type: "EXCESSIVE_PAGINATION",
            path: ["repositoryOwner", "repositories"],
            message:
              "Requesting 101 records on the `repositories` connection exceeds the `first` limit of 100 records.",
          },
        ],
      }),
    );
    const error = await caught(client.repositories(TOKEN, { login: "octo", first: 100, sort: "pushed" }));
    expect(error).toBeInstanceOf(GitHubQueryError);
    expect(error).not.toBeInstanceOf(UserFacingError);
    expect((error as GitHubQueryError).messages[0]).toContain("exceeds the `first` limit");
    expect((error as GitHubQueryError).request).toMatchObject({ operation: "OwnerRepositories" });
  });

  it("asking for more than 100 is refused before anything is sent", async () => {
    const { client, requests } = answering(() => json({}));
    await expect(client.repositories(TOKEN, { login: "o", first: 101, sort: "pushed" })).rejects.toThrow(
      RangeError,
    );
    expect(requests).toHaveLength(0);
  });

  it("undefinedField and syntax errors are our bug", async () => {
    const undefinedField = answering(() =>
      json({
        errors: [
          {
            path: ["query Blame", "repository", "foobar"],
            extensions: { code: "undefinedField", typeName: "Repository", fieldName: "foobar" },
            locations: [{ line: 2, column: 3 }],
            message: "Field 'foobar' doesn't exist on type 'Repository'",
          },
        ],
      }),
    );
    const error = await caught(undefinedField.client.blame(TOKEN, { repo: DEMO, path: "a" }));
    expect(error).toBeInstanceOf(GitHubQueryError);
    expect((error as GitHubQueryError).messages).toEqual([
      "Field 'foobar' doesn't exist on type 'Repository'",
    ]);

    const syntax = answering(() =>
      json({
        errors: [{ message: 'Parse error on "}" (RCURLY) at [1, 10]', locations: [{ line: 1, column: 10 }] }],
      }),
    );
    expect(await caught(syntax.client.viewer(TOKEN))).toBeInstanceOf(GitHubQueryError);

    const noQuery = answering(() =>
      json({ errors: [{ message: "A query attribute must be specified and must be a string." }] }),
    );
    expect(await caught(noQuery.client.viewer(TOKEN))).toBeInstanceOf(GitHubQueryError);
  });

  it("400 Problems parsing JSON is our bug", async () => {
    const { client } = answering(() =>
      json(
        { message: "Problems parsing JSON", documentation_url: "https://docs.github.com/graphql" },
        { status: 400 },
      ),
    );
    const error = await caught(client.viewer(TOKEN));
    expect(error).toBeInstanceOf(GitHubQueryError);
    expect((error as GitHubQueryError).messages).toEqual(["Problems parsing JSON"]);
    expect((error as GitHubQueryError).response?.status).toBe(400);
  });

  it.each([
    ["RATE_LIMIT", { type: "RATE_LIMIT", code: "graphql_rate_limit" }],
    ["RATE_LIMITED (older)", { type: "RATE_LIMITED" }],
  ])("%s: primary rate limit until x-ratelimit-reset", async (_name, extra) => {
    const reset = Math.floor(NOW.getTime() / 1000) + 1800;
    const { client } = answering(() =>
      json(
        { errors: [{ ...extra, message: "API rate limit already exceeded for user ID 1." }] },
        {
          headers: {
            "x-ratelimit-remaining": "0",
            "x-ratelimit-limit": "5000",
            "x-ratelimit-reset": String(reset),
          },
        },
      ),
    );
    const error = await caught(client.viewer(TOKEN));
    expect(error).toBeInstanceOf(PrimaryRateLimitError);
    expect((error as PrimaryRateLimitError).retryAt.getTime()).toBe(reset * 1000);
    expect(sentenceOf(error)).toBe(
      `GitHub's rate limit for the token in effect is used up. Try again <t:${reset}:R>.`,
    );
  });

  it("secondary limit in a 200 GraphQL answer: rate limited for at least a minute", async () => {
    const { client } = answering(() =>
      json({ errors: [{ message: "You have exceeded a secondary rate limit. Please wait a few minutes." }] }),
    );
    const error = await caught(client.viewer(TOKEN));
    expect(error).toBeInstanceOf(SecondaryRateLimitError);
    expect((error as SecondaryRateLimitError).retryAt.getTime()).toBeGreaterThanOrEqual(
      NOW.getTime() + 60_000,
    );
  });

  it("401 Bad credentials and 401 without a token: the token is missing or invalid", async () => {
    for (const message of ["Bad credentials", "This endpoint requires you to be authenticated."]) {
      const { client } = answering(() =>
        json({ message, documentation_url: "https://docs.github.com/graphql" }, { status: 401 }),
      );
      const error = await caught(client.viewer(TOKEN));
      expect(error).toBeInstanceOf(GitHubUnauthorizedError);
      expect(sentenceOf(error)).toBe(
        "The server's GitHub token is missing or no longer valid. An admin can run `/token set`.",
      );
    }
  });

  it("403 after many bad attempts: a lockout to wait out, and later calls wait without asking", async () => {
    const { client, requests } = answering(() =>
      json(
        { message: "Maximum number of login attempts exceeded. Please try again later." },
        { status: 403 },
      ),
    );
    const error = await caught(client.viewer(TOKEN));
    expect(error).toBeInstanceOf(AuthLockoutError);
    expect((error as AuthLockoutError).retryAt.getTime()).toBe(NOW.getTime() + 5 * 60_000);
    expect(await caught(client.viewer(TOKEN))).toBeInstanceOf(AuthLockoutError);
    expect(requests).toHaveLength(1);
  });

  it("502 and 504 with GitHub's timeout body, and the timeout body in a 200: GitHub did not answer in time", async () => {
    for (const status of [200, 502, 504]) {
      const { client, requests } = answering(() => json(TIMEOUT_BODY, { status }));
      const error = await caught(client.blame(TOKEN, { repo: DEMO, path: "big.txt" }));
      expect(error).toBeInstanceOf(UpstreamTimeoutError);
      expect(sentenceOf(error)).toBe("GitHub did not answer in time. Try again in a moment.");
      expect(requests).toHaveLength(1); // GitHub already spent its 10 seconds: no retry
    }
  });

  it("500 with an HTML page: an upstream error, the page kept for the log only", async () => {
    const { client } = answering(
      () =>
        new Response("<!DOCTYPE html><html><body>Unicorn!</body></html>", {
          status: 500,
          headers: { "content-type": "text/html" },
        }),
    );
    const error = await caught(client.viewer(TOKEN));
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).reason).toBe("server_error");
    expect(sentenceOf(error)).not.toContain("Unicorn");
    expect((error as UpstreamError).response).toMatchObject({
      status: 500,
      body: expect.stringContaining("Unicorn"),
    });
  });

  it("a 200 that is not JSON, or is cut: an unreadable answer", async () => {
    for (const body of ["<html>proxy error</html>", '{"data": {"viewer": {"log', "[]", "null", ""]) {
      const { client } = answering(
        () => new Response(body, { status: 200, headers: { "content-type": "application/json" } }),
      );
      const error = await caught(client.viewer(TOKEN));
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as UpstreamError).reason).toBe("unreadable");
    }
  });

  it("an answer that fails its schema: an unreadable answer, never a crash further in", async () => {
    const cases: Array<[string, () => Promise<unknown>, unknown]> = [];
    const make = (data: unknown) => answering(() => json({ data })).client;
    cases.push(["viewer without login", () => make({ viewer: {}, rateLimit: null }).viewer(TOKEN), null]);
    cases.push([
      "blame ranges not a list",
      () =>
        make(blameData({ ...COMMIT, blame: { ranges: "no" }, file: null }).data).blame(TOKEN, {
          repo: DEMO,
          path: "a",
        }),
      null,
    ]);
    cases.push([
      "a tree entry of an unknown type",
      () =>
        make({
          repository: {
            ...REPOSITORY,
            commit: COMMIT,
            object: {
              __typename: "Tree",
              oid: "t",
              entries: [{ name: "x", path: "x", type: "weird", mode: 1, size: 0, object: null }],
            },
          },
        }).contents(TOKEN, { repo: DEMO, path: "" }),
      null,
    ]);
    for (const [name, call] of cases) {
      const error = await caught(call());
      expect(error, name).toBeInstanceOf(UpstreamError);
      expect((error as UpstreamError).reason, name).toBe("unreadable");
    }
  });

  it("partial data with errors on fields we can do without: the answer stands", async () => {
    const range = {
      startingLine: 1,
      endingLine: 1,
      age: 10,
      commit: {
        oid: COMMIT.oid,
        abbreviatedOid: "aaaaaaa",
        messageHeadline: "Initial",
        url: COMMIT.url,
        authoredDate: COMMIT.committedDate,
        committedDate: COMMIT.committedDate,
        author: { name: "Ann", email: "ann@example.com", user: null },
      },
    };
    const { client } = answering(() =>
      json({
        ...blameData({ ...COMMIT, blame: { ranges: [range] }, file: { path: "a.txt", object: BLOB } }),
        errors: [
          {
            type: "FORBIDDEN",
            path: ["repository", "object", "blame", "ranges", 0, "commit", "author", "user"],
            message: "Resource not accessible",
          },
          { type: "SOMETHING_NEW", path: ["repository", "somethingElse"], message: "other" },
        ],
      }),
    );
    const answer = await client.blame(TOKEN, { repo: DEMO, path: "a.txt" });
    expect(answer.ranges).toHaveLength(1);
    expect(answer.ranges[0]!.commit.authorLogin).toBeNull();
    expect(answer.file).toEqual({ kind: "text", text: "x\n", byteSize: 2, isTruncated: false });
  });

  it("errors keep the request and the response for the log, never the token", async () => {
    const { client } = answering(() =>
      json(NOT_FOUND_REPOSITORY, { headers: { "x-github-request-id": "ABC" } }),
    );
    const error = (await caught(client.repositoryInfo(TOKEN, DEMO))) as RepositoryNotFoundError;
    expect(error.request).toEqual({
      operation: "RepositoryInfo",
      method: "POST",
      url: "https://api.example.test/graphql",
      variables: { owner: "demo", name: "widgets" },
    });
    expect(error.response?.status).toBe(200);
    expect(error.response?.headers["x-github-request-id"]).toBe("ABC");
    expect(error.response?.body).toContain("Could not resolve");
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(TOKEN);
  });
});

describe("REST contributors answers that are not a list", () => {
  it("204: the repository has no commits yet", async () => {
    const { client } = answering(() => new Response(null, { status: 204 }));
    const error = await caught(client.contributors(TOKEN, { repo: DEMO, page: 1 }));
    expect(error).toBeInstanceOf(EmptyRepositoryError);
    expect(sentenceOf(error)).toContain("has no commits yet");
  });

  it("403 too large: GitHub will not list them", async () => {
    const { client } = answering(() =>
      json(
        {
          message:
            "The history or contributor list is too large to list contributors for this repository via the API.",
          documentation_url: "https://docs.github.com/rest",
        },
        { status: 403, headers: { "x-ratelimit-remaining": "4999" } },
      ),
    );
    const error = await caught(
      client.contributors(TOKEN, { repo: { owner: "torvalds", name: "linux" }, page: 1 }),
    );
    expect(error).toBeInstanceOf(TooLargeError);
    expect(sentenceOf(error)).toContain("`torvalds/linux`");
  });

  it("404: the repository was not found", async () => {
    const { client } = answering(() => json({ message: "Not Found", status: "404" }, { status: 404 }));
    expect(await caught(client.contributors(TOKEN, { repo: DEMO, page: 1 }))).toBeInstanceOf(
      RepositoryNotFoundError,
    );
  });

  it("401: the token is missing or invalid", async () => {
    const { client } = answering(() => json({ message: "Bad credentials", status: "401" }, { status: 401 }));
    expect(await caught(client.contributors(TOKEN, { repo: DEMO, page: 1 }))).toBeInstanceOf(
      GitHubUnauthorizedError,
    );
  });

  it.each([403, 429])(
    "%i with x-ratelimit-remaining 0: primary limit until x-ratelimit-reset",
    async (status) => {
      const reset = Math.floor(NOW.getTime() / 1000) + 600;
      const { client } = answering(() =>
        json(
          { message: "API rate limit exceeded for user ID 1." },
          {
            status,
            headers: {
              "x-ratelimit-remaining": "0",
              "x-ratelimit-limit": "5000",
              "x-ratelimit-reset": String(reset),
            },
          },
        ),
      );
      const error = await caught(client.contributors(TOKEN, { repo: DEMO, page: 1 }));
      expect(error).toBeInstanceOf(PrimaryRateLimitError);
      expect((error as PrimaryRateLimitError).retryAt).toEqual(new Date(reset * 1000));
      expect(sentenceOf(error)).toContain(`<t:${reset}:R>`);
    },
  );

  it("429 without rate-limit headers: a secondary limit", async () => {
    const { client } = answering(() => json({ message: "Too many requests" }, { status: 429 }));
    expect(await caught(client.contributors(TOKEN, { repo: DEMO, page: 1 }))).toBeInstanceOf(
      SecondaryRateLimitError,
    );
  });

  it("secondary limit with retry-after: try again when it says", async () => {
    const { client } = answering(() =>
      json(
        {
          message:
            "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
        },
        { status: 403, headers: { "retry-after": "120", "x-ratelimit-remaining": "4000" } },
      ),
    );
    const error = await caught(client.contributors(TOKEN, { repo: DEMO, page: 1 }));
    expect(error).toBeInstanceOf(SecondaryRateLimitError);
    expect((error as SecondaryRateLimitError).retryAt).toEqual(new Date(NOW.getTime() + 120_000));
    expect(sentenceOf(error)).toBe(
      `GitHub asked RepoScout to slow down (a secondary rate limit). Try again <t:${NOW.getTime() / 1000 + 120}:R>.`,
    );
  });

  it("secondary limit without retry-after: at least a minute, longer each time in a row", async () => {
    const github = fakeFetch(() =>
      json({ message: "You have exceeded a secondary rate limit." }, { status: 403 }),
    );
    let now = NOW;
    const { client } = clientWith(github.fetch, { now: () => now });
    const first = (await caught(
      client.contributors(TOKEN, { repo: DEMO, page: 1 }),
    )) as SecondaryRateLimitError;
    expect(first).toBeInstanceOf(SecondaryRateLimitError);
    expect(first.retryAt).toEqual(new Date(NOW.getTime() + 60_000));

    // While the limit lasts, nothing is sent.
    expect(await caught(client.viewer(TOKEN))).toBeInstanceOf(SecondaryRateLimitError);
    expect(github.requests).toHaveLength(1);

    now = new Date(first.retryAt.getTime() + 1);
    const second = (await caught(
      client.contributors(TOKEN, { repo: DEMO, page: 1 }),
    )) as SecondaryRateLimitError;
    expect(second.retryAt).toEqual(new Date(now.getTime() + 120_000));
    expect(github.requests).toHaveLength(2);
  });

  it("with holdWhileLimited off, the next call asks GitHub again", async () => {
    const github = fakeFetch((_r, index) =>
      index === 0
        ? json(
            { message: "You have exceeded a secondary rate limit." },
            { status: 403, headers: { "retry-after": "60" } },
          )
        : json([]),
    );
    const { client } = clientWith(github.fetch, { holdWhileLimited: false });
    expect(await caught(client.contributors(TOKEN, { repo: DEMO, page: 1 }))).toBeInstanceOf(
      SecondaryRateLimitError,
    );
    expect((await client.contributors(TOKEN, { repo: DEMO, page: 1 })).contributors).toEqual([]);
    expect(github.requests).toHaveLength(2);
  });

  it("a body that is not a contributors list: an unreadable answer", async () => {
    const { client } = answering(() => json([{ login: "x" }]));
    expect(await caught(client.contributors(TOKEN, { repo: DEMO, page: 1 }))).toMatchObject({
      code: "upstream_error",
      reason: "unreadable",
    });
  });
});
