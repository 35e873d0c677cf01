import { InvalidOptionError } from "../errors.js";

/**
 * Parses a path inside a repository: slashes trimmed at both ends, repeated slashes folded; no `..`
 * or `.` segment, no NUL or other control character, at most 4,096 characters. The root is `""`.
 * @throws InvalidOptionError naming `option`.
 */
export function parsePath(raw: string, option = "path"): string {
  const path = raw
    .trim()
    .replace(/\/{2,}/g, "/")
    .replace(/^\/+|\/+$/g, "");
  // eslint-disable-next-line no-control-regex
  if (path.length > 4096 || /[\u0000-\u001f\u007f]/.test(path)) {
    throw new InvalidOptionError(option, "takes a path inside the repository, like `src/app.ts`.");
  }
  if (path.split("/").some((segment) => segment === ".." || segment === ".")) {
    throw new InvalidOptionError(
      option,
      "takes a path inside the repository, like `src/app.ts`; `..` and `.` are not allowed.",
    );
  }
  return path;
}
