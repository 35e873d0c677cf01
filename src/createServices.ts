import { readFileSync } from "node:fs";
import { createButtonStateStore } from "./bot/buttonState.js";
import type { Services, TokenAdminService } from "./bot/services.js";
import { createRecentRepositories } from "./answers/recentRepositories.js";
import { createScout } from "./answers/createScout.js";
import { createAnswerCache } from "./cache/answerCache.js";
import { createEtagStore } from "./cache/etagStore.js";
import { openStores, type Stores } from "./cache/openStores.js";
import type { Config } from "./config.js";
import {
  createGitHubClient,
  GitHubUnauthorizedError,
  type GitHubClient,
  type GitHubClientOptions,
} from "./github/index.js";
import { UserFacingError } from "./errors.js";
import type { Logger } from "./logger.js";
import { loadFingerprintKey, tokenFingerprint } from "./tokens/fingerprint.js";
import { createGuildSettings } from "./tokens/guildSettings.js";
import { createTokenResolver } from "./tokens/tokenResolver.js";
import { createTokenVault, VaultKeyMissingError, type TokenVault } from "./tokens/tokenVault.js";

/** `/token set` with a token GitHub does not accept: nothing is stored. */
export class TokenRejectedError extends UserFacingError {
  readonly code = "token_rejected";
  constructor(options?: { cause?: unknown }) {
    super(
      "GitHub did not accept that token, so nothing was stored. Check that it was copied whole and has not expired or been revoked, then run `/token set` again.",
      options,
    );
  }
}

/** RepoScout's version, from package.json, for the GitHub User-Agent. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

export interface RunningServices {
  services: Services;
  github: GitHubClient;
  vault: TokenVault;
  stores: Stores;
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
    storePrefix?: string;
    /** Overrides of the GitHub client's options (tests: a fetch, a shorter deadline...). */
    client?: Partial<
      Pick<GitHubClientOptions, "fetch" | "timeoutMs" | "holdWhileLimited" | "sleep" | "random">
    >;
  } = {},
): Promise<RunningServices> {
  const stores = await openStores({
    dataDir: config.dataDir,
    redisUrl: config.redisUrl,
    logger,
    ...(options.memoryStores ? { memory: true } : {}),
    ...(options.storePrefix ? { prefix: options.storePrefix } : {}),
  });
  const encryptionKey = config.tokens.encryptionKey;
  const fingerprintKey = await loadFingerprintKey({ encryptionKey, dataDir: config.dataDir });
  const fingerprint = (token: string): string => tokenFingerprint(fingerprintKey, token);
  const github = createGitHubClient({
    graphqlUrl: config.github.graphqlUrl,
    restUrl: config.github.apiUrl,
    version: VERSION,
    logger,
    fingerprint,
    conditionalStore: createEtagStore(stores.cache("etags")),
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
    defaultToken: config.github.defaultToken,
    fingerprintKey,
    logger,
  });
  const cache = createAnswerCache({
    store: stores.cache,
    logger,
    shortTtlMs: config.cache.shortTtlSeconds * 1000,
  });
  const recent = createRecentRepositories();
  const tokenAdmin: TokenAdminService = {
    canStore: vault.canStore,
    async verifyAndStore(guildId, token, setBy) {
      // Say "no key" before spending a request on a token that could not be kept anyway.
      if (!vault.canStore) throw new VaultKeyMissingError();
      const viewer = await github.viewer(token).catch((error: unknown) => {
        if (error instanceof GitHubUnauthorizedError) throw new TokenRejectedError({ cause: error });
        throw error;
      });
      await vault.set(guildId, { token, setBy, login: viewer.login });
      tokens.forget(guildId);
      return { login: viewer.login };
    },
    async clear(guildId) {
      const removed = await vault.clear(guildId);
      tokens.forget(guildId);
      return removed;
    },
    status: (guildId) => vault.status(guildId),
  };
  const services: Services = {
    config,
    logger,
    scout: createScout({ github, cache, tokens, recent }),
    settings: createGuildSettings(stores.durable("settings"), logger),
    tokenAdmin,
    buttons: createButtonStateStore(stores.ephemeral("buttons")),
    recent,
    now: options.now ?? (() => new Date()),
  };
  return { services, github, vault, stores, close: () => stores.close() };
}
