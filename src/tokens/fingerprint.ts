import { createHmac, hkdfSync } from "node:crypto";
import { LRUCache } from "lru-cache";
import { join } from "node:path";
import { loadOrCreateKeyFile } from "./keyFile.js";

/** Where a deployment without TOKEN_ENCRYPTION_KEY keeps its fingerprint secret. */
export const FINGERPRINT_KEY_FILE = "fingerprint.key";

/**
 * The keyed fingerprint of a token: the first 32 hex characters (128 bits) of
 * HMAC-SHA256(key, token). Cache keys carry this, never the token: whoever reads the store cannot
 * recover the token from it, nor test a guessed token without the key.
 */
export function tokenFingerprint(key: Buffer, token: string): string {
  if (key.length < 16) throw new Error("the fingerprint key must hold at least 16 bytes");
  if (token === "") throw new Error("cannot fingerprint an empty token");
  return createHmac("sha256", key).update(token, "utf8").digest("hex").slice(0, 32);
}

/**
 * How long a memoized fingerprint keeps its token in memory: no longer than a read of a vault is
 * remembered (twice the token resolver's 30 s), so a token cleared or signed out does not linger
 * here after the memory of it has gone.
 */
export const FINGERPRINT_MEMO_MS = 60_000;

/**
 * {@link tokenFingerprint} under `key`, made once per token rather than once per use (an HMAC
 * each: every command asks its token's, and a person's own token is asked again to know it if
 * GitHub refuses it): the last 1,000 tokens, each for {@link FINGERPRINT_MEMO_MS}, purged on time.
 */
export function memoizedFingerprint(key: Buffer): (token: string) => string {
  const fingerprints = new LRUCache<string, string>({
    max: 1_000,
    ttl: FINGERPRINT_MEMO_MS,
    ttlAutopurge: true,
  });
  return (token) => {
    let fingerprint = fingerprints.get(token);
    if (fingerprint === undefined) {
      fingerprint = tokenFingerprint(key, token);
      fingerprints.set(token, fingerprint);
    }
    return fingerprint;
  };
}

/** A subkey for one purpose: keys for different purposes never coincide, even from one secret. */
function deriveKey(secret: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), `reposcout/${purpose}/v1`, 32));
}

/**
 * Chooses the HMAC key of token fingerprints. It must be secret and stable: stable, because a new
 * key changes every fingerprint and so empties the cache in effect (harmless, but every answer is
 * fetched again); secret, because otherwise a fingerprint is just a hash of the token.
 *
 * - With an encryption key: a subkey derived from it (HKDF), stable across restarts and shared by
 *   every process that shares the vault. A key rotation changes the fingerprints once: the cache
 *   starts cold.
 * - Without one (a default-token-only deployment): `fallbackKey`, any stable secret, e.g. the file
 *   that {@link loadFingerprintKey} keeps in the data dir. A process-random key is acceptable only
 *   for a memory cache, which dies with the process anyway; over SQLite or Redis it strands the
 *   previous run's entries.
 *
 * Never derive the key from the default token: the fingerprint of that token would then be a
 * function of the token alone, an unkeyed hash that anyone reading the cache store could check a
 * leaked or guessed token against, which is exactly what the key is there to prevent.
 * @throws when neither key is given.
 */
export function fingerprintKeyFrom(source: {
  encryptionKey: Buffer | undefined;
  fallbackKey?: Buffer | undefined;
}): Buffer {
  if (source.encryptionKey) return deriveKey(source.encryptionKey, "fingerprint");
  if (source.fallbackKey && source.fallbackKey.length >= 16)
    return deriveKey(source.fallbackKey, "fingerprint");
  throw new Error("no secret to key token fingerprints with: give an encryption key or a fallback key");
}

/**
 * {@link fingerprintKeyFrom} for the bot's start: the encryption key when there is one, else a
 * random secret kept in `<dataDir>/fingerprint.key` (created once, mode 0600). Several shards
 * sharing a Redis cache without an encryption key should share that file too (or set
 * TOKEN_ENCRYPTION_KEY); with different files they simply do not share cache entries.
 */
export async function loadFingerprintKey(options: {
  encryptionKey: Buffer | undefined;
  dataDir: string;
}): Promise<Buffer> {
  if (options.encryptionKey) return fingerprintKeyFrom({ encryptionKey: options.encryptionKey });
  const fallbackKey = await loadOrCreateKeyFile(join(options.dataDir, FINGERPRINT_KEY_FILE));
  return fingerprintKeyFrom({ encryptionKey: undefined, fallbackKey });
}
