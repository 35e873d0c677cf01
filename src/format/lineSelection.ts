import { formatCount } from "./message.js";

/** Lines asked for: `requested` false when they are the default first lines, not the user's. */
export interface AskedLines {
  start: number;
  end: number;
  requested: boolean;
}

/** The lines shown (`start..end`, 1-based, inclusive) and the sentences that say which and why. */
export interface LineSelection {
  start: number;
  end: number;
  sentences: string[];
}

/** "Line 5" or "Lines 5–9", with thousands separators. */
function span(start: number, end: number): string {
  return start === end ? `Line ${formatCount(start)}` : `Lines ${formatCount(start)}–${formatCount(end)}`;
}

function lineCount(count: number): string {
  return `${formatCount(count)} ${count === 1 ? "line" : "lines"}`;
}

/** A whole number, or the fallback for anything else. */
function wholeNumber(value: number, fallback: number): number {
  return Number.isFinite(value) ? Math.floor(value) : fallback;
}

/**
 * The lines of a file to show for the lines asked, and the sentences a user reads about them
 * (`/blame` and `/contents` both say them, in the same words):
 * - inside the file: "Lines 5–9 of 2,029." ("Line 5 of 2,029." for one);
 * - running past the end: cut at the last line, "The file has 2,029 lines, so the selection stops
 *   there." (only when the user asked for the lines);
 * - wholly past the end: moved back to the last lines, keeping its size, and said so: "Lines
 *   7,000–7,010 are past the end of the file (2,029 lines); showing the last lines, 2,019–2,029."
 *
 * `complete` is false when `total` counts only the lines GitHub returned of a file whose text it
 * cut (512,000 bytes): the file has more lines, so the sentences speak of "the lines here" and
 * "GitHub's text", never of the end of the file. `total` below 1 gives an empty selection
 * (`end` 0) and no sentence: the caller says the file is empty.
 */
export function selectLines(
  asked: AskedLines,
  total: number,
  options: { complete?: boolean } = {},
): LineSelection {
  const last = Math.floor(total);
  if (!(last >= 1)) return { start: 1, end: 0, sentences: [] };
  const complete = options.complete ?? true;
  let start = Math.max(1, wholeNumber(asked.start, 1));
  let end = Math.max(1, wholeNumber(asked.end, start));
  if (end < start) [start, end] = [end, start];
  const of = complete ? formatCount(last) : `the ${formatCount(last)} here`;

  if (start > last) {
    // Wholly past the end: the window moves back to the last lines, keeping its size.
    const shownStart = Math.max(1, last - (end - start));
    const where = complete
      ? `past the end of the file (${lineCount(last)})`
      : `past the end of GitHub's text (${lineCount(last)})`;
    const here = complete ? "" : " here";
    let showing: string;
    if (shownStart === 1 && last === 1) showing = "showing its only line";
    else if (shownStart === 1) showing = `showing all ${lineCount(last)}${here}`;
    else if (shownStart === last) showing = `showing the last line${here}, ${formatCount(last)}`;
    else showing = `showing the last lines${here}, ${formatCount(shownStart)}–${formatCount(last)}`;
    const verb = start === end ? "is" : "are";
    return { start: shownStart, end: last, sentences: [`${span(start, end)} ${verb} ${where}; ${showing}.`] };
  }

  const shownEnd = Math.min(end, last);
  const sentences = [`${span(start, shownEnd)} of ${of}.`];
  if (end > last && asked.requested) {
    sentences.push(
      complete
        ? `The file has ${lineCount(last)}, so the selection stops there.`
        : `GitHub's text stops at line ${formatCount(last)}, so the selection stops there.`,
    );
  }
  return { start, end: shownEnd, sentences };
}
