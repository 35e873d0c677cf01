import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  type KeyObject,
} from "node:crypto";
import { loadSodiumNative } from "../../sodiumNative.js";

/** DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows it. */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/** The 32-byte seed of an Ed25519 private key. */
function seedOf(privateKey: KeyObject): Buffer {
  return privateKey.export({ format: "der", type: "pkcs8" }).subarray(PKCS8_ED25519_PREFIX.length);
}

/**
 * A signing function for `privateKey`: libsodium's where it loads, node:crypto's otherwise. Ed25519
 * signatures are deterministic, so both give the very same bytes; libsodium takes some 40% less CPU
 * a signature (28-39 µs against 48-64 for a 1.5 KB interaction here), which the load figures' local
 * Discord, signing 1,600 interactions a second on the driver's cpu, spends on its own work instead.
 */
function signerFor(privateKey: KeyObject): (message: Buffer) => Buffer {
  const native = loadSodiumNative();
  if (!native) return (message) => sign(null, message, privateKey);
  const publicKey = Buffer.alloc(32);
  const secretKey = Buffer.alloc(64);
  native.crypto_sign_seed_keypair(publicKey, secretKey, seedOf(privateKey));
  return (message) => {
    const signature = Buffer.alloc(64);
    native.crypto_sign_detached(signature, message, secretKey);
    return signature;
  };
}

function keyFromSeed(seedHex: string): KeyObject {
  if (!/^[0-9a-f]{64}$/i.test(seedHex)) throw new Error("the Ed25519 seed must be 64 hexadecimal digits");
  return createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(seedHex, "hex")]),
    format: "der",
    type: "pkcs8",
  });
}

function rawPublicKeyHex(privateKey: KeyObject): string {
  const jwk = createPublicKey(privateKey).export({ format: "jwk" });
  return Buffer.from(String(jwk.x), "base64url").toString("hex");
}

/**
 * The application's Ed25519 key pair, as Discord holds it: Discord signs every request to the
 * interactions endpoint with the private key, and the developer portal shows the public key in hex
 * ("Public Key"), which the bot verifies `X-Signature-Ed25519` against, over
 * `X-Signature-Timestamp + raw body`. A second key stands for "somebody else" in the bad-signature
 * probes Discord sends when an endpoint is saved.
 */
export class InteractionSigner {
  /** The public key in hex, as the portal shows it (what the bot's `DISCORD_PUBLIC_KEY` holds). */
  readonly publicKeyHex: string;
  private readonly signWithKey: (message: Buffer) => Buffer;
  private readonly signWithOther: (message: Buffer) => Buffer;

  /** @param seedHex a fixed 32-byte private seed in hex (default: a fresh key pair). */
  constructor(seedHex?: string) {
    const privateKey = seedHex ? keyFromSeed(seedHex) : generateKeyPairSync("ed25519").privateKey;
    this.signWithKey = signerFor(privateKey);
    this.signWithOther = signerFor(keyFromSeed(randomBytes(32).toString("hex")));
    this.publicKeyHex = rawPublicKeyHex(privateKey);
  }

  /** The hex signature Discord sends in `X-Signature-Ed25519` for this timestamp and body. */
  sign(timestamp: string, body: string): string {
    return this.signWithKey(Buffer.from(timestamp + body, "utf8")).toString("hex");
  }

  /** A well-formed signature by another key (a bad signature the endpoint must refuse). */
  signWithOtherKey(timestamp: string, body: string): string {
    return this.signWithOther(Buffer.from(timestamp + body, "utf8")).toString("hex");
  }
}
