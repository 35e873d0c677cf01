/**
 * What a first `/blame` costs the bot (issue 23 item 2): the CPU of one blame nobody asked before
 * (the GraphQL body read and parsed, the answer checked and shaped, stored in SQLite and in the hot
 * tier, the public copy included), and the bytes it leaves in the SQLite cache. 200, 2,000 and
 * 10,000 lines, a public repository, the default branch (so by ref, as a first `/blame` is).
 *
 * GitHub is replayed from memory through the client's injected `fetch`: for each file, GitHub's
 * whole record of it (every field the schema offers the bench's documents) is cut down to the
 * fields the bot's document selects, as GitHub answers a GraphQL query, and encoded, before the
 * clock starts. So the CPU counted is the bot's own (process.cpuUsage, user + system, which counts
 * SQLite's worker threads too), not a stand-in's, and it follows what the document asks. Every
 * range names one of 50 commits, as a real file's blame does (578 ranges for 2,000 lines in the
 * issue's measure).
 *
 * What is counted is the Scout's part of a first `/blame` (GitHub call, checks, cache); formatting
 * and the reply to Discord are measured in their own sections. It runs in a process of its own,
 * with the malloc settings the deployments give the bot (`GLIBC_TUNABLES` of the Dockerfile and the
 * systemd unit), then again with glibc's defaults beside it; the page faults each blame takes are
 * counted, as on this machine each costs 17-23 µs. The figure is the median; the mean beside it
 * carries the young collections a blame's garbage causes, which land on one blame in three or so
 * and so mostly miss the median. Goals (issue 23): at most 6 ms for 2,000 lines, 20 ms for 10,000,
 * and at most half the bytes stored before it. To set figures before and after side by side, run
 * this file on both trees in turn.
 *
 *   npx tsx bench/first-blame.ts [lines...]
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import KeyvSqlite from "@keyv/sqlite";
import {
  Kind,
  parse,
  type DirectiveNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { createScout } from "../src/answers/createScout.js";
import { createRecentRepositories } from "../src/answers/recentRepositories.js";
import { createAnswerCache } from "../src/cache/answerCache.js";
import { openStores } from "../src/cache/openStores.js";
import { hotTierBytes } from "../src/createServices.js";
import { DOCUMENTS } from "../src/github/documents.js";
import { createGitHubClient } from "../src/github/index.js";
import { silentLogger } from "../src/logger.js";
import type { ResolvedToken } from "../src/tokens/tokenResolver.js";
import type { Figure, Measured } from "./figures.js";
import { botNode, deployedEnvironment } from "./load/processes.js";

const SIZES = [200, 2_000, 10_000];
const WARMUP = 5;
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
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
 * What GitHub holds for a file of `lines` lines at `path`, as the Blame document reaches it: every
 * field of each commit, the authors' emails included. {@link asAsked} keeps what a query selects.
 */
function blameRecord(lines: number, path: string): Record<string, unknown> {
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
        email: `author${i % 7}@example.com`,
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
  return {
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
  };
}

/**
 * `record` cut down to what `query` selects, as GitHub answers it: a field is in the answer only
 * when the query asks for it (under its alias, if it has one), a fragment applies only to the type
 * it names, and `@include` / `@skip` follow the variables. `record` holds every field under its
 * response name, so it answers any query that asks a subset of it.
 */
