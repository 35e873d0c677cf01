import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BotMetrics } from "./metrics/botMetrics.js";
import { projectRoot } from "./projectRoot.js";
import { createButtonStateStore } from "./bot/buttonState.js";
import type { Services, TokenAdminService } from "./bot/services.js";
import { createLatestOnly } from "./answers/latestOnly.js";
import { createRenderedAnswers } from "./bot/renderedAnswers.js";
import { createRecentRepositories, createSharedRecentRepositories } from "./answers/recentRepositories.js";
import { createScout } from "./answers/createScout.js";
import { createAnswerCache } from "./cache/answerCache.js";
import { storeHolds } from "./github/sharedHolds.js";
import { createEtagStore } from "./cache/etagStore.js";
import { openStores, type Stores } from "./cache/openStores.js";
import type { Config } from "./config.js";
import {
  createGitHubClient,
  GitHubUnauthorizedError,
  type GitHubClient,
  type GitHubClientOptions,
} from "./github/index.js";
import { userAgentFor } from "./github/client.js";
import { createGitHubOAuth, renewerFor } from "./signin/githubOAuth.js";
import { createSignInService } from "./signin/signInService.js";
import { UserFacingError } from "./errors.js";
import type { Logger } from "./logger.js";
import {
  TOKEN_CHECK_WINDOW_MS,
  TOKEN_CHECKS_PER_WINDOW,
  TokenChecksExhaustedError,
  createSharedAttemptLimit,
  createStoredAttemptLimit,
} from "./tokens/attemptLimit.js";
import { createDefaultTokenShare } from "./tokens/defaultTokenShare.js";
import { loadFingerprintKey, memoizedFingerprint } from "./tokens/fingerprint.js";
import { createGuildSettings } from "./tokens/guildSettings.js";
import { createMemoryShareCounters, createSharedShareCounters } from "./tokens/shareCounters.js";
import { createTokenResolver } from "./tokens/tokenResolver.js";
import { createTokenVault, VaultKeyMissingError, type TokenVault } from "./tokens/tokenVault.js";
import { createTokenVersions } from "./tokens/tokenVersions.js";
import { createUserTokens } from "./tokens/userTokens.js";
import { createUserTokenVault } from "./tokens/userTokenVault.js";

/** `/token set` with a token GitHub does not accept: nothing is stored. */
export class TokenRejectedError extends UserFacingError {
  readonly code = "token_rejected";
}

/** RepoScout's version, from package.json, for the GitHub User-Agent. */
export const VERSION: string = (
  JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")) as { version: string }
).version;

/**
 * The in-process tier's share of the cache's bound: an eighth of `CACHE_MAX_MB`, at most 64 MB (the
 * repeats worth keeping in memory are few; the store keeps the rest).
 */
export function hotTierBytes(cacheMaxMb: number): number {
  return Math.min(64, cacheMaxMb / 8) * 1024 * 1024;
}

const countCall =
  (metrics: BotMetrics) =>
  (operation: string, status: string): void =>
    metrics.githubCalls.inc({ operation, status });
const countLookup =
  (metrics: BotMetrics) =>
  (kind: string, result: "hit" | "miss"): void =>
    metrics.cacheLookups.inc({ kind, result });

export interface RunningServices {
  services: Services;
  github: GitHubClient;
  vault: TokenVault;
  stores: Stores;
  /** The keyed fingerprint of a token (never the token), as cache keys and budgets use it. */
  fingerprint(token: string): string;
  /** The default token's budget left, by resource, as GitHub last said (`/metrics`). */
  defaultBudget(): Array<{ resource: string; remaining: number; limit: number }>;
  /** Closes the stores. */
  close(): Promise<void>;
}

/**
 * Wires configuration into the services every command receives: the stores (memory, SQLite or
 * Redis), the GitHub client, the token vault and resolution, the cache, settings and button state.
 */
