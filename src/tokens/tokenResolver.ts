import { UserFacingError } from "../errors.js";
import type { Logger } from "../logger.js";
import { memoizedFingerprint, tokenFingerprint } from "./fingerprint.js";
import { TokenStoreUnavailableError, type TokenVault } from "./tokenVault.js";
import type { UserTokens } from "./userTokens.js";
import type { TokenVersions } from "./tokenVersions.js";

/** Where the token in effect comes from (SPEC section 4): the asker's own sign-in, the server, the default. */
export type TokenOrigin = "user" | "server" | "default";

/** Who asks, where (the shape of the Scout's `Asker`). */
export interface TokenAsker {
  guildId: string | null;
  userId: string;
  /**
   * False: the asker's own sign-in is passed over, whatever it is (an automatic link preview reads
   * with the server's token, else the default one, SPEC section 7). Absent: it comes first.
   */
  ownSignIn?: boolean;
}

/** The token in effect for a request. Never log `token`; `fingerprint` is what scopes the cache. */
export interface ResolvedToken {
  token: string;
  origin: TokenOrigin;
  fingerprint: string;
}

export interface TokenResolver {
  /**
   * The token in effect: the asker's own (after `/login`), else the server's, else the default one.
   * @param asker the server (null in a DM, where no server token applies) and the user.
   * @throws MissingTokenError when there is none.
   * @throws SignInEndedError or SignInRenewalUnavailableError (from the user tokens) when the
   *   asker's own sign-in expired and cannot be renewed now.
   * @throws TokenStoreUnavailableError or VaultLockedError (from the vault) when the server's
   *   token cannot be read and there is nothing to fall back on (see createTokenResolver).
   */
  resolve(asker: TokenAsker): Promise<ResolvedToken>;
  /**
   * What {@link TokenResolver.resolve} would give, when this process holds all it takes (the
   * asker's sign-in and the server's token read within their remembered windows, no shared
   * versions to ask): at once. Undefined when `resolve` must ask a store; never throws (`resolve`
   * says what is wrong).
   */
  resolveHeld?(asker: TokenAsker): ResolvedToken | undefined;
  /**
   * Drops what is remembered of a server's token (after `/token set` or `/token clear`) and, with
   * shared versions, changes its version so every other process drops it too before its next use.
   * @throws TokenStoreUnavailableError when the version cannot be changed (the admin tries again).
   */
  forget(guildId: string): Promise<void>;
}

/** No server token and no default token. */
export class MissingTokenError extends UserFacingError {
  readonly code = "missing_token";
}

/** How long a vault read is trusted before the vault is asked again. */
const REMEMBER_MS = 30_000;

/**
 * Creates the token resolver (SPEC section 4: the asker's own token, else the server's, else the
 * default one). The asker's own token comes from `userTokens`, which renews and drops it.
 *
 * Vault reads are remembered for a short while, and the last one read stays known through a store
 * outage: a store outage makes answers slower, never fails a command (SPEC section 4), and a server
 * keeps its own token while Redis or SQLite is down. Only a server whose record was never read by
 * this process falls back to the default token during an outage (logged): that moves no data across
 * the server boundary, since every server without its own token reads with the default token too,
 * and the cache is scoped by the token's fingerprint. With no default token, the vault's error
 * stands. Call `forget` after a token is set or cleared.
 *
 * With `versions` (processes sharing Redis), a remembered token is used only while its server's
 * version is the one it was read under, so a token set or cleared by another process is dropped at
 * once. When the version cannot be read (a store outage), no remembered token is trusted, since it
 * may have been cleared elsewhere just before: the server answers with the default token meanwhile,
 * as one never read does, and with none the error stands.
 */
