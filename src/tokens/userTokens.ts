// Over 300 lines: one service whose reads, renewals and drops share the sign-ins it remembers and the versions other processes change; split, each part would need that state passed in.
import { LRUCache } from "lru-cache";
import { UserFacingError } from "../errors.js";
import type { Logger } from "../logger.js";
import { TokenStoreUnavailableError } from "./tokenVault.js";
import type { UserSession, UserTokenVault } from "./userTokenVault.js";
import type { TokenVersions } from "./tokenVersions.js";

/**
 * People's own GitHub tokens (after `/login`): read from the encrypted vault, renewed before they
 * expire (a GitHub App's user tokens last 8 hours), dropped when GitHub refuses them. The token
 * resolver asks here first (SPEC section 4: the asker's own token, the server's, the default).
 */

/** A renewed token, as the OAuth client gives it (see src/signin/githubOAuth.ts). */
export interface RenewedToken {
  token: string;
  refreshToken: string | null;
  expiresAt: string | null;
  refreshTokenExpiresAt: string | null;
}

/** GitHub refused the refresh (`bad_refresh_token`, `incorrect_client_credentials`): the sign-in cannot go on. */
export class RenewalRefusedError extends Error {
  constructor(readonly oauthError: string) {
    super(`GitHub refused to renew the token (${oauthError})`);
    this.name = "RenewalRefusedError";
  }
}

/**
 * Renews with a refresh token (the refresh grant). Throws {@link RenewalRefusedError} when GitHub
 * refuses; anything else it throws means GitHub could not be asked, and the sign-in is kept.
 */
export type TokenRenewer = (refreshToken: string) => Promise<RenewedToken>;

/** A person's sign-in ended: GitHub refused the token, or it expired and cannot be renewed. */
export class SignInEndedError extends UserFacingError {
  readonly code = "sign_in_ended";
  constructor(readonly reason: "refused" | "expired") {
    super();
  }
}

/**
 * GitHub refused (401) a person's token that is no longer the one their sign-in holds: another
 * process renewed it (GitHub ends the old token at once) or the person signed in again. Nothing
 * for the person to read: the command runs again with the token now in effect (the Scout does).
 */
export class SignInReplacedError extends Error {
  constructor() {
    super("the person's token was replaced (renewed elsewhere, or a new sign-in) while a command used it");
    this.name = "SignInReplacedError";
  }
}

/** GitHub did not answer while a sign-in was being renewed; it is kept, and the next command tries again. */
export class SignInRenewalUnavailableError extends UserFacingError {
  readonly code = "sign_in_renewal_unavailable";
}

export interface UserTokens {
  /** Whether sign-ins can be stored at all (an encryption key is configured). */
  readonly canStore: boolean;
  /**
   * The person's own token, renewed first when it expires within a minute; null when they have not
   * signed in. Renewal happens once however many of their commands ask at the same time.
   * @throws SignInEndedError when it expired and cannot be renewed (the sign-in is dropped).
   * @throws SignInRenewalUnavailableError when GitHub did not answer the renewal.
   * @throws TokenStoreUnavailableError when the vault cannot be read and nothing was read before.
   */
  tokenFor(userId: string): Promise<string | null>;
  /**
   * What {@link UserTokens.tokenFor} would give, when this process holds all it takes (no shared
   * versions to ask, and the sign-in read within the last 30 s and not due for renewal, or the
   * vault sure the person holds none): at once. Undefined when `tokenFor` must ask the vault, the
   * versions or GitHub.
   */
  heldTokenFor?(userId: string): string | null | undefined;
  /** Stores a new sign-in (after `/login`), replacing the previous one. */
  store(userId: string, session: UserSession): Promise<void>;
  /** Forgets a person's sign-in. @returns what was stored (to revoke it), or null. */
  forget(userId: string): Promise<UserSession | null>;
  /**
   * GitHub answered 401 for a token with this fingerprint. When it was a person's own token handed
   * out here, the vault says what follows: it holds another token (renewed by another process, or a
   * new `/login`): {@link SignInReplacedError}, and the command runs again with that one; it still
   * holds this one: the sign-in is dropped and the error they read is returned. Otherwise undefined.
   */
  refused(fingerprint: string): Promise<Error | undefined>;
}

/** How long a vault read is trusted before the vault is asked again (as for server tokens). */
const REMEMBER_MS = 30_000;
/** Renew this long before the token's end, so a command never starts with a token about to die. */
const RENEW_AHEAD_MS = 60_000;

