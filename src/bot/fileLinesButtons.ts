import { z } from "zod";
import type { ButtonPages } from "./buttonState.js";
import { withFields } from "../withFields.js";

/**
 * The state behind the Previous / Next lines buttons of a file (/blame and /contents): the same
 * file at the same pinned commit, the lines of the page to show, and the ref it was asked at (for
 * the footer).
 */
export const fileLinesButtonStateSchema = z.object({
  repo: z.object({ owner: z.string(), name: z.string() }),
  oid: z.string(),
  path: z.string(),
  ref: z.string().optional(),
  start: z.number().int().min(1),
  end: z.number().int().min(1),
});
export type FileLinesButtonState = z.infer<typeof fileLinesButtonStateSchema>;

/** The pages a file's buttons turn to: none at an end of the file. */
export type FileLinesPages = ButtonPages<FileLinesButtonState>;

/**
 * The pages either side of the lines shown (`shown`) of a file of `total` lines, the `answer` read
 * of `repo` (asked at `ref`, for the footer): a page of the same size each way, pinned to the
 * answer's commit (so every page reads the same version, through the cache), none past an end.
 */
export function fileLinesPages(
  repo: FileLinesButtonState["repo"],
  answer: { commit: { oid: string }; path: string },
  ref: string | undefined,
  shown: { start: number; end: number },
  total: number,
): FileLinesPages {
  const base = { repo, oid: answer.commit.oid, path: answer.path, ...(ref !== undefined ? { ref } : {}) };
  const size = shown.end - shown.start + 1;
  const pages: FileLinesPages = {};
  if (total > 0 && shown.start > 1) {
    pages.previous = withFields(base, { start: Math.max(1, shown.start - size), end: shown.start - 1 });
  }
  if (shown.end < total) {
    pages.next = withFields(base, { start: shown.end + 1, end: Math.min(total, shown.end + size) });
  }
  return pages;
}
