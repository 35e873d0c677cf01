import { describe, expect, it } from "vitest";
import { formatBlame } from "../../src/format/blame.js";
import { formatContents } from "../../src/format/contents.js";
import { formatContributors } from "../../src/format/contributors.js";
import { formatError, formatThreadSummary, threadName } from "../../src/format/error.js";
import {
  codeBlock,
  escapeLabel,
  escapeMarkdown,
  inlineCode,
  sanitizeSingleLine,
  truncate,
} from "../../src/format/escape.js";
import { countFences, cutMarkdown, markdownProblems } from "../../src/format/limits.js";
import type { Freshness } from "../../src/format/message.js";
import { formatRepositories } from "../../src/format/repositories.js";
import { renderForTerminal } from "../../src/format/terminal.js";
import { formatNotice, formatTokenStatus, formatWhoami } from "../../src/format/whoami.js";
import type {
  BlameAnswer,
  BlameRange,
  ContentsAnswer,
  Contributor,
  RepositorySummary,
} from "../../src/github/types.js";
import { expectValidMessage, sentenceProblems } from "./checks.js";
import { makeCommit, NOW, randomText, seededRandom } from "./fixtures.js";
import { QUOTING_SENTENCES } from "./quotingSentences.js";

const RUNS = 150;

/** Random inputs from one seed: the same failures on every run, so they can be reproduced. */
function generators(seed: number) {
  const random = seededRandom(seed);
  const text = (maxParts = 30) => randomText(random, maxParts);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const number = () =>
    pick([
      0,
      1,
      2,
      7,
      50,
      51,
      100,
      4096,
      -3,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Math.floor(random() * 5000),
    ]);
  const url = () =>
    pick([
      "https://github.com/octo/widgets",
      "javascript:alert(1)",
      "",
      `https://x.example/${text(5)}`,
      "http://a.b/(c)",
    ]);
  const date = () => pick([NOW.toISOString(), "2019-01-01T00:00:00Z", "garbage", "", "2099-12-31T23:59:59Z"]);
  const freshness = (): Freshness => ({ fetchedAt: date(), fromCache: random() < 0.5 });
  return { random, text, pick, number, url, date, freshness };
}

describe("escaping on random input", () => {
  it("never lets markup, mentions or fences through", () => {
    const { text, number } = generators(1);
    for (let run = 0; run < RUNS * 4; run += 1) {
      const input = text(60);
      expect(markdownProblems(escapeMarkdown(input))).toEqual([]);
      expect(markdownProblems(escapeLabel(input, 100))).toEqual([]);
      expect(escapeLabel(input, 100).length).toBeLessThanOrEqual(100);
      const block = codeBlock(input, text(3));
      expect(countFences(block)).toBe(2);
      expect(inlineCode(input)).not.toMatch(/\n/);
      expect(sanitizeSingleLine(input)).not.toMatch(/[\n\r]/);
      const max = Math.max(0, number());
      expect(truncate(input, max).length).toBeLessThanOrEqual(Number.isFinite(max) ? max : input.length);
      const cut = cutMarkdown(`${input}\n${block}\n${input}`, 40 + (run % 200));
      expect(cut.length).toBeLessThanOrEqual(40 + (run % 200));
      expect(countFences(cut) % 2).toBe(0);
    }
  });
});

describe("sentences quoting repository or user text, on random hostile input", () => {
  it.each(QUOTING_SENTENCES.map((entry, index) => [entry.name, entry, index] as const))(
    "%s: one line each, no mention, link or markup renders, no code left open",
    (_name, entry, index) => {
      const { text } = generators(100 + index);
      // One assertion for all runs (an assertion per run cost more than the sentences).
      const failed: Array<[string, string[]]> = [];
      for (let run = 0; run < RUNS; run += 1) {
        const sentence = entry.make(text(40), text(8));
        const problems = sentenceProblems(sentence, entry.lines ?? 1);
        if (problems.length > 0) failed.push([JSON.stringify(sentence), problems]);
      }
      expect(failed.slice(0, 3)).toEqual([]);
    },
  );
});

