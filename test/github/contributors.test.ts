import { describe, expect, it } from "vitest";
import { createMemoryConditionalStore, type ConditionalStore } from "../../src/github/conditionalStore.js";
import { DEMO, FINGERPRINT, TOKEN, clientWith, fakeFetch, json } from "./fakeGitHub.js";

const ACCOUNT = {
  login: "octocat",
  id: 1,
  avatar_url: "https://avatars.githubusercontent.com/u/1",
  html_url: "https://github.com/octocat",
  type: "User",
  site_admin: false,
  contributions: 42,
};
const BOT = {
  ...ACCOUNT,
  login: "dependabot[bot]",
  html_url: "https://github.com/apps/dependabot",
  type: "Bot",
  contributions: 7,
};
const ANONYMOUS = { email: "ghost@example.com", name: "Ghost", type: "Anonymous", contributions: 3 };

const link = (pages: Record<string, number>) =>
  Object.entries(pages)
    .map(
      ([rel, page]) =>
        `<https://api.github.com/repositories/99/contributors?page=${page}&per_page=30&anon=1>; rel="${rel}"`,
    )
    .join(", ");

describe("contributors", () => {
  it("maps accounts, bots and anonymous contributors, and reads the pages from the Link header", async () => {
    const github = fakeFetch(() =>
      json([ACCOUNT, BOT, ANONYMOUS], { headers: { link: link({ prev: 1, next: 3, last: 5, first: 1 }) } }),
    );
    const { client } = clientWith(github.fetch);
    const page = await client.contributors(TOKEN, { repo: DEMO, page: 2 });
    expect(page).toEqual({
      page: 2,
      perPage: 30,
      contributors: [
        {
          kind: "account",
          login: "octocat",
          htmlUrl: "https://github.com/octocat",
          type: "User",
          contributions: 42,
        },
        {
          kind: "account",
          login: "dependabot[bot]",
          htmlUrl: "https://github.com/apps/dependabot",
          type: "Bot",
          contributions: 7,
        },
        { kind: "anonymous", name: "Ghost", email: "ghost@example.com", contributions: 3 },
      ],
      lastPage: 5,
      hasNextPage: true,
      hasPreviousPage: true,
    });
  });

  it("without a Link header everything is on one page", async () => {
    const github = fakeFetch(() => json([ACCOUNT]));
    const { client } = clientWith(github.fetch);
    expect(await client.contributors(TOKEN, { repo: DEMO, page: 1 })).toMatchObject({
      lastPage: 1,
      hasNextPage: false,
      hasPreviousPage: false,
    });
  });

  it("on the last page (prev and first only) the last page is the current one", async () => {
    const github = fakeFetch(() => json([ACCOUNT], { headers: { link: link({ prev: 4, first: 1 }) } }));
    const { client } = clientWith(github.fetch);
    expect(await client.contributors(TOKEN, { repo: DEMO, page: 5 })).toMatchObject({
      lastPage: 5,
      hasNextPage: false,
      hasPreviousPage: true,
    });
  });

  it("refuses a page below 1 or a page size over 100 without asking", async () => {
    const github = fakeFetch(() => json([]));
    const { client } = clientWith(github.fetch);
    await expect(client.contributors(TOKEN, { repo: DEMO, page: 0 })).rejects.toThrow(RangeError);
    await expect(client.contributors(TOKEN, { repo: DEMO, page: 1, perPage: 101 })).rejects.toThrow(
      RangeError,
    );
    expect(github.requests).toHaveLength(0);
  });

  it("sends the stored ETag back, and a 304 gives the stored list and links", async () => {
    const github = fakeFetch((_request, index) =>
      index === 0
        ? json([ACCOUNT, ANONYMOUS], { headers: { etag: 'W/"abc"', link: link({ next: 2, last: 3 }) } })
        : new Response(null, { status: 304, headers: { etag: 'W/"abc"', "x-ratelimit-remaining": "4999" } }),
    );
    const { client } = clientWith(github.fetch);
    const first = await client.contributors(TOKEN, { repo: DEMO, page: 1 });
    const second = await client.contributors(TOKEN, { repo: DEMO, page: 1 });

    expect(github.requests[0]!.headers.get("if-none-match")).toBeNull();
    expect(github.requests[1]!.headers.get("if-none-match")).toBe('W/"abc"');
    expect(second).toEqual(first);
    expect(second).toMatchObject({ lastPage: 3, hasNextPage: true });
  });

  it("keys stored ETags by the token's fingerprint, never the token, so tokens do not share them", async () => {
    const keys: string[] = [];
    const memory = createMemoryConditionalStore();
    const store: ConditionalStore = {
      get: (key) => {
        keys.push(key);
        return memory.get(key);
      },
      set: (key, value) => {
        keys.push(key);
        return memory.set(key, value);
      },
    };
    const github = fakeFetch(() => json([ACCOUNT], { headers: { etag: '"e1"' } }));
    const { client } = clientWith(github.fetch, { conditionalStore: store });
    await client.contributors(TOKEN, { repo: DEMO, page: 1 });
    await client.contributors("ghp_othertoken_0123456789", { repo: DEMO, page: 1 });

    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).not.toContain(TOKEN);
    expect(keys[0]).toContain(FINGERPRINT);
    // The other token found nothing stored for it: its request was not conditional.
    expect(github.requests[1]!.headers.get("if-none-match")).toBeNull();
  });

  it("ignores a stored entry whose body no longer parses, rather than serving it on every 304", async () => {
    const memory = createMemoryConditionalStore();
    const github = fakeFetch(() => json([ACCOUNT], { headers: { etag: '"fresh"' } }));
    const { client } = clientWith(github.fetch, { conditionalStore: memory });
    const url = "https://api.example.test/repos/demo/widgets/contributors?page=1&per_page=30&anon=1";
    await memory.set(`contributors ${FINGERPRINT} ${url}`, { etag: '"old"', body: "garbage", link: null });

    expect((await client.contributors(TOKEN, { repo: DEMO, page: 1 })).contributors).toHaveLength(1);
    expect(github.requests[0]!.headers.get("if-none-match")).toBeNull();
  });

  it("an empty page past the end has no known last page", async () => {
    const github = fakeFetch(() => json([]));
    const { client } = clientWith(github.fetch);
    expect(await client.contributors(TOKEN, { repo: DEMO, page: 4 })).toMatchObject({
      contributors: [],
      lastPage: null,
      hasNextPage: false,
      hasPreviousPage: true,
    });
  });

  it("a failing store only costs the saving", async () => {
    const broken: ConditionalStore = {
      get: () => Promise.reject(new Error("redis down")),
      set: () => Promise.reject(new Error("redis down")),
    };
    const github = fakeFetch(() => json([ACCOUNT], { headers: { etag: '"e1"' } }));
    const { client } = clientWith(github.fetch, { conditionalStore: broken });
    expect((await client.contributors(TOKEN, { repo: DEMO, page: 1 })).contributors).toHaveLength(1);
  });

  it("the memory store keeps the most recently used entries", async () => {
    const store = createMemoryConditionalStore({ maxEntries: 2 });
    const entry = (etag: string) => ({ etag, body: [], link: null });
    await store.set("a", entry("1"));
    await store.set("b", entry("2"));
    await store.get("a");
    await store.set("c", entry("3"));
    expect(await store.get("b")).toBeUndefined();
    expect(await store.get("a")).toEqual(entry("1"));
    expect(await store.get("c")).toEqual(entry("3"));
  });
});
