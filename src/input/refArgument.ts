import { InvalidOptionError } from "../errors.js";

/**
 * Parses a ref (branch, tag, commit id, or a revision like `main~2`). It becomes part of a git
 * revision expression (`<ref>:<path>`), so what would change the expression's meaning is refused:
 * `:`, whitespace, control characters, `..` (a range), a leading `-`, and git's forbidden ref
 * characters. At most 255 characters.
 * @throws InvalidOptionError naming `option`.
 */
export function parseRef(raw: string, option = "ref"): string {
  const ref = raw.trim();
  const valid =
    ref.length > 0 &&
    ref.length <= 255 &&
    // eslint-disable-next-line no-control-regex
    !/[\u0000-\u0020\u007f:?*[\\]/.test(ref) &&
    !ref.includes("..") &&
    !ref.includes("@{") &&
    !ref.startsWith("-") &&
    !ref.startsWith("/") &&
    !ref.endsWith("/") &&
    !ref.endsWith(".lock") &&
    !ref.endsWith(".");
  if (!valid) {
    throw new InvalidOptionError(
      option,
      "takes a branch, tag or commit id, like `main`, `v1.2.0` or `a1b2c3d`.",
    );
  }
  return ref;
}
