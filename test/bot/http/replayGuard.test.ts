import { describe, expect, it } from "vitest";
import { createMemoryReplayGuard } from "../../../src/bot/http/replayGuard.js";

describe("the in-memory replay guard", () => {
  it("takes a key once, refuses it while remembered, and takes it again once forgotten", async () => {
    const guard = createMemoryReplayGuard();
    expect(await guard.claim("signature:ab", 40)).toBe(true);
    expect(await guard.claim("signature:ab", 40)).toBe(false);
    expect(await guard.claim("signature:cd", 40)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await guard.claim("signature:ab", 40)).toBe(true);
  });

  it("stays bounded: past its size the oldest keys go first", async () => {
    const guard = createMemoryReplayGuard({ max: 2 });
    for (const key of ["a", "b", "c"]) expect(await guard.claim(key, 60_000)).toBe(true);
    expect(await guard.claim("c", 60_000)).toBe(false);
    expect(await guard.claim("a", 60_000)).toBe(true);
  });
});
