import type { BlameAnswer, BlameCommit, BlameRange } from "../github/types.js";
import { withFields } from "../withFields.js";

/**
 * How a kind of answer is kept in the store when its plain JSON would repeat itself: `encode`
 * before writing, `decode` after reading. Both are total: a value not of the kind passes as it is;
 * a record in the form that does not read back decodes to undefined, a miss.
 */
export interface StoredForm {
  encode(value: unknown): unknown;
  decode(stored: unknown): unknown;
}

/** Marks the form, so a record of another shape is never taken for it. */
const COMMIT_TABLE = "commit-table";

/** Whether every range of `value` names a commit by its oid: the shape the form is made for. */
function isBlameLike(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const ranges = (value as { ranges?: unknown }).ranges;
  return (
    Array.isArray(ranges) &&
    ranges.every((range: unknown) => {
      const commit = (range as { commit?: { oid?: unknown } } | null)?.commit;
      return typeof commit?.oid === "string";
    })
  );
}

/** A blame as stored: each commit once, each range as four numbers, the fourth its commit's index. */
interface StoredBlame extends Omit<BlameAnswer, "ranges"> {
  form: typeof COMMIT_TABLE;
  commits: BlameCommit[];
  /** `startingLine, endingLine, age, commit index`, range after range. */
  ranges: number[];
}

/**
 * A blame with a table of its commits (issue 23): a file's ranges name few commits (578 ranges,
 * 50 commits on a 2,000-line file), and written out in every range they were most of its bytes.
 * Read back, the ranges of one commit share one object, as they are held in memory.
 */
export const blameStoredForm: StoredForm = {
  encode(value) {
    if (!isBlameLike(value)) return value;
    const answer = value as BlameAnswer;
    const index = new Map<string, number>();
    const commits: BlameCommit[] = [];
    const ranges: number[] = [];
    for (const range of answer.ranges) {
      let at = index.get(range.commit.oid);
      if (at === undefined) {
        at = commits.length;
        index.set(range.commit.oid, at);
        commits.push(range.commit);
      }
      ranges.push(range.startingLine, range.endingLine, range.age, at);
    }
    const stored: StoredBlame = withFields(answer, { form: COMMIT_TABLE, commits, ranges });
    return stored;
  },
  decode(stored) {
    if (stored === null || typeof stored !== "object") return stored;
    const { form, commits, ranges: flat, ...rest } = stored as Partial<StoredBlame>;
    if (form !== COMMIT_TABLE) return stored;
    if (!Array.isArray(commits) || !Array.isArray(flat) || flat.length % 4 !== 0) {
      return undefined;
    }
    const ranges: BlameRange[] = new Array<BlameRange>(flat.length / 4);
    for (let i = 0; i < flat.length; i += 4) {
      const commit = commits[flat[i + 3] ?? -1];
      if (commit === undefined) return undefined;
      ranges[i / 4] = {
        startingLine: flat[i] ?? 0,
        endingLine: flat[i + 1] ?? 0,
        age: flat[i + 2] ?? 0,
        commit,
      };
    }
    const answer = withFields(rest, { ranges }) as BlameAnswer;
    return answer;
  },
};

/** The stored form of each kind that has one; every other kind is stored as it is. */
export const STORED_FORMS: Readonly<Record<string, StoredForm>> = { blame: blameStoredForm };
