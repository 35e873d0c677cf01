import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { z } from "zod";

/**
 * The encryption shared by the vaults (server tokens, user sign-ins): AES-256-GCM with a fresh
 * 12-byte IV per record and associated data that binds the ciphertext to the record's meaning (its
 * server or user, who set it, when), so a record moved or edited fails to open.
 */

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A derived key: the AES key, and an id safe to store that tells which key sealed a record. */
export interface SealingKey {
  id: string;
  aes: Buffer;
}

/** The current key and the one before a rotation (its records still open, and are sealed again). */
export interface Keyring {
  current: SealingKey | undefined;
  previous: SealingKey | undefined;
}

/** The sealed part of a record: which key, the IV, the GCM tag and the ciphertext (base64). */
export interface SealedFields {
  kid: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/);

/** The zod shape of {@link SealedFields}, to spread into a record's schema. */
export const sealedFieldsShape = { kid: z.string(), iv: base64, tag: base64, ciphertext: base64 };

/**
 * Derives the AES key and the key id (HKDF), so the configured key itself is used for nothing else.
 * @throws when the key is not 32 bytes.
 */
export function sealingKey(key: Buffer): SealingKey {
  if (key.length !== 32) throw new Error("the token encryption key must be 32 bytes");
  const derive = (purpose: string, length: number): Buffer =>
    Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), `reposcout/vault/${purpose}/v1`, length));
  return { id: derive("key-id", 8).toString("hex"), aes: derive("aes-256-gcm", 32) };
}

/** The keyring of TOKEN_ENCRYPTION_KEY and TOKEN_ENCRYPTION_KEY_PREVIOUS (either may be absent). */
export function createKeyring(key: Buffer | undefined, previousKey?: Buffer | undefined): Keyring {
  return {
    current: key ? sealingKey(key) : undefined,
    previous: previousKey ? sealingKey(previousKey) : undefined,
  };
}

/** The key of the keyring that sealed a record (by its `kid`), or undefined when the bot has it no more. */
export function keyFor(keyring: Keyring, kid: string): SealingKey | undefined {
  return [keyring.current, keyring.previous].find((candidate) => candidate?.id === kid);
}

/** Whether a record opened with `key` should be sealed again with the current key (after a rotation). */
export function isStale(keyring: Keyring, key: SealingKey): boolean {
  return keyring.current !== undefined && key === keyring.previous && key.id !== keyring.current.id;
}

/** Encrypts `plaintext` under `key` with a fresh IV, authenticating `associatedData` with it. */
export function seal(key: SealingKey, plaintext: string, associatedData: Buffer): SealedFields {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key.aes, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return {
    kid: key.id,
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    ciphertext: ciphertext.toString("base64"),
  };
}

/** Decrypts sealed fields. @returns the plaintext, or undefined when authentication fails. */
export function unseal(key: SealingKey, sealed: SealedFields, associatedData: Buffer): string | undefined {
  const iv = Buffer.from(sealed.iv, "base64");
  const tag = Buffer.from(sealed.tag, "base64");
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.aes, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(associatedData);
    decipher.setAuthTag(tag);
    return Buffer.concat([
      decipher.update(Buffer.from(sealed.ciphertext, "base64")),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    return undefined;
  }
}
