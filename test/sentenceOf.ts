import { expect } from "vitest";
import { isUserFacingError } from "../src/errors.js";
import { errorSentence, type ErrorSituation } from "../src/format/errorSentence.js";

/** A member of a server, on a bot where `/login` is set up, on github.com: the usual situation. */
export const IN_SERVER: ErrorSituation = { signIn: true, inServer: true, webUrl: "https://github.com" };

/** What a user reads for `error` (which must be a user-facing error), in `situation`. */
export function sentenceOf(error: unknown, situation: ErrorSituation = IN_SERVER): string {
  expect(isUserFacingError(error), String(error)).toBe(true);
  return isUserFacingError(error) ? errorSentence(error, situation) : "";
}
