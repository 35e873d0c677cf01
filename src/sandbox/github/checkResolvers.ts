import type { GraphQLResolveInfo } from "graphql";
import { paginate, type ConnectionArgs } from "./connection.js";
import type { CommitModel, RepositoryModel, ResolverContext } from "./resolvers.js";
import type { WorldCommitChecks } from "./worldIssues.js";

/*
 * The checks of a commit (GITHUB-FACTS.md "Issues, pull requests and commits"): the combined
 * `statusCheckRollup` with its contexts counted and listed, and the check suites with their runs,
 * from the checks the world declares on each commit. Only `import type` from ./resolvers.ts.
 */

interface RollupModel {
  repo: RepositoryModel;
  oid: string;
  checks: WorldCommitChecks;
}
interface CheckRunModel {
  __typename: "CheckRun";
  repo: RepositoryModel;
  oid: string;
  run: NonNullable<WorldCommitChecks["runs"]>[number];
  index: number;
}
interface StatusContextModel {
  __typename: "StatusContext";
  status: NonNullable<WorldCommitChecks["statuses"]>[number];
}
interface CheckSuiteModel {
  repo: RepositoryModel;
  oid: string;
  app: string;
  runs: CheckRunModel[];
}
type Args = ConnectionArgs & Record<string, unknown>;

/** A commit id a revision names now, recorded so a reused answer notices a moved branch. */
export async function resolveCommit(
  repo: RepositoryModel,
  expression: string,
  context: ResolverContext,
): Promise<string | null> {
  const info = await repo.git.resolve(expression);
  const oid = info?.type === "commit" ? info.oid : null;
  context.observations.resolve(repo.git, expression, oid);
  return oid;
}

/** The commit model of a commit id; null when the repository has no such commit. */
export async function commitModel(repo: RepositoryModel, oid: string): Promise<CommitModel | null> {
  const commit = await repo.git.commit(oid);
  return commit ? { __typename: "Commit", repo, commit } : null;
}

/** A check run's `CheckRunState`: its conclusion once completed, else its status. */
function checkRunState(run: NonNullable<WorldCommitChecks["runs"]>[number]): string {
  return run.status === "COMPLETED" ? (run.conclusion ?? "NEUTRAL") : run.status;
}

/**
 * The combined state of a commit's checks and statuses (unconfirmed in detail: GitHub documents
 * only the values): any failed run or failing status fails it, else anything unfinished keeps it
 * pending, else it succeeds. Neutral and skipped runs count as passing.
 */
function rollupState(checks: WorldCommitChecks): string {
  const states = [
    ...(checks.runs ?? []).map((run) => {
      const state = checkRunState(run);
      if (["SUCCESS", "NEUTRAL", "SKIPPED"].includes(state)) return "SUCCESS";
      if (["QUEUED", "IN_PROGRESS", "WAITING", "PENDING", "REQUESTED"].includes(state)) return "PENDING";
      return "FAILURE";
    }),
    ...(checks.statuses ?? []).map((status) =>
      status.state === "EXPECTED" ? "PENDING" : status.state === "ERROR" ? "ERROR" : status.state,
    ),
  ];
  if (states.includes("ERROR")) return "ERROR";
  if (states.includes("FAILURE")) return "FAILURE";
  if (states.includes("PENDING")) return "PENDING";
  return "SUCCESS";
}

function countBy(values: readonly string[]): Array<{ state: string; count: number }> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([state, count]) => ({ state, count }));
}

/** The checks reported on a commit, or null when none were (GitHub's null rollup). */
async function rollupOf(model: CommitModel, context: ResolverContext): Promise<RollupModel | null> {
  for (const checks of model.repo.repository.checks ?? []) {
    if ((await resolveCommit(model.repo, checks.commit, context)) === model.commit.oid) {
      const some = (checks.runs?.length ?? 0) + (checks.statuses?.length ?? 0) > 0;
      return some ? { repo: model.repo, oid: model.commit.oid, checks } : null;
    }
  }
  return null;
}

const StatusCheckRollup = {
  state: (model: RollupModel) => rollupState(model.checks),
  contexts: (model: RollupModel, args: Args, _: ResolverContext, info: GraphQLResolveInfo) => {
    const runs = model.checks.runs ?? [];
    const statuses = model.checks.statuses ?? [];
    const contexts: Array<CheckRunModel | StatusContextModel> = [
      ...runModels(model.repo, model.oid, model.checks),
      ...statuses.map((status): StatusContextModel => ({ __typename: "StatusContext", status })),
    ];
    return {
      ...paginate(contexts, args, info),
      totalCount: runs.length + statuses.length,
      checkRunCount: runs.length,
      checkRunCountsByState: countBy(runs.map(checkRunState)),
      statusContextCount: statuses.length,
      statusContextCountsByState: countBy(statuses.map((status) => status.state)),
    };
  },
  commit: (model: RollupModel) => commitModel(model.repo, model.oid),
};

