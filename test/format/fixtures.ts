import { createHash } from "node:crypto";
import type {
  BlameAnswer,
  BlameCommit,
  BlameRange,
  RepositoryHeader,
  PinnedCommit,
} from "../../src/github/types.js";
import type { Freshness } from "../../src/format/message.js";

/** A small seeded PRNG (mulberry32): the same seed gives the same "random" inputs on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Characters that have tripped formatters before: markup, mentions, fences, surrogates, controls. */
const NASTY = [
  "`",
  "```",
  "````",
  "*",
  "_",
  "~",
  "|",
  ">",
  "#",
  "-",
  "[",
  "]",
  "(",
  ")",
  "\\",
  "@everyone",
  "@here",
  "<@123>",
  "<@!123>",
  "<@&456>",
  "<#789>",
  "[x](https://evil.example)",
  "\n",
  "\r\n",
  "\t",
  "\u0000",
  "\u001b[31m",
  "\u202e",
  "😀",
  "\ud83d",
  "é",
  "ｗ",
  " ",
  "a",
  "Z",
  "0",
  "<t:0:R>",
  "||",
  "-# ",
  "1. ",
];

/** A random string of up to `maxParts` hostile or ordinary pieces. */
export function randomText(random: () => number, maxParts: number): string {
  const parts: string[] = [];
  const count = Math.floor(random() * maxParts);
  for (let index = 0; index < count; index += 1) {
    parts.push(NASTY[Math.floor(random() * NASTY.length)]!);
  }
  return parts.join("");
}

export const NOW = new Date("2025-06-01T12:00:00Z");
export const FRESH: Freshness = { fetchedAt: NOW.toISOString(), fromCache: false };
export const CACHED: Freshness = { fetchedAt: "2025-06-01T11:48:30Z", fromCache: true };

export const REPOSITORY: RepositoryHeader = {
  nameWithOwner: "octo/widgets",
  url: "https://github.com/octo/widgets",
  isPrivate: false,
  visibility: "PUBLIC",
  defaultBranch: "main",
};

export const PINNED: PinnedCommit = {
  oid: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678",
  url: "https://github.com/octo/widgets/commit/a1b2c3d4e5f60718293a4b5c6d7e8f9012345678",
  committedDate: "2025-05-30T10:00:00Z",
};

/** A commit with a deterministic id from `n`. */
export function makeCommit(n: number, overrides: Partial<BlameCommit> = {}): BlameCommit {
  const oid = createHash("sha1").update(`commit ${n}`).digest("hex");
  return {
    oid,
    abbreviatedOid: oid.slice(0, 7),
    messageHeadline: `Change number ${n}`,
    url: `https://github.com/octo/widgets/commit/${oid}`,
    authoredDate: new Date(Date.UTC(2020, 0, 1) + n * 86_400_000).toISOString(),
    committedDate: new Date(Date.UTC(2020, 0, 1) + n * 86_400_000 + 3_600_000).toISOString(),
    authorName: `Author ${n % 7}`,
    authorLogin: n % 3 === 0 ? null : `dev${n % 7}`,
    ...overrides,
  };
}

/** `count` lines of `width` characters of plausible code. */
export function makeLines(count: number, width: number): string[] {
  const lines: string[] = [];
  for (let index = 1; index <= count; index += 1) {
    const base = `  const value${index} = compute(${index}, "text"); // line ${index} `;
    lines.push(base.repeat(Math.ceil(width / base.length)).slice(0, width));
  }
  return lines;
}

/**
 * Ranges covering `lineCount` lines in `rangeCount` ranges, drawn from `commitCount` commits (so a
 * commit owns several ranges that are not adjacent).
 */
export function makeRanges(
  lineCount: number,
  rangeCount: number,
  commitCount = Math.max(1, Math.ceil(rangeCount / 3)),
): BlameRange[] {
  const ranges: BlameRange[] = [];
  const commits = Array.from({ length: commitCount }, (_, n) => makeCommit(n + 1));
  const size = Math.max(1, Math.floor(lineCount / rangeCount));
  let line = 1;
  for (let index = 0; index < rangeCount && line <= lineCount; index += 1) {
    const end = index === rangeCount - 1 ? lineCount : Math.min(lineCount, line + size - 1);
    const commit = commits[(index * 7) % commitCount]!;
    ranges.push({ startingLine: line, endingLine: end, age: 1 + (index % 10), commit });
    line = end + 1;
  }
  if (line <= lineCount) ranges.at(-1)!.endingLine = lineCount;
  return ranges;
}

/** A blame answer of a text file. */
export function makeBlame(options: {
  lines: string[];
  ranges?: BlameRange[];
  path?: string;
  isTruncated?: boolean;
}): BlameAnswer {
  const text = options.lines.length > 0 ? `${options.lines.join("\n")}\n` : "";
  return {
    repository: REPOSITORY,
    commit: PINNED,
    path: options.path ?? "src/app.ts",
    file: {
      kind: "text",
      text,
      byteSize: Buffer.byteLength(text),
      isTruncated: options.isTruncated ?? false,
    },
    ranges:
      options.ranges ?? makeRanges(options.lines.length, Math.max(1, Math.ceil(options.lines.length / 5))),
  };
}
