import { describe, expect, it } from "vitest";
import { createScout } from "../../src/answers/createScout.js";
import { createRecentRepositories } from "../../src/answers/recentRepositories.js";
import { createAnswerCache, newReadTrail, type AnswerCache } from "../../src/cache/answerCache.js";
import type { CacheStore } from "../../src/cache/guardedStore.js";
import type { GitHubClient } from "../../src/github/client.js";
import type { BlameAnswer, RepoRef, RepositoryVisibility } from "../../src/github/types.js";
import { RepositoryNotFoundError } from "../../src/github/errors.js";
import { silentLogger } from "../../src/logger.js";
import { repositoryHeader } from "./githubFixtures.js";
import type { ResolvedToken, TokenResolver } from "../../src/tokens/tokenResolver.js";

// Issue 23: a public pinned read answered wholly from the in-process tier is given again without
// its steps while every record it used is still the one the tier holds. These tests hold it to
// giving exactly what the steps would, and to taking them whenever anything they read changed.

const FP = "1".repeat(32);
const SERVER: ResolvedToken = { token: "server-token", origin: "server", fingerprint: FP };
const ASKER = { guildId: "100", userId: "7" };
const SHORT_TTL_MS = 60_000;

/** A map that counts its reads: a store read is a step the held read must not skip. */
function countingStore(): { store: CacheStore; reads: () => number; entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>();
  let reads = 0;
  return {
    entries,
    reads: () => reads,
    store: {
      get: async (key) => {
        reads += 1;
        return entries.get(key);
      },
      set: async (key, value) => {
        entries.set(key, value);
      },
      delete: async (key) => {
        entries.delete(key);
      },
    },
  };
}

function blameOf(repo: RepoRef, visibility: RepositoryVisibility, oid: string): BlameAnswer {
  const name = `${repo.owner}/${repo.name}`;
  const text = "const a = 1;\nconst b = 2;";
  return {
    repository: repositoryHeader(name, visibility),
    commit: { oid, url: `https://github.com/${name}/commit/${oid}`, committedDate: "2025-01-02T00:00:00Z" },
    path: "src/a.ts",
    file: { kind: "text", text, byteSize: text.length, isTruncated: false },
    ranges: [],
  };
}

/** A GitHub whose branch can move and whose repositories can change visibility; it counts its calls. */
function fakeGitHub() {
  const state = {
    head: "c".repeat(40),
    visibility: { widgets: "PUBLIC", secret: "PRIVATE" } as Record<string, RepositoryVisibility>,
    /** Repositories GitHub now says it has no such one of. */
    gone: new Set<string>(),
  };
  const calls: string[] = [];
  const client = {
    blame: async (_token: string, args: { repo: RepoRef; ref?: string; path: string }) => {
      calls.push(`blame ${args.repo.name}/${args.path}@${args.ref ?? "HEAD"}`);
      if (state.gone.has(args.repo.name)) throw new RepositoryNotFoundError(args.repo);
      const oid = args.ref && /^[0-9a-f]{40}$/.test(args.ref) ? args.ref : state.head;
      return blameOf(args.repo, state.visibility[args.repo.name]!, oid);
    },
    refCommit: async (_token: string, args: { repo: RepoRef; ref?: string }) => {
      calls.push(`ref ${args.repo.name}`);
      const visibility = state.visibility[args.repo.name]!;
      return {
        oid: state.head,
        repository: {
          nameWithOwner: `${args.repo.owner}/${args.repo.name}`,
          isPrivate: visibility !== "PUBLIC",
          visibility,
        },
      };
    },
    repositories: async (_token: string, args: { login: string }) => {
      calls.push(`repositories ${args.login}`);
      const listed = args.login === "mixed" ? ["widgets", "secret"] : ["widgets"];
      return {
        owner: { login: args.login, type: "Organization" },
        totalCount: listed.length,
        repositories: listed.map((name) => ({
          name,
          nameWithOwner: `${args.login}/${name}`,
          url: `https://github.com/${args.login}/${name}`,
          pushedAt: null,
          isPrivate: state.visibility[name] !== "PUBLIC",
          visibility: state.visibility[name]!,
          description: null,
        })),
        pageInfo: { startCursor: null, endCursor: null, hasNextPage: false, hasPreviousPage: false },
      };
    },
    contributors: async (_token: string, args: { repo: RepoRef; page: number }) => {
      calls.push(`contributors ${args.repo.name} ${args.page}`);
      return {
        page: args.page,
        perPage: 30,
        contributors: [{ login: "alice", contributions: 12, url: "https://github.com/alice", type: "User" }],
        lastPage: 1,
        hasNextPage: false,
        hasPreviousPage: false,
      };
    },
    repositoryAccess: async (_token: string, repo: RepoRef) => {
      calls.push(`access ${repo.name}`);
      const visibility = state.visibility[repo.name]!;
      return { nameWithOwner: `${repo.owner}/${repo.name}`, isPrivate: visibility !== "PUBLIC", visibility };
    },
  };
  return { client: client as unknown as GitHubClient, calls, state };
}

