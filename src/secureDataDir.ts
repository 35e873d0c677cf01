import { chmod, mkdir, open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "./logger.js";

/**
 * DATA_DIR holds the token vault, the answer cache (private code included) and key files, so it
 * is readable by its owner only (SPEC section 4): the folder 0700, its files 0600. The modes are
 * set when RepoScout creates them and tightened when they already exist with looser ones (a
 * folder made by hand, a volume, files from an older version). Where a mode cannot be changed
 * (a folder owned by another user, a read-only mount) the start goes on with a warning: the
 * operator may have isolated the folder by other means, and refusing to start would turn a
 * hardening step into an outage. A folder that holds anything but RepoScout's own entries
 * (`DATA_DIR=.`, `/tmp`) is not RepoScout's to lock: its mode is left alone, with a warning, and
 * only RepoScout's files in it are made private.
 */

const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;
/** Bits that let anyone but the owner in. */
const GROUP_OR_OTHER = 0o077;

/** The files RepoScout keeps in DATA_DIR, SQLite's side files included. */
export const DATA_DIR_FILES: readonly string[] = [
  ...["cache.sqlite", "vault.sqlite"].flatMap((name) =>
    ["", "-wal", "-shm", "-journal"].map((suffix) => `${name}${suffix}`),
  ),
  "token-encryption.key",
  "fingerprint.key",
  // The local sandbox's log.
  "sandbox.log",
];

/** What else RepoScout keeps in DATA_DIR: the sandbox's generated demo world (a folder). */
const OTHER_OWN_ENTRIES: readonly string[] = ["demo-world"];

/** POSIX modes mean nothing on Windows, where Node's chmod only toggles read-only. */
const MODES_APPLY = process.platform !== "win32";

/** What could not be made private, for a warning. */
export interface ModeProblem {
  path: string;
  /** The mode found (octal string), or null when it could not be read. */
  mode: string | null;
  reason: string;
}

/** Sets `mode` on `path` when group or others have any access; @returns the problem, if any. */
async function tighten(path: string, mode: number): Promise<ModeProblem | null> {
  if (!MODES_APPLY) return null;
  let found: number;
  try {
    found = (await stat(path)).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    return { path, mode: null, reason: (error as Error).message };
  }
  if ((found & GROUP_OR_OTHER) === 0) return null;
  try {
    await chmod(path, mode);
    return null;
  } catch (error) {
    return { path, mode: found.toString(8), reason: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}

/** Entries of `dir` that are not RepoScout's. */
async function foreignEntries(dir: string): Promise<string[]> {
  const own = new Set([...DATA_DIR_FILES, ...OTHER_OWN_ENTRIES]);
  return (await readdir(dir)).filter((name) => !own.has(name));
}

/**
 * Creates `dir` (and missing parents) with mode 0700, or tightens it to 0700 when it exists with a
 * looser mode and holds nothing but RepoScout's entries. @returns what was not tightened, and why.
 */
export async function ensurePrivateDir(dir: string): Promise<ModeProblem | null> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!MODES_APPLY) return null;
  const found = (await stat(dir)).mode & 0o777;
  if ((found & GROUP_OR_OTHER) === 0) return null;
  const foreign = await foreignEntries(dir);
  if (foreign.length > 0) {
    return {
      path: dir,
      mode: found.toString(8),
      reason: `it also holds ${foreign.length} entr${foreign.length === 1 ? "y" : "ies"} that are not RepoScout's (such as ${foreign[0]}), so its mode is left to you`,
    };
  }
  return tighten(dir, PRIVATE_DIR_MODE);
}

/**
 * Makes sure `path` exists as a file of mode 0600 before another library opens it: SQLite creates
 * its files with the default mode (0644 under the usual umask) and gives its `-wal`, `-shm` and
 * `-journal` files the mode of the database file, so a database created private stays private.
 * @returns what could not be tightened.
 */
export async function ensurePrivateFile(path: string): Promise<ModeProblem | null> {
  const handle = await open(path, "a", PRIVATE_FILE_MODE);
  await handle.close();
  return tighten(path, PRIVATE_FILE_MODE);
}

/** Tightens every file of {@link DATA_DIR_FILES} present in `dir` to 0600. */
export async function tightenDataFiles(dir: string): Promise<ModeProblem[]> {
  const problems = await Promise.all(
    DATA_DIR_FILES.map((name) => tighten(join(dir, name), PRIVATE_FILE_MODE)),
  );
  return problems.filter((problem): problem is ModeProblem => problem !== null);
}

/** Logs each problem once, saying what it means and what to do. */
export function warnAboutModes(logger: Logger, problems: ReadonlyArray<ModeProblem | null>): void {
  for (const problem of problems) {
    if (!problem) continue;
    logger.warn(
      { path: problem.path, mode: problem.mode, reason: problem.reason },
      "cannot make this DATA_DIR entry private (owner-only): other users of the machine may read it; change its owner or mode",
    );
  }
}

/**
 * Creates DATA_DIR as 0700 (or tightens it) and tightens the files RepoScout keeps there to 0600;
 * warns about what cannot be changed.
 */
export async function secureDataDir(dir: string, logger: Logger): Promise<void> {
  const problems = [await ensurePrivateDir(dir), ...(await tightenDataFiles(dir))];
  warnAboutModes(logger, problems);
}
