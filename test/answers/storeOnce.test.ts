import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import KeyvSqlite from "@keyv/sqlite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createScout } from "../../src/answers/createScout.js";
import { createRecentRepositories } from "../../src/answers/recentRepositories.js";
import type { Scout } from "../../src/answers/scout.js";
import { createAnswerCache, type AnswerCache } from "../../src/cache/answerCache.js";
import { openStores, type Stores } from "../../src/cache/openStores.js";
import type { GitHubClient } from "../../src/github/client.js";
import { RepositoryNotFoundError } from "../../src/github/errors.js";
import type { BlameAnswer, RepoRef, RepositoryVisibility } from "../../src/github/types.js";
import { silentLogger } from "../../src/logger.js";
import { repositoryHeader } from "./githubFixtures.js";
import type { ResolvedToken, TokenResolver } from "../../src/tokens/tokenResolver.js";

const HEAD = "c".repeat(40);
const SERVER: ResolvedToken = { token: "server-token", origin: "server", fingerprint: "1".repeat(32) };
const OTHER: ResolvedToken = { token: "other-token", origin: "server", fingerprint: "3".repeat(32) };
const IN_SERVER = { guildId: "100", userId: "7" };
const IN_OTHER_SERVER = { guildId: "300", userId: "9" };
const LINES = 300;
/** A line of the file no other stored entry carries: a row holding it holds a copy of the answer. */
const MARK = "the-one-copy-marker";

/** GitHub's blame of a 300-line file whose 100 ranges name 10 commits, as the client shapes it. */
function blameOf(repo: RepoRef, visibility: RepositoryVisibility, path: string): BlameAnswer {
  const name = `${repo.owner}/${repo.name}`;
  const text = Array.from({ length: LINES }, (_, i) => `${MARK} line ${i + 1}`).join("\n");
  return {
    repository: repositoryHeader(name, visibility),
    commit: {
      oid: HEAD,
      url: `https://github.com/${name}/commit/${HEAD}`,
      committedDate: "2025-01-02T00:00:00Z",
    },
    path,
    file: { kind: "text", text, byteSize: text.length, isTruncated: false },
    // A fresh object per range, as GitHub's JSON parses: the store is what shares them.
    ranges: Array.from({ length: 100 }, (_, i) => {
      const oid = String(i % 10).repeat(40);
      return {
        startingLine: i * 3 + 1,
        endingLine: i * 3 + 3,
        age: 1 + (i % 10),
        commit: {
          oid,
          abbreviatedOid: oid.slice(0, 7),
          messageHeadline: `Commit ${i % 10}`,
          url: `https://github.com/${name}/commit/${oid}`,
          authoredDate: "2025-01-01T00:00:00Z",
          committedDate: "2025-01-01T00:00:00Z",
          authorName: `Author ${i % 10}`,
          authorLogin: null,
        },
      };
    }),
  };
}

/** A GitHub of two repositories that counts its blame calls. */
function fakeGitHub(): { client: GitHubClient; calls: string[] } {
  const calls: string[] = [];
  const visibility: Record<string, RepositoryVisibility> = {
    "demo/widgets": "PUBLIC",
    "demo/secret": "PRIVATE",
  };
  const client = {
    blame: async (token: string, args: { repo: RepoRef; ref?: string; path: string }) => {
      calls.push(`Blame ${token}`);
      const seen = visibility[`${args.repo.owner}/${args.repo.name}`];
      if (seen === undefined || (seen !== "PUBLIC" && token !== SERVER.token)) {
        throw new RepositoryNotFoundError(args.repo);
      }
      return blameOf(args.repo, seen, args.path);
    },
    repositoryAccess: async (_token: string, repo: RepoRef) => ({
      nameWithOwner: `${repo.owner}/${repo.name}`,
      isPrivate: visibility[`${repo.owner}/${repo.name}`] !== "PUBLIC",
      visibility: visibility[`${repo.owner}/${repo.name}`],
    }),
  };
  return { client: client as unknown as GitHubClient, calls };
}

const tokens: TokenResolver = {
  resolve: async (asker) => (asker.guildId === IN_OTHER_SERVER.guildId ? OTHER : SERVER),
  forget: async () => undefined,
};

