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
  /**
   * True when {@link UserTokenVault.get} would give null without asking the store (this process
   * alone writes the vault and knows the person holds no record); false when it would ask.
   */
  surelyWithout?(userId: string): boolean;
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

/** After a listing failed, how long before the next read tries again. */
const LIST_AGAIN_AFTER_MS = 60_000;

/** Who holds a record in the vault, as far as this process (the only one that writes it) knows. */
interface Holders {
  /** True when the person surely holds no record; false when they may, or the list is not read yet. */
  without(userId: string): boolean;
  /** Before a write: the person may hold a record from now on. */
  add(userId: string): void;
  /** A mark to hand to {@link Holders.gone}, taken before the store is read or deleted from. */
  mark(): number;
  /** The store holds no record of the person (read or deleted after `mark`), unless a write began since. */
  gone(userId: string, mark: number): void;
}

/**
 * Who holds a record, listed from the store once, then kept by this process's writes and deletes.
 * Most people never sign in, and without the list each of their commands read the vault once per
 * 30 s (a query on SQLite's thread, on the answer's path: issue 23). The list only ever errs toward
 * "may hold one": a write is added before it lands, so a listing under way cannot miss it; a delete
 * under way may leave a name listed, which the next read of the store takes out; a name is taken out
 * only when no write began since the read or delete was asked (it may have landed just before the
 * answer). Until the list is read, and while it cannot be (retried at a read a minute after a
 * failure), the store is read.
 */
function holdersOf(store: DurableStore, logger: Logger, now: () => number): Holders {
  const names = new Set<string>();
  let writes = 0;
  let state: "listing" | "listed" | { failedAt: number } = "listing";
  const list = (): void => {
    state = "listing";
    void store.keys().then(
      (keys) => {
        for (const key of keys) names.add(key);
        state = "listed";
      },
      (error: unknown) => {
        state = { failedAt: now() };
        logStoreFailure(
          logger,
          {},
          "user vault: the sign-ins could not be listed; reading the store for each",
          error,
        );
      },
    );
  };
  list();
  return {
    without(userId) {
      if (state === "listed") return !names.has(userId);
      if (state !== "listing" && now() - state.failedAt >= LIST_AGAIN_AFTER_MS) list();
      return false;
    },
    add(userId) {
      names.add(userId);
      writes++;
    },
    mark: () => writes,
    gone(userId, mark) {
      if (writes === mark) names.delete(userId);
    },
  };
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
  /**
   * This process alone writes the vault (no Redis): it then keeps who holds a record, and a person
   * not among them reads as not signed in without asking the store (see {@link holdersOf}).
   */
  soleWriter?: boolean;
  logger: Logger;
  now?: () => number;
}): UserTokenVault {
  const keyring = createKeyring(options.key, options.previousKey);
  const { store, logger } = options;
  const holders = options.soleWriter ? holdersOf(store, logger, options.now ?? Date.now) : undefined;

  const write = async (userId: string, record: UserRecord): Promise<void> => {
    // Before the write: a read meanwhile must not take the person for one who never signed in.
    holders?.add(userId);
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
    surelyWithout: (userId) => USER_ID.test(userId) && holders?.without(userId) === true,
    async get(userId) {
      checkUserId(userId);
      if (holders?.without(userId)) return null;
      const mark = holders?.mark() ?? 0;
      let raw: unknown;
      try {
        raw = await store.get(userId);
      } catch (error) {
        logStoreFailure(logger, { userId }, "user vault: store read failed", error);
        throw new TokenStoreUnavailableError("read", { cause: error }, "user");
      }
      if (raw === undefined || raw === null) {
        holders?.gone(userId, mark);
        return null;
      }
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
      const mark = holders?.mark() ?? 0;
      try {
        const existed = await store.delete(userId);
        // After the delete: a read meanwhile still finds the record, as it would without the list.
        holders?.gone(userId, mark);
        return existed;
      } catch (error) {
        logStoreFailure(logger, { userId }, "user vault: store delete failed", error);
        throw new TokenStoreUnavailableError("write", { cause: error }, "user");
      }
    },
  };
}
