import { describe, expect, it } from "vitest";
import { selectLines } from "../../src/format/lineSelection.js";

describe("selectLines: which lines are shown and the sentences that say so", () => {
  it("says 'Line 5 of 2,029.' for one line, not 'Lines 5–5'", () => {
    expect(selectLines({ start: 5, end: 5, requested: true }, 2029)).toEqual({
      start: 5,
      end: 5,
      sentences: ["Line 5 of 2,029."],
    });
  });

  it("says 'Lines 5–9 of 2,029.' for a span inside the file", () => {
    expect(selectLines({ start: 5, end: 9, requested: true }, 2029).sentences).toEqual([
      "Lines 5–9 of 2,029.",
    ]);
  });

  it("stops a span that runs past the end at the last line, and says the file ends there", () => {
    expect(selectLines({ start: 2000, end: 2100, requested: true }, 2029)).toEqual({
      start: 2000,
      end: 2029,
      sentences: ["Lines 2,000–2,029 of 2,029.", "The file has 2,029 lines, so the selection stops there."],
    });
  });

  it("says nothing of the end when the default first lines are more than the file has", () => {
    expect(selectLines({ start: 1, end: 20, requested: false }, 7).sentences).toEqual(["Lines 1–7 of 7."]);
  });

  it("moves a span wholly past the end back to the last lines, and says that it moved and why", () => {
    const selection = selectLines({ start: 7000, end: 7010, requested: true }, 2029);
    expect(selection).toMatchObject({ start: 2019, end: 2029 });
    expect(selection.sentences).toEqual([
      "Lines 7,000–7,010 are past the end of the file (2,029 lines); showing the last lines, 2,019–2,029.",
    ]);
    expect(selection.sentences.join(" ")).not.toContain("stops there");
  });

  it("words a moved single line, a moved span longer than the file, and a one-line file", () => {
    expect(selectLines({ start: 9000, end: 9000, requested: true }, 2029).sentences).toEqual([
      "Line 9,000 is past the end of the file (2,029 lines); showing the last line, 2,029.",
    ]);
    expect(selectLines({ start: 50, end: 90, requested: true }, 12).sentences).toEqual([
      "Lines 50–90 are past the end of the file (12 lines); showing all 12 lines.",
    ]);
    expect(selectLines({ start: 3, end: 4, requested: true }, 1).sentences).toEqual([
      "Lines 3–4 are past the end of the file (1 line); showing its only line.",
    ]);
  });

  it("never calls the lines GitHub returned of a cut file 'the file', nor contradicts the cut", () => {
    const options = { complete: false } as const;
    expect(selectLines({ start: 1, end: 20, requested: false }, 7405, options).sentences).toEqual([
      "Lines 1–20 of the 7,405 here.",
    ]);
    expect(selectLines({ start: 7000, end: 8000, requested: true }, 7405, options).sentences).toEqual([
      "Lines 7,000–7,405 of the 7,405 here.",
      "GitHub's text stops at line 7,405, so the selection stops there.",
    ]);
    expect(selectLines({ start: 8000, end: 8010, requested: true }, 7405, options).sentences).toEqual([
      "Lines 8,000–8,010 are past the end of GitHub's text (7,405 lines); showing the last lines here, 7,395–7,405.",
    ]);
    for (const start of [1, 7000, 8000]) {
      const words = selectLines({ start, end: start + 1000, requested: true }, 7405, options).sentences.join(
        " ",
      );
      expect(words).not.toMatch(/file has|end of the file/);
    }
  });

  it("is total: reversed, fractional, non-finite and out-of-range input give lines of the file", () => {
    expect(selectLines({ start: 9, end: 3, requested: true }, 20)).toMatchObject({ start: 3, end: 9 });
    expect(selectLines({ start: 2.7, end: 4.2, requested: true }, 20)).toMatchObject({ start: 2, end: 4 });
    expect(
      selectLines({ start: Number.NaN, end: Number.POSITIVE_INFINITY, requested: true }, 20),
    ).toMatchObject({
      start: 1,
      end: 1,
    });
    expect(selectLines({ start: -5, end: 2, requested: true }, 20)).toMatchObject({ start: 1, end: 2 });
    expect(selectLines({ start: 1, end: 20, requested: false }, 0)).toEqual({
      start: 1,
      end: 0,
      sentences: [],
    });
  });
});
