/**
 * Benchmark of the GitHub stand-in: p50 of the bot's Blame query on the ~2,000-line demo file
 * (`demo/widgets`, `src/engine.ts`) through the HTTP server. Printed, not asserted.
 *
 * - first: the first blame at a commit id (git blame runs), once per commit that touched the file;
 * - repeat: the same commit id again (the answer comes from memory).
 *
 * Run alone: `npx tsx bench/standin-blame.ts`.
 */
import { pathToFileURL } from "node:url";
import {
  DEMO_PATHS,
  DEMO_REPOSITORIES,
  DEMO_TOKEN,
  startGitHubStandIn,
} from "../src/sandbox/github/index.js";
import { runGitChecked } from "../src/sandbox/github/gitProcess.js";

const BLAME_QUERY = `query Blame($owner: String!, $name: String!, $expression: String!, $path: String!) {
  repository(owner: $owner, name: $name) { nameWithOwner url isPrivate
    defaultBranchRef { name }
    object(expression: $expression) { __typename ... on Commit { oid url committedDate
      blame(path: $path) { ranges { startingLine endingLine age
        commit { oid abbreviatedOid messageHeadline url authoredDate committedDate author { name email user { login } } } } }
      file(path: $path) { path object { __typename ... on Blob { oid text isBinary byteSize isTruncated } } } } } } }`;

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

/** Runs the benchmark and returns the lines to print. */
export async function benchStandinBlame(): Promise<string[]> {
  const standIn = await startGitHubStandIn();
  try {
    const [owner = "", name = ""] = DEMO_REPOSITORIES.widgets.split("/");
    const repository = standIn.world.repository(owner, name);
    if (!repository) throw new Error("demo/widgets is missing from the demo world");
    const commits = (
      await runGitChecked(["log", "--format=%H", "--end-of-options", "main", "--", DEMO_PATHS.engine], {
        gitDir: repository.gitDir,
      })
    )
      .toString("utf8")
      .trim()
      .split("\n");

    const blame = async (expression: string): Promise<number> => {
      const started = performance.now();
      const response = await fetch(standIn.graphqlUrl, {
        method: "POST",
        headers: { authorization: `bearer ${DEMO_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({
          query: BLAME_QUERY,
          variables: { owner, name, expression, path: DEMO_PATHS.engine },
        }),
      });
      const body = (await response.json()) as { errors?: unknown[] };
      const elapsed = performance.now() - started;
      if (response.status !== 200 || body.errors)
        throw new Error(`blame failed: ${JSON.stringify(body).slice(0, 300)}`);
      return elapsed;
    };

    // Warm up the process: schema, HTTP connection, the cat-file reader, a blame of another file.
    await fetch(standIn.graphqlUrl, {
      method: "POST",
      headers: { authorization: `bearer ${DEMO_TOKEN}` },
      body: JSON.stringify({ query: "{ viewer { login } }" }),
    });
    await blame(`main~3`).catch(() => 0);

    const first: number[] = [];
    for (const commit of commits) first.push(await blame(commit));
    const repeat: number[] = [];
    const pinned = commits[0] ?? "main";
    for (let round = 0; round < 100; round += 1) repeat.push(await blame(pinned));

    const ms = (value: number): string => `${value.toFixed(1)} ms`;
    return [
      `stand-in blame of ${DEMO_REPOSITORIES.widgets} ${DEMO_PATHS.engine} through HTTP (Blame query of the bot):`,
      `  first at a commit:  p50 ${ms(percentile(first, 0.5))}  p90 ${ms(percentile(first, 0.9))}  (n=${first.length}; target < 30 ms)`,
      `  repeat, same commit: p50 ${ms(percentile(repeat, 0.5))}  p90 ${ms(percentile(repeat, 0.9))}  (n=${repeat.length}; target < 5 ms)`,
    ];
  } finally {
    await standIn.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchStandinBlame()) console.log(line);
}
