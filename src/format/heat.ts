/**
 * The heat mark of a blame range. GitHub's `age` is a quantile bucket from 1 (the newest changes of
 * the file) to 10 (the oldest), relative to the file's own history. Five colours, two ages each,
 * read like a thermometer: red is hot (changed recently), blue is cold (untouched for long).
 *
 *   🟥 age 1-2 · 🟧 age 3-4 · 🟨 age 5-6 · 🟩 age 7-8 · 🟦 age 9-10 · ⬜ unknown
 */

const MARKS = ["🟥", "🟧", "🟨", "🟩", "🟦"] as const;

/** The mark of an age that is not a number from 1 to 10. */
export const UNKNOWN_HEAT = "⬜";

/** The one-line legend shown under a blame. */
export const HEAT_LEGEND = "Heat: 🟥 newest · 🟧 · 🟨 · 🟩 · 🟦 oldest (relative to this file's history)";

/** 0 (hottest) .. 4 (coldest), or null when the age cannot be read. */
export function heatLevel(age: number): number | null {
  if (!Number.isFinite(age)) return null;
  const clamped = Math.min(10, Math.max(1, Math.round(age)));
  return Math.floor((clamped - 1) / 2);
}

/** The heat mark of a blame age: 🟥 (1-2, newest) .. 🟦 (9-10, oldest), ⬜ when unknown. */
export function heatMark(age: number): string {
  const level = heatLevel(age);
  return level === null ? UNKNOWN_HEAT : (MARKS[level] ?? UNKNOWN_HEAT);
}
