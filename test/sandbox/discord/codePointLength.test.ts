import { describe, expect, it } from "vitest";
import { codePointLength } from "../../../src/sandbox/discord/json.js";

/** What Discord counts: code points, as iterating a string yields them (a lone surrogate is one). */
const byIteration = (text: string): number => [...text].length;

describe("codePointLength", () => {
  it.each([
    ["", 0],
    ["plain ASCII", 11],
    ["naïve – café · 日本", 17],
    ["😀", 1],
    ["a😀b😀", 4],
    ["\ud800", 1],
    ["\udc00", 1],
    ["\udc00\ud800", 2],
    ["\ud800\ud800\udc00", 2],
    ["x\ud83d", 2],
  ])("counts %j as %i code points", (text, expected) => {
    expect(codePointLength(text)).toBe(expected);
    expect(codePointLength(text)).toBe(byIteration(text));
  });

  it("agrees with iteration on long and mixed texts, called again and again (its pattern holds no state between calls)", () => {
    const pieces = ["x", "é", "😀", "\ud800", "\udc00", "日", "\n"];
    let seed = 7;
    for (let round = 0; round < 200; round++) {
      let text = "";
      for (let n = 0; n < 50 + round * 10; n++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        text += pieces[seed % pieces.length];
      }
      expect(codePointLength(text)).toBe(byIteration(text));
    }
    expect(codePointLength("x".repeat(4096) + "😀")).toBe(4097);
  });
});
