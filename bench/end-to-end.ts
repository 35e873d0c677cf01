/**
 * The whole path, interaction to reply, through the real discord.js client and both stand-ins:
 * a cached answer beside the bare round trip of the local Discord, an uncached answer beside the
 * stand-in's own latency, and the upstream calls of 100 mixed commands with repeats.
 */
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { DOCUMENTS } from "../src/github/documents.js";
import { DEMO_PATHS, DEMO_TOKEN } from "../src/sandbox/github/index.js";
import type { InteractionRequest } from "../src/sandbox/discord/index.js";
import { startSandboxWorld, type SandboxWorld } from "../src/sandbox/harness.js";
import { transcriptOf } from "../src/sandbox/transcript.js";

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function summary(samples: number[]): string {
  return `p50 ${percentile(samples, 50).toFixed(1)} ms  p90 ${percentile(samples, 90).toFixed(1)} ms  (n=${samples.length})`;
}

async function timed(world: SandboxWorld, request: InteractionRequest): Promise<number> {
  const started = performance.now();
  const record = await world.run(request, { settleMs: 0, timeoutMs: 20_000 });
  const elapsed = performance.now() - started;
  if (
    transcriptOf(record).isError &&
    !(request.kind === "slash" && request.name === "blame" && request.options?.repo === "x")
  ) {
    throw new Error(`benchmark command failed: ${JSON.stringify(request)}: ${transcriptOf(record).text}`);
  }
  return elapsed;
}

/** Commits of the demo engine file, newest first: each a distinct, never-cached blame. */
export function engineCommits(world: SandboxWorld): string[] {
  const repository = world.github.world.repository("demo", "widgets");
  if (!repository) throw new Error("demo/widgets is missing from the world");
  return execFileSync(
    "git",
    ["--git-dir", repository.gitDir, "log", "--format=%H", "main", "--", DEMO_PATHS.engine],
    {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    },
  )
    .trim()
    .split("\n");
}

async function standInBlame(world: SandboxWorld, oid: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(world.github.graphqlUrl, {
    method: "POST",
    headers: { authorization: `bearer ${DEMO_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({
      query: DOCUMENTS.Blame,
      operationName: "Blame",
      variables: { owner: "demo", name: "widgets", expression: oid, path: DEMO_PATHS.engine },
    }),
  });
  await response.json();
  return performance.now() - started;
}

const MIXED: InteractionRequest[] = [
  {
    kind: "slash",
    name: "blame",
    options: { repo: "demo/widgets", path: DEMO_PATHS.engine, lines: "100-140" },
  },
  { kind: "slash", name: "blame", options: { repo: "demo/widgets", path: DEMO_PATHS.readme } },
  { kind: "slash", name: "blame", options: { repo: "demo/widgets", path: DEMO_PATHS.hostile } },
  { kind: "slash", name: "contents", options: { repo: "demo/widgets" } },
  { kind: "slash", name: "contents", options: { repo: "demo/widgets", path: "src" } },
  { kind: "slash", name: "contents", options: { repo: "demo/widgets", path: DEMO_PATHS.readme } },
  { kind: "slash", name: "repos", options: { owner: "demo" } },
  { kind: "slash", name: "repos", options: { owner: "demo", sort: "name" } },
  { kind: "slash", name: "contributors", options: { repo: "demo/crowd" } },
  { kind: "slash", name: "contributors", options: { repo: "demo/crowd", page: 2 } },
  { kind: "slash", name: "whoami" },
];

/** Runs the end-to-end benchmark; returns the lines to print. */
export async function benchEndToEnd(): Promise<string[]> {
  const world = await startSandboxWorld();
  try {
    const lines: string[] = [];
    const warm = {
      kind: "slash",
      name: "blame",
      options: { repo: "demo/widgets", path: DEMO_PATHS.engine, lines: "100-140" },
    } as const;
    await timed(world, warm);
    const bare: number[] = [];
    const cached: number[] = [];
    for (let i = 0; i < 40; i++) {
      bare.push(await timed(world, { kind: "slash", name: "blame", options: { repo: "x", path: "y" } }));
      cached.push(await timed(world, warm));
    }
    lines.push(`bare round trip of the local Discord (a reply needing no data): ${summary(bare)}`);
    lines.push(`cached /blame, interaction to reply:                           ${summary(cached)}`);

    const commits = engineCommits(world);
    const half = Math.floor(commits.length / 2);
    const own: number[] = [];
    for (const oid of commits.slice(0, half)) own.push(await standInBlame(world, oid));
    const uncached: number[] = [];
    for (const oid of commits.slice(half)) {
      uncached.push(
        await timed(world, {
          kind: "slash",
          name: "blame",
          options: { repo: "demo/widgets", path: DEMO_PATHS.engine, ref: oid, lines: "1-40" },
        }),
      );
    }
    lines.push(`stand-in's own blame of the 2,000-line file (HTTP, first time):  ${summary(own)}`);
    lines.push(`uncached /blame of it, interaction to reply:                   ${summary(uncached)}`);

    world.github.clearRequests();
    let seed = 42;
    const next = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    // Every question once, then repeats in a fixed pseudo-random order: 100 commands in all.
    const sequence = [
      ...MIXED,
      ...Array.from({ length: 100 - MIXED.length }, () => MIXED[next() % MIXED.length]!),
    ];
    for (const request of sequence) await timed(world, request);
    const upstream = world.github.requests.length;
    lines.push(
      `100 mixed commands (${MIXED.length} distinct questions, the rest repeats): ${upstream} upstream calls`,
    );
    return lines;
  } finally {
    await world.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const line of await benchEndToEnd()) console.log(line);
  process.exit(0);
}
