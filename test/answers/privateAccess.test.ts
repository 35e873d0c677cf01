import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IN_SERVER as IN_SERVER_SITUATION, sentenceOf } from "../sentenceOf.js";
import { createScout } from "../../src/answers/createScout.js";
import { PrivateRepositoryError } from "../../src/answers/privateAccess.js";
import { createRecentRepositories } from "../../src/answers/recentRepositories.js";
import type { Scout } from "../../src/answers/scout.js";
import { createAnswerCache, type AnswerCache } from "../../src/cache/answerCache.js";
import { openStores, type Stores } from "../../src/cache/openStores.js";
import type { GitHubClient } from "../../src/github/client.js";
import { RepositoryNotFoundError } from "../../src/github/errors.js";
import type {
  ContentsAnswer,
  ContributorsPage,
  RepoRef,
  RepositoriesPage,
  RepositoryAccess,
  RepositoryVisibility,
} from "../../src/github/types.js";
import { silentLogger } from "../../src/logger.js";
import { repositoryHeader } from "./githubFixtures.js";
import type { ResolvedToken, TokenResolver } from "../../src/tokens/tokenResolver.js";

const OID = "a".repeat(40);
const SERVER: ResolvedToken = { token: "server-token", origin: "server", fingerprint: "1".repeat(32) };
const DEFAULT: ResolvedToken = { token: "default-token", origin: "default", fingerprint: "2".repeat(32) };
/** In a server (its token), and in a DM (the default token). */
const IN_SERVER = { guildId: "100", userId: "7" };
const IN_DM = { guildId: null, userId: "7" };
const SECRET: RepoRef = { owner: "demo", name: "secret" };
const SHORT_TTL_MS = 60_000;

/** A GitHub that knows one repository per name and counts what it is asked, by operation. */
class FakeGitHub {
  readonly calls: string[] = [];
  /** The commit every branch points to (a push moves it). */
  head = OID;
  visibility: Record<string, RepositoryVisibility> = { "demo/secret": "PRIVATE", "demo/widgets": "PUBLIC" };
  /** Tokens that lost access. */
  readonly revoked = new Set<string>();

  #see(token: string, repo: RepoRef): RepositoryVisibility {
    const name = `${repo.owner}/${repo.name}`;
    const visibility = this.visibility[name];
    if (visibility === undefined || (visibility !== "PUBLIC" && this.revoked.has(token))) {
      throw new RepositoryNotFoundError(repo);
    }
    return visibility;
  }

  readonly client = {
    contents: async (
      token: string,
      args: { repo: RepoRef; ref?: string; path: string },
    ): Promise<ContentsAnswer> => {
      this.calls.push("Contents");
      const visibility = this.#see(token, args.repo);
      const name = `${args.repo.owner}/${args.repo.name}`;
      return {
        kind: "blob",
        repository: repositoryHeader(name, visibility),
        commit: {
          oid: args.ref && /^[0-9a-f]{40}$/.test(args.ref) ? args.ref : this.head,
          url: `https://github.com/${name}/commit/${this.head}`,
          committedDate: "2025-01-01T00:00:00Z",
        },
        path: args.path,
        file: { kind: "text", text: "# The secret\n", byteSize: 13, isTruncated: false },
      };
    },
    refCommit: async (token: string, args: { repo: RepoRef; ref?: string }) => {
      this.calls.push("RefCommit");
      const visibility = this.#see(token, args.repo);
      const repository = {
        nameWithOwner: `${args.repo.owner}/${args.repo.name}`,
        isPrivate: visibility !== "PUBLIC",
        visibility,
      };
      return { repository, oid: this.head };
    },
    repositoryAccess: async (token: string, repo: RepoRef): Promise<RepositoryAccess> => {
      this.calls.push("RepositoryAccess");
      const visibility = this.#see(token, repo);
      return { nameWithOwner: `${repo.owner}/${repo.name}`, isPrivate: visibility !== "PUBLIC", visibility };
    },
    contributors: async (token: string, args: { repo: RepoRef; page: number }): Promise<ContributorsPage> => {
      this.calls.push("contributors");
      this.#see(token, args.repo);
      return {
        page: args.page,
        perPage: 30,
        contributors: [],
        lastPage: 2,
        hasNextPage: args.page < 2,
        hasPreviousPage: args.page > 1,
      };
    },
    repositories: async (
      _token: string,
      args: { login: string; publicOnly?: boolean },
    ): Promise<RepositoriesPage> => {
      this.calls.push(args.publicOnly ? "OwnerRepositories(PUBLIC)" : "OwnerRepositories");
      const all = Object.entries(this.visibility).filter(([name]) => name.startsWith(`${args.login}/`));
      const listed = all.filter(([, visibility]) => !args.publicOnly || visibility === "PUBLIC");
      return {
        owner: { login: args.login, type: "Organization" },
        totalCount: listed.length,
        repositories: listed.map(([name, visibility]) => ({
          name: name.split("/")[1]!,
          nameWithOwner: name,
          url: `https://github.com/${name}`,
          pushedAt: null,
          isPrivate: visibility !== "PUBLIC",
          visibility,
          description: null,
        })),
        pageInfo: { startCursor: null, endCursor: null, hasNextPage: false, hasPreviousPage: false },
        ...(args.publicOnly ? { publicOnly: true } : {}),
      };
    },
  };
}

