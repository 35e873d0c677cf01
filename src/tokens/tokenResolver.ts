import { UserFacingError } from "../errors.js";
import { tokenFingerprint } from "./fingerprint.js";
import type { TokenVault } from "./tokenVault.js";

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
   *   token cannot be read: never the default token in its place.
   */
  resolve(guildId: string | null): Promise<ResolvedToken>;
}

/** No server token and no default token. */
export class MissingTokenError extends UserFacingError {
  readonly code = "missing_token";
  constructor() {
    super("This server has no GitHub token and the bot has no default one. An admin can run `/token set`.");
  }
}

/**
 * Creates the token resolver. The default token is used only after the vault said the server has
 * no token; a vault failure propagates, so a server with its own token is never answered with the
 * default one (its data and the default token's would mix across the server boundary).
 */
export function createTokenResolver(options: {
  vault: Pick<TokenVault, "get">;
  defaultToken?: string | undefined;
  /** From `fingerprintKeyFrom` or `loadFingerprintKey` (./fingerprint.js). */
  fingerprintKey: Buffer;
}): TokenResolver {
  const defaultToken = options.defaultToken === "" ? undefined : options.defaultToken;
  const defaultFingerprint = defaultToken
    ? tokenFingerprint(options.fingerprintKey, defaultToken)
    : undefined;
  return {
    async resolve(guildId) {
      if (guildId !== null) {
        const stored = await options.vault.get(guildId);
        if (stored) {
          return {
            token: stored.token,
            origin: "server",
            fingerprint: tokenFingerprint(options.fingerprintKey, stored.token),
          };
        }
      }
      if (defaultToken && defaultFingerprint) {
        return { token: defaultToken, origin: "default", fingerprint: defaultFingerprint };
      }
      throw new MissingTokenError();
    },
  };
}
