/**
 * What a first `/blame` costs the bot (issue 23 item 2): the CPU of one blame nobody asked before
 * (the GraphQL body read and parsed, the answer checked and shaped, stored in SQLite and in the hot
 * tier, the public copy included), and the bytes it leaves in the SQLite cache. 200, 2,000 and
 * 10,000 lines, a public repository, the default branch (so by ref, as a first `/blame` is).
 *
 * GitHub is replayed from memory through the client's injected `fetch`: a body built once per file
 * before the clock starts, so the CPU counted is the bot's own (process.cpuUsage, user + system,
 * which counts SQLite's worker threads too), not a stand-in's. Every range names one of 50 commits,
 * as a real file's blame does (578 ranges for 2,000 lines in the measure).
 *
 * What is counted is the Scout's part of a first `/blame` (GitHub call, checks, cache); formatting
 * and the reply to Discord are measured in their own sections. Goals (issue 23): at most 6 ms for
 * 2,000 lines, 20 ms for 10,000, and at most half the bytes stored before it. To set figures
 * before and after side by side, run this file on both trees in turn (BENCH_RUNS=40 for speed).
 *
 *   npx tsx bench/first-blame.ts [lines...]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import KeyvSqlite from "@keyv/sqlite";
import { createScout } from "../src/answers/createScout.js";
import { createRecentRepositories } from "../src/answers/recentRepositories.js";
import { createAnswerCache } from "../src/cache/answerCache.js";
import { openStores } from "../src/cache/openStores.js";
import { hotTierBytes } from "../src/createServices.js";
import { createGitHubClient } from "../src/github/index.js";
import { silentLogger } from "../src/logger.js";
import type { ResolvedToken } from "../src/tokens/tokenResolver.js";
import type { Figure, Measured } from "./figures.js";

const SIZES = [200, 2_000, 10_000];
const WARMUP = 5;
const RUNS = Number(process.env.BENCH_RUNS ?? 25);
const COMMITS = 50;
/** Lines per range in the measure (2,000 lines, 578 ranges). */
const LINES_PER_RANGE = 2_000 / 578;

const hex = (seed: number): string => {
  let out = "";
  let state = seed * 2_654_435_761 + 1;
  while (out.length < 40) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    out += state.toString(16);
  }
  return out.slice(0, 40);
};

/**
 * The Blame document's answer for a file of `lines` lines at `path`, as GitHub writes it: with the
 * authors' emails when the document asks for them (it did before issue 23).
 */
