import { describe, expect, it } from "vitest";
import { blameStoredForm } from "../../src/cache/storedForms.js";
import type { BlameAnswer } from "../../src/github/types.js";
import { makeBlame, makeLines, makeRanges } from "../format/fixtures.js";

describe("a blame's stored form (issue 23)", () => {
  const answer: BlameAnswer = makeBlame({ lines: makeLines(2_000, 40), ranges: makeRanges(2_000, 578, 50) });

  it("reads back exactly the answer it stored, in well under half the JSON", () => {
    const stored = JSON.stringify(blameStoredForm.encode(answer));
    const read = blameStoredForm.decode(JSON.parse(stored)) as BlameAnswer;
    expect(read).toEqual(answer);
    // The ranges alone: the text is the same in both forms.
    const rangesOnly = (value: unknown) =>
      JSON.stringify(value).length - JSON.stringify((answer.file as { text: string }).text).length;
    expect(rangesOnly(blameStoredForm.encode(answer))).toBeLessThan(rangesOnly(answer) / 2);
  });

  it("shares one object per commit among the ranges it reads back", () => {
    const read = blameStoredForm.decode(
      JSON.parse(JSON.stringify(blameStoredForm.encode(answer))),
    ) as BlameAnswer;
    const commits = new Set(read.ranges.map((range) => range.commit));
    expect(commits.size).toBe(new Set(answer.ranges.map((range) => range.commit.oid)).size);
  });

  it("reads a record that names a commit outside its table as a miss, and passes other values as they are", () => {
    const stored = JSON.parse(JSON.stringify(blameStoredForm.encode(answer))) as { ranges: number[] };
    stored.ranges[3] = 9_999;
    expect(blameStoredForm.decode(stored)).toBeUndefined();
    expect(blameStoredForm.encode({ text: "not a blame" })).toEqual({ text: "not a blame" });
    expect(blameStoredForm.decode({ text: "not a blame" })).toEqual({ text: "not a blame" });
    expect(blameStoredForm.decode("plain")).toBe("plain");
  });
});
