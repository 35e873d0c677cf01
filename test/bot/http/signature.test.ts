import { describe, expect, it } from "vitest";
import {
  createSignatureVerifier,
  signatureBackend,
  type SignatureBackend,
} from "../../../src/bot/http/signature.js";
import { InteractionSigner } from "../../../src/sandbox/discord/interactionSigner.js";

/** The order of Ed25519's group: a signature's S must be below it. */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;

/** The same signature with S + L in place of S: it passes a check that forgets S < L (malleability). */
function withSPlusL(signatureHex: string): string {
  const bytes = Buffer.from(signatureHex, "hex");
  const s = BigInt(`0x${Buffer.from(bytes.subarray(32)).reverse().toString("hex")}`) + L;
  const sBytes = Buffer.from(s.toString(16).padStart(64, "0"), "hex").reverse();
  return Buffer.concat([bytes.subarray(0, 32), sBytes]).toString("hex");
}

// libsodium where sodium-native loads (an optional dependency), OpenSSL through node:crypto always.
const backends: SignatureBackend[] = ["node:crypto"];
if (signatureBackend() === "libsodium") backends.push("libsodium");

describe.each(backends)("Ed25519 verification of Discord's requests (%s)", (backend) => {
  const signer = new InteractionSigner();
  const verify = createSignatureVerifier(signer.publicKeyHex, { backend });
  const body = '{"type":1}';

  it("accepts Discord's signature over timestamp + raw body", () => {
    expect(verify("1700000000", Buffer.from(body), signer.sign("1700000000", body))).toBe(true);
    const unicode = '{"type":2,"data":{"name":"blame","options":[{"value":"naïve ✓"}]}}';
    expect(verify("1700000000", Buffer.from(unicode), signer.sign("1700000000", unicode))).toBe(true);
  });

  it("refuses another key's signature, a changed body or timestamp, and malformed signatures", () => {
    const signature = signer.sign("1700000000", body);
    expect(verify("1700000000", Buffer.from(body), signer.signWithOtherKey("1700000000", body))).toBe(false);
    expect(verify("1700000000", Buffer.from(`${body} `), signature)).toBe(false);
    expect(verify("1700000001", Buffer.from(body), signature)).toBe(false);
    expect(verify("1700000000", Buffer.from(body), "zz")).toBe(false);
    expect(verify("1700000000", Buffer.from(body), signature.slice(2))).toBe(false);
    expect(verify("1700000000", Buffer.from(body), "0".repeat(128))).toBe(false);
  });

  it("checks each request alone, whatever was checked before it: a long body, then shorter ones", () => {
    // The checks share one buffer for what they check: nothing of a longer body may linger.
    const long = JSON.stringify({ type: 2, data: { name: "blame", value: "x".repeat(20_000) } });
    const short = '{"type":2}';
    expect(verify("1700000000", Buffer.from(long), signer.sign("1700000000", long))).toBe(true);
    expect(verify("1700000000", Buffer.from(short), signer.sign("1700000000", short))).toBe(true);
    expect(verify("1700000000", Buffer.from(short), signer.sign("1700000000", long))).toBe(false);
    expect(verify("1700000000", Buffer.from(long), signer.sign("1700000000", short))).toBe(false);
    expect(verify("17", Buffer.from(short), signer.sign("1700000000", short))).toBe(false);
    expect(verify("1700000000", Buffer.from(body), signer.sign("1700000000", body))).toBe(true);
  });

  it("refuses the same signature with S + L (a second form of a valid signature)", () => {
    const signature = signer.sign("1700000000", body);
    expect(withSPlusL(signature)).not.toBe(signature);
    expect(verify("1700000000", Buffer.from(body), withSPlusL(signature))).toBe(false);
  });

  it("refuses a public key that is not 32 bytes of hex", () => {
    expect(() => createSignatureVerifier("abc", { backend })).toThrow(/64 hex digits/);
  });
});

describe("the backend chosen", () => {
  it("is libsodium where sodium-native loads, else node:crypto, and both agree", () => {
    expect(["libsodium", "node:crypto"]).toContain(signatureBackend());
    const signer = new InteractionSigner();
    const body = Buffer.from('{"type":1,"id":"1"}');
    const good = signer.sign("1700000000", body.toString());
    const bad = signer.signWithOtherKey("1700000000", body.toString());
    for (const backend of backends) {
      const verify = createSignatureVerifier(signer.publicKeyHex, { backend });
      expect([verify("1700000000", body, good), verify("1700000000", body, bad)]).toEqual([true, false]);
    }
  });
});