const tokens: TokenResolver = {
  resolve: async (asker) => (asker.guildId !== null ? SERVER : DEFAULT),
  forget: async () => undefined,
};

// The whole suite twice: the rules hold the same for answers held in the in-process tier.
describe.each([
  ["the store only", 0],
  ["the in-process tier in front", 8 * 1024 * 1024],
])("private code in the Scout (SPEC section 4), %s", (_name, hotTierBytes) => {
  let stores: Stores;
  let clock: number;
  let cache: AnswerCache;
  let github: FakeGitHub;
  /** Reads of the store's "noted missing" (the default token's made-up names). */
  let missingLookups = 0;

  function scout(defaultTokenAllowPrivate = false): Scout {
    return createScout({
      github: github.client as unknown as GitHubClient,
      cache,
      tokens,
      recent: createRecentRepositories(),
      defaultTokenAllowPrivate,
    });
  }

  /** Waits until every answer fetched so far is written: the next read then hits the store. */
  async function settled(): Promise<void> {
    await expect.poll(() => cache.inFlight()).toBe(0);
  }

  beforeEach(async () => {
    stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    clock = Date.parse("2025-03-01T12:00:00.000Z");
    missingLookups = 0;
    cache = createAnswerCache({
      store: stores.cache,
      logger: silentLogger(),
      shortTtlMs: SHORT_TTL_MS,
      now: () => clock,
      hotTierBytes,
      onLookup: (kind) => {
        if (kind === "access-missing") missingLookups += 1;
      },
    });
    github = new FakeGitHub();
  });
  afterEach(async () => {
    await stores.close();
  });

  it("shares a public repository's answer across tokens: a second server or a DM asks GitHub nothing", async () => {
    const widgets = { owner: "demo", name: "widgets" };
    const first = await scout().contents(IN_SERVER, { repo: widgets, path: "README.md" });
    await settled();
    const second = await scout().contents(IN_DM, { repo: widgets, path: "README.md" });
    expect(second.value).toEqual(first.value);
    expect(second.freshness.fromCache).toBe(true);
    expect(second.privacy).toBeUndefined();
    expect(github.calls).toEqual(["Contents"]);
  });

  it("serves the shared copy past the short TTL only once the asker's token saw the repository still public", async () => {
    const widgets = { owner: "demo", name: "widgets" };
    await scout().contents(IN_SERVER, { repo: widgets, path: "README.md" });
    await settled();
    clock += SHORT_TTL_MS + 1_000;
    await scout().contents(IN_DM, { repo: widgets, ref: OID, path: "README.md" });
    expect(github.calls).toEqual(["Contents", "RepositoryAccess"]);
    // Seen public again: for the short TTL, every token is served without a check.
    await settled();
    await scout().contents({ guildId: "200", userId: "8" }, { repo: widgets, ref: OID, path: "README.md" });
    expect(github.calls).toEqual(["Contents", "RepositoryAccess"]);
  });

  it("never serves the shared copy of a repository that turned private: the asker's token reads it anew", async () => {
    const widgets = { owner: "demo", name: "widgets" };
    await scout().contents(IN_SERVER, { repo: widgets, path: "README.md" });
    await settled();
    clock += SHORT_TTL_MS + 1_000;
    github.visibility["demo/widgets"] = "PRIVATE";
    // The default token reads public repositories only: now refused, although a public copy exists.
    await expect(
      scout().contents(IN_DM, { repo: widgets, ref: OID, path: "README.md" }),
    ).rejects.toBeInstanceOf(PrivateRepositoryError);
    expect(github.calls).toEqual(["Contents", "RepositoryAccess", "Contents"]);
  });

  it("stops serving the shared copy of a repository turned private one short TTL after it was last seen public", async () => {
    const widgets = { owner: "demo", name: "widgets" };
    const OTHER: ResolvedToken = { token: "other-token", origin: "server", fingerprint: "3".repeat(32) };
    const IN_OTHER_SERVER = { guildId: "300", userId: "9" };
    const scoutOf = () =>
      createScout({
        github: github.client as unknown as GitHubClient,
        cache,
        tokens: {
          resolve: async (asker) =>
            asker.guildId === IN_OTHER_SERVER.guildId ? OTHER : tokens.resolve(asker),
          forget: async () => undefined,
        },
        recent: createRecentRepositories(),
      });
    await scoutOf().contents(IN_SERVER, { repo: widgets, path: "README.md" });
    // The default token sees it public (its access entry, kept for the short TTL), then it turns private.
    clock += 50_000;
    await scoutOf().contributors(IN_DM, { repo: widgets, page: 1 });
    github.visibility["demo/widgets"] = "PRIVATE";
    await settled();
    // Past the shared check's TTL, the DM is served on its own access entry, seen public 11 s ago.
    clock += 11_000;
    const stillWithin = await scoutOf().contents(IN_DM, { repo: widgets, ref: OID, path: "README.md" });
    expect(stillWithin.privacy).toBeUndefined();
    await settled();
    expect(github.calls.sort()).toEqual(["Contents", "RepositoryAccess", "contributors"]);

    // A short TTL (and more) since anyone saw it public: another token asks GitHub, and is told private.
    clock += 54_000;
    const later = await scoutOf().contents(IN_OTHER_SERVER, { repo: widgets, ref: OID, path: "README.md" });
    expect(later.privacy).toMatchObject({ nameWithOwner: "demo/widgets", visibility: "PRIVATE" });
    expect(later.freshness.fromCache).toBe(false);
  });

  it("never shares a private repository's answer with another token", async () => {
    await scout(true).contents(IN_SERVER, { repo: SECRET, path: "SECRET.md" });
    await settled();
    github.revoked.add(DEFAULT.token);
    await expect(
      scout(true).contents(IN_DM, { repo: SECRET, ref: OID, path: "SECRET.md" }),
    ).rejects.toBeInstanceOf(RepositoryNotFoundError);
    expect(github.calls).toEqual(["Contents", "Contents"]);
  });

  it("re-reads an expired branch alone: it did not move, so the answer held at its commit is served", async () => {
    const widgets = { owner: "demo", name: "widgets" };
    await scout().contents(IN_SERVER, { repo: widgets, path: "README.md" });
    await settled();
    clock += SHORT_TTL_MS + 1_000;
    const again = await scout().contents(IN_SERVER, { repo: widgets, path: "README.md" });
    expect(again.freshness.fromCache).toBe(true);
    expect(github.calls).toEqual(["Contents", "RefCommit"]);
    // Where the branch is was read again: for the short TTL, no more reads.
    await settled();
    await scout().contents(IN_SERVER, { repo: widgets, path: "README.md" });
    expect(github.calls).toEqual(["Contents", "RefCommit"]);
  });

  it("fetches the answer at the branch's new commit when it moved", async () => {
    const widgets = { owner: "demo", name: "widgets" };
    await scout().contents(IN_SERVER, { repo: widgets, path: "README.md" });
    await settled();
    clock += SHORT_TTL_MS + 1_000;
    github.head = "b".repeat(40);
    const moved = await scout().contents(IN_SERVER, { repo: widgets, path: "README.md" });
    expect(moved.value.commit.oid).toBe("b".repeat(40));
    expect(moved.freshness.fromCache).toBe(false);
    expect(github.calls).toEqual(["Contents", "RefCommit", "Contents"]);
  });

  it("fetches a path never read at once by ref, without a separate read of the branch", async () => {
    const widgets = { owner: "demo", name: "widgets" };
    await scout().contents(IN_SERVER, { repo: widgets, path: "README.md" });
    await settled();
    clock += SHORT_TTL_MS + 1_000;
    await scout().contents(IN_SERVER, { repo: widgets, path: "docs" });
    expect(github.calls).toEqual(["Contents", "Contents"]);
  });

  it("says which answers are private, and of which repository", async () => {
    const secret = await scout().contents(IN_SERVER, { repo: SECRET, path: "SECRET.md" });
    expect(secret.privacy).toEqual({
      kind: "repository",
      nameWithOwner: "demo/secret",
      visibility: "PRIVATE",
    });
    github.visibility["demo/handbook"] = "INTERNAL";
    const internal = await scout().contents(IN_SERVER, {
      repo: { owner: "demo", name: "handbook" },
      path: "",
    });
    expect(internal.privacy).toMatchObject({ visibility: "INTERNAL" });
    const open = await scout().contents(IN_SERVER, { repo: { owner: "demo", name: "widgets" }, path: "" });
    expect(open.privacy).toBeUndefined();
  });

  it("refuses a private repository read through the default token with SPEC's sentence, and stores nothing", async () => {
    const refused = scout().contents(IN_DM, { repo: SECRET, path: "SECRET.md" });
    await expect(refused).rejects.toBeInstanceOf(PrivateRepositoryError);
    const error = await refused.catch((thrown: unknown) => thrown);
    // Asked in a DM: no server admin to turn to, so only `/login` is offered.
    expect(sentenceOf(error, { ...IN_SERVER_SITUATION, inServer: false })).toBe(
      "Repository `demo/secret` is private, and the bot's shared token reads public repositories only. Sign in with `/login` to read it with your own GitHub account.",
    );
    expect(sentenceOf(error)).toMatch(/`demo\/secret` is private.*`\/login`.*an admin can `\/token set`/);
    await settled();
    await expect(scout().contents(IN_DM, { repo: SECRET, path: "SECRET.md" })).rejects.toBeInstanceOf(
      PrivateRepositoryError,
    );
    // Nothing was kept: the second refusal asked GitHub again.
    expect(github.calls).toEqual(["Contents", "Contents"]);
    // Public repositories read through it as ever.
    expect(
      (await scout().contents(IN_DM, { repo: { owner: "demo", name: "widgets" }, path: "" })).privacy,
    ).toBe(undefined);
  });

  it("refuses a private answer found in the cache through the default token, asking GitHub nothing", async () => {
    // Another process allowed the default token (GITHUB_TOKEN_ALLOW_PRIVATE) and cached the answer.
    const allowed = await scout(true).contents(IN_DM, { repo: SECRET, path: "SECRET.md" });
    expect(allowed.privacy).toMatchObject({ nameWithOwner: "demo/secret" });
    await settled();
    github.calls.length = 0;
    await expect(scout(false).contents(IN_DM, { repo: SECRET, path: "SECRET.md" })).rejects.toBeInstanceOf(
      PrivateRepositoryError,
    );
    expect(github.calls).toEqual([]);
  });

  it("serves a cached private answer while access was confirmed within the short TTL, then re-confirms it", async () => {
    const pinned = { repo: SECRET, ref: OID, path: "SECRET.md" };
    await scout().contents(IN_SERVER, pinned);
    await settled();
    clock += SHORT_TTL_MS - 1_000;
    const within = await scout().contents(IN_SERVER, pinned);
    expect(within.freshness.fromCache).toBe(true);
    expect(github.calls).toEqual(["Contents"]);

    clock += 2_000;
    const reconfirmed = await scout().contents(IN_SERVER, pinned);
    expect(reconfirmed.freshness.fromCache).toBe(true);
    expect(reconfirmed.privacy).toMatchObject({ nameWithOwner: "demo/secret" });
    expect(github.calls).toEqual(["Contents", "RepositoryAccess"]);
  });

  it("shows 'not found' instead of a cached private answer once the token lost access", async () => {
    const pinned = { repo: SECRET, ref: OID, path: "SECRET.md" };
    await scout().contents(IN_SERVER, pinned);
    await settled();
    github.revoked.add(SERVER.token);
    clock += SHORT_TTL_MS + 1_000;
    await expect(scout().contents(IN_SERVER, pinned)).rejects.toBeInstanceOf(RepositoryNotFoundError);
    expect(github.calls).toEqual(["Contents", "RepositoryAccess"]);
  });

  it("leaves cached public answers alone: no access read past the short TTL", async () => {
    const pinned = { repo: { owner: "demo", name: "widgets" }, ref: OID, path: "README.md" };
    await scout().contents(IN_SERVER, pinned);
    await settled();
    clock += 10 * SHORT_TTL_MS;
    expect((await scout().contents(IN_SERVER, pinned)).freshness.fromCache).toBe(true);
    expect(github.calls).toEqual(["Contents"]);
  });

  it("never reads an answer cached before answers carried visibility (it could only be guessed)", async () => {
    const widgets = { owner: "demo", name: "widgets" };
    const fresh = await github.client.contents(SERVER.token, { repo: widgets, path: "README.md" });
    const { visibility: _dropped, ...header } = fresh.repository;
    // What a version without visibility stored under the same arguments.
    await cache.put(
      {
        kind: "contents",
        fingerprint: SERVER.fingerprint,
        ttl: "pinned",
        args: { owner: "demo", name: "widgets", oid: OID, path: "README.md" },
      },
      { ...fresh, repository: header },
    );
    github.calls.length = 0;
    const answer = await scout().contents(IN_SERVER, { repo: widgets, ref: OID, path: "README.md" });
    expect(answer.freshness.fromCache).toBe(false);
    expect(answer.privacy).toBeUndefined();
    expect(github.calls).toEqual(["Contents"]);
  });

  it("tells /contributors the visibility from one access read alongside, reused across pages", async () => {
    const first = await scout().contributors(IN_SERVER, { repo: SECRET, page: 1 });
    expect(first.privacy).toMatchObject({ kind: "repository", nameWithOwner: "demo/secret" });
    await settled();
    await scout().contributors(IN_SERVER, { repo: SECRET, page: 2 });
    expect(github.calls.sort()).toEqual(["RepositoryAccess", "contributors", "contributors"]);
    await expect(scout().contributors(IN_DM, { repo: SECRET, page: 1 })).rejects.toBeInstanceOf(
      PrivateRepositoryError,
    );
  });

  it("lists public repositories only through the default token, and counts a page's private ones otherwise", async () => {
    const viaDefault = await scout().repositories(IN_DM, { login: "demo", first: 10, sort: "name" });
    expect(viaDefault.value.repositories.map((repository) => repository.name)).toEqual(["widgets"]);
    expect(viaDefault.value.publicOnly).toBe(true);
    expect(viaDefault.privacy).toBeUndefined();
    const viaServer = await scout().repositories(IN_SERVER, { login: "demo", first: 10, sort: "name" });
    expect(viaServer.privacy).toEqual({ kind: "list", owner: "demo", privateCount: 1 });
    const allowed = await scout(true).repositories(IN_DM, { login: "demo", first: 10, sort: "name" });
    expect(allowed.value.publicOnly).toBeUndefined();
    expect(github.calls).toEqual(["OwnerRepositories(PUBLIC)", "OwnerRepositories", "OwnerRepositories"]);
  });

  it("names the token origin in effect without asking GitHub", async () => {
    expect(await scout().tokenOrigin(IN_SERVER)).toBe("server");
    expect(await scout().tokenOrigin(IN_DM)).toBe("default");
    expect(github.calls).toEqual([]);
  });

  it("asks the store whether a repository was noted missing once per window, and sees its own note at once", async () => {
    const asked = scout();
    const widgets = { owner: "demo", name: "widgets" };
    for (let n = 0; n < 3; n++) {
      await asked.contributors(IN_DM, { repo: widgets, page: 1 });
      await settled();
    }
    expect(missingLookups).toBe(1);
    const madeUp = { owner: "demo", name: "made-up" };
    await expect(asked.contents(IN_DM, { repo: madeUp, path: "README.md" })).rejects.toBeInstanceOf(
      RepositoryNotFoundError,
    );
    const callsAfterFirst = github.calls.length;
    // Noted by this process: refused at once, GitHub not asked again.
    await expect(asked.contents(IN_DM, { repo: madeUp, path: "README.md" })).rejects.toBeInstanceOf(
      RepositoryNotFoundError,
    );
    expect(github.calls.length).toBe(callsAfterFirst);
  });
});
