import { describe, expect, it } from "vitest";
import { sentenceOf } from "../sentenceOf.js";
import { memoryCoordination } from "../../src/cache/coordination.js";
import { TokenChecksExhaustedError, createSharedAttemptLimit } from "../../src/tokens/attemptLimit.js";

describe("the attempt limit of /token set", () => {
  it("allows 5 attempts per key in a sliding 10 minutes and says when the next one is allowed", async () => {
    let now = 0;
    const limit = createSharedAttemptLimit(
      memoryCoordination(() => now),
      { max: 5, windowMs: 600_000, prefix: "token-checks" },
    );
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(await limit.take("server-a")).toBeNull();
      now += 60_000;
    }
    // Five attempts at 0, 1, 2, 3 and 4 minutes: the sixth waits for the first to leave the window.
    expect(await limit.take("server-a")).toEqual(new Date(600_000));
    expect(await limit.take("server-b")).toBeNull();
    now = 600_001;
    expect(await limit.take("server-a")).toBeNull();
    expect(await limit.take("server-a")).toEqual(new Date(660_000));
  });

  it("tells the admin when to try again, and that nothing was sent", () => {
    const error = new TokenChecksExhaustedError(new Date(1_900_000_000_000));
    expect(sentenceOf(error)).toContain("<t:1900000000:R>");
    expect(sentenceOf(error)).toMatch(/not sent to GitHub/);
  });
});