function asAsked(query: string, variables: Record<string, unknown>, record: unknown): unknown {
  const document = parse(query);
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    else if (definition.kind === Kind.OPERATION_DEFINITION) operation ??= definition;
  }
  if (operation === undefined) throw new Error("the query has no operation");
  const included = (node: { directives?: readonly DirectiveNode[] | undefined }): boolean =>
    (node.directives ?? []).every((directive) => {
      const argument = directive.arguments?.find((each) => each.name.value === "if")?.value;
      const value =
        argument?.kind === Kind.VARIABLE
          ? variables[argument.name.value]
          : argument?.kind === Kind.BOOLEAN
            ? argument.value
            : undefined;
      if (directive.name.value === "include") return value === true;
      if (directive.name.value === "skip") return value !== true;
      return true;
    });
  const select = (selection: SelectionSetNode, value: unknown): unknown => {
    if (Array.isArray(value)) return value.map((each) => select(selection, each));
    if (value === null || typeof value !== "object") return value;
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const collect = (set: SelectionSetNode): void => {
      for (const node of set.selections) {
        if (!included(node)) continue;
        if (node.kind === Kind.FIELD) {
          const name = node.alias?.value ?? node.name.value;
          if (!(name in source)) continue;
          const picked = node.selectionSet ? select(node.selectionSet, source[name]) : source[name];
          // The same field asked twice (a fragment and the field itself) merges its selections.
          const held = out[name];
          out[name] =
            held !== null && typeof held === "object" && !Array.isArray(held) && typeof picked === "object"
              ? { ...(held as object), ...(picked as object) }
              : picked;
          continue;
        }
        const fragment = node.kind === Kind.FRAGMENT_SPREAD ? fragments.get(node.name.value) : node;
        if (fragment === undefined) throw new Error("the query spreads a fragment it does not define");
        const on = fragment.typeCondition?.name.value;
        if (on !== undefined && "__typename" in source && source.__typename !== on) continue;
        collect(fragment.selectionSet);
      }
    };
    collect(selection);
    return out;
  };
  return { data: select(operation.selectionSet, record) };
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** The goal for a first /blame's CPU at a size, where it sets one. */
const CPU_GOALS: Record<number, string> = { 2_000: "≤ 6 ms", 10_000: "≤ 20 ms" };

/**
 * The malloc this process runs with, as its lines and figures name it: glibc's defaults (figures
 * named so, beside the goals' own), or the `GLIBC_TUNABLES` it was given, the deployments' or not.
 */
function mallocInUse(): { words: string; defaults: boolean } {
  const tunables = process.env.GLIBC_TUNABLES;
  if (!tunables) return { words: "glibc's default malloc", defaults: true };
  const deployed = deployedEnvironment().GLIBC_TUNABLES === tunables ? "as deployed " : "";
  return { words: `malloc ${deployed}(GLIBC_TUNABLES=${tunables})`, defaults: false };
}

/**
 * Runs the benchmark: the lines to print and their figures, the CPU beside what reading and parsing
 * the same GitHub bodies alone costs in the same run.
 */
