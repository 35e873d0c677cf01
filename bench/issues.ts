/**
 * `/issue`, `/commit` and `Preview links`, interaction to reply, through the real discord.js client
 * and both stand-ins: cached, then uncached (an issue or pull request never asked before; a commit
 * by an id never asked before). These are the slash commands an automatic preview is set beside.
 */
import { pathToFileURL } from "node:url";
import type { InteractionRequest } from "../src/sandbox/discord/index.js";
import { DEMO_ISSUES } from "../src/sandbox/github/demoConstants.js";
import { startSandboxWorld, type SandboxWorld } from "../src/sandbox/harness.js";
import { engineCommits } from "./end-to-end.js";
import { timedRun, timingLine } from "./sandboxTiming.js";

const timed = async (world: SandboxWorld, request: InteractionRequest): Promise<number> =>
  (await timedRun(world, request)).ms;

const line = (label: string, samples: readonly number[]): string => timingLine(label, 58, samples);

/** Runs the issue and commit benchmark; returns the lines to print. */
export async function benchIssues(rounds = 30): Promise<string[]> {
  const world = await startSandboxWorld();
  try {
    const issue = (number: number): InteractionRequest => ({
      kind: "slash",
      name: "issue",
      options: { repo: "demo/widgets", number },
    });
    const commit = (ref: string): InteractionRequest => ({
      kind: "slash",
      name: "commit",
      options: { repo: "demo/widgets", ref },
    });
    // Uncached first: every issue and pull request of the demo world, once.
    const uncachedIssue: number[] = [];
    for (const number of Object.values(DEMO_ISSUES)) uncachedIssue.push(await timed(world, issue(number)));
    const commits = engineCommits(world).slice(0, rounds);
    const uncachedCommit: number[] = [];
    for (const sha of commits) uncachedCommit.push(await timed(world, commit(sha)));
    const three = world.discord.postAsUser({
      content: `https://github.com/demo/widgets/pull/5 https://github.com/demo/widgets/commit/${commits[0]} demo/widgets#1`,
    }).id;
    await timed(world, { kind: "message", name: "Preview links", message: three });

    const cachedIssue: number[] = [];
    const cachedCommit: number[] = [];
    const cachedPreview: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      cachedIssue.push(await timed(world, issue(DEMO_ISSUES.openPull)));
      cachedCommit.push(await timed(world, commit(commits[0]!)));
      cachedPreview.push(await timed(world, { kind: "message", name: "Preview links", message: three }));
    }
    return [
      line("uncached /issue (each issue and pull request once):", uncachedIssue),
      line("cached /issue of a pull request:", cachedIssue),
      line("uncached /commit by a new commit id (GraphQL + REST):", uncachedCommit),
      line("cached /commit by id:", cachedCommit),
      line("cached Preview links on a PR, a commit and owner/name#N:", cachedPreview),
    ];
  } finally {
    await world.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const text of await benchIssues()) console.log(text);
  process.exit(0);
}
