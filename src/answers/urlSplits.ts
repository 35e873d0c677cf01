import { RefNotFoundError } from "../github/errors.js";

/**
 * Tries the ways a URL's `<ref>/<path>` can be split (see `RepoArgument.splits`), shortest ref
 * first, as github.com does with a branch named like `feature/gears`: the first split whose ref
 * exists answers. Any other error stops at once; when no ref exists, the first split's error stands.
 */
export async function firstExistingSplit<S extends { ref: string; path: string }, T>(
  splits: readonly S[],
  attempt: (split: S) => Promise<T>,
): Promise<T> {
  let firstError: unknown;
  for (const split of splits) {
    try {
      return await attempt(split);
    } catch (error) {
      if (!(error instanceof RefNotFoundError)) throw error;
      firstError ??= error;
    }
  }
  throw firstError;
}
