/**
 * The numbers behind a section's printed lines, so that the goals runner (./goals.ts) can set the
 * same figure over several runs side by side: each figure with its baseline measured in the same run.
 */

/** One measured figure of RepoScout, and its baseline's. */
export interface Figure {
  /** What is measured, with the unit ("cached /blame p50, gateway, ms"). */
  name: string;
  /** Whose figure it is, when not simply RepoScout's ("two processes"). */
  who?: string;
  value: number;
  /** The same measure of the baseline in the same run (the bare bot, one process), if there is one. */
  baseline?: { name: string; value: number };
  /** The goal for it, as a person reads it. */
  goal: string;
}

/** What a section prints, and the figures its lines show. */
export interface Measured {
  lines: string[];
  figures: Figure[];
}
