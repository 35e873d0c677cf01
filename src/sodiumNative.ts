import { createRequire } from "node:module";

/**
 * The Ed25519 functions of sodium-native (libsodium) that RepoScout uses: the bot checks Discord's
 * signatures with them, the local Discord signs with them.
 */
export interface SodiumNative {
  /** `crypto_sign_verify_detached(signature, message, publicKey)`. */
  crypto_sign_verify_detached(signature: Buffer, message: Buffer, publicKey: Buffer): boolean;
  /** `crypto_sign_detached(signature, message, secretKey)`: writes the 64-byte signature. */
  crypto_sign_detached(signature: Buffer, message: Buffer, secretKey: Buffer): void;
  /** `crypto_sign_seed_keypair(publicKey, secretKey, seed)`: the 32- and 64-byte keys of a seed. */
  crypto_sign_seed_keypair(publicKey: Buffer, secretKey: Buffer, seed: Buffer): void;
}

let sodium: SodiumNative | null | undefined;

/**
 * sodium-native, an optional dependency shipped prebuilt for the common platforms (no compiler at
 * install), or null where it is not installed or does not load: then `node:crypto` does the work.
 * Loaded once.
 */
export function loadSodiumNative(): SodiumNative | null {
  if (sodium === undefined) {
    try {
      const loaded = createRequire(import.meta.url)("sodium-native") as Partial<SodiumNative>;
      sodium =
        typeof loaded.crypto_sign_verify_detached === "function" &&
        typeof loaded.crypto_sign_detached === "function" &&
        typeof loaded.crypto_sign_seed_keypair === "function"
          ? (loaded as SodiumNative)
          : null;
    } catch {
      sodium = null;
    }
  }
  return sodium;
}
