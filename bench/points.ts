/**
 * GitHub points per answer (issue 23 item 6): what each command's first answer (an input never
 * asked before) and its repeat (cached) cost the bot's token, as GitHub counts them: its own
 * `GET /rate_limit` (which charges nothing) before and after, GraphQL points and REST requests
 * apart. /blame beside the new commands (/issue, /commit, /history, /owners) as their baseline.
 * Alone: `npx tsx bench/points.ts`.
 */
import { pathToFileURL } from "node:url";
import type { InteractionRequest } from "../src/sandbox/discord/index.js";
import { DEMO_ISSUES } from "../src/sandbox/github/demoConstants.js";
import { DEMO_PARTS, partPath } from "../src/sandbox/github/demoOwnership.js";
import { DEMO_PATHS, DEMO_TOKEN } from "../src/sandbox/github/index.js";
import { startSandboxWorld, type SandboxWorld } from "../src/sandbox/harness.js";
import { transcriptOf } from "../src/sandbox/transcript.js";
import { engineCommits } from "./end-to-end.js";

interface Used {
  graphql: number;
  rest: number;
}

async function used(world: SandboxWorld): Promise<Used> {
  const answer = await fetch(`${world.github.restUrl}/rate_limit`, {
    headers: { authorization: `Bearer ${DEMO_TOKEN}`, accept: "application/vnd.github+json" },
  });
  const body = (await answer.json()) as { resources: { core: { used: number }; graphql: { used: number } } };
  return { graphql: body.resources.graphql.used, rest: body.resources.core.used };
}

/** What one answer cost, read from GitHub's own count around it. */
async function spent(world: SandboxWorld, request: InteractionRequest): Promise<Used> {
  const before = await used(world);
  const record = await world.run(request, { settleMs: 0, timeoutMs: 30_000 });
  const seen = transcriptOf(record);
  if (seen.isError) throw new Error(`benchmark interaction failed: ${JSON.stringify(request)}: ${seen.text}`);
  const after = await used(world);
  return { graphql: after.graphql - before.graphql, rest: after.rest - before.rest };
}

const shown = (cost: Used): string =>
  `${String(cost.graphql).padStart(3)} GraphQL points + ${String(cost.rest).padStart(2)} REST requests`;

/** Each command's first answer and its repeat, with what GitHub counted for each. */
export async function benchPoints(): Promise<string[]> {
  const world = await startSandboxWorld();
  try {
    const commits = engineCommits(world);
    const slash = (name: string, options: Record<string, string | number>): InteractionRequest => ({
      kind: "slash",
      name,
      options,
    });
    const cases: Array<[string, InteractionRequest]> = [
      [
        "/blame, 41 lines (the baseline)",
        slash("blame", { repo: "demo/widgets", path: DEMO_PATHS.engine, lines: "100-140" }),
      ],
      ["/issue, an issue", slash("issue", { repo: "demo/widgets", number: DEMO_ISSUES.open })],
      [
        "/issue, a pull request (reviews, checks)",
        slash("issue", { repo: "demo/widgets", number: DEMO_ISSUES.openPull }),
      ],
      ["/commit by id", slash("commit", { repo: "demo/widgets", ref: commits[1]! })],
      ["/history of a file", slash("history", { repo: "demo/widgets", path: DEMO_PATHS.engine })],
      ["/owners of a file", slash("owners", { repo: "demo/widgets", path: partPath(42) })],
      ["/owners of a folder", slash("owners", { repo: "demo/widgets", path: DEMO_PARTS.folder })],
    ];
    // One answer first, so that what the bot reads once (the viewer, the schema) is not charged below.
    await spent(world, slash("whoami", {}));
    const lines: string[] = [];
    for (const [label, request] of cases) {
      const first = await spent(world, request);
      const again = await spent(world, request);
      lines.push(`${label.padEnd(42)} first ${shown(first)}   cached ${shown(again)}`);
    }
    return lines;
  } finally {
    await world.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const text of await benchPoints()) console.log(text);
  process.exit(0);
}
