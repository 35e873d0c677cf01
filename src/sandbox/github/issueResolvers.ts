// Over 300 lines: the resolvers of issues, pull requests and the commit fields around them (checks are in checkResolvers.ts); one table, as resolvers.ts is.
import type { GraphQLResolveInfo } from "graphql";
import { paginate, type ConnectionArgs } from "./connection.js";
import type { GitSignature } from "./gitObjects.js";
import type { ChangedFile } from "./gitRepository.js";
import { GitHubFieldError } from "./githubErrors.js";
import { CHECK_TYPES, commitCheckFields, commitModel, resolveCommit } from "./checkResolvers.js";
import type {
  CommitModel,
  GitActorModel,
  OrganizationModel,
  RepositoryModel,
  ResolverContext,
  UserModel,
} from "./resolvers.js";
import type { WorldUser } from "./world.js";
import type { WorldIssue, WorldLabel } from "./worldIssues.js";

/*
 * GITHUB-FACTS.md "Issues, pull requests and commits". Only `import type` from ./resolvers.ts: that
 * module spreads this one's tables into its own, and a value import back would be circular.
 */

interface IssueModel {
  __typename: "Issue" | "PullRequest";
  repo: RepositoryModel;
  issue: WorldIssue;
}
interface BotModel {
  __typename: "Bot";
  user: WorldUser;
}
type ActorModel = UserModel | BotModel;
interface PullRequestCommitModel {
  pull: IssueModel;
  commit: CommitModel;
}

/** GitHub cuts a commit's file list at 3,000; past that `changedFilesIfAvailable` is null. */
const MAX_COMMIT_FILES = 3_000;
/** A `Co-authored-by: Name <email>` trailer, as GitHub reads it (case-insensitive key). */
const CO_AUTHOR = /^co-authored-by:\s*(.+?)\s*<([^<>\s]+)>\s*$/gim;

function actorModel(context: ResolverContext, login: string | null): ActorModel | null {
  if (login === null) return null;
  const user = context.world.user(login);
  if (!user) return null;
  return user.type === "Bot" ? { __typename: "Bot", user } : { __typename: "User", user };
}

function ownerModel(context: ResolverContext, login: string): UserModel | OrganizationModel | null {
  const owner = context.world.owner(login);
  if (!owner) return null;
  if (owner.kind === "Organization") return { __typename: "Organization", organization: owner.organization };
  return owner.user.type === "Bot" ? null : { __typename: "User", user: owner.user };
}

function issueModel(repo: RepositoryModel, issue: WorldIssue): IssueModel {
  return { __typename: issue.pullRequest ? "PullRequest" : "Issue", repo, issue };
}

function findIssue(repo: RepositoryModel, number: number): WorldIssue | undefined {
  return (repo.repository.issues ?? []).find((issue) => issue.number === number);
}

function notFound(kind: string, number: number): GitHubFieldError {
  return new GitHubFieldError("NOT_FOUND", `Could not resolve to ${kind} with the number of ${number}.`);
}

/** A pull request's head commit (its head branch's tip), and where its diff starts. */
async function pullRange(
  model: IssueModel,
  context: ResolverContext,
): Promise<{ head: string; base: string } | null> {
  const pull = model.issue.pullRequest;
  if (!pull) return null;
  const head = await resolveCommit(model.repo, `refs/heads/${pull.headRefName}`, context);
  if (head === null) return null;
  const declared = pull.diffBase ? await resolveCommit(model.repo, pull.diffBase, context) : null;
  const baseTip = await resolveCommit(model.repo, `refs/heads/${pull.baseRefName}`, context);
  const base = declared ?? (baseTip === null ? null : await model.repo.git.mergeBase(baseTip, head));
  return base === null ? null : { head, base };
}

async function pullDiff(model: IssueModel, context: ResolverContext): Promise<ChangedFile[]> {
  const range = await pullRange(model, context);
  if (!range) return [];
  return (await model.repo.git.diff(range.head, range.base)) ?? [];
}

