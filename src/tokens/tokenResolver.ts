import { UserFacingError } from "../errors.js";
import type { Logger } from "../logger.js";
import { tokenFingerprint } from "./fingerprint.js";
import { TokenStoreUnavailableError, type TokenVault } from "./tokenVault.js";

/** Where the token in effect comes from (SPEC section 4). */
export type TokenOrigin = "server" | "default";

/** The token in effect for a request. Never log `token`; `fingerprint` is what scopes the cache. */
export interface ResolvedToken {
  token: string;
  origin: TokenOrigin;
  fingerprint: string;
}

export interface TokenResolver {
  /**
   * The token in effect: the server's own, else the default one.
   * @param guildId null in a DM, where only the default token applies.
   * @throws MissingTokenError when there is neither.
   * @throws TokenStoreUnavailableError or VaultLockedError (from the vault) when the server's
   *   token cannot be read and there is nothing to fall back on (see createTokenResolver).
   */
  resolve(guildId: string | null): Promise<ResolvedToken>;
  /** Drops what is remembered of a server's token (after `/token set` or `/token clear`). */
  forget(guildId: string): void;
}

/** No server token and no default token. */
export class MissingTokenError extends UserFacingError {
  readonly code = "missing_token";
  constructor() {
    super("This server has no GitHub token and the bot has no default one. An admin can run `/token set`.");
  }
}

/** How long a vault read is trusted before the vault is asked again. */
const REMEMBER_MS = 30_000;

/**
 * Creates the token resolver (SPEC section 4: the server's token, else the default one).
 *
 * Vault reads are remembered for a short while, and the last one read stays known through a store
 * outage: a store outage makes answers slower, never fails a command (SPEC section 4), and a server
 * keeps its own token while Redis or SQLite is down. Only a server whose record was never read by
 * this process falls back to the default token during an outage (logged): that moves no data across
 * the server boundary, since every server without its own token reads with the default token too,
 * and the cache is scoped by the token's fingerprint. With no default token, the vault's error
 * stands. Call `forget` after a token is set or cleared.
 */
export function createTokenResolver(options: {
  vault: Pick<TokenVault, "get">;
  defaultToken?: string | undefined;
  /** From `fingerprintKeyFrom` or `loadFingerprintKey` (./fingerprint.js). */
  fingerprintKey: Buffer;
  logger?: Logger;
  now?: () => number;
}): TokenResolver {
  const now = options.now ?? Date.now;
  const defaultToken = options.defaultToken === "" ? undefined : options.defaultToken;
  const defaultFingerprint = defaultToken
    ? tokenFingerprint(options.fingerprintKey, defaultToken)
    : undefined;
  const known = new Map<string, { token: string | null; readAt: number }>();

  async function serverToken(guildId: string): Promise<string | null> {
    const remembered = known.get(guildId);
    if (remembered && now() - remembered.readAt < REMEMBER_MS) return remembered.token;
    try {
      const stored = await options.vault.get(guildId);
      known.delete(guildId);
      known.set(guildId, { token: stored?.token ?? null, readAt: now() });
      if (known.size > 10_000) known.delete(known.keys().next().value as string);
      return stored?.token ?? null;
    } catch (error) {
      if (remembered) {
        options.logger?.warn({ guildId }, "token store unavailable: using the server token read last");
        return remembered.token;
      }
      if (defaultToken && error instanceof TokenStoreUnavailableError) {
        options.logger?.warn({ guildId }, "token store unavailable: using the default token for now");
        return null;
      }
      throw error;
    }
  }

  return {
    async resolve(guildId) {
      const token = guildId !== null ? await serverToken(guildId) : null;
      if (token) {
        return { token, origin: "server", fingerprint: tokenFingerprint(options.fingerprintKey, token) };
      }
      if (defaultToken && defaultFingerprint) {
        return { token: defaultToken, origin: "default", fingerprint: defaultFingerprint };
      }
      throw new MissingTokenError();
    },
    forget(guildId) {
      known.delete(guildId);
    },
  };
}
