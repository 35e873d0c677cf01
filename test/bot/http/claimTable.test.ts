import { describe, expect, it } from "vitest";
import { createClaimTable } from "../../../src/bot/http/claimTable.js";

/** The same rules over a Map of strings: what the table must answer, claim by claim. */
function model(max: number) {
  const held = new Map<string, { expiry: number; number: number }>();
  const ring: { key: string; number: number }[] = [];
  let claims = 0;
  return {
    claim(key: string, ttlMs: number, now: number): boolean {
      const entry = held.get(key);
      if (entry && entry.expiry > now) return false;
      claims += 1;
      if (ring.length === max) {
        const oldest = ring.shift()!;
        if (held.get(oldest.key)?.number === oldest.number) held.delete(oldest.key);
      }
      ring.push({ key, number: claims });
      held.set(key, { expiry: now + ttlMs, number: claims });
      return true;
    },
    size: () => held.size,
  };
}

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("the claim table", () => {
  it("takes a key once, refuses it until it expires, then takes it again", () => {
    const table = createClaimTable(10);
    expect(table.claim("interaction:1", 1_000, 5_000)).toBe(true);
    expect(table.claim("interaction:1", 1_000, 5_999)).toBe(false);
    expect(table.claim("interaction:2", 1_000, 5_999)).toBe(true);
    expect(table.claim("interaction:1", 1_000, 6_000)).toBe(true);
    expect(table.size()).toBe(2);
  });

  it("drops the oldest claim past its bound, not a key claimed again since", () => {
    const table = createClaimTable(2);
    expect(table.claim("a", 10, 0)).toBe(true);
    expect(table.claim("b", 1_000, 0)).toBe(true);
    // a expired and is claimed again: its first claim is the oldest, but no longer its claim.
    expect(table.claim("a", 1_000, 20)).toBe(true);
    expect(table.claim("a", 1_000, 30)).toBe(false);
    // c drops b (the oldest claim that still holds a key), not a.
    expect(table.claim("c", 1_000, 30)).toBe(true);
    expect(table.claim("a", 1_000, 30)).toBe(false);
    expect(table.claim("b", 1_000, 30)).toBe(true);
    expect(table.size()).toBeLessThanOrEqual(2);
  });

  it("answers as a map of strings would, over 200,000 random claims with repeats, expiries, growth and drops", () => {
    for (const [seed, max, keys] of [
      [1, 3, 8],
      [2, 700, 2_000],
      [3, 5_000, 9_000],
      [4, 20_000, 30_000],
    ] as const) {
      const next = random(seed);
      const table = createClaimTable(max);
      const reference = model(max);
      let now = 1_800_000_000_000;
      for (let i = 0; i < 50_000; i++) {
        now += Math.floor(next() * 3);
        const key = `interaction:13000000${String(Math.floor(next() * keys)).padStart(11, "0")}`;
        const ttl = 1 + Math.floor(next() * 400);
        const expected = reference.claim(key, ttl, now);
        if (table.claim(key, ttl, now) !== expected) {
          throw new Error(`seed ${seed}, claim ${i} of ${key}: the table said ${!expected}`);
        }
      }
      expect(table.size()).toBe(reference.size());
    }
  });

  it("tells apart keys that differ in one character, or by their order", () => {
    const table = createClaimTable(100_000);
    const keys: string[] = [];
    for (let i = 0; i < 60_000; i++) keys.push(`interaction:12000000${String(i).padStart(11, "0")}`);
    for (const key of keys) expect(table.claim(key, 60_000, 0)).toBe(true);
    expect(table.claim("ab", 60_000, 0)).toBe(true);
    expect(table.claim("ba", 60_000, 0)).toBe(true);
    expect(table.size()).toBe(60_002);
  });

  it("refuses a bound below one", () => {
    expect(() => createClaimTable(0)).toThrow(RangeError);
  });
});
