/**
 * Blame as GitHub's `Commit.blame(path)` returns it, computed from `git blame --porcelain`.
 * Pure functions; {@link GitRepository.blame} runs git and caches the result by commit id.
 */

/** One range of a blame: 1-based inclusive lines owned by one commit. */
export interface BlameRangeData {
  startingLine: number;
  endingLine: number;
  /** 1 (newest) .. 10 (oldest). */
  age: number;
  commitOid: string;
}

/** What `git blame --porcelain` says: the commit of every final line, and each commit's time. */
export interface PorcelainBlame {
  /** Commit id per line of the file, index 0 = line 1. */
  lineCommits: string[];
  /** Committer time (epoch seconds) per commit id. */
  committerTimes: Map<string, number>;
}

const GROUP_HEADER = /^([0-9a-f]{40,64}) (\d+) (\d+)(?: (\d+))?$/;

/**
 * Parses porcelain output. Each group starts with `<oid> <orig> <final> [<count>]`, then header
 * lines the first time a commit appears, then one TAB-prefixed content line per line of the group.
 */
export function parseBlamePorcelain(output: string): PorcelainBlame {
  const lineCommits: string[] = [];
  const committerTimes = new Map<string, number>();
  let current: string | null = null;
  let expectHeader = true;
  for (const line of output.split("\n")) {
    if (expectHeader) {
      const match = GROUP_HEADER.exec(line);
      if (!match) continue;
      current = match[1] ?? null;
      const finalLine = Number(match[3]);
      if (current !== null) lineCommits[finalLine - 1] = current;
      expectHeader = false;
      continue;
    }
    if (line.startsWith("\t")) {
      // The content line ends the entry; the next line is a group header.
      expectHeader = true;
      continue;
    }
    if (current !== null && line.startsWith("committer-time ")) {
      committerTimes.set(current, Number(line.slice("committer-time ".length)));
    }
  }
  return { lineCommits, committerTimes };
}

/**
 * The recency bucket of each commit, 1 (newest) to 10 (oldest). GitHub documents `age` only as "the
 * recency of the change, from 1 (new) to 10 (old)", a quantile relative to the file's changes; a file
 * with one commit gave 10. The stand-in ranks the distinct commit times of the file (newest first)
 * and spreads the ranks evenly over 1..10, so a file with ten or more commits uses every bucket and
 * the answer depends on the commit alone (it can be cached by commit id).
 */
export function blameAges(committerTimes: ReadonlyMap<string, number>): Map<string, number> {
  const distinct = [...new Set(committerTimes.values())].sort((a, b) => b - a);
  const rankOfTime = new Map(distinct.map((time, index) => [time, index]));
  const ages = new Map<string, number>();
  for (const [oid, time] of committerTimes) {
    const rank = rankOfTime.get(time) ?? 0;
    ages.set(oid, distinct.length === 1 ? 10 : 1 + Math.round((9 * rank) / (distinct.length - 1)));
  }
  return ages;
}

/**
 * Turns per-line commits into GitHub's ranges: sorted, covering the whole file, one range per run
 * of adjacent lines of one commit (git may report such a run as several groups).
 */
export function blameRanges(porcelain: PorcelainBlame): BlameRangeData[] {
  const ages = blameAges(porcelain.committerTimes);
  const ranges: BlameRangeData[] = [];
  porcelain.lineCommits.forEach((oid, index) => {
    const line = index + 1;
    const last = ranges[ranges.length - 1];
    if (last && last.commitOid === oid && last.endingLine === line - 1) {
      last.endingLine = line;
      return;
    }
    ranges.push({ startingLine: line, endingLine: line, age: ages.get(oid) ?? 10, commitOid: oid });
  });
  return ranges;
}
