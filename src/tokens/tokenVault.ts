import { z } from "zod";
import { StoreUnavailableError, type DurableStore } from "../cache/guardedStore.js";
import { UserFacingError } from "../errors.js";
import type { Logger } from "../logger.js";
import {
  createKeyring,
  isStale,
  keyFor,
  seal as sealText,
  sealedFieldsShape,
  unseal as unsealText,
  type SealingKey,
} from "./sealing.js";
import { withFields } from "../withFields.js";

/** A server token as the vault gives it back. */
export interface StoredToken {
  token: string;
  /** Discord user id of the admin who set it. */
  setBy: string;
  /** ISO time it was set. */
  setAt: string;
  /** The GitHub login the token authenticated as when it was set. */
  login: string;
}

/** What `/token status` may show: everything but the token. */
export type TokenStatus = Omit<StoredToken, "token">;

/** The encrypted store of server tokens (SPEC section 4). */
export interface TokenVault {
  /** Whether a key is configured, i.e. whether {@link TokenVault.set} can work. */
  readonly canStore: boolean;
  /**
   * Encrypts and stores a server's token, replacing any previous one.
   * @throws VaultKeyMissingError when no encryption key is configured.
   * @throws TokenStoreUnavailableError when the store fails.
   */
  set(guildId: string, entry: { token: string; setBy: string; login: string }): Promise<void>;
  /**
   * The server's token, or null when it has none.
   *
   * A record that fails authentication (a flipped byte, a record copied from another server, a
   * malformed record) is treated as absent and logged as an error: the token in it is
   * unrecoverable, and someone able to alter the store could as well delete the record, which
   * reads the same. An admin sees "no token" in `/token status` and can set it again.
   * @throws TokenStoreUnavailableError when the store fails: never read as "no token", which would
   *   move the server to the default token.
   * @throws VaultLockedError when the record was encrypted with a key the bot no longer has.
   */
  get(guildId: string): Promise<StoredToken | null>;
  /** Like {@link TokenVault.get} (same errors), without the token. */
  status(guildId: string): Promise<TokenStatus | null>;
  /**
   * Deletes the server's token; works without a key.
   * @returns whether there was one.
   * @throws TokenStoreUnavailableError when the store fails.
   */
  clear(guildId: string): Promise<boolean>;
}

/** `/token set` on a bot that has no encryption key. */
export class VaultKeyMissingError extends UserFacingError {
  readonly code = "vault_key_missing";
}

/** A server token stored under a key the bot no longer has (lost or rotated without the previous key). */
export class VaultLockedError extends UserFacingError {
  readonly code = "vault_locked";
}

/** The vault's store failed or did not answer in time. */
export class TokenStoreUnavailableError extends UserFacingError {
  readonly code = "token_store_unavailable";
  /** @param whose the server's token store (default) or the user's own sign-in. */
  constructor(
    readonly operation: "read" | "write",
    options?: { cause?: unknown },
    readonly whose: "server" | "user" = "server",
  ) {
    super(options);
  }
}

const RECORD_VERSION = 1;
const GUILD_ID = /^[A-Za-z0-9_-]{1,64}$/;

const recordSchema = z.object({
  v: z.literal(RECORD_VERSION),
  guildId: z.string(),
  /** `kid`: which key encrypted it, a derived id, safe to store, that tells the current key from the previous. */
  ...sealedFieldsShape,
  setBy: z.string(),
  setAt: z.string(),
  login: z.string(),
});
type VaultRecord = z.infer<typeof recordSchema>;

/**
 * The associated data: the record's meaning. Authenticated with the token, so a record moved to
 * another server, or whose author or login was edited, fails to decrypt.
 */
function associatedData(record: Pick<VaultRecord, "guildId" | "setBy" | "setAt" | "login">): Buffer {
  return Buffer.from(
    JSON.stringify([
      "reposcout-token",
      RECORD_VERSION,
      record.guildId,
      record.setBy,
      record.setAt,
      record.login,
    ]),
    "utf8",
  );
}

function seal(key: SealingKey, guildId: string, meta: TokenStatus, token: string): VaultRecord {
  return {
    v: RECORD_VERSION,
    guildId,
    ...sealText(key, token, associatedData({ guildId, ...meta })),
    setBy: meta.setBy,
    setAt: meta.setAt,
    login: meta.login,
  };
}

/** @returns the token, or undefined when authentication fails. */
function unseal(key: SealingKey, record: VaultRecord): string | undefined {
  return unsealText(key, record, associatedData(record));
}

function checkGuildId(guildId: string): void {
  if (!GUILD_ID.test(guildId)) throw new Error("invalid guild id");
}