export function createTokenResolver(options: {
  vault: Pick<TokenVault, "get">;
  /** People's own sign-ins; absent: nobody can sign in (no `/login`). */
  userTokens?: Pick<UserTokens, "tokenFor" | "heldTokenFor"> | undefined;
  defaultToken?: string | undefined;
  /** From `fingerprintKeyFrom` or `loadFingerprintKey` (./fingerprint.js). */
  fingerprintKey: Buffer;
  /**
   * The fingerprint under `fingerprintKey`, when the caller has one to share (the bot's, from
   * `memoizedFingerprint`); default: one of the resolver's own.
   */
  fingerprint?: (token: string) => string;
  /** Versions shared by every process (Redis); absent: this process alone sets and clears tokens. */
  versions?: TokenVersions | undefined;
  logger?: Logger;
  now?: () => number;
}): TokenResolver {
  const now = options.now ?? Date.now;
  const defaultToken = options.defaultToken === "" ? undefined : options.defaultToken;
  const fingerprintOf = options.fingerprint ?? memoizedFingerprint(options.fingerprintKey);
  const defaultFingerprint = defaultToken
    ? tokenFingerprint(options.fingerprintKey, defaultToken)
    : undefined;
  const known = new Map<string, { token: string | null; readAt: number; version: string }>();

  /** The server's version, or undefined when it cannot be told (then nothing remembered is trusted). */
  async function versionOf(guildId: string): Promise<string | undefined> {
    if (!options.versions) return "";
    try {
      return await options.versions.current(`guild:${guildId}`);
    } catch {
      return undefined;
    }
  }

  /** The server's token as read under `version`, if this process remembers it. */
  function knownUnder(guildId: string, version: string | undefined) {
    const remembered = known.get(guildId);
    return remembered !== undefined && remembered.version === version ? remembered : undefined;
  }

  /** Whether a remembered read is recent enough to use without asking the vault. */
  const fresh = (remembered: { readAt: number }): boolean => now() - remembered.readAt < REMEMBER_MS;

  /** The token in effect, given the asker's own (or null) and the server's (or null). */
  function inEffect(own: string | null, server: string | null): ResolvedToken | undefined {
    if (own) return { token: own, origin: "user", fingerprint: fingerprintOf(own) };
    if (server) return { token: server, origin: "server", fingerprint: fingerprintOf(server) };
    if (defaultToken && defaultFingerprint) {
      return { token: defaultToken, origin: "default", fingerprint: defaultFingerprint };
    }
    return undefined;
  }

  async function serverToken(guildId: string): Promise<string | null> {
    const version = await versionOf(guildId);
    const current = knownUnder(guildId, version);
    if (current && fresh(current)) return current.token;
    if (version === undefined) {
      // Whether another process cleared this token cannot be told now: it is not used.
      known.delete(guildId);
      if (defaultToken) {
        // Per request, so debug: the store's outage reporter warned once when the outage began.
        options.logger?.debug({ guildId }, "token versions unavailable: using the default token for now");
        return null;
      }
      throw new TokenStoreUnavailableError("read");
    }
    try {
      const stored = await options.vault.get(guildId);
      known.delete(guildId);
      known.set(guildId, { token: stored?.token ?? null, readAt: now(), version });
      if (known.size > 10_000) known.delete(known.keys().next().value as string);
      return stored?.token ?? null;
    } catch (error) {
      // Per request, so debug: the store's outage reporter warned once when the outage began.
      if (current) {
        options.logger?.debug({ guildId }, "token store unavailable: using the server token read last");
        return current.token;
      }
      if (defaultToken && error instanceof TokenStoreUnavailableError) {
        options.logger?.debug({ guildId }, "token store unavailable: using the default token for now");
        return null;
      }
      throw error;
    }
  }

  /** The asker's own token; a vault outage never read before falls through to the server's (logged). */
  async function userToken(userId: string): Promise<string | null> {
    if (!options.userTokens) return null;
    try {
      return await options.userTokens.tokenFor(userId);
    } catch (error) {
      if (!(error instanceof TokenStoreUnavailableError)) throw error;
      options.logger?.debug(
        { userId },
        "user vault unavailable: using the server's or the default token for now",
      );
      return null;
    }
  }

  return {
    async resolve({ guildId, userId, ownSignIn }) {
      const own = ownSignIn === false ? null : await userToken(userId);
      const server = own || guildId === null ? null : await serverToken(guildId);
      const resolved = inEffect(own, server);
      if (!resolved) throw new MissingTokenError();
      return resolved;
    },
    resolveHeld({ guildId, userId, ownSignIn }) {
      // With shared versions, a remembered token is used only after its version is read.
      if (options.versions) return undefined;
      let own: string | null | undefined = null;
      if (ownSignIn !== false && options.userTokens) {
        own = options.userTokens.heldTokenFor ? options.userTokens.heldTokenFor(userId) : undefined;
      }
      if (own === undefined) return undefined;
      let server: string | null = null;
      if (!own && guildId !== null) {
        const current = knownUnder(guildId, "");
        if (!current || !fresh(current)) return undefined;
        server = current.token;
      }
      return inEffect(own, server);
    },
    async forget(guildId) {
      known.delete(guildId);
      if (!options.versions) return;
      try {
        await options.versions.bump(`guild:${guildId}`);
      } catch (error) {
        throw new TokenStoreUnavailableError("write", { cause: error });
      }
    },
  };
}
