import { z } from "zod";
import type { NavigationButtons } from "../format/message.js";
import type { ButtonStateStore } from "./buttonState.js";

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
export interface FileLinesPages {
  previous?: FileLinesButtonState;
  next?: FileLinesButtonState;
}

/** The buttons' custom ids (`<prefix>:<key>`), each page's state stored. */
export async function storedButtons(
  prefix: string,
  pages: FileLinesPages,
  buttons: ButtonStateStore,
): Promise<NavigationButtons> {
  const ids: NavigationButtons = {};
  if (pages.previous) ids.previous = `${prefix}:${await buttons.put(pages.previous)}`;
  if (pages.next) ids.next = `${prefix}:${await buttons.put(pages.next)}`;
  return ids;
}

/**
 * {@link storedButtons} at once, when this process stored each page's state lately (so storing
 * would write nothing); undefined when a state must be stored first.
 */
export function heldButtons(
  prefix: string,
  pages: FileLinesPages,
  buttons: ButtonStateStore,
): NavigationButtons | undefined {
  const ids: NavigationButtons = {};
  for (const side of ["previous", "next"] as const) {
    const state = pages[side];
    if (!state) continue;
    const key = buttons.heldKey?.(state);
    if (key === undefined) return undefined;
    ids[side] = `${prefix}:${key}`;
  }
  return ids;
}
