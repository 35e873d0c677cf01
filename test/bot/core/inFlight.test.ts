import { describe, expect, it } from "vitest";
import { InFlight } from "../../../src/bot/core/inFlight.js";

describe("the interactions in flight", () => {
  it("lists what was added, oldest first, and forgets each once removed, in any order", () => {
    const list = new InFlight<string>();
    const [a, b, c, d] = ["a", "b", "c", "d"].map((value) => list.add(value));
    expect(list.values()).toEqual(["a", "b", "c", "d"]);
    list.remove(b!);
    expect(list.values()).toEqual(["a", "c", "d"]);
    list.remove(d!);
    expect(list.values()).toEqual(["a", "c"]);
    list.remove(a!);
    expect(list.values()).toEqual(["c"]);
    expect(list.size).toBe(1);
    list.remove(c!);
    expect(list.values()).toEqual([]);
    expect(list.size).toBe(0);
    list.add("e");
    expect(list.values()).toEqual(["e"]);
  });

  it("changes nothing when a node is removed twice", () => {
    const list = new InFlight<string>();
    const a = list.add("a");
    list.add("b");
    list.remove(a);
    list.remove(a);
    expect(list.values()).toEqual(["b"]);
    expect(list.size).toBe(1);
  });

  it("finds the newest value that matches", () => {
    const list = new InFlight<{ id: string; n: number }>();
    list.add({ id: "x", n: 1 });
    const second = list.add({ id: "x", n: 2 });
    list.add({ id: "y", n: 3 });
    expect(list.findLast((value) => value.id === "x")?.n).toBe(2);
    list.remove(second);
    expect(list.findLast((value) => value.id === "x")?.n).toBe(1);
    expect(list.findLast((value) => value.id === "z")).toBeUndefined();
  });
});