function runModels(repo: RepositoryModel, oid: string, checks: WorldCommitChecks): CheckRunModel[] {
  return (checks.runs ?? []).map((run, index) => ({ __typename: "CheckRun", repo, oid, run, index }));
}

/** A suite's status and conclusion from its runs: done when every run is, then the worst outcome. */
function suiteState(runs: readonly CheckRunModel[]): { status: string; conclusion: string | null } {
  const unfinished = runs.filter((model) => model.run.status !== "COMPLETED");
  if (unfinished.length > 0) {
    return {
      status: unfinished.every((model) => model.run.status === "QUEUED") ? "QUEUED" : "IN_PROGRESS",
      conclusion: null,
    };
  }
  // Unconfirmed in detail: the first failing conclusion in GitHub's order of severity wins.
  const order = [
    "ACTION_REQUIRED",
    "TIMED_OUT",
    "FAILURE",
    "STARTUP_FAILURE",
    "CANCELLED",
    "STALE",
    "NEUTRAL",
    "SKIPPED",
    "SUCCESS",
  ];
  const conclusions: string[] = runs.map((model) => model.run.conclusion ?? "NEUTRAL");
  return { status: "COMPLETED", conclusion: order.find((value) => conclusions.includes(value)) ?? "SUCCESS" };
}

const CheckSuite = {
  app: (model: CheckSuiteModel) => ({
    name: model.app,
    slug: model.app.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
  }),
  status: (model: CheckSuiteModel) => suiteState(model.runs).status,
  conclusion: (model: CheckSuiteModel) => suiteState(model.runs).conclusion,
  checkRuns: (model: CheckSuiteModel, args: Args, _: ResolverContext, info: GraphQLResolveInfo) =>
    paginate(model.runs, args, info),
  commit: (model: CheckSuiteModel) => commitModel(model.repo, model.oid),
};

const CheckRun = {
  name: (model: CheckRunModel) => model.run.name,
  status: (model: CheckRunModel) => model.run.status,
  conclusion: (model: CheckRunModel) =>
    model.run.status === "COMPLETED" ? (model.run.conclusion ?? "NEUTRAL") : null,
  detailsUrl: (model: CheckRunModel, _: unknown, context: ResolverContext) =>
    `${context.htmlUrl}/${model.repo.repository.owner}/${model.repo.repository.name}/runs/${model.repo.repository.id}${model.index}`,
};

const StatusContext = {
  context: (model: StatusContextModel) => model.status.context,
  state: (model: StatusContextModel) => model.status.state,
  description: () => null,
  targetUrl: () => null,
};

/** Fields this module adds to `Commit`. */
export const commitCheckFields = {
  statusCheckRollup: (model: CommitModel, _: unknown, context: ResolverContext) => rollupOf(model, context),
  checkSuites: async (model: CommitModel, args: Args, context: ResolverContext, info: GraphQLResolveInfo) => {
    const rollup = await rollupOf(model, context);
    const runs = rollup ? runModels(model.repo, model.commit.oid, rollup.checks) : [];
    const apps = [...new Set(runs.map((run) => run.run.app ?? "GitHub Actions"))];
    const suites = apps.map((app): CheckSuiteModel => ({
      repo: model.repo,
      oid: model.commit.oid,
      app,
      runs: runs.filter((run) => (run.run.app ?? "GitHub Actions") === app),
    }));
    return paginate(suites, args, info);
  },
};

const connection = ["totalCount", "nodes", "edges", "pageInfo"];
const edge = ["cursor", "node"];

/** The check types this module resolves, and the connections that read their page's properties. */
export const CHECK_TYPES = {
  types: { StatusCheckRollup, CheckSuite, CheckRun, StatusContext },
  connections: {
    CheckSuiteConnection: connection,
    CheckSuiteEdge: edge,
    CheckRunConnection: connection,
    CheckRunEdge: edge,
    App: ["name", "slug"],
    StatusCheckRollupContextEdge: edge,
    StatusCheckRollupContextConnection: [
      ...connection,
      "checkRunCount",
      "checkRunCountsByState",
      "statusContextCount",
      "statusContextCountsByState",
    ],
    CheckRunStateCount: ["state", "count"],
    StatusContextStateCount: ["state", "count"],
  },
};
