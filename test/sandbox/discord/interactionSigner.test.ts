import { createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { InteractionSigner } from "../../../src/sandbox/discord/interactionSigner.js";

const SEED = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
const PKCS8_PREFIX = "302e020100300506032b657004220420";

describe("the local Discord's interaction signer", () => {
  it("signs exactly as Ed25519 over timestamp + body does, whichever library signs", () => {
    const signer = new InteractionSigner(SEED);
    const key = createPrivateKey({
      key: Buffer.from(PKCS8_PREFIX + SEED, "hex"),
      format: "der",
      type: "pkcs8",
    });
    const message = '1700000000{"type":2,"data":{"name":"blame"}}';
    // RFC 8032's first test key: its public key, and a signature node:crypto makes the same way.
    expect(signer.publicKeyHex).toBe("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
    expect(signer.sign("1700000000", '{"type":2,"data":{"name":"blame"}}')).toBe(
      sign(null, Buffer.from(message), key).toString("hex"),
    );
  });

  it("signs with another key when asked for a bad signature", () => {
    const signer = new InteractionSigner(SEED);
    const publicKey = createPublicKey(
      createPrivateKey({ key: Buffer.from(PKCS8_PREFIX + SEED, "hex"), format: "der", type: "pkcs8" }),
    );
    const other = signer.signWithOtherKey("1700000000", "{}");
    expect(other).toMatch(/^[0-9a-f]{128}$/);
    expect(verify(null, Buffer.from("1700000000{}"), publicKey, Buffer.from(other, "hex"))).toBe(false);
    expect(
      verify(
        null,
        Buffer.from("1700000000{}"),
        publicKey,
        Buffer.from(signer.sign("1700000000", "{}"), "hex"),
      ),
    ).toBe(true);
  });
});