function blameBody(lines: number, path: string, withEmail: boolean): string {
  const text = Array.from({ length: lines }, (_, i) => `  const value${i} = compute(${i}, "x");`).join("\n");
  const commits = Array.from({ length: COMMITS }, (_, i) => {
    const oid = hex(i + 1);
    return {
      oid,
      abbreviatedOid: oid.slice(0, 7),
      messageHeadline: `Rework the engine's widget cache, part ${i + 1} of the refactor`,
      url: `https://github.com/demo/widgets/commit/${oid}`,
      authoredDate: "2026-01-02T03:04:05Z",
      committedDate: "2026-01-02T03:04:05Z",
      author: {
        name: `Author ${i % 7}`,
        ...(withEmail ? { email: `author${i % 7}@example.com` } : {}),
        user: { login: `author${i % 7}` },
      },
    };
  });
  const rangeCount = Math.max(1, Math.round(lines / LINES_PER_RANGE));
  const ranges = Array.from({ length: rangeCount }, (_, i) => ({
    startingLine: Math.floor((i * lines) / rangeCount) + 1,
    endingLine: Math.floor(((i + 1) * lines) / rangeCount),
    age: 1 + (i % 10),
    commit: commits[(i * 7) % COMMITS],
  }));
  const head = hex(999);
  return JSON.stringify({
    data: {
      repository: {
        nameWithOwner: "demo/widgets",
        url: "https://github.com/demo/widgets",
        isPrivate: false,
        visibility: "PUBLIC",
        defaultBranchRef: { name: "main" },
        object: {
          __typename: "Commit",
          oid: head,
          url: `https://github.com/demo/widgets/commit/${head}`,
          committedDate: "2026-01-03T00:00:00Z",
          blame: { ranges },
          file: {
            path,
            object: {
              __typename: "Blob",
              oid: hex(lines),
              text,
              isBinary: false,
              byteSize: Buffer.byteLength(text),
              isTruncated: false,
            },
          },
        },
        entry: { __typename: "Commit", file: { type: "blob", mode: 33188 } },
      },
    },
  });
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** The goal for a first /blame's CPU at a size, where it sets one. */
const CPU_GOALS: Record<number, string> = { 2_000: "≤ 6 ms", 10_000: "≤ 20 ms" };

/** Runs the benchmark: the lines to print and their figures (no baseline runs beside them). */
export async function measureFirstBlame(sizes: readonly number[] = SIZES): Promise<Measured> {
  const dataDir = await mkdtemp(join(tmpdir(), "reposcout-first-blame-"));
  const logger = silentLogger();
  const stores = await openStores({ dataDir, logger, sweepIntervalMs: 0 });
  /** By path, the answer to a document that asks for emails and to one that does not. */
  const bodies = new Map<string, { withEmail: string; without: string }>();
  const github = createGitHubClient({
    graphqlUrl: "https://api.github.invalid/graphql",
    restUrl: "https://api.github.invalid",
    version: "bench",
    logger,
    fingerprint: () => "1".repeat(32),
    fetch: async (_input, init) => {
      const { query, variables } = JSON.parse(String(init?.body)) as {
        query: string;
        variables: { path: string };
      };
      const answers = bodies.get(variables.path);
      if (answers === undefined) throw new Error(`no body for ${variables.path}`);
      const body = /\bemail\b/.test(query) ? answers.withEmail : answers.without;
      return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
    },
  });
  const cache = createAnswerCache({
    store: stores.cache,
    logger,
    shortTtlMs: 60_000,
    coordination: stores.coordination,
    hotTierBytes: hotTierBytes(512),
  });
  const resolved: ResolvedToken = { token: "ghp_bench", origin: "default", fingerprint: "1".repeat(32) };
  const scout = createScout({
    github,
    cache,
    tokens: { resolve: async () => resolved, forget: async () => undefined },
    recent: createRecentRepositories(),
  });
  const sqlite = new KeyvSqlite({ uri: `sqlite://${join(dataDir, "cache.sqlite")}` });
  const storedBytes = async (): Promise<number> =>
    (
      (await sqlite.query(
        "SELECT SUM(LENGTH(CAST(key AS BLOB)) + LENGTH(CAST(value AS BLOB))) AS n FROM keyv",
      )) as Array<{
        n: number | null;
      }>
    )[0]?.n ?? 0;
  const settled = async (): Promise<void> => {
    while (cache.inFlight() > 0) await new Promise((resolve) => setTimeout(resolve, 1));
  };

  const figures: Figure[] = [];
  const out = [
    `first /blame of a public file by branch (GitHub replayed from memory; ${COMMITS} commits; median of ${RUNS})`,
  ];
  try {
    let file = 0;
    for (const lines of sizes) {
      const paths = Array.from({ length: WARMUP + RUNS }, () => `src/file-${(file += 1)}.ts`);
      for (const path of paths) {
        bodies.set(path, { withEmail: blameBody(lines, path, true), without: blameBody(lines, path, false) });
      }
      const cpu: number[] = [];
      const bytes: number[] = [];
      for (const [index, path] of paths.entries()) {
        const before = await storedBytes();
        const started = process.cpuUsage();
        await scout.blame({ guildId: "1", userId: "2" }, { repo: { owner: "demo", name: "widgets" }, path });
        await settled();
        const used = process.cpuUsage(started);
        if (index < WARMUP) continue;
        cpu.push((used.user + used.system) / 1000);
        bytes.push((await storedBytes()) - before);
      }
      const bodyKb = Buffer.byteLength(bodies.get(paths[0] ?? "")?.without ?? "") / 1024;
      figures.push(
        {
          name: `first /blame CPU, ${lines.toLocaleString("en")} lines, ms`,
          value: median(cpu),
          goal: CPU_GOALS[lines] ?? "none set",
        },
        {
          name: `first /blame bytes stored, ${lines.toLocaleString("en")} lines, KB`,
          value: median(bytes) / 1024,
          goal: "≤ half of before issue 23",
        },
      );
      out.push(
        `  ${String(lines).padStart(6)} lines (body ${bodyKb.toFixed(0)} KB): CPU median ${median(cpu).toFixed(1)} ms (min ${Math.min(...cpu).toFixed(1)}), stored ${(median(bytes) / 1024).toFixed(0)} KB per answer`,
      );
    }
  } finally {
    await sqlite.disconnect();
    await stores.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  return { lines: out, figures };
}

/** Runs the benchmark and returns the lines to print. */
export async function benchFirstBlame(sizes: readonly number[] = SIZES): Promise<string[]> {
  return (await measureFirstBlame(sizes)).lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const asked = process.argv
    .slice(2)
    .map(Number)
    .filter((lines) => lines > 0);
  for (const line of await benchFirstBlame(asked.length > 0 ? asked : SIZES)) console.log(line);
}
