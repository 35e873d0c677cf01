import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  type KeyObject,
} from "node:crypto";

/** DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows it. */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

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
  private readonly privateKey: KeyObject;
  private readonly otherKey: KeyObject;

  /** @param seedHex a fixed 32-byte private seed in hex (default: a fresh key pair). */
  constructor(seedHex?: string) {
    this.privateKey = seedHex ? keyFromSeed(seedHex) : generateKeyPairSync("ed25519").privateKey;
    this.otherKey = keyFromSeed(randomBytes(32).toString("hex"));
    this.publicKeyHex = rawPublicKeyHex(this.privateKey);
  }

  /** The hex signature Discord sends in `X-Signature-Ed25519` for this timestamp and body. */
  sign(timestamp: string, body: string): string {
    return sign(null, Buffer.from(timestamp + body, "utf8"), this.privateKey).toString("hex");
  }

  /** A well-formed signature by another key (a bad signature the endpoint must refuse). */
  signWithOtherKey(timestamp: string, body: string): string {
    return sign(null, Buffer.from(timestamp + body, "utf8"), this.otherKey).toString("hex");
  }
}
