import { z } from "zod";
import type { DurableStore } from "../cache/guardedStore.js";
import type { Logger } from "../logger.js";
import {
  createKeyring,
  isStale,
  keyFor,
  seal,
  sealedFieldsShape,
  unseal,
  type SealingKey,
} from "./sealing.js";
import { TokenStoreUnavailableError, logStoreFailure } from "./tokenVault.js";

/** A person's GitHub sign-in (`/login`), as the vault gives it back. Never log `token` or `refreshToken`. */
export interface UserSession {
  token: string;
  /** A GitHub App's refresh token (`ghr_`), when its user tokens expire. */
  refreshToken: string | null;
  /** ISO; null when the token does not expire (an OAuth app, or a GitHub App without expiring tokens). */
  expiresAt: string | null;
  /** ISO; null without a refresh token. */
  refreshTokenExpiresAt: string | null;
  /** The GitHub login the token authenticated as when it was stored. */
  login: string;
  /** ISO: when the person signed in (kept across renewals). */
  signedInAt: string;
  /** The app that issued the token: renewing and revoking need the same one. */
  clientId: string;
}

/** The encrypted store of user sign-ins, one record per Discord user (SPEC section 4). */
export interface UserTokenVault {
  /** Whether a key is configured, i.e. whether {@link UserTokenVault.set} can work. */
  readonly canStore: boolean;
  /**
   * Encrypts and stores a person's sign-in, replacing any previous one.
   * @throws Error when no key is configured (callers check `canStore` first).
   * @throws TokenStoreUnavailableError when the store fails.
   */
  set(userId: string, session: UserSession): Promise<void>;
  /**
   * A person's sign-in, or null. A record that fails authentication (tampered, moved to another
   * user) or was sealed with a key the bot no longer has reads as absent and is logged: the token
   * in it is unrecoverable, and the person can `/login` again.
   * @throws TokenStoreUnavailableError when the store fails (never read as "not signed in").
   */
  get(userId: string): Promise<UserSession | null>;
  /** Deletes a person's record; works without a key. @returns whether there was one. */
  delete(userId: string): Promise<boolean>;
}

const RECORD_VERSION = 1;
const USER_ID = /^[A-Za-z0-9_-]{1,64}$/;
const isoOrNull = z.string().nullable();

const recordSchema = z.object({
  v: z.literal(RECORD_VERSION),
  userId: z.string(),
  ...sealedFieldsShape,
  login: z.string(),
  signedInAt: z.string(),
  expiresAt: isoOrNull,
  refreshTokenExpiresAt: isoOrNull,
  clientId: z.string(),
});
type UserRecord = z.infer<typeof recordSchema>;
type RecordMeta = Omit<UserRecord, "v" | "kid" | "iv" | "tag" | "ciphertext">;

/** Both secrets are sealed together; everything else is in the clear but authenticated. */
const secretsSchema = z.object({ t: z.string().min(1), r: z.string().nullable() });

/**
 * The associated data: the record's meaning, bound to the ciphertext. A record copied to another
 * user, or whose login, times or app were edited, fails to open. The label differs from the server
 * vault's, so a server record cannot pass for a user's either.
 */
function associatedData(meta: RecordMeta): Buffer {
  return Buffer.from(
    JSON.stringify([
      "reposcout-user-token",
      RECORD_VERSION,
      meta.userId,
      meta.login,
      meta.signedInAt,
      meta.expiresAt,
      meta.refreshTokenExpiresAt,
      meta.clientId,
    ]),
    "utf8",
  );
}

function metaOf(userId: string, session: UserSession): RecordMeta {
  return {
    userId,
    login: session.login,
    signedInAt: session.signedInAt,
    expiresAt: session.expiresAt,
    refreshTokenExpiresAt: session.refreshTokenExpiresAt,
    clientId: session.clientId,
  };
}

function sealSession(key: SealingKey, userId: string, session: UserSession): UserRecord {
  const meta = metaOf(userId, session);
  const secrets = JSON.stringify({ t: session.token, r: session.refreshToken });
  return { v: RECORD_VERSION, ...meta, ...seal(key, secrets, associatedData(meta)) };
}

function parseSecrets(text: string): z.infer<typeof secretsSchema> | undefined {
  try {
    const parsed = secretsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function checkUserId(userId: string): void {
  if (!USER_ID.test(userId)) throw new Error("invalid user id");
}

/**
 * Creates the vault of user sign-ins in a durable namespace (`stores.durable("user-tokens")`):
 * the same sealing as the server vault (AES-256-GCM, a fresh IV per record, the record bound to
 * its Discord user by the associated data), re-sealed with the current key when read under the
 * previous one. Nothing here logs a token.
 */
export function createUserTokenVault(options: {
  store: DurableStore;
  key: Buffer | undefined;
  previousKey?: Buffer | undefined;
  logger: Logger;
}): UserTokenVault {
  const keyring = createKeyring(options.key, options.previousKey);
  const { store, logger } = options;

  const write = async (userId: string, record: UserRecord): Promise<void> => {
    try {
      await store.set(userId, record);
    } catch (error) {
      logStoreFailure(logger, { userId }, "user vault: store write failed", error);
      throw new TokenStoreUnavailableError("write", { cause: error }, "user");
    }
  };

  return {
    canStore: keyring.current !== undefined,
    async set(userId, session) {
      checkUserId(userId);
      if (!keyring.current) throw new Error("no TOKEN_ENCRYPTION_KEY: a sign-in cannot be stored");
      if (session.token === "") throw new Error("cannot store an empty token");
      await write(userId, sealSession(keyring.current, userId, session));
    },
    async get(userId) {
      checkUserId(userId);
      let raw: unknown;
      try {
        raw = await store.get(userId);
      } catch (error) {
        logStoreFailure(logger, { userId }, "user vault: store read failed", error);
        throw new TokenStoreUnavailableError("read", { cause: error }, "user");
      }
      if (raw === undefined || raw === null) return null;
      const parsed = recordSchema.safeParse(raw);
      if (!parsed.success) {
        logger.error({ userId }, "user vault: malformed record, treated as absent");
        return null;
      }
      const record = parsed.data;
      const key = keyFor(keyring, record.kid);
      if (!key) {
        logger.error(
          { userId, kid: record.kid },
          "user vault: record sealed with an unknown key, treated as absent",
        );
        return null;
      }
      const opened = record.userId === userId ? unseal(key, record, associatedData(record)) : undefined;
      const secrets = opened === undefined ? undefined : parseSecrets(opened);
      if (!secrets) {
        logger.error(
          { userId, recordUserId: record.userId },
          "user vault: record failed authentication (tampered or moved), treated as absent",
        );
        return null;
      }
      const session: UserSession = {
        token: secrets.t,
        refreshToken: secrets.r,
        expiresAt: record.expiresAt,
        refreshTokenExpiresAt: record.refreshTokenExpiresAt,
        login: record.login,
        signedInAt: record.signedInAt,
        clientId: record.clientId,
      };
      if (keyring.current && isStale(keyring, key)) {
        await write(userId, sealSession(keyring.current, userId, session)).catch(() => undefined);
      }
      return session;
    },
    async delete(userId) {
      checkUserId(userId);
      try {
        return await store.delete(userId);
      } catch (error) {
        logStoreFailure(logger, { userId }, "user vault: store delete failed", error);
        throw new TokenStoreUnavailableError("write", { cause: error }, "user");
      }
    },
  };
}
