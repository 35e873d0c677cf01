import { z } from "zod";
import type { ButtonPages } from "./buttonState.js";

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
