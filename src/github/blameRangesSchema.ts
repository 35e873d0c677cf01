import { z } from "zod";

/** One range of a Blame answer as the Blame document asks it (documents.ts, BLAME_QUERY). */
export interface BlameRangeShape {
  startingLine: number;
  endingLine: number;
  age: number;
  // No url nor abbreviatedOid: both are derived from the oid (BLAME_QUERY says why). No email: a
  // blame shows the name and the login, and GitHub wrote the email in every range.
  commit: {
    oid: string;
    messageHeadline: string;
    authoredDate: string;
    committedDate: string;
    author: { name: string | null; user: { login: string } | null } | null;
  };
}

type Problem = { path: Array<string | number>; message: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Where `range` breaks {@link BlameRangeShape}, or undefined when it fits. */
function rangeProblem(range: unknown): Problem | undefined {
  if (!isRecord(range)) return { path: [], message: "expected an object" };
  for (const key of ["startingLine", "endingLine", "age"] as const) {
    if (!Number.isInteger(range[key])) return { path: [key], message: "expected an integer" };
  }
  const commit = range.commit;
  if (!isRecord(commit)) return { path: ["commit"], message: "expected an object" };
  for (const key of ["oid", "messageHeadline", "authoredDate", "committedDate"] as const) {
    if (typeof commit[key] !== "string") return { path: ["commit", key], message: "expected a string" };
  }
  const author = commit.author;
  if (author === null) return undefined;
  if (!isRecord(author)) return { path: ["commit", "author"], message: "expected an object or null" };
  if (author.name !== null && typeof author.name !== "string") {
    return { path: ["commit", "author", "name"], message: "expected a string or null" };
  }
  const user = author.user;
  if (user === null) return undefined;
  if (!isRecord(user)) return { path: ["commit", "author", "user"], message: "expected an object or null" };
  if (typeof user.login !== "string") {
    return { path: ["commit", "author", "user", "login"], message: "expected a string" };
  }
  return undefined;
}

/**
 * A Blame answer's `ranges`, checked where they lie and passed on as they are. GitHub writes a
 * range's commit again in every range it owns (2,890 ranges for a 10,000-line file), and a zod
 * object schema copies every object it checks: for these ranges that was more memory than parsing
 * the answer took (2.3 MB against 1.6 MB for 10,000 lines), and the young collections to match.
 * The shape is the one above, checked field by field as zod would; a range that breaks it is an
 * issue at its path, so the answer is "unreadable" as any other that does not fit. Fields the
 * document did not ask are left in place: fetchBlame copies only those it names.
 */
export const blameRangesSchema = z.custom<BlameRangeShape[]>().check((payload) => {
  const ranges = payload.value;
  if (!Array.isArray(ranges)) {
    payload.issues.push({ code: "custom", message: "expected an array", input: ranges, path: [] });
    return;
  }
  for (let index = 0; index < ranges.length; index += 1) {
    const problem = rangeProblem(ranges[index]);
    if (problem === undefined) continue;
    payload.issues.push({
      code: "custom",
      message: problem.message,
      input: ranges[index],
      path: [index, ...problem.path],
    });
    return;
  }
});
