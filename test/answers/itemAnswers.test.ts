import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createScout } from "../../src/answers/createScout.js";
import { PrivateRepositoryError } from "../../src/answers/privateAccess.js";
import { createRecentRepositories } from "../../src/answers/recentRepositories.js";
import type { Scout } from "../../src/answers/scout.js";
import { createAnswerCache, type AnswerCache } from "../../src/cache/answerCache.js";
import { openStores, type Stores } from "../../src/cache/openStores.js";
import type { GitHubClient } from "../../src/github/client.js";
import type { CommitAnswer, IssueAnswer, ItemState } from "../../src/github/issueTypes.js";
import type { RepoRef } from "../../src/github/types.js";
import { silentLogger } from "../../src/logger.js";
import type { TokenSpend } from "../../src/github/tokenSpend.js";
import { DefaultShareUsedUpError, type DefaultTokenShare } from "../../src/tokens/defaultTokenShare.js";
import type { ResolvedToken, TokenResolver } from "../../src/tokens/tokenResolver.js";

const SHORT_TTL_MS = 60_000;
const SERVER: ResolvedToken = { token: "server-token", origin: "server", fingerprint: "1".repeat(32) };
const DEFAULT: ResolvedToken = { token: "default-token", origin: "default", fingerprint: "2".repeat(32) };
const IN_SERVER = { guildId: "100", userId: "7" };
const IN_DM = { guildId: null, userId: "7" };
const WIDGETS: RepoRef = { owner: "demo", name: "widgets" };
const SECRET: RepoRef = { owner: "demo", name: "secret" };

function header(repo: RepoRef) {
  const isPrivate = repo.name === "secret";
  return {
    nameWithOwner: `${repo.owner}/${repo.name}`,
    url: `https://github.com/${repo.owner}/${repo.name}`,
    isPrivate,
    visibility: isPrivate ? ("PRIVATE" as const) : ("PUBLIC" as const),
    defaultBranch: "main",
  };
}

/** A GitHub whose issues' states and whose branch tip the tests change; it counts what it is asked. */
class FakeGitHub {
  readonly calls: string[] = [];
  states: Record<number, ItemState> = { 1: "open", 3: "merged" };
  tip = "a".repeat(40);
  readonly client = {
    issueOrPullRequest: async (
      token: string | { token: string; onSpend: (spend: TokenSpend) => void },
      args: { repo: RepoRef; number: number },
    ): Promise<IssueAnswer> => {
      this.calls.push(`issue ${args.number}`);
      if (typeof token !== "string") token.onSpend({ resource: "graphql", points: 1 });
      return {
        kind: args.number === 3 ? "pullRequest" : "issue",
        repository: header(args.repo),
        number: args.number,
        title: `item ${args.number}`,
        url: `https://github.com/demo/widgets/issues/${args.number}`,
        state: this.states[args.number] ?? "open",
        author: "alice",
        createdAt: "2025-01-01T00:00:00Z",
        updatedAt: "2025-01-01T00:00:00Z",
        closedAt: null,
        labels: [],
        labelCount: 0,
        assignees: [],
        assigneeCount: 0,
        comments: 0,
        body: "",
        linked: [],
        linkedCount: 0,
      };
    },
    commit: async (_token: string, args: { repo: RepoRef; ref?: string }): Promise<CommitAnswer> => {
      this.calls.push(`commit ${args.ref ?? "HEAD"}`);
      const oid = args.ref !== undefined && /^[0-9a-f]{40}$/.test(args.ref) ? args.ref : this.tip;
      return {
        repository: header(args.repo),
        oid,
        abbreviatedOid: oid.slice(0, 7),
        url: `https://github.com/demo/widgets/commit/${oid}`,
        headline: "a change",
        body: "",
        authoredDate: "2025-01-01T00:00:00Z",
        committedDate: "2025-01-01T00:00:00Z",
        author: { name: "Alice", login: "alice" },
        coAuthors: [],
        additions: 1,
        deletions: 0,
        changedFiles: 1,
        checks: null,
        pullRequests: [],
        pullRequestCount: 0,
        isMerge: false,
        files: [],
      };
    },
  };
}

const tokens: TokenResolver = {
  resolve: async (asker) => (asker.guildId !== null ? SERVER : DEFAULT),
  forget: () => undefined,
};

