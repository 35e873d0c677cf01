import { describe, expect, it } from "vitest";
import {
  OUTAGE_MAX_AGE_SECONDS,
  createMemoryReplayGuard,
  createSharedReplayGuard,
} from "../../../src/bot/http/replayGuard.js";
import { memoryCoordination } from "../../../src/cache/coordination.js";

describe("the in-memory replay guard", () => {
  it("takes a key once, refuses it while remembered, and takes it again once forgotten", async () => {
    const guard = createMemoryReplayGuard();
    expect(await guard.claim("signature:ab", 40, 0)).toBe(true);
    expect(await guard.claim("signature:ab", 40, 0)).toBe(false);
    expect(await guard.claim("signature:cd", 40, 0)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await guard.claim("signature:ab", 40, 0)).toBe(true);
  });

  it("stays bounded: past its size the oldest keys go first", async () => {
    const guard = createMemoryReplayGuard({ max: 2 });
    for (const key of ["a", "b", "c"]) expect(await guard.claim(key, 60_000, 0)).toBe(true);
    expect(await guard.claim("c", 60_000, 0)).toBe(false);
    expect(await guard.claim("a", 60_000, 0)).toBe(true);
  });
});

describe("the replay guard over claims that are not shared (one process, memory stores)", () => {
  it("refuses a replay from this process's memory alone, without holding each key a second time in the claims", async () => {
    const claims = memoryCoordination();
    const asked: string[] = [];
    const guard = createSharedReplayGuard({
      shared: claims.shared,
      claim(key, ttlMs) {
        asked.push(key);
        return claims.claim(key, ttlMs);
      },
    });
    expect(await guard.claim("interaction:1", 60_000, Date.now())).toBe(true);
    expect(await guard.claim("interaction:1", 60_000, Date.now())).toBe(false);
    expect(await guard.claim("interaction:2", 60_000, Date.now())).toBe(true);
    expect(asked).toEqual([]);
  });
});

/**
 * Two processes behind one load balancer sharing one store (the coordination Redis gives them),
 * which can be made to fail as a Redis outage does.
 */
function twoProcesses() {
  const store = memoryCoordination();
  const outage = { on: false };
  const shared = {
    claim(key: string, ttlMs: number): Promise<boolean> {
      return outage.on ? Promise.reject(new Error("Redis claim timed out")) : store.claim(key, ttlMs);
    },
  };
  const clock = { now: 1_800_000_000_000 };
  const now = (): number => clock.now;
  return {
    outage,
    clock,
    first: createSharedReplayGuard(shared, { now }),
    second: createSharedReplayGuard(shared, { now }),
  };
}

describe("the shared replay guard while the shared store is down", () => {
  const TTL = 600_000;

  it("refuses a replay whichever process it reaches while the store answers", async () => {
    const { first, second, clock } = twoProcesses();
    expect(await first.claim("signature:aa", TTL, clock.now - 60_000)).toBe(true);
    expect(await second.claim("signature:aa", TTL, clock.now - 60_000)).toBe(false);
  });

  it(`takes a request signed in the last ${OUTAGE_MAX_AGE_SECONDS} s once per process, and refuses an older one`, async () => {
    const { first, outage, clock } = twoProcesses();
    outage.on = true;
    expect(await first.claim("signature:fresh", TTL, clock.now - 1_000)).toBe(true);
    expect(await first.claim("signature:fresh", TTL, clock.now - 1_000)).toBe(false);
    // A minute old, within the 5 minutes the endpoint takes: another process may hold it already.
    expect(await first.claim("signature:old", TTL, clock.now - 60_000)).toBe(false);
    expect(await first.claim("signature:edge", TTL, clock.now - (OUTAGE_MAX_AGE_SECONDS + 1) * 1000)).toBe(
      false,
    );
  });

  it("bounds a replay to another process by the short window, during the outage and after it", async () => {
    const { first, second, outage, clock } = twoProcesses();
    outage.on = true;
    const signedAt = clock.now;
    expect(await first.claim("signature:captured", TTL, signedAt)).toBe(true);
    await second.claim("signature:other", TTL, clock.now); // the second process sees the outage too
    // Past the short window, the captured request is refused by the process that never saw it...
    clock.now += (OUTAGE_MAX_AGE_SECONDS + 1) * 1000;
    expect(await second.claim("signature:captured", TTL, signedAt)).toBe(false);
    // ...and still once the store is back, which never learnt that the first process took it.
    outage.on = false;
    expect(await second.claim("signature:captured2", TTL, signedAt)).toBe(false);
    expect(await second.claim("signature:captured", TTL, signedAt)).toBe(false);
    // A request signed after the store came back is shared again, with the full window.
    clock.now += 1_000;
    expect(await second.claim("signature:new", TTL, clock.now - 1)).toBe(true);
    expect(await first.claim("signature:new", TTL, clock.now - 1)).toBe(false);
  });
});