export async function measureFirstBlame(sizes: readonly number[] = SIZES): Promise<Measured> {
  const dataDir = await mkdtemp(join(tmpdir(), "reposcout-first-blame-"));
  const logger = silentLogger();
  const stores = await openStores({ dataDir, logger, sweepIntervalMs: 0 });
  /** By path, GitHub's answer to the bot's Blame document, encoded as it comes over the wire. */
  const bodies = new Map<string, Uint8Array>();
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
      // Answers are prepared before the clock for the one document a first /blame sends. Its
      // expression is HEAD, or the head commit's oid once the bot knows it: the same answer.
      if (query !== DOCUMENTS.Blame) throw new Error("the bench prepared answers to the Blame document only");
      const body = bodies.get(variables.path);
      if (body === undefined) throw new Error(`no body for ${variables.path}`);
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

  const malloc = mallocInUse();
  /** The goals are read with the deployments' malloc; the defaults' figures are named apart. */
  const named = (what: string, lines: number, unit: string): string =>
    `first /blame ${what}, ${lines.toLocaleString("en")} lines${malloc.defaults ? ", glibc's default malloc" : ""}${unit}`;
  const figures: Figure[] = [];
  const out = [
    `first /blame of a public file by branch (GitHub replayed from memory; ${COMMITS} commits; median of ${RUNS}; ${malloc.words})`,
  ];
  try {
    let file = 0;
    for (const lines of sizes) {
      const paths = Array.from({ length: WARMUP + RUNS }, () => `src/file-${(file += 1)}.ts`);
      for (const path of paths) {
        const answer = asAsked(
          DOCUMENTS.Blame,
          { owner: "demo", name: "widgets", expression: "HEAD", path },
          blameRecord(lines, path),
        );
        bodies.set(path, Buffer.from(JSON.stringify(answer)));
      }
      const cpu: number[] = [];
      const bytes: number[] = [];
      const faults: number[] = [];
      for (const [index, path] of paths.entries()) {
        const before = await storedBytes();
        const faulted = process.resourceUsage().minorPageFault;
        const started = process.cpuUsage();
        await scout.blame({ guildId: "1", userId: "2" }, { repo: { owner: "demo", name: "widgets" }, path });
        await settled();
        const used = process.cpuUsage(started);
        if (index < WARMUP) continue;
        faults.push(process.resourceUsage().minorPageFault - faulted);
        cpu.push((used.user + used.system) / 1000);
        bytes.push((await storedBytes()) - before);
      }
      // The baseline beside the figure: the least any client does with GitHub's answer, the
      // same bodies read and parsed (Response.json) and nothing else, in this process, in this run.
      // An absolute goal in ms reads the machine as much as the bot: this one varied by half from
      // day to day here with no change to the code, and the ratio to it does not.
      const parseCpu: number[] = [];
      for (const [index, path] of paths.entries()) {
        const started = process.cpuUsage();
        await new Response(bodies.get(path)).json();
        const used = process.cpuUsage(started);
        if (index >= WARMUP) parseCpu.push((used.user + used.system) / 1000);
      }
      const parseMs = median(parseCpu);
      const bodyKb = (bodies.get(paths[0] ?? "")?.byteLength ?? 0) / 1024;
      const beside = "none (beside the figure as deployed)";
      figures.push(
        {
          name: named("CPU", lines, ", ms"),
          value: median(cpu),
          baseline: { name: "the GitHub body read and parsed alone", value: parseMs },
          goal: malloc.defaults ? beside : (CPU_GOALS[lines] ?? "none set"),
        },
        {
          name: named("page faults", lines, ""),
          value: median(faults),
          goal: malloc.defaults ? beside : "none set",
        },
      );
      // What is stored does not depend on the malloc: one figure, the deployments'.
      if (!malloc.defaults) {
        figures.push({
          name: named("bytes stored", lines, ", KB"),
          value: median(bytes) / 1024,
          goal: "≤ half of before issue 23",
        });
      }
      const mean = cpu.reduce((sum, each) => sum + each, 0) / cpu.length;
      out.push(
        `  ${String(lines).padStart(6)} lines (body ${bodyKb.toFixed(0)} KB): CPU median ${median(cpu).toFixed(1)} ms (min ${Math.min(...cpu).toFixed(1)}, mean ${mean.toFixed(1)} with the collections it caused; the body read and parsed alone ${parseMs.toFixed(1)} ms, ${(median(cpu) / parseMs).toFixed(1)}× it), ${median(faults)} page faults, stored ${(median(bytes) / 1024).toFixed(0)} KB per answer`,
      );
    }
  } finally {
    await sqlite.disconnect();
    await stores.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  return { lines: out, figures };
}

const CHILD = "--child";

/** {@link measureFirstBlame} in a process of its own, with `env` as its whole environment. */
async function measureInChild(sizes: readonly number[], env: NodeJS.ProcessEnv): Promise<Measured> {
  const child = spawn(
    botNode(),
    ["--import", "tsx", fileURLToPath(import.meta.url), CHILD, ...sizes.map(String)],
    { stdio: ["ignore", "pipe", "inherit"], env },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += String(chunk)));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const last = output.trim().split("\n").at(-1) ?? "";
  if (code !== 0 || !last.startsWith("{")) {
    throw new Error(`the first /blame bench failed (exit ${code}): ${output.slice(-2_000)}`);
  }
  return JSON.parse(last) as Measured;
}

/**
 * {@link measureFirstBlame} in a process of its own: its CPU and its collections are then the
 * blames', not those of a heap that earlier sections of `npm run bench` grew (their drivers,
 * stand-ins and answers), which made every young collection dearer and moved the figure by a
 * third from one place in the bench to another. Once with the deployments' malloc settings (the
 * figures the goals read), then once with glibc's defaults (figures of their own, named so).
 */
export async function measureFirstBlameApart(sizes: readonly number[] = SIZES): Promise<Measured> {
  const defaults = { ...process.env };
  delete defaults.GLIBC_TUNABLES;
  const asDeployed = await measureInChild(sizes, { ...defaults, ...deployedEnvironment() });
  const withDefaults = await measureInChild(sizes, defaults);
  return {
    lines: [...asDeployed.lines, ...withDefaults.lines],
    figures: [...asDeployed.figures, ...withDefaults.figures],
  };
}

/** Runs the benchmark and returns the lines to print. */
export async function benchFirstBlame(sizes: readonly number[] = SIZES): Promise<string[]> {
  return (await measureFirstBlameApart(sizes)).lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const child = process.argv[2] === CHILD;
  const asked = process.argv
    .slice(child ? 3 : 2)
    .map(Number)
    .filter((lines) => lines > 0);
  const sizes = asked.length > 0 ? asked : SIZES;
  if (child) console.log(JSON.stringify(await measureFirstBlame(sizes)));
  else for (const line of await benchFirstBlame(sizes)) console.log(line);
}