describe("how long issue and commit answers live (SPEC sections 2 to 4)", () => {
  let stores: Stores;
  let clock: number;
  let cache: AnswerCache;
  let github: FakeGitHub;
  let scout: Scout;

  async function settled(): Promise<void> {
    await expect.poll(() => cache.inFlight()).toBe(0);
  }

  beforeEach(async () => {
    stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    clock = Date.parse("2025-03-01T12:00:00.000Z");
    cache = createAnswerCache({
      store: stores.cache,
      logger: silentLogger(),
      shortTtlMs: SHORT_TTL_MS,
      now: () => clock,
    });
    github = new FakeGitHub();
    scout = createScout({
      github: github.client as unknown as GitHubClient,
      cache,
      tokens,
      recent: createRecentRepositories(),
    });
  });
  afterEach(async () => {
    await stores.close();
  });

  it("keeps an open issue briefly: its new state shows once the short lifetime is over", async () => {
    expect((await scout.issue(IN_SERVER, { repo: WIDGETS, number: 1 })).value.state).toBe("open");
    await settled();
    github.states[1] = "completed";
    const again = await scout.issue(IN_SERVER, { repo: WIDGETS, number: 1 });
    expect(again.freshness.fromCache).toBe(true);
    clock += SHORT_TTL_MS + 1;
    expect((await scout.issue(IN_SERVER, { repo: WIDGETS, number: 1 })).value.state).toBe("completed");
    expect(github.calls).toEqual(["issue 1", "issue 1"]);
  });

  it("keeps a merged pull request long: a day later it is not asked again", async () => {
    await scout.issue(IN_SERVER, { repo: WIDGETS, number: 3 });
    await settled();
    clock += 24 * 3_600_000;
    const later = await scout.issue(IN_SERVER, { repo: WIDGETS, number: 3 });
    expect(later.freshness.fromCache).toBe(true);
    expect(later.value.state).toBe("merged");
    expect(github.calls).toEqual(["issue 3"]);
  });

  it("keeps a commit by id long, and a branch's commit briefly but its answer under the id", async () => {
    const first = await scout.commit(IN_SERVER, { repo: WIDGETS, ref: "main" });
    await settled();
    // Asked by the id the branch gave: already held.
    expect((await scout.commit(IN_SERVER, { repo: WIDGETS, ref: first.value.oid })).freshness.fromCache).toBe(
      true,
    );
    clock += 24 * 3_600_000;
    expect((await scout.commit(IN_SERVER, { repo: WIDGETS, ref: first.value.oid })).freshness.fromCache).toBe(
      true,
    );
    github.tip = "b".repeat(40);
    expect((await scout.commit(IN_SERVER, { repo: WIDGETS, ref: "main" })).value.oid).toBe("b".repeat(40));
    expect(github.calls).toEqual(["commit main", "commit main"]);
  });

  it("spends the default token's fair share, and past it asks GitHub nothing", async () => {
    const charged: number[] = [];
    let usedUp = false;
    const share: DefaultTokenShare = {
      check: async () => {
        if (usedUp) throw new DefaultShareUsedUpError("server", new Date(clock + 3_600_000), 0.2);
      },
      charge: async (_asker, spends) => {
        charged.push(spends.reduce((sum, spend) => sum + spend.points, 0));
      },
    };
    const metered = createScout({
      github: github.client as unknown as GitHubClient,
      cache,
      tokens,
      recent: createRecentRepositories(),
      share,
    });
    await metered.issue(IN_DM, { repo: WIDGETS, number: 1 });
    expect(charged).toEqual([1]);
    usedUp = true;
    await expect(metered.issue(IN_DM, { repo: WIDGETS, number: 2 })).rejects.toBeInstanceOf(
      DefaultShareUsedUpError,
    );
    expect(github.calls).toEqual(["issue 1"]);
  });

  it("refuses a private repository's issue through the default token and stores nothing of it", async () => {
    await expect(scout.issue(IN_DM, { repo: SECRET, number: 1 })).rejects.toBeInstanceOf(
      PrivateRepositoryError,
    );
    await expect(scout.issue(IN_DM, { repo: SECRET, number: 1 })).rejects.toBeInstanceOf(
      PrivateRepositoryError,
    );
    expect(github.calls).toEqual(["issue 1", "issue 1"]);
    const served = await scout.issue(IN_SERVER, { repo: SECRET, number: 1 });
    expect(served.privacy).toBeDefined();
  });
});