/**
 * A Scout over a counting store and the fake GitHub, asking with `resolved`. Its token resolver
 * answers only when awaited, unless `heldToken` (then `resolveHeld` gives it too).
 */
function setUp(hotTierBytes = 1 << 20, resolved: ResolvedToken = SERVER, heldToken = false) {
  let clock = Date.parse("2026-11-29T10:00:00Z");
  const lookups: string[] = [];
  const store = countingStore();
  const cache: AnswerCache = createAnswerCache({
    store: () => store.store,
    logger: silentLogger(),
    shortTtlMs: SHORT_TTL_MS,
    hotTierBytes,
    now: () => clock,
    onLookup: (kind, result) => lookups.push(`${kind} ${result}`),
  });
  const github = fakeGitHub();
  const tokens: TokenResolver = {
    resolve: async () => resolved,
    ...(heldToken ? { resolveHeld: () => resolved } : {}),
    forget: async () => undefined,
  };
  const recent = createRecentRepositories();
  // What each held read's check answered: true is an answer given without its steps.
  const held: boolean[] = [];
  const watched: AnswerCache = Object.assign(Object.create(cache) as AnswerCache, {
    stillHeld: (trail: Parameters<AnswerCache["stillHeld"]>[0]) => {
      const answer = cache.stillHeld(trail);
      held.push(answer);
      return answer;
    },
  });
  const scout = createScout({ github: github.client, cache: watched, tokens, recent });
  return {
    scout,
    cache,
    github,
    store,
    lookups,
    recent,
    held,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

const widgets = { owner: "demo", name: "widgets" };
const secret = { owner: "demo", name: "secret" };

describe("a public read given again while its records are held (issue 23)", () => {
  it("gives the same answer as the steps, counted as the same lookups, reading no store", async () => {
    const { scout, github, store, lookups, held } = setUp();
    const fetched = await scout.blame(ASKER, { repo: widgets, path: "src/a.ts" });
    expect(fetched.freshness.fromCache).toBe(false);
    // The second read takes the steps (all in the tier) and is remembered; its lookups are counted.
    lookups.length = 0;
    const second = await scout.blame(ASKER, { repo: widgets, path: "src/a.ts" });
    const stepsLookups = [...lookups];
    expect(stepsLookups.length).toBeGreaterThan(0);
    const reads = store.reads();
    lookups.length = 0;
    const third = await scout.blame(ASKER, { repo: widgets, path: "src/a.ts" });
    expect(held).toEqual([true]);
    expect(third).toEqual(second);
    expect(third.value).toBe(second.value);
    expect(third.freshness).toEqual({ fetchedAt: fetched.freshness.fetchedAt, fromCache: true });
    expect(lookups).toEqual(stepsLookups);
    expect(store.reads()).toBe(reads);
    expect(github.calls).toEqual(["blame widgets/src/a.ts@HEAD"]);
  });

  it("takes the steps again once the branch's commit expires, and follows the branch where it moved", async () => {
    const { scout, github, advance, held } = setUp();
    await scout.blame(ASKER, { repo: widgets, path: "src/a.ts" });
    await scout.blame(ASKER, { repo: widgets, path: "src/a.ts" });
    await scout.blame(ASKER, { repo: widgets, path: "src/a.ts" });
    expect(held).toEqual([true]);
    github.state.head = "d".repeat(40);
    advance(SHORT_TTL_MS + 1);
    const moved = await scout.blame(ASKER, { repo: widgets, path: "src/a.ts" });
    expect(moved.value.commit.oid).toBe("d".repeat(40));
    expect(held).toEqual([true, false]);
    expect(github.calls).toEqual([
      "blame widgets/src/a.ts@HEAD",
      "ref widgets",
      `blame widgets/src/a.ts@${"d".repeat(40)}`,
    ]);
  });

  it("never holds a private read: each repeat takes the steps, its access rule included", async () => {
    const { scout, lookups, held } = setUp();
    await scout.blame(ASKER, { repo: secret, path: "src/a.ts" });
    const second = await scout.blame(ASKER, { repo: secret, path: "src/a.ts" });
    expect(second.privacy).toBeDefined();
    lookups.length = 0;
    const third = await scout.blame(ASKER, { repo: secret, path: "src/a.ts" });
    expect(third.privacy).toEqual(second.privacy);
    // The access confirmation is read each time (a held read replays only the records' lookups).
    expect(lookups).toContain("access hit");
    expect(held).toEqual([]);
  });

  it("takes the steps when a record it used left the tier, and reads the store as they do", async () => {
    // A small tier: forty other answers push this one out.
    const { scout, store, github, held } = setUp(32 * 1024);
    const first = await scout.blame(ASKER, { repo: widgets, path: "src/a.ts" });
    await scout.blame(ASKER, { repo: widgets, path: "src/a.ts" });
    await scout.blame(ASKER, { repo: widgets, path: "src/a.ts" });
    expect(held).toEqual([true]);
    const reads = store.reads();
    for (let i = 0; i < 40; i++) await scout.blame(ASKER, { repo: widgets, path: `src/other${i}.ts` });
    const readsBefore = store.reads();
    const again = await scout.blame(ASKER, { repo: widgets, path: "src/a.ts" });
    expect(held.at(-1)).toBe(false);
    expect(again.value).toEqual(first.value);
    expect(again.freshness).toEqual({ fetchedAt: first.freshness.fetchedAt, fromCache: true });
    expect(store.reads()).toBeGreaterThan(readsBefore);
    expect(reads).toBeGreaterThan(0);
    // Read back from the store, as the steps do, not fetched again.
    expect(github.calls.filter((call) => call.startsWith("blame widgets/src/a.ts"))).toEqual([
      "blame widgets/src/a.ts@HEAD",
    ]);
  });
});

describe("a list held like a pinned read (issue 23)", () => {
  const page = { first: 10, sort: "pushed" as const };

  it("gives a public list again at once, and never one that names a private repository", async () => {
    const { scout, held } = setUp();
    await scout.repositories(ASKER, { login: "demo", ...page });
    const second = await scout.repositories(ASKER, { login: "demo", ...page });
    expect(scout.heldRepositories!(ASKER, { login: "demo", ...page })).toBeUndefined();
    // The token resolver of these tests answers only when awaited: the held list is given by the
    // awaited read itself.
    const third = await scout.repositories(ASKER, { login: "DEMO", ...page });
    expect(third).toEqual(second);
    expect(held).toEqual([true]);

    await scout.repositories(ASKER, { login: "mixed", ...page });
    const mixed = await scout.repositories(ASKER, { login: "mixed", ...page });
    expect(mixed.privacy).toEqual({ kind: "list", owner: "mixed", privateCount: 1 });
    await scout.repositories(ASKER, { login: "mixed", ...page });
    expect(held).toEqual([true]);
  });
});

describe("a page of contributors held with its repository's access (issue 23)", () => {
  const args = { repo: widgets, page: 1 };

  it("gives a public page again with its access, as the steps do, reading no store", async () => {
    const { scout, github, store, lookups, held, recent } = setUp(1 << 20, SERVER, true);
    expect(scout.heldContributors!(ASKER, args)).toBeUndefined();
    const first = await scout.contributors(ASKER, args);
    expect(first.freshness.fromCache).toBe(false);
    lookups.length = 0;
    const second = await scout.contributors(ASKER, args);
    const stepsLookups = [...lookups];
    expect(stepsLookups).toEqual(expect.arrayContaining(["access hit", "contributors hit"]));
    const reads = store.reads();
    lookups.length = 0;
    // The repository is remembered for autocomplete, as the steps remember it.
    const remembered: string[] = [];
    const remember = recent.remember.bind(recent);
    recent.remember = (fingerprint, name) => {
      remembered.push(name);
      return remember(fingerprint, name);
    };
    const third = scout.heldContributors!(ASKER, { repo: { owner: "Demo", name: "Widgets" }, page: 1 });
    expect(held).toEqual([true]);
    expect(third).toEqual(second);
    expect(third!.value).toBe(second.value);
    expect(lookups).toEqual(stepsLookups);
    expect(store.reads()).toBe(reads);
    expect(await scout.contributors(ASKER, args)).toEqual(second);
    expect([...github.calls].sort()).toEqual(["access widgets", "contributors widgets 1"]);
    expect(remembered).toEqual(["Demo/Widgets", "demo/widgets"]);
  });

  it("never holds a private repository's page: its access is read each time", async () => {
    const { scout, held, lookups } = setUp(1 << 20, SERVER, true);
    await scout.contributors(ASKER, { repo: secret, page: 1 });
    const second = await scout.contributors(ASKER, { repo: secret, page: 1 });
    expect(second.privacy).toBeDefined();
    lookups.length = 0;
    expect(scout.heldContributors!(ASKER, { repo: secret, page: 1 })).toBeUndefined();
    await scout.contributors(ASKER, { repo: secret, page: 1 });
    expect(lookups).toContain("access hit");
    expect(held).toEqual([]);
  });

  it('with the default token, holds nothing past a "not found" noted since: the steps refuse the page', async () => {
    const DEFAULT: ResolvedToken = { token: "default-token", origin: "default", fingerprint: "2".repeat(32) };
    const { scout, github, held } = setUp(1 << 20, DEFAULT, true);
    await scout.contributors(ASKER, args);
    const second = await scout.contributors(ASKER, args);
    expect(scout.heldContributors!(ASKER, args)).toEqual(second);
    expect(held).toEqual([true]);
    // GitHub now has no such repository: another read with the token is told so, and notes it.
    github.state.gone.add("widgets");
    await expect(scout.blame(ASKER, { repo: widgets, path: "src/a.ts" })).rejects.toThrow(
      RepositoryNotFoundError,
    );
    expect(scout.heldContributors!(ASKER, args)).toBeUndefined();
    await expect(scout.contributors(ASKER, args)).rejects.toThrow(RepositoryNotFoundError);
    expect(held).toEqual([true]);
  });
});

describe("stillHeld (issue 23)", () => {
  const request = { kind: "refs", fingerprint: FP, args: { owner: "demo", name: "widgets", ref: "main" } };

  it("holds while the record is the tier's, and not once it is replaced or expired", async () => {
    const { cache, advance } = setUp();
    await cache.put({ ...request, ttl: "short" }, "a".repeat(40));
    const trail = newReadTrail();
    expect((await cache.peek(request, trail))?.value).toBe("a".repeat(40));
    expect(trail.cold).toBe(false);
    expect(cache.stillHeld(trail)).toBe(true);
    await cache.put({ ...request, ttl: "short" }, "b".repeat(40));
    expect(cache.stillHeld(trail)).toBe(false);

    const next = newReadTrail();
    await cache.peek(request, next);
    expect(cache.stillHeld(next)).toBe(true);
    advance(SHORT_TTL_MS);
    expect(cache.stillHeld(next)).toBe(false);
  });

  it("never holds a trail that read the store, missed, or ran without a tier", async () => {
    const { cache } = setUp();
    const missed = newReadTrail();
    expect(await cache.peek(request, missed)).toBeUndefined();
    expect(missed.cold).toBe(true);
    expect(cache.stillHeld(missed)).toBe(false);

    const { cache: untiered } = setUp(0);
    await untiered.put({ ...request, ttl: "short" }, "a".repeat(40));
    const trail = newReadTrail();
    expect((await untiered.peek(request, trail))?.value).toBe("a".repeat(40));
    expect(untiered.stillHeld(trail)).toBe(false);
  });
});
