/**
 * Tab completion of the terminal chat over the bot's own autocomplete choices. The bot suggests
 * what CONTAINS the typed text (`demo/w` gives `demo/widgets` and `demo/crowd`), while a terminal
 * completes what BEGINS with it: so the typed text grows to the longest start the matching choices
 * share, and every choice is listed when there are several.
 */

/** What Tab does: the value the option now holds, and the choices to list (none for one). */
export interface Completion {
  value: string;
  listing: string[];
}

function commonStart(values: readonly string[]): string {
  let prefix = values[0] ?? "";
  for (const value of values.slice(1)) {
    let length = 0;
    while (
      length < prefix.length &&
      length < value.length &&
      prefix[length]!.toLowerCase() === value[length]!.toLowerCase()
    )
      length += 1;
    prefix = prefix.slice(0, length);
  }
  return prefix;
}

/**
 * Completes `typed` against `choices` (the values the bot suggested): a single choice is taken
 * whole; with several, the typed text grows to the longest start shared by the choices that begin
 * with it (GitHub names match without regard to case), and all of them are listed.
 */
export function completeOption(typed: string, choices: readonly string[]): Completion {
  const unique = [...new Set(choices)];
  if (unique.length === 0) return { value: typed, listing: [] };
  if (unique.length === 1) return { value: unique[0]!, listing: [] };
  const lower = typed.toLowerCase();
  const beginning = unique.filter((choice) => choice.toLowerCase().startsWith(lower));
  const start = commonStart(beginning);
  return { value: start.length > typed.length ? start : typed, listing: unique };
}

/** Lays out a listing in columns that fit `width`, as shells list completions. */
export function listingColumns(values: readonly string[], width: number): string {
  const cell = Math.max(...values.map((value) => value.length)) + 2;
  const perRow = Math.max(1, Math.floor(width / cell));
  const rows: string[] = [];
  for (let index = 0; index < values.length; index += perRow) {
    rows.push(
      values
        .slice(index, index + perRow)
        .map((value) => value.padEnd(cell))
        .join("")
        .trimEnd(),
    );
  }
  return rows.join("\n");
}
