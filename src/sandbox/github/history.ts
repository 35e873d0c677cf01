/**
 * `Commit.history` and a commit's `additions` / `deletions`, read from real git: `git log` for the
 * commits that touched a path (git's simplified history, as GitHub documents it: "as `git log --
 * path`"), `git show --numstat` for a commit's line counts. Everything is keyed by commit id, so it
 * is cached per repository for as long as the stand-in runs.
 */
import { isSafeTreePath, type GitRepository } from "./gitRepository.js";

/** One commit of a history: its id, its author's email and its committer time (epoch seconds). */
export interface HistoryEntry {
  oid: string;
  authorEmail: string;
  committerTime: number;
}

/** A commit's line counts over all its files, against its first parent (or nothing, for a root). */
export interface CommitStats {
  additions: number;
  deletions: number;
  changedFiles: number;
}

const FULL_OID = /^[0-9a-f]{40}$/;

const histories = new WeakMap<GitRepository, Map<string, Promise<HistoryEntry[]>>>();
const stats = new WeakMap<GitRepository, Map<string, Promise<CommitStats>>>();

function cacheOf<T>(
  maps: WeakMap<GitRepository, Map<string, Promise<T>>>,
  git: GitRepository,
): Map<string, Promise<T>> {
  let map = maps.get(git);
  if (!map) {
    map = new Map();
    maps.set(git, map);
  }
  return map;
}

/**
 * The commits reachable from `commitOid` (a full id) that touched `path` (a file or a folder; the
 * whole history when null), newest first, as `git log` lists them. A path that is not a safe tree
 * path, or that never existed, has no commits (GitHub answers an empty history there too).
 */
export function historyOf(
  git: GitRepository,
  commitOid: string,
  path: string | null,
): Promise<HistoryEntry[]> {
  const cache = cacheOf(histories, git);
  const key = `${commitOid}\0${path ?? ""}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = readHistory(git, commitOid, path);
    cache.set(key, pending);
    pending.catch(() => cache.delete(key));
  }
  return pending;
}

async function readHistory(
  git: GitRepository,
  commitOid: string,
  path: string | null,
): Promise<HistoryEntry[]> {
  if (!FULL_OID.test(commitOid)) return [];
  if (path !== null && !isSafeTreePath(path)) return [];
  const args = ["log", "--no-color", "--format=%H%x00%aE%x00%ct%x00", "--end-of-options", commitOid];
  if (path !== null) args.push("--", path);
  const fields = (await git.git(args)).toString("utf8").split("\0");
  const entries: HistoryEntry[] = [];
  for (let index = 0; index + 2 < fields.length; index += 3) {
    entries.push({
      oid: (fields[index] ?? "").trim(),
      authorEmail: fields[index + 1] ?? "",
      committerTime: Number(fields[index + 2]),
    });
  }
  return entries;
}

/**
 * Lines added and deleted by a commit in all its files. A merge is counted against its first parent
 * (what GitHub's commit page shows); binary files count no lines. Cached by commit id.
 */
export function commitStats(git: GitRepository, commitOid: string): Promise<CommitStats> {
  const cache = cacheOf(stats, git);
  let pending = cache.get(commitOid);
  if (!pending) {
    pending = readStats(git, commitOid);
    cache.set(commitOid, pending);
    pending.catch(() => cache.delete(commitOid));
  }
  return pending;
}

async function readStats(git: GitRepository, commitOid: string): Promise<CommitStats> {
  if (!FULL_OID.test(commitOid)) return { additions: 0, deletions: 0, changedFiles: 0 };
  const output = await git.git([
    "show",
    "--no-color",
    "--numstat",
    "--format=",
    "--diff-merges=first-parent",
    "--no-renames",
    "--end-of-options",
    commitOid,
  ]);
  const result: CommitStats = { additions: 0, deletions: 0, changedFiles: 0 };
  for (const line of output.toString("utf8").split("\n")) {
    const match = /^(\d+|-)\t(\d+|-)\t/.exec(line);
    if (!match) continue;
    result.changedFiles += 1;
    // Binary files show `-` for both counts.
    if (match[1] !== "-") result.additions += Number(match[1]);
    if (match[2] !== "-") result.deletions += Number(match[2]);
  }
  return result;
}
