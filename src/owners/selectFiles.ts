/**
 * Which files of a folder `/owners` reads: the largest text files first, at most
 * {@link MAX_OWNER_FILES}; binary files and files over GitHub's text limit are left out and named.
 * Pure.
 */
import type { OwnersTarget } from "../github/ownershipTypes.js";

/** The most files one `/owners` answer blames (SPEC section 1). */
export const MAX_OWNER_FILES = 100;

/**
 * Files over this many bytes are not blamed: GitHub cuts a blob's text there, and a large file's
 * blame alone can take seconds of GitHub's 10 (GITHUB-FACTS.md).
 */
export const MAX_BLAMED_BYTES = 512_000;

/** The files to blame, and those left out by kind. */
export interface FileSelection {
  read: string[];
  binary: string[];
  tooLarge: string[];
  /** Text files past the first {@link MAX_OWNER_FILES} (the smallest ones). */
  beyondLimit: string[];
  /** Folders deeper than the listing reached. */
  deeperFolders: string[];
  /** Every file the listing holds. */
  total: number;
}

/** Chooses the files of `/owners` for a file or a folder at `path`. */
export function selectFiles(path: string, target: OwnersTarget): FileSelection {
  if (target.kind === "file") {
    const binary = target.isBinary === true;
    const tooLarge = !binary && target.byteSize > MAX_BLAMED_BYTES;
    return {
      read: binary || tooLarge ? [] : [path],
      binary: binary ? [path] : [],
      tooLarge: tooLarge ? [path] : [],
      beyondLimit: [],
      deeperFolders: [],
      total: 1,
    };
  }
  const binary = target.files.filter((file) => file.isBinary === true).map((file) => file.path);
  const tooLarge = target.files
    .filter((file) => file.isBinary !== true && file.size > MAX_BLAMED_BYTES)
    .map((file) => file.path);
  const text = target.files
    .filter((file) => file.isBinary !== true && file.size <= MAX_BLAMED_BYTES && file.size > 0)
    .sort((a, b) => b.size - a.size || a.path.localeCompare(b.path, "en"));
  return {
    read: text.slice(0, MAX_OWNER_FILES).map((file) => file.path),
    binary,
    tooLarge,
    beyondLimit: text.slice(MAX_OWNER_FILES).map((file) => file.path),
    deeperFolders: target.deeperFolders,
    total: target.files.length,
  };
}
