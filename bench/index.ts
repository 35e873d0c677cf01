/**
 * `npm run bench`: prints RepoScout's speed figures. Numbers only, never assertions: a busy machine
 * makes them move, and a test that fails on a slow run teaches nothing. `npm run bench -- --quick`
 * runs the load figures only, in a short form, for development. `npm run bench -- --goals [--runs
 * 3]` runs only issue 23's goal figures, that many times, and prints each one's spread (./goals.ts;
 * with `--quick`, their short forms). `--bot-node <path>` runs the bots, and the bot's code measured
 * in a process of its own, on another node than the bench's: the one the deployments run (the
 * Dockerfile's current LTS), where the machine has another installed.
 */
import { benchCacheBound } from "./cache-bound.js";
import { benchEndToEnd } from "./end-to-end.js";
import { benchFairAdmission } from "./fair-admission.js";
import { benchFirstBlame } from "./first-blame.js";
import { benchFormatBlame } from "./format-blame.js";
import { benchPreviewLatency, benchPreviewMemory } from "./link-previews.js";
import { benchFormatOnce } from "./format-once.js";
import { benchPageTurns } from "./page-turns.js";
import { benchIssues } from "./issues.js";
import { benchMessageMenus } from "./message-menus.js";
import { benchOwners } from "./owners.js";
import { benchPoints } from "./points.js";
import { benchRedisMemory } from "./redis-memory.js";
import { benchSignIn } from "./signin.js";
import { benchSlowClients } from "./slow-clients.js";
import { benchSqliteQueries } from "./sqlite-queries.js";
import { benchStandinBlame } from "./standin-blame.js";
import { benchStartup } from "./startup.js";
import { benchTwoProcesses } from "./two-processes.js";
import { benchGoals } from "./goals.js";
import { loadSections } from "./load/index.js";
import { buildForBench, useBotNode } from "./load/processes.js";

const quick = process.argv.includes("--quick");
console.log(buildForBench().line);
const botNodeAt = process.argv.indexOf("--bot-node");
try {
  console.log(useBotNode(botNodeAt >= 0 ? (process.argv[botNodeAt + 1] ?? "") : null));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

if (process.argv.includes("--goals")) {
  const at = process.argv.indexOf("--runs");
  const runs = at >= 0 ? Number(process.argv[at + 1]) : 3;
  if (!Number.isInteger(runs) || runs < 1) {
    console.error("--runs takes a whole number of runs, 1 or more (npm run bench -- --goals --runs 3)");
    process.exit(2);
  }
  await benchGoals({ runs, quick });
  process.exit(0);
}

const sections: Array<[string, () => Promise<string[]>]> = quick
  ? loadSections(true)
  : [
      ["GitHub stand-in", benchStandinBlame],
      ["Formatting", benchFormatBlame],
      ["First /blame: CPU and bytes stored (issue 23)", benchFirstBlame],
      ["Format once, warm before ready (issue 23, CPU in process)", benchFormatOnce],
      ["Page turns held in process beside the steps (issue 23, in process)", benchPageTurns],
      ["Cache bound (LRU bookkeeping)", benchCacheBound],
      ["SQLite: one query through Database#all beside a prepared statement", benchSqliteQueries],
      ["Cache bound in Redis (memory Redis holds per booked MB)", benchRedisMemory],
      ["Fair admission (one person floods, another asks)", benchFairAdmission],
      ["End to end (real discord.js client, both stand-ins)", benchEndToEnd],
      [
        "Message menus, menu to answer, beside the slash command (real discord.js client)",
        () => benchMessageMenus(),
      ],
      [
        "Automatic link previews, message to preview, beside the slash command (real discord.js client)",
        () => benchPreviewLatency(),
      ],
      [
        "Automatic link previews: resident memory with the message intents, beside no intent",
        () => benchPreviewMemory(),
      ],
      [
        "Issues, pull requests and commits, interaction to reply (real discord.js client)",
        () => benchIssues(),
      ],
      ["/owners and its chart (real discord.js client, both stand-ins)", () => benchOwners()],
      ["GitHub points per answer, first and cached (GitHub's own count, GET /rate_limit)", benchPoints],
      ["Sign-in (user-token vault, sandbox /login)", benchSignIn],
      ["Slow clients against the interactions endpoint (HTTP mode, own process)", benchSlowClients],
      ["Many processes on one Redis (real processes, HTTP, round robin)", benchTwoProcesses],
      [
        "Start-up: the sources through tsx beside the build (npm run build, plain node)",
        () => benchStartup(),
      ],
      ...loadSections(false),
    ];

for (const [title, run] of sections) {
  console.log(`\n== ${title}`);
  for (const line of await run()) console.log(line);
}
process.exit(0);
