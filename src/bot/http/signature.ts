import { createPublicKey, verify, type KeyObject } from "node:crypto";

/** An Ed25519 signature in hex: 64 bytes. */
const SIGNATURE_HEX = /^[0-9a-f]{128}$/i;

/**
 * Checks Discord's `X-Signature-Ed25519` over `X-Signature-Timestamp` + the raw body with the
 * application's public key (hex, as the developer portal shows it), with `node:crypto`.
 */
export type SignatureVerifier = (timestamp: string, body: Buffer, signatureHex: string) => boolean;

/** @throws Error when the key is not 32 bytes of hex. */
export function createSignatureVerifier(publicKeyHex: string): SignatureVerifier {
  if (!/^[0-9a-f]{64}$/i.test(publicKeyHex)) throw new Error("the public key must be 64 hex digits");
  const key: KeyObject = createPublicKey({
    key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(publicKeyHex, "hex").toString("base64url") },
    format: "jwk",
  });
  return (timestamp, body, signatureHex) => {
    if (!SIGNATURE_HEX.test(signatureHex)) return false;
    // One buffer of timestamp + body, written in place: no intermediate copy of the timestamp.
    const written = Buffer.byteLength(timestamp, "utf8");
    const signed = Buffer.allocUnsafe(written + body.length);
    signed.write(timestamp, 0, "utf8");
    body.copy(signed, written);
    try {
      return verify(null, signed, key, Buffer.from(signatureHex, "hex"));
    } catch {
      return false;
    }
  };
}