/** Each reviewer's latest review that counts (comments do not), as GitHub decides. */
function reviewDecision(issue: WorldIssue): string | null {
  const pull = issue.pullRequest;
  if (!pull?.reviewRequired) return null;
  const latest = new Map<string, string>();
  for (const review of [...(pull.reviews ?? [])].sort((a, b) => a.submittedAt.localeCompare(b.submittedAt))) {
    if (review.state === "APPROVED" || review.state === "CHANGES_REQUESTED")
      latest.set(review.author, review.state);
    if (review.state === "DISMISSED") latest.delete(review.author);
  }
  const states = [...latest.values()];
  if (states.includes("CHANGES_REQUESTED")) return "CHANGES_REQUESTED";
  if (states.includes("APPROVED")) return "APPROVED";
  return "REVIEW_REQUIRED";
}

function issueState(issue: WorldIssue): string {
  if (issue.pullRequest?.mergedAt) return "MERGED";
  return issue.state;
}

/** The commit's author first, then each co-author of its trailers (GitHub's `authors`). */
function commitAuthors(model: CommitModel): GitActorModel[] {
  const author = model.commit.author;
  const actors: GitActorModel[] = author ? [{ signature: author }] : [];
  const seen = new Set(author ? [author.email.toLowerCase()] : []);
  for (const match of model.commit.message.matchAll(CO_AUTHOR)) {
    const [, name = "", email = ""] = match;
    if (seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    const signature: GitSignature = {
      name,
      email,
      time: author?.time ?? 0,
      timezone: author?.timezone ?? "+0000",
    };
    actors.push({ signature });
  }
  return actors;
}

/** The pull requests whose commits hold this one (open or closed), in number order. */
async function associatedPulls(model: CommitModel, context: ResolverContext): Promise<IssueModel[]> {
  const pulls: IssueModel[] = [];
  for (const issue of model.repo.repository.issues ?? []) {
    if (!issue.pullRequest) continue;
    const pull = issueModel(model.repo, issue);
    const range = await pullRange(pull, context);
    if (range && (await model.repo.git.commitsBetween(range.base, range.head)).includes(model.commit.oid)) {
      pulls.push(pull);
    }
  }
  return pulls;
}

function issueUrl(model: IssueModel, context: ResolverContext): string {
  const { owner, name } = model.repo.repository;
  const kind = model.issue.pullRequest ? "pull" : "issues";
  return `${context.htmlUrl}/${owner}/${name}/${kind}/${model.issue.number}`;
}

/** GitHub's legacy global node id: base64 of `0<len>:<Type><id>`. */
function nodeId(type: string, id: number): string {
  return Buffer.from(`0${type.length}:${type}${id}`, "utf8").toString("base64");
}

type Args = ConnectionArgs & Record<string, unknown>;

const commonIssueFields = {
  number: (model: IssueModel) => model.issue.number,
  title: (model: IssueModel) => model.issue.title,
  url: (model: IssueModel, _: unknown, context: ResolverContext) => issueUrl(model, context),
  resourcePath: (model: IssueModel, _: unknown, context: ResolverContext) =>
    new URL(issueUrl(model, context)).pathname,
  id: (model: IssueModel) => nodeId(model.__typename, model.repo.repository.id * 10_000 + model.issue.number),
  databaseId: (model: IssueModel) => model.repo.repository.id * 10_000 + model.issue.number,
  repository: (model: IssueModel) => model.repo,
  author: (model: IssueModel, _: unknown, context: ResolverContext) =>
    actorModel(context, model.issue.author),
  createdAt: (model: IssueModel) => model.issue.createdAt,
  updatedAt: (model: IssueModel) => model.issue.updatedAt,
  closedAt: (model: IssueModel) => model.issue.closedAt ?? null,
  closed: (model: IssueModel) => model.issue.state === "CLOSED",
  state: (model: IssueModel) => issueState(model.issue),
  body: (model: IssueModel) => model.issue.body ?? "",
  // Unconfirmed how GitHub renders markdown to text; the markdown is close to what it gives.
  bodyText: (model: IssueModel) => model.issue.body ?? "",
  labels: (model: IssueModel, args: Args, _: ResolverContext, info: GraphQLResolveInfo) =>
    paginate(model.issue.labels ?? [], args, info),
  assignees: (model: IssueModel, args: Args, context: ResolverContext, info: GraphQLResolveInfo) =>
    paginate(
      (model.issue.assignees ?? []).flatMap((login) => {
        const user = context.world.user(login);
        return user && user.type !== "Bot" ? [{ __typename: "User", user }] : [];
      }),
      args,
      info,
    ),
  // Only the count is kept: the comments' fields are not resolved, so asking for them fails loudly.
  comments: (model: IssueModel) => ({ totalCount: model.issue.comments ?? 0 }),
};

const Issue = {
  ...commonIssueFields,
  stateReason: (model: IssueModel) => model.issue.stateReason ?? null,
  closedByPullRequestsReferences: (
    model: IssueModel,
    args: Args & { includeClosedPrs?: boolean | null },
    _: ResolverContext,
    info: GraphQLResolveInfo,
  ) => {
    const pulls = (model.repo.repository.issues ?? []).filter(
      (issue) =>
        issue.pullRequest?.closes?.includes(model.issue.number) &&
        // Unconfirmed whether a merged pull request counts as closed here; it closed the issue.
        (args.includeClosedPrs === true || issue.state === "OPEN" || Boolean(issue.pullRequest.mergedAt)),
    );
    return paginate(
      pulls.map((issue) => issueModel(model.repo, issue)),
      args,
      info,
    );
  },
};

const PullRequest = {
  ...commonIssueFields,
  isDraft: (model: IssueModel) => model.issue.pullRequest?.isDraft === true,
  merged: (model: IssueModel) => Boolean(model.issue.pullRequest?.mergedAt),
  mergedAt: (model: IssueModel) => model.issue.pullRequest?.mergedAt ?? null,
  baseRefName: (model: IssueModel) => model.issue.pullRequest?.baseRefName ?? "",
  headRefName: (model: IssueModel) => model.issue.pullRequest?.headRefName ?? "",
  headRefOid: async (model: IssueModel, _: unknown, context: ResolverContext) =>
    (await pullRange(model, context))?.head ?? "",
  headRepositoryOwner: (model: IssueModel, _: unknown, context: ResolverContext) =>
    ownerModel(context, model.repo.repository.owner),
  reviewDecision: (model: IssueModel) => reviewDecision(model.issue),
  // A merged or closed pull request is never in conflict any more (GitHub answers UNKNOWN, unconfirmed).
  mergeable: (model: IssueModel) =>
    model.issue.state === "OPEN" ? (model.issue.pullRequest?.mergeable ?? "MERGEABLE") : "UNKNOWN",
  additions: async (model: IssueModel, _: unknown, context: ResolverContext) =>
    (await pullDiff(model, context)).reduce((sum, file) => sum + file.additions, 0),
  deletions: async (model: IssueModel, _: unknown, context: ResolverContext) =>
    (await pullDiff(model, context)).reduce((sum, file) => sum + file.deletions, 0),
  changedFiles: async (model: IssueModel, _: unknown, context: ResolverContext) =>
    (await pullDiff(model, context)).length,
  closingIssuesReferences: (model: IssueModel, args: Args, _: ResolverContext, info: GraphQLResolveInfo) => {
    const issues = (model.issue.pullRequest?.closes ?? []).flatMap((number) => {
      const issue = findIssue(model.repo, number);
      return issue && !issue.pullRequest ? [issueModel(model.repo, issue)] : [];
    });
    return paginate(issues, args, info);
  },
  commits: async (model: IssueModel, args: Args, context: ResolverContext, info: GraphQLResolveInfo) => {
    const range = await pullRange(model, context);
    const oids = range ? (await model.repo.git.commitsBetween(range.base, range.head)).reverse() : [];
    const commits = await Promise.all(oids.map((oid) => commitModel(model.repo, oid)));
    return paginate(
      commits.flatMap((commit) => (commit ? [{ pull: model, commit }] : [])),
      args,
      info,
    );
  },
};

const PullRequestCommit = {
  commit: (model: PullRequestCommitModel) => model.commit,
  pullRequest: (model: PullRequestCommitModel) => model.pull,
};

const Label = {
  name: (label: WorldLabel) => label.name,
  color: (label: WorldLabel) => label.color,
  description: (label: WorldLabel) => label.description ?? null,
};

const Bot = {
  login: (model: BotModel) => model.user.login,
  url: (model: BotModel, _: unknown, context: ResolverContext) =>
    `${context.htmlUrl}/apps/${model.user.login.replace(/\[bot\]$/, "")}`,
  databaseId: (model: BotModel) => model.user.id,
  avatarUrl: (model: BotModel) => `https://avatars.githubusercontent.com/in/${model.user.id}?v=4`,
};

/** Fields this module adds to `Commit`. */
export const commitIssueFields = {
  additions: async (model: CommitModel) =>
    ((await model.repo.git.diff(model.commit.oid)) ?? []).reduce((sum, file) => sum + file.additions, 0),
  deletions: async (model: CommitModel) =>
    ((await model.repo.git.diff(model.commit.oid)) ?? []).reduce((sum, file) => sum + file.deletions, 0),
  changedFilesIfAvailable: async (model: CommitModel) => {
    const files = (await model.repo.git.diff(model.commit.oid)) ?? [];
    return files.length > MAX_COMMIT_FILES ? null : files.length;
  },
  changedFiles: async (model: CommitModel) => ((await model.repo.git.diff(model.commit.oid)) ?? []).length,
  authors: (model: CommitModel, args: Args, _: ResolverContext, info: GraphQLResolveInfo) =>
    paginate(commitAuthors(model), args, info),
  ...commitCheckFields,
  associatedPullRequests: async (
    model: CommitModel,
    args: Args,
    context: ResolverContext,
    info: GraphQLResolveInfo,
  ) => paginate(await associatedPulls(model, context), args, info),
  parents: async (model: CommitModel, args: Args, _: ResolverContext, info: GraphQLResolveInfo) => {
    const parents = await Promise.all(model.commit.parents.map((oid) => commitModel(model.repo, oid)));
    return paginate(
      parents.filter((parent) => parent !== null),
      args,
      info,
    );
  },
};

/** Fields this module adds to `Repository`. */
export const repositoryIssueFields = {
  issueOrPullRequest: (model: RepositoryModel, args: { number: number }) => {
    const issue = findIssue(model, args.number);
    if (!issue) throw notFound("an issue or pull request", args.number);
    return issueModel(model, issue);
  },
  issue: (model: RepositoryModel, args: { number: number }) => {
    const issue = findIssue(model, args.number);
    if (!issue || issue.pullRequest) throw notFound("an Issue", args.number);
    return issueModel(model, issue);
  },
  pullRequest: (model: RepositoryModel, args: { number: number }) => {
    const issue = findIssue(model, args.number);
    if (!issue?.pullRequest) throw notFound("a PullRequest", args.number);
    return issueModel(model, issue);
  },
};

const connection = ["totalCount", "nodes", "edges", "pageInfo"];
const edge = ["cursor", "node"];

/** The types this module resolves whole, by type name; connections read their page's properties. */
export const ISSUE_TYPES = {
  Issue,
  PullRequest,
  PullRequestCommit,
  Label,
  Bot,
  checks: CHECK_TYPES.types,
  connections: {
    ...CHECK_TYPES.connections,
    LabelConnection: connection,
    LabelEdge: edge,
    UserConnection: connection,
    UserEdge: edge,
    IssueConnection: connection,
    IssueEdge: edge,
    PullRequestConnection: connection,
    PullRequestEdge: edge,
    PullRequestCommitConnection: connection,
    PullRequestCommitEdge: edge,
    GitActorConnection: connection,
    GitActorEdge: edge,
    CommitConnection: connection,
    CommitEdge: edge,
    IssueCommentConnection: ["totalCount"],
  },
};
