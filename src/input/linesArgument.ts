import { InvalidOptionError } from "../errors.js";

/** A 1-based inclusive span of lines. */
export interface LineSpan {
  start: number;
  end: number;
}

/** Files past this line count are not something a person asks for by number. */
const MAX_LINE = 10_000_000;

/**
 * Parses the `lines` option: `"12"` or `"12-40"` (also `L12-L40`), 1 <= start <= end.
 * @throws InvalidOptionError naming `option` and the form it takes.
 */
export function parseLines(raw: string, option = "lines"): LineSpan {
  const match = /^\s*L?(\d{1,9})\s*(?:[-–:]\s*L?(\d{1,9}))?\s*$/i.exec(raw);
  const form = "takes a line number or a span, like `12` or `12-40`, counting from 1";
  if (!match) throw new InvalidOptionError(option, `${form}.`);
  const start = Number(match[1]);
  const end = match[2] === undefined ? start : Number(match[2]);
  if (start < 1 || end > MAX_LINE) throw new InvalidOptionError(option, `${form}.`);
  if (end < start) {
    throw new InvalidOptionError(option, `${form}; \`${start}-${end}\` ends before it starts.`);
  }
  return { start, end };
}