describe("formatters on random input", () => {
  it("formatBlame always gives a valid message", () => {
    const { random, text, pick, number, url, date, freshness } = generators(2);
    for (let run = 0; run < RUNS; run += 1) {
      const lineCount = pick([0, 1, 5, 60, 400]);
      const lines = Array.from({ length: lineCount }, () => text(pick([3, 20, 80])));
      const ranges: BlameRange[] = Array.from({ length: pick([0, 1, 3, 40]) }, () => ({
        startingLine: number(),
        endingLine: number(),
        age: number(),
        commit: makeCommit(Math.floor(random() * 10), {
          messageHeadline: text(pick([5, 200])),
          authorLogin: random() < 0.5 ? text(4) : null,
          authorName: random() < 0.5 ? text(8) : null,
          url: url(),
          authoredDate: date(),
          abbreviatedOid: text(2),
        }),
      }));
      const answer: BlameAnswer = {
        repository: {
          nameWithOwner: text(8),
          url: url(),
          isPrivate: false,
          visibility: "PUBLIC",
          defaultBranch: null,
        },
        commit: { oid: pick(["a1b2c3d4e5", text(3), ""]), url: url(), committedDate: date() },
        path: text(10),
        file:
          random() < 0.15
            ? { kind: "binary", byteSize: number() }
            : {
                kind: "text",
                text: lines.join(pick(["\n", "\r\n"])),
                byteSize: number(),
                isTruncated: random() < 0.2,
              },
        ranges,
      };
      const message = formatBlame(
        answer,
        { startLine: number(), endLine: number(), requestedLines: random() < 0.5 },
        {
          freshness: freshness(),
          now: NOW,
          buttons: random() < 0.5 ? { previous: "blame:p", next: "x".repeat(150) } : {},
        },
      );
      expectValidMessage(message);
      const rendered = renderForTerminal(message, { color: false, now: NOW });
      expect(rendered).not.toContain("\u001b");
    }
  });

  it("formatContents always gives a valid message", () => {
    const { random, text, pick, number, url, freshness } = generators(3);
    for (let run = 0; run < RUNS; run += 1) {
      const base = {
        repository: {
          nameWithOwner: text(8),
          url: url(),
          isPrivate: true,
          visibility: "PRIVATE" as const,
          defaultBranch: "main",
        },
        commit: { oid: text(4), url: url(), committedDate: NOW.toISOString() },
        path: text(10),
      };
      const kind = random();
      const answer: ContentsAnswer =
        kind < 0.15
          ? { ...base, kind: "symlink", target: random() < 0.1 ? null : text(pick([3, 40, 5000])) }
          : kind < 0.55
            ? {
                ...base,
                kind: "tree",
                entries: Array.from({ length: pick([0, 3, 80]) }, () => ({
                  name: text(12),
                  path: text(12),
                  type: pick(["blob", "tree", "commit"] as const),
                  mode: pick([0, 0o100644, 0o120000]),
                  size: number(),
                  isBinary: pick([true, false, null]),
                })),
              }
            : {
                ...base,
                kind: "blob",
                file:
                  random() < 0.2
                    ? { kind: "binary", byteSize: number() }
                    : {
                        kind: "text",
                        text: Array.from({ length: pick([0, 1, 30, 300]) }, () => text(pick([3, 40]))).join(
                          "\n",
                        ),
                        byteSize: number(),
                        isTruncated: random() < 0.2,
                      },
              };
      const view = random() < 0.3 ? {} : { startLine: number(), endLine: number() };
      expectValidMessage(
        formatContents(answer, view, {
          freshness: freshness(),
          now: NOW,
          ref: pick([undefined, text(20)]),
          buttons: pick([{}, { previous: "contents:a", next: "contents:b" }]),
        }),
      );
    }
  });

  it("formatRepositories and formatContributors always give valid messages", () => {
    const { random, text, pick, number, url, date, freshness } = generators(4);
    for (let run = 0; run < RUNS; run += 1) {
      const repositories: RepositorySummary[] = Array.from({ length: pick([0, 1, 30, 100]) }, () => {
        const visibility = pick(["PUBLIC", "PRIVATE", "INTERNAL"] as const);
        return {
          name: text(6),
          nameWithOwner: text(8),
          url: url(),
          pushedAt: random() < 0.2 ? null : date(),
          isPrivate: visibility !== "PUBLIC",
          visibility,
          description: random() < 0.3 ? null : text(pick([5, 100])),
        };
      });
      expectValidMessage(
        formatRepositories(
          {
            owner: { login: text(5), type: pick(["User", "Organization"] as const) },
            totalCount: number(),
            repositories,
            pageInfo: { startCursor: null, endCursor: null, hasNextPage: false, hasPreviousPage: false },
          },
          { sort: pick(["pushed", "name"] as const), pageNumber: number(), perPage: number() },
          { freshness: freshness(), now: NOW, buttons: { next: text(3) || "n" } },
        ),
      );
      const contributors: Contributor[] = Array.from({ length: pick([0, 1, 30, 100]) }, () =>
        random() < 0.7
          ? {
              kind: "account",
              login: text(5),
              htmlUrl: url(),
              type: pick(["User", "Bot", "Organization"] as const),
              contributions: number(),
            }
          : {
              kind: "anonymous",
              name: random() < 0.3 ? null : text(6),
              email: `${text(3)}@example.com`,
              contributions: number(),
            },
      );
      const message = formatContributors(
        {
          page: number(),
          perPage: number(),
          contributors,
          lastPage: random() < 0.5 ? null : number(),
          hasNextPage: true,
          hasPreviousPage: false,
        },
        { repo: text(6), repoUrl: url() },
        { freshness: freshness(), now: NOW },
      );
      expectValidMessage(message);
      expect(JSON.stringify(message.embeds)).not.toContain("@example.com");
    }
  });

  it("the small formatters always give valid messages", () => {
    const { random, text, number, date, freshness } = generators(5);
    for (let run = 0; run < RUNS; run += 1) {
      const rateLimit =
        random() < 0.3
          ? null
          : {
              resource: text(2),
              limit: number(),
              remaining: number(),
              used: number(),
              resetAt: date(),
              observedAt: date(),
            };
      expectValidMessage(
        formatWhoami(
          { login: text(5), rateLimit },
          { origin: random() < 0.5 ? "server" : "default", now: NOW, freshness: freshness() },
        ),
      );
      // A setBy of digits is a user id, shown as a mention on purpose.
      const setBy = random() < 0.3 ? String(Math.floor(random() * 1e6)) : text(3);
      expectValidMessage(
        formatTokenStatus({ login: text(5), setBy, setAt: date(), rateLimit }, { now: NOW }),
        {
          allowedUserMentions: [setBy],
        },
      );
      // Notices and errors carry the bot's own sentences; they must fit whatever their length.
      const length = Math.min(10_000, Math.max(0, number() || 0));
      expectValidMessage(formatNotice("x".repeat(length)));
      expectValidMessage(formatError("y".repeat(length)));
      const summary = formatThreadSummary(text(3), text(40));
      expect(summary.length).toBeLessThanOrEqual(2000);
      expect(markdownProblems(summary)).toEqual([]);
      const name = threadName(text(3), [text(20), text(40)]);
      expect(name.length).toBeGreaterThanOrEqual(1);
      expect(name.length).toBeLessThanOrEqual(100);
      expect(name).not.toMatch(/[\n\r]/);
    }
  });
});