export interface TokenVaultOptions {
  /** The durable `vault` namespace (`stores.durable("vault")`). */
  store: DurableStore;
  /** The current 32-byte key (TOKEN_ENCRYPTION_KEY); without it nothing can be stored. */
  key: Buffer | undefined;
  /** The key before a rotation (TOKEN_ENCRYPTION_KEY_PREVIOUS): its records still open and are re-encrypted. */
  previousKey?: Buffer | undefined;
  logger: Logger;
  now?: () => Date;
}

/**
 * Logs a vault's failed store operation. A store that is down (StoreUnavailableError) was already
 * reported by the store's own outage reporter, once when the outage began and once when it ended:
 * repeating it at error with a stack on every command buried the log, so it is a debug line here.
 * Anything else is unexpected, and an error.
 */
export function logStoreFailure(
  logger: Logger,
  fields: Record<string, unknown>,
  message: string,
  error: unknown,
): void {
  if (error instanceof StoreUnavailableError)
    logger.debug(withFields(fields, { store: error.store, operation: error.operation }), message);
  else logger.error(withFields(fields, { err: error }), message);
}

/**
 * Creates the vault of server tokens: AES-256-GCM, a fresh 12-byte IV per record, the record bound
 * to its server by the associated data. Records of the previous key are re-encrypted with the
 * current key when read. Nothing here ever logs or returns a token except {@link TokenVault.get}.
 */
export function createTokenVault(options: TokenVaultOptions): TokenVault {
  const keyring = createKeyring(options.key, options.previousKey);
  const current = keyring.current;
  const now = options.now ?? (() => new Date());
  const { store, logger } = options;

  const read = async (guildId: string): Promise<unknown> => {
    try {
      return await store.get(guildId);
    } catch (error) {
      logStoreFailure(logger, { guildId }, "token vault: store read failed", error);
      throw new TokenStoreUnavailableError("read", { cause: error });
    }
  };

  const write = async (guildId: string, record: VaultRecord): Promise<void> => {
    try {
      await store.set(guildId, record);
    } catch (error) {
      logStoreFailure(logger, { guildId }, "token vault: store write failed", error);
      throw new TokenStoreUnavailableError("write", { cause: error });
    }
  };

  const open = async (guildId: string): Promise<StoredToken | null> => {
    checkGuildId(guildId);
    const raw = await read(guildId);
    if (raw === undefined || raw === null) return null;
    const parsed = recordSchema.safeParse(raw);
    if (!parsed.success) {
      logger.error({ guildId }, "token vault: malformed record, treated as absent");
      return null;
    }
    const record = parsed.data;
    const key = keyFor(keyring, record.kid);
    if (!key) {
      logger.error({ guildId, kid: record.kid }, "token vault: record encrypted with an unknown key");
      throw new VaultLockedError();
    }
    // Checked before decrypting for a clearer log line; the associated data would refuse it anyway.
    const token = record.guildId === guildId ? unseal(key, record) : undefined;
    if (token === undefined) {
      logger.error(
        { guildId, recordGuildId: record.guildId },
        "token vault: record failed authentication (tampered or moved), treated as absent",
      );
      return null;
    }
    const meta: TokenStatus = { setBy: record.setBy, setAt: record.setAt, login: record.login };
    if (current && isStale(keyring, key)) {
      try {
        await write(guildId, seal(current, guildId, meta, token));
        logger.info({ guildId }, "token vault: record re-encrypted with the current key");
      } catch {
        // Logged by write(); the record still opens with the previous key next time.
      }
    }
    return { token, ...meta };
  };

  return {
    canStore: current !== undefined,
    async set(guildId, entry) {
      checkGuildId(guildId);
      if (!current) throw new VaultKeyMissingError();
      if (entry.token === "") throw new Error("cannot store an empty token");
      const meta: TokenStatus = { setBy: entry.setBy, setAt: now().toISOString(), login: entry.login };
      await write(guildId, seal(current, guildId, meta, entry.token));
      logger.info({ guildId, setBy: entry.setBy, login: entry.login }, "token vault: server token stored");
    },
    get: open,
    async status(guildId) {
      const stored = await open(guildId);
      return stored ? { setBy: stored.setBy, setAt: stored.setAt, login: stored.login } : null;
    },
    async clear(guildId) {
      checkGuildId(guildId);
      let existed: boolean;
      try {
        existed = await store.delete(guildId);
      } catch (error) {
        logStoreFailure(logger, { guildId }, "token vault: store delete failed", error);
        throw new TokenStoreUnavailableError("write", { cause: error });
      }
      logger.info({ guildId, existed }, "token vault: server token cleared");
      return existed;
    },
  };
}
