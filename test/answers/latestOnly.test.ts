import { describe, expect, it } from "vitest";
import { createLatestOnly } from "../../src/answers/latestOnly.js";

/** A lookup the test finishes by hand. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe("latest-only lookups", () => {
  it("runs one lookup per user at a time and, after it, only the newest of those asked meanwhile", async () => {
    const gate = createLatestOnly();
    const ran: string[] = [];
    const first = deferred<string>();
    const a = gate.run("user", () => {
      ran.push("d");
      return first.promise;
    });
    await Promise.resolve();
    const b = gate.run("user", async () => (ran.push("de"), "de"));
    const c = gate.run("user", async () => (ran.push("dem"), "dem"));
    const other = gate.run("someone else", async () => (ran.push("x"), "x"));
    first.resolve("d");
    expect(await Promise.all([a, b, c, other])).toEqual(["d", undefined, "dem", "x"]);
    expect(ran).toEqual(["d", "x", "dem"]);
  });

  it("goes on after a lookup that failed", async () => {
    const gate = createLatestOnly();
    await expect(gate.run("user", () => Promise.reject(new Error("GitHub down")))).rejects.toThrow(
      "GitHub down",
    );
    expect(await gate.run("user", async () => "next")).toBe("next");
  });
});