/**
 * Creates the user-token service over the vault. `renew` is absent when sign-in is not set up
 * (no GITHUB_OAUTH_CLIENT_ID): an expiring token then ends with its 8 hours.
 *
 * With several processes sharing the vault (Redis), two may renew the same sign-in at once; GitHub
 * accepts a refresh token once, so the loser reads `bad_refresh_token`. Before dropping the sign-in
 * the loser reads the vault again and takes the winner's new token when it is there. The same holds
 * for a 401: GitHub ends the old token the moment another process renews it, so a process still
 * holding the old one reads the vault, not its memory, before it gives the sign-in up.
 *
 * With `versions` (processes sharing Redis), signing in, out, renewing and dropping change the
 * person's version, and a remembered sign-in is used only while the version is the one it was read
 * under: a `/logout` in one process ends the token's use in all at once. When the version cannot be
 * read, nothing remembered is trusted (the token may have been signed out elsewhere): the asker reads
 * with the server's or the default token meanwhile (see the token resolver).
 */
export function createUserTokens(options: {
  vault: UserTokenVault;
  renew?: TokenRenewer | undefined;
  /** The keyed fingerprint of a token (what the GitHub client reports a 401 with). */
  fingerprint: (token: string) => string;
  /** Versions shared by every process (Redis); absent: this process alone changes sign-ins. */
  versions?: TokenVersions | undefined;
  logger: Logger;
  now?: () => number;
}): UserTokens {
  const { vault, logger, fingerprint } = options;
  const now = options.now ?? Date.now;
  /** Sign-ins read, with the version they were read under (undefined: unknown, read again). */
  const remembered = new LRUCache<
    string,
    { session: UserSession | null; readAt: number; version: string | undefined }
  >({ max: 10_000 });
  /** Fingerprints of the tokens handed out, to know whose a refused token was. */
  const handedOut = new LRUCache<string, string>({ max: 10_000 });
  const renewing = new Map<string, Promise<UserSession>>();

  /** The person's version; throws the user vault's outage when it cannot be told. */
  async function versionOf(userId: string): Promise<string> {
    if (!options.versions) return "";
    try {
      return await options.versions.current(`user:${userId}`);
    } catch (error) {
      remembered.delete(userId);
      throw new TokenStoreUnavailableError("read", { cause: error }, "user");
    }
  }

  /** Changes the person's version (others re-read the vault before using what they remember). */
  async function changed(userId: string): Promise<string> {
    return options.versions ? options.versions.bump(`user:${userId}`) : "";
  }

  /** The sign-in remembered under `version`, if any (the memory of a read that may be stale). */
  function knownUnder(userId: string, version: string) {
    const entry = remembered.get(userId);
    return entry !== undefined && entry.version === version ? entry : undefined;
  }

  /** Whether a remembered read is recent enough to use without asking the vault. */
  const fresh = (known: { readAt: number }): boolean => now() - known.readAt < REMEMBER_MS;

  async function read(userId: string): Promise<UserSession | null> {
    const version = await versionOf(userId);
    const known = knownUnder(userId, version);
    if (known && fresh(known)) return known.session;
    try {
      const session = await vault.get(userId);
      remembered.set(userId, { session, readAt: now(), version });
      return session;
    } catch (error) {
      // A store outage makes answers slower, never fails a command: keep what was read last.
      if (known && error instanceof TokenStoreUnavailableError) {
        // Debug: the store's outage reporter warned once when the outage began.
        logger.debug({ userId }, "user vault unavailable: using the sign-in read last");
        return known.session;
      }
      throw error;
    }
  }

  const isDue = (session: UserSession): boolean =>
    session.expiresAt !== null && now() >= Date.parse(session.expiresAt) - RENEW_AHEAD_MS;

  /**
   * Forgets `session` unless the vault already holds another one (a new /login, another process's
   * renewal). A store failure here is logged only: the next command meets the same refusal and
   * tries again.
   */
  async function drop(userId: string, session: UserSession, reason: string): Promise<void> {
    remembered.delete(userId);
    try {
      const stored = await vault.get(userId);
      if (stored && stored.token === session.token) {
        await vault.delete(userId);
        await changed(userId);
      }
      logger.info({ userId, login: session.login, reason }, "user sign-in dropped");
    } catch (error) {
      logger.warn({ userId, reason, err: error }, "user sign-in could not be dropped from the vault");
    }
  }

  async function renewSession(userId: string, session: UserSession): Promise<UserSession> {
    const refreshUsable =
      session.refreshToken !== null &&
      (session.refreshTokenExpiresAt === null || now() < Date.parse(session.refreshTokenExpiresAt));
    if (!options.renew || !refreshUsable || session.refreshToken === null) {
      await drop(
        userId,
        session,
        options.renew ? "refresh token expired" : "expired; sign-in is not set up to renew it",
      );
      throw new SignInEndedError("expired");
    }
    let renewed: RenewedToken;
    try {
      renewed = await options.renew(session.refreshToken);
    } catch (error) {
      if (!(error instanceof RenewalRefusedError)) {
        logger.warn({ userId, err: error }, "user sign-in renewal failed: GitHub did not answer");
        throw new SignInRenewalUnavailableError({ cause: error });
      }
      const stored = await vault.get(userId);
      if (stored && stored.refreshToken !== session.refreshToken && !isDue(stored)) {
        remembered.set(userId, { session: stored, readAt: now(), version: undefined });
        return stored;
      }
      await drop(userId, session, `renewal refused: ${error.oauthError}`);
      throw new SignInEndedError("refused");
    }
    const next: UserSession = Object.assign({}, session, renewed);
    // Kept under the version the old one was read under until the vault holds the new pair.
    const readUnder = remembered.get(userId)?.version;
    remembered.set(userId, { session: next, readAt: now(), version: readUnder });
    logger.info({ userId, login: session.login }, "user sign-in renewed");
    // The old refresh token is used up: if the vault cannot take the new pair now, this process
    // keeps it in memory (and the person signs in again after a restart).
    try {
      await vault.set(userId, next);
    } catch (error) {
      logger.error({ userId, err: error }, "renewed sign-in could not be stored");
      return next;
    }
    // The other processes take the new token before they next use the old one.
    await changed(userId).then(
      (version) => remembered.set(userId, { session: next, readAt: now(), version }),
      (error: unknown) => logger.warn({ userId, err: error }, "user sign-in version could not be changed"),
    );
    return next;
  }

  /** One renewal per person at a time: every command that asks meanwhile waits for it. */
  function renewOnce(userId: string, session: UserSession): Promise<UserSession> {
    let pending = renewing.get(userId);
    if (!pending) {
      pending = renewSession(userId, session).finally(() => renewing.delete(userId));
      renewing.set(userId, pending);
    }
    return pending;
  }

  return {
    canStore: vault.canStore,
    async tokenFor(userId) {
      let session = await read(userId);
      if (!session) return null;
      if (isDue(session)) session = await renewOnce(userId, session);
      handedOut.set(fingerprint(session.token), userId);
      return session.token;
    },
    heldTokenFor(userId) {
      // With shared versions, the person's version must be read from the store first.
      if (options.versions) return undefined;
      const known = knownUnder(userId, "");
      if (!known || !fresh(known)) {
        // Not remembered: `tokenFor` reads the vault, which for most people knows without its store.
        return vault.surelyWithout?.(userId) ? null : undefined;
      }
      const session = known.session;
      if (!session) return null;
      if (isDue(session)) return undefined;
      handedOut.set(fingerprint(session.token), userId);
      return session.token;
    },
    async store(userId, session) {
      await vault.set(userId, session);
      // Other processes that remember "not signed in" read the new sign-in at their next command.
      const version = await changed(userId).catch((error: unknown) => {
        logger.warn({ userId, err: error }, "user sign-in version could not be changed");
        return undefined;
      });
      remembered.set(userId, { session, readAt: now(), version });
      handedOut.set(fingerprint(session.token), userId);
      logger.info({ userId, login: session.login }, "user signed in");
    },
    async forget(userId) {
      remembered.delete(userId);
      const session = await vault.get(userId);
      if (session) await vault.delete(userId);
      // Changed even when nothing was stored: a sign-out retried after a failed change ends it too.
      try {
        await changed(userId);
      } catch (error) {
        throw new TokenStoreUnavailableError("write", { cause: error }, "user");
      }
      return session;
    },
    async refused(tokenFingerprint) {
      const userId = handedOut.get(tokenFingerprint);
      if (userId === undefined) return undefined;
      handedOut.delete(tokenFingerprint);
      // What this process remembers may be the very token GitHub just ended: ask the vault.
      let stored: UserSession | null;
      try {
        stored = await vault.get(userId);
      } catch (error) {
        logger.warn({ userId, err: error }, "user vault unavailable: a refused sign-in is kept for now");
        return undefined;
      }
      if (!stored) {
        remembered.delete(userId);
        return undefined;
      }
      if (fingerprint(stored.token) !== tokenFingerprint) {
        remembered.set(userId, { session: stored, readAt: now(), version: undefined });
        logger.info({ userId, login: stored.login }, "user token replaced meanwhile: the command runs again");
        return new SignInReplacedError();
      }
      await drop(userId, stored, "GitHub answered 401");
      return new SignInEndedError("refused");
    },
  };
}