export async function createServices(
  config: Config,
  logger: Logger,
  options: {
    memoryStores?: boolean;
    now?: () => Date;
    /** The answer cache's clock (epoch ms); tests move it to expire entries without waiting. */
    cacheNow?: () => number;
    storePrefix?: string;
    /** Overrides of the GitHub client's options (tests: a fetch, a shorter deadline...). */
    client?: Partial<
      Pick<GitHubClientOptions, "fetch" | "timeoutMs" | "holdWhileLimited" | "sleep" | "random">
    >;
    /**
     * Where GitHub's sign-in endpoints are, when not on `config.github.webUrl`: the sandbox keeps
     * its links on github.com while its stand-in serves the sign-in on its own address.
     */
    signInWebUrl?: string;
    /** Where cache lookups and GitHub calls are counted (`GET /metrics`). */
    metrics?: BotMetrics;
  } = {},
): Promise<RunningServices> {
  const stores = await openStores({
    dataDir: config.dataDir,
    redisUrl: config.redisUrl,
    logger,
    cacheMaxBytes: config.cache.maxMb * 1024 * 1024,
    ...(options.memoryStores ? { memory: true } : {}),
    ...(options.storePrefix ? { prefix: options.storePrefix } : {}),
  });
  const encryptionKey = config.tokens.encryptionKey;
  const fingerprintKey = await loadFingerprintKey({ encryptionKey, dataDir: config.dataDir });
  // One memo of fingerprints for all who ask (the token resolver, people's sign-ins, the client).
  const fingerprint = memoizedFingerprint(fingerprintKey);
  const clock = options.now;
  const nowMs = clock ? () => clock().getTime() : Date.now;
  const { clientId, clientSecret } = config.github.oauth;
  const oauth = clientId
    ? createGitHubOAuth({
        webUrl: options.signInWebUrl ?? config.github.webUrl,
        apiUrl: config.github.apiUrl,
        clientId,
        clientSecret,
        userAgent: userAgentFor(VERSION),
        now: nowMs,
        ...(options.client?.fetch ? { fetch: options.client.fetch } : {}),
      })
    : undefined;
  // Processes sharing Redis learn of a token set, cleared or signed out elsewhere before its next
  // use; alone, this process is the only one that changes them.
  const versions = stores.coordination.shared
    ? createTokenVersions(stores.durable("token-versions"))
    : undefined;
  const userTokens = createUserTokens({
    vault: createUserTokenVault({
      store: stores.durable("user-tokens"),
      key: encryptionKey,
      previousKey: config.tokens.previousEncryptionKey,
      // Alone (no Redis), this process keeps who has signed in and reads no store for the others.
      soleWriter: !stores.coordination.shared,
      logger,
      now: nowMs,
    }),
    // Without the client secret too: GitHub renews a device-flow token with the client id alone.
    renew: oauth ? renewerFor(oauth) : undefined,
    fingerprint,
    versions,
    logger,
    now: nowMs,
  });
  const github = createGitHubClient({
    graphqlUrl: config.github.graphqlUrl,
    restUrl: config.github.apiUrl,
    version: VERSION,
    logger,
    fingerprint,
    conditionalStore: createEtagStore(stores.cache("etags")),
    // A person's own token that GitHub refuses ends their sign-in, and they read so.
    onUnauthorized: (refused) => userTokens.refused(refused),
    ...(options.metrics ? { onCall: countCall(options.metrics) } : {}),
    // Several processes on one Redis: a secondary limit or a lockout one meets holds them all.
    ...(stores.coordination.shared ? { holds: storeHolds(stores.cache("rate-holds")) } : {}),
    ...options.client,
  });
  const vault = createTokenVault({
    store: stores.durable("vault"),
    key: encryptionKey,
    previousKey: config.tokens.previousEncryptionKey,
    logger,
  });
  const tokens = createTokenResolver({
    vault,
    userTokens,
    defaultToken: config.github.defaultToken,
    fingerprintKey,
    fingerprint,
    versions,
    logger,
  });
  const cache = createAnswerCache({
    store: stores.cache,
    logger,
    shortTtlMs: config.cache.shortTtlSeconds * 1000,
    ...(options.cacheNow ? { now: options.cacheNow } : {}),
    coordination: stores.coordination,
    hotTierBytes: hotTierBytes(config.cache.maxMb),
    ...(options.metrics ? { onLookup: countLookup(options.metrics) } : {}),
  });
  // Shared by every process on one Redis (a repository read through one is suggested by all).
  const recent = stores.coordination.shared
    ? createSharedRecentRepositories(stores.cache("recents"))
    : createRecentRepositories();
  // Fair use of the default token: its budget, as GitHub last reported it, is shared out.
  const defaultFingerprint = config.github.defaultToken ? fingerprint(config.github.defaultToken) : undefined;
  const share = createDefaultTokenShare({
    share: config.github.defaultTokenShare,
    // Shared by every process on one Redis; this process's alone otherwise.
    counters: stores.coordination.shared
      ? createSharedShareCounters(stores.coordination)
      : createMemoryShareCounters(),
    budget: (resource) => (defaultFingerprint ? github.rateLimit(defaultFingerprint, resource) : undefined),
    logger,
  });
  const settings = createGuildSettings(stores.durable("settings"), logger);
  /** Servers whose vanished token was already logged by this process (once each). */
  const lostLogged = new Set<string>();
  // Counted where every process (Redis) or the next start of this one (SQLite) sees it: per process
  // and in memory, N processes allowed 5×N checks and a restart handed out 5 more.
  const tokenCheckWindow = { max: TOKEN_CHECKS_PER_WINDOW, windowMs: TOKEN_CHECK_WINDOW_MS };
  const tokenChecks = stores.coordination.shared
    ? createSharedAttemptLimit(stores.coordination, { ...tokenCheckWindow, prefix: "token-checks" })
    : createStoredAttemptLimit(stores.durable("token-checks"), {
        ...tokenCheckWindow,
        ...(clock ? { now: nowMs } : {}),
      });
  const tokenAdmin: TokenAdminService = {
    canStore: vault.canStore,
    async verifyAndStore(guildId, token, setBy) {
      // Say "no key" before spending a request on a token that could not be kept anyway.
      if (!vault.canStore) throw new VaultKeyMissingError();
      // A server may not turn the bot into a token tester: 5 checks per 10 minutes, then none sent.
      const retryAt = await tokenChecks.take(guildId);
      if (retryAt) throw new TokenChecksExhaustedError(retryAt);
      const viewer = await github.viewer(token).catch((error: unknown) => {
        if (error instanceof GitHubUnauthorizedError) throw new TokenRejectedError({ cause: error });
        throw error;
      });
      await vault.set(guildId, { token, setBy, login: viewer.login });
      await tokens.forget(guildId);
      await settings.markToken(guildId, new Date().toISOString());
      return { login: viewer.login };
    },
    async clear(guildId) {
      const removed = await vault.clear(guildId);
      await tokens.forget(guildId);
      await settings.markToken(guildId, undefined);
      return removed;
    },
    status: (guildId) => vault.status(guildId),
    async lostAt(guildId) {
      if (await vault.status(guildId)) return undefined;
      const storedAt = await settings.tokenStoredAt(guildId);
      if (storedAt && !lostLogged.has(guildId)) {
        lostLogged.add(guildId);
        logger.warn(
          { guildId, storedAt },
          "a server's token is missing from its store although one was set (a Redis that forgot or evicted it?): its admins must /token set again",
        );
      }
      return storedAt;
    },
  };
  const services: Services = {
    config,
    logger,
    scout: createScout({
      github,
      cache,
      tokens,
      recent,
      share,
      defaultTokenAllowPrivate: config.github.defaultTokenAllowPrivate,
      ...(options.now ? { now: options.now } : {}),
    }),
    settings,
    tokenAdmin,
    signIn: createSignInService({
      oauth,
      userTokens,
      github,
      webUrl: config.github.webUrl,
      logger,
      now: nowMs,
    }),
    buttons: createButtonStateStore(stores.ephemeral("buttons")),
    previews: { claims: stores.coordination, replies: stores.ephemeral("previews") },
    lookups: createLatestOnly(),
    rendered: createRenderedAnswers(),
    now: options.now ?? (() => new Date()),
  };
  const defaultBudget = (): Array<{ resource: string; remaining: number; limit: number }> =>
    defaultFingerprint
      ? ["graphql", "core"].flatMap((resource) => {
          const seen = github.rateLimit(defaultFingerprint, resource);
          return seen ? [{ resource, remaining: seen.remaining, limit: seen.limit }] : [];
        })
      : [];
  return { services, github, vault, stores, fingerprint, defaultBudget, close: () => stores.close() };
}
