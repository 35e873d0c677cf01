import { describe, expect, it } from "vitest";
import { completeOption, listingColumns } from "../../src/sandbox/completion.js";

describe("Tab completion of the terminal chat", () => {
  it("takes a single suggestion whole", () => {
    expect(completeOption("demo/wid", ["demo/widgets"])).toEqual({ value: "demo/widgets", listing: [] });
  });

  it("grows the typed text to what the suggestions that begin with it share, and lists them all", () => {
    expect(completeOption("demo/w", ["demo/widgets", "demo/crowd"])).toEqual({
      value: "demo/widgets",
      listing: ["demo/widgets", "demo/crowd"],
    });
    expect(completeOption("demo/ge", ["demo/gears", "demo/gearbox", "demo/cogs-ge"])).toEqual({
      value: "demo/gear",
      listing: ["demo/gears", "demo/gearbox", "demo/cogs-ge"],
    });
  });

  it("keeps the typed text when the suggestions only contain it", () => {
    expect(completeOption("ow", ["demo/crowd", "demo/widgets-owl"])).toEqual({
      value: "ow",
      listing: ["demo/crowd", "demo/widgets-owl"],
    });
  });

  it("matches the start without regard to case, as GitHub names do", () => {
    expect(completeOption("Demo/W", ["demo/wheat", "demo/wheels"]).value).toBe("demo/whe");
  });

  it("completes nothing from no suggestion", () => {
    expect(completeOption("zz", [])).toEqual({ value: "zz", listing: [] });
  });

  it("lays a listing out in columns that fit the width", () => {
    expect(listingColumns(["aa", "bbbb", "c"], 14)).toBe("aa    bbbb\nc");
  });
});
