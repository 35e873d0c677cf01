import { describe, expect, it } from "vitest";
import { createSignatureVerifier } from "../../../src/bot/http/signature.js";
import { InteractionSigner } from "../../../src/sandbox/discord/interactionSigner.js";

describe("Ed25519 verification of Discord's requests", () => {
  const signer = new InteractionSigner();
  const verify = createSignatureVerifier(signer.publicKeyHex);
  const body = '{"type":1}';

  it("accepts Discord's signature over timestamp + raw body", () => {
    expect(verify("1700000000", Buffer.from(body), signer.sign("1700000000", body))).toBe(true);
  });

  it("refuses another key's signature, a changed body or timestamp, and malformed signatures", () => {
    const signature = signer.sign("1700000000", body);
    expect(verify("1700000000", Buffer.from(body), signer.signWithOtherKey("1700000000", body))).toBe(false);
    expect(verify("1700000000", Buffer.from(`${body} `), signature)).toBe(false);
    expect(verify("1700000001", Buffer.from(body), signature)).toBe(false);
    expect(verify("1700000000", Buffer.from(body), "zz")).toBe(false);
    expect(verify("1700000000", Buffer.from(body), signature.slice(2))).toBe(false);
  });

  it("refuses a public key that is not 32 bytes of hex", () => {
    expect(() => createSignatureVerifier("abc")).toThrow(/64 hex digits/);
  });
});
