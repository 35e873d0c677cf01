import { describe, expect, it } from "vitest";
import { settleWithin, settlesWithin } from "../src/timeouts.js";

const later = <T>(ms: number, value: T): Promise<T> =>
  new Promise((resolve) => setTimeout(() => resolve(value), ms));

describe("the one timeout race", () => {
  it("gives the value of a promise that settles in time", async () => {
    expect(await settleWithin(later(5, "done"), 1_000)).toEqual({ timedOut: false, value: "done" });
  });

  it("says time ran out for one that does not", async () => {
    expect(await settleWithin(later(1_000, "late"), 10)).toEqual({ timedOut: true });
  });

  it("rejects with a failure in time, and swallows one after the bound", async () => {
    await expect(settleWithin(Promise.reject(new Error("broken")), 1_000)).rejects.toThrow("broken");
    const late = new Promise((_resolve, reject) => setTimeout(() => reject(new Error("late failure")), 20));
    expect(await settleWithin(late, 5)).toEqual({ timedOut: true });
    // An unhandled rejection would fail the run here.
    await later(40, null);
  });

  it("counts a failure as settled when only settling matters", async () => {
    expect(await settlesWithin(Promise.reject(new Error("x")), 1_000)).toBe(true);
    expect(await settlesWithin(later(1_000, null), 10)).toBe(false);
  });
});