// One SQLite file for the file: each test asks for a path of its own.
describe("an answer stored once, compactly (issue 23)", () => {
  let dataDir: string;
  let stores: Stores;
  let sqlite: KeyvSqlite;
  let github: ReturnType<typeof fakeGitHub>;
  let cache: AnswerCache;

  const scoutOver = (answers: AnswerCache): Scout =>
    createScout({ github: github.client, cache: answers, tokens, recent: createRecentRepositories() });
  /** A cache as a restarted process has: nothing in memory, everything read from SQLite. */
  const freshCache = (): AnswerCache =>
    createAnswerCache({
      store: stores.cache,
      logger: silentLogger(),
      shortTtlMs: 60_000,
      hotTierBytes: 1 << 20,
    });
  /** The stored rows that carry the file's text, and all their bytes. */
  async function copiesOf(path: string): Promise<{ copies: number; bytes: number }> {
    const rows = (await sqlite.query("SELECT key, value FROM keyv")) as Array<{ key: string; value: string }>;
    const holding = rows.filter((row) => row.value.includes(MARK) && row.key.includes(JSON.stringify(path)));
    const related = rows.filter((row) => row.key.includes(JSON.stringify(path)));
    return {
      copies: holding.length,
      bytes: related.reduce((sum, row) => sum + row.key.length + row.value.length, 0),
    };
  }
  async function settled(): Promise<void> {
    await expect.poll(() => cache.inFlight()).toBe(0);
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "reposcout-store-once-"));
    stores = await openStores({ dataDir, logger: silentLogger(), sweepIntervalMs: 0 });
    sqlite = new KeyvSqlite({ uri: `sqlite://${join(dataDir, "cache.sqlite")}` });
  });
  afterAll(async () => {
    await sqlite.disconnect();
    await stores.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    github = fakeGitHub();
    cache = freshCache();
  });

  it("keeps a public blame asked by branch once, and every token and every way of asking reads it", async () => {
    const widgets = { owner: "demo", name: "widgets" };
    const first = await scoutOver(cache).blame(IN_SERVER, { repo: widgets, path: "src/public.ts" });
    await settled();
    // One row carries the text; the by-branch entry and the token's own entry only name it.
    const stored = await copiesOf("src/public.ts");
    expect(stored.copies).toBe(1);
    // The commits once, not in each of the 100 ranges: well under the plain JSON of one copy.
    expect(stored.bytes).toBeLessThan(JSON.stringify(first.value).length / 2);

    const restarted = scoutOver(freshCache());
    const byBranch = await restarted.blame(IN_SERVER, { repo: widgets, path: "src/public.ts" });
    const byCommit = await restarted.blame(IN_SERVER, { repo: widgets, ref: HEAD, path: "src/public.ts" });
    const otherToken = await restarted.blame(IN_OTHER_SERVER, {
      repo: widgets,
      ref: HEAD,
      path: "src/public.ts",
    });
    for (const answer of [byBranch, byCommit, otherToken]) {
      expect(answer.value).toEqual(first.value);
      // The age of the one copy: written as GitHub answered, a moment before the first reply.
      expect(answer.freshness.fromCache).toBe(true);
      expect(Date.parse(answer.freshness.fetchedAt)).toBeLessThanOrEqual(
        Date.parse(first.freshness.fetchedAt),
      );
    }
    expect(github.calls).toEqual([`Blame ${SERVER.token}`]);
  });

  it("keeps a private blame once, in its token's scope only: another server's token never reads it", async () => {
    const secret = { owner: "demo", name: "secret" };
    const first = await scoutOver(cache).blame(IN_SERVER, { repo: secret, path: "src/private.ts" });
    await settled();
    expect((await copiesOf("src/private.ts")).copies).toBe(1);

    const restarted = scoutOver(freshCache());
    const again = await restarted.blame(IN_SERVER, { repo: secret, path: "src/private.ts" });
    expect(again.value).toEqual(first.value);
    expect(again.freshness.fromCache).toBe(true);
    await expect(
      restarted.blame(IN_OTHER_SERVER, { repo: secret, ref: HEAD, path: "src/private.ts" }),
    ).rejects.toThrow();
    expect(github.calls).toEqual([`Blame ${SERVER.token}`, `Blame ${OTHER.token}`]);
  });
});
