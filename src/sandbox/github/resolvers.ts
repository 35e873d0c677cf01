// Over 300 lines: the GraphQL resolvers of the schema's types RepoScout reads; one table, as GitHub's schema is one.
import type { GraphQLFieldResolver, GraphQLResolveInfo } from "graphql";
import type { BlameRangeData } from "./blame.js";
import { paginate, type ConnectionArgs } from "./connection.js";
import {
  formatDateTime,
  formatGitTimestamp,
  looksBinary,
  type GitSignature,
  type ParsedCommit,
  type ParsedTag,
  type ParsedTreeEntry,
} from "./gitObjects.js";
import { isSafeTreePath, type GitRepository } from "./gitRepository.js";
import { commitIssueFields, ISSUE_TYPES, repositoryIssueFields } from "./issueResolvers.js";
import {
  GitHubFieldError,
  NotImplementedByStandInError,
  fileNotFound,
  repositoryNotFound,
} from "./githubErrors.js";
import type { ObservationLog } from "./responseCache.js";
import type { World, WorldOrganization, WorldRepository, WorldUser } from "./world.js";

/** What every resolver of one request sees. */
export interface ResolverContext {
  world: World;
  /** The user the token authenticates. */
  viewer: WorldUser;
  /** The git access of a repository (one long-lived reader per repository). */
  git: (repository: WorldRepository) => GitRepository;
  /** Base of the web URLs in answers (`https://github.com`). */
  htmlUrl: string;
  /** The token's GraphQL budget after this query was charged. */
  rateLimit: {
    limit: number;
    remaining: number;
    used: number;
    resetAt: number;
    cost: number;
    nodeCount: number;
  };
  /** Where resolvers record what they read that can change (refs), so the answer can be reused. */
  observations: ObservationLog;
}

/** GitHub cuts `Blob.text` at this many bytes. */
export const BLOB_TEXT_LIMIT = 512_000;

// --- The objects resolvers pass to each other ------------------------------------------------

export interface RepositoryModel {
  __typename: "Repository";
  repository: WorldRepository;
  git: GitRepository;
}
export interface UserModel {
  __typename: "User";
  user: WorldUser;
}
export interface OrganizationModel {
  __typename: "Organization";
  organization: WorldOrganization;
}
type OwnerModel = UserModel | OrganizationModel;
export interface CommitModel {
  __typename: "Commit";
  repo: RepositoryModel;
  commit: ParsedCommit;
}
interface TreeModel {
  __typename: "Tree";
  repo: RepositoryModel;
  oid: string;
  entries: ParsedTreeEntry[];
  /** Path of the tree from the repository root ("" for the root, or when reached by id). */
  path: string;
}
interface BlobModel {
  __typename: "Blob";
  repo: RepositoryModel;
  oid: string;
  content: Buffer;
}
interface TagModel {
  __typename: "Tag";
  repo: RepositoryModel;
  tag: ParsedTag;
}
type GitObjectModel = CommitModel | TreeModel | BlobModel | TagModel;
interface TreeEntryModel {
  repo: RepositoryModel;
  entry: ParsedTreeEntry;
  path: string;
}
export interface GitActorModel {
  signature: GitSignature;
}
interface RefModel {
  repo: RepositoryModel;
  name: string;
  prefix: string;
  oid: string;
}
interface BlameModel {
  repo: RepositoryModel;
  ranges: BlameRangeData[];
}
interface BlameRangeModel {
  repo: RepositoryModel;
  range: BlameRangeData;
}

// --- Helpers ---------------------------------------------------------------------------------

function repositoryModel(context: ResolverContext, repository: WorldRepository): RepositoryModel {
  return { __typename: "Repository", repository, git: context.git(repository) };
}

/** GitHub's legacy global node id: base64 of `0<len>:<Type><id>`. */
function legacyNodeId(type: string, id: number): string {
  return Buffer.from(`0${type.length}:${type}${id}`, "utf8").toString("base64");
}

function avatarUrl(id: number, size?: number | null): string {
  return `https://avatars.githubusercontent.com/u/${id}?v=4${size ? `&s=${size}` : ""}`;
}

function userUrl(context: ResolverContext, user: WorldUser): string {
  return user.type === "Bot"
    ? `${context.htmlUrl}/apps/${user.login.replace(/\[bot\]$/, "")}`
    : `${context.htmlUrl}/${user.login}`;
}

/** A GraphQL `User` for an account; bots are not Users in GraphQL. */
function userModel(user: WorldUser | undefined): UserModel | null {
  return user && user.type !== "Bot" ? { __typename: "User", user } : null;
}

function ownerModel(context: ResolverContext, login: string): OwnerModel | null {
  const owner = context.world.owner(login);
  if (!owner) return null;
  return owner.kind === "User"
    ? userModel(owner.user)
    : { __typename: "Organization", organization: owner.organization };
}

async function loadObject(repo: RepositoryModel, oid: string, path: string): Promise<GitObjectModel | null> {
  const raw = await repo.git.object(oid);
  if (!raw) return null;
  switch (raw.type) {
    case "commit": {
      const commit = await repo.git.commit(oid);
      return commit ? { __typename: "Commit", repo, commit } : null;
    }
    case "tree": {
      const entries = await repo.git.tree(oid);
      return entries ? { __typename: "Tree", repo, oid, entries, path } : null;
    }
    case "blob":
      return { __typename: "Blob", repo, oid, content: raw.content };
    case "tag": {
      const tag = await repo.git.tag(oid);
      return tag ? { __typename: "Tag", repo, tag } : null;
    }
  }
}

/**
 * The commit model of a known commit id. Synchronous when the commit was read before: a blame has
 * a hundred ranges, and plain values spare graphql-js a promise per range and per field below it.
 */
function loadCommit(repo: RepositoryModel, oid: string): CommitModel | Promise<CommitModel> {
  const cached = repo.git.cachedCommit(oid);
  if (cached) return { __typename: "Commit", repo, commit: cached };
  return repo.git.commit(oid).then((commit) => {
    if (!commit)
      throw new Error(`commit ${oid} is missing from ${repo.repository.owner}/${repo.repository.name}`);
    return { __typename: "Commit", repo, commit };
  });
}

const dateTimes = new Map<number, string>();

/** {@link formatDateTime}, remembered: the same few commit times are formatted over and over. */
function dateTime(time: number): string {
  let text = dateTimes.get(time);
  if (text === undefined) {
    if (dateTimes.size > 50_000) dateTimes.clear();
    text = formatDateTime(time);
    dateTimes.set(time, text);
  }
  return text;
}

const blobTexts = new WeakMap<Buffer, string | null>();

/** `Blob.text`: null for binary content, else the UTF-8 text cut at GitHub's limit. Remembered per blob. */
function blobText(content: Buffer): string | null {
  let text = blobTexts.get(content);
  if (text === undefined) {
    text = looksBinary(content) ? null : cutUtf8(content, BLOB_TEXT_LIMIT);
    blobTexts.set(content, text);
  }
  return text;
}

/** The default branch and the commit at its tip (recorded for reuse of the answer); null when empty. */
async function defaultBranchTip(
  repo: RepositoryModel,
  context: ResolverContext,
): Promise<{ branch: string; oid: string } | null> {
  const branch = await repo.git.defaultBranch();
  context.observations.head(repo.git, branch);
  if (branch === null) return null;
  const ref = `refs/heads/${branch}`;
  const info = await repo.git.resolve(ref);
  const oid = info?.type === "commit" ? info.oid : null;
  context.observations.resolve(repo.git, ref, oid);
  return oid === null ? null : { branch, oid };
}

/** `repository.pushedAt`: the world's value, else the committer date of the default branch's tip. */
async function pushedAt(repo: RepositoryModel, context: ResolverContext): Promise<string | null> {
  if (repo.repository.pushedAt !== undefined) return repo.repository.pushedAt;
  const tip = (await defaultBranchTip(repo, context))?.oid ?? null;
  if (tip === null) return null;
  const commit = await repo.git.commit(tip);
  return commit?.committer ? formatDateTime(commit.committer.time) : null;
}

/** UTF-8 text of at most `limit` bytes, cut at a character boundary. */
function cutUtf8(content: Buffer, limit: number): string {
  if (content.length <= limit) return content.toString("utf8");
  let end = limit;
  // Step back over continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && ((content[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return content.subarray(0, end).toString("utf8");
}

function commitUrl(context: ResolverContext, repo: RepositoryModel, oid: string): string {
  return `${context.htmlUrl}/${repo.repository.owner}/${repo.repository.name}/commit/${oid}`;
}

function joinPath(parent: string, name: string): string {
  return parent === "" ? name : `${parent}/${name}`;
}

interface RepositoriesArgs extends ConnectionArgs {
  orderBy?: { field: string; direction: "ASC" | "DESC" } | null;
  ownerAffiliations?: string[] | null;
  affiliations?: string[] | null;
  privacy?: "PUBLIC" | "PRIVATE" | null;
  visibility?: "PUBLIC" | "PRIVATE" | "INTERNAL" | null;
  isFork?: boolean | null;
  isArchived?: boolean | null;
  isLocked?: boolean | null;
  hasIssuesEnabled?: boolean | null;
}

/** `RepositoryOwner.repositories`: what the owner owns (users: and collaborates on), as the viewer sees it. */
async function ownerRepositories(
  owner: OwnerModel,
  args: RepositoriesArgs,
  context: ResolverContext,
  info: GraphQLResolveInfo,
): Promise<unknown> {
  if (args.affiliations != null)
    throw new NotImplementedByStandInError("The `affiliations` argument of `repositories`");
  const { world } = context;
  let candidates: WorldRepository[];
  if (owner.__typename === "Organization") {
    candidates = world.repositoriesOwnedBy(owner.organization.login);
  } else {
    // GitHub's default for users is [OWNER, COLLABORATOR].
    const affiliations = args.ownerAffiliations ?? ["OWNER", "COLLABORATOR"];
    const login = owner.user.login;
    const chosen = new Set<WorldRepository>();
    if (affiliations.includes("OWNER")) world.repositoriesOwnedBy(login).forEach((r) => chosen.add(r));
    if (affiliations.includes("COLLABORATOR"))
      world.repositoriesCollaboratedBy(login).forEach((r) => chosen.add(r));
    if (affiliations.includes("ORGANIZATION_MEMBER")) {
      for (const organization of world.organizationsOf(login)) {
        world.repositoriesOwnedBy(organization.login).forEach((r) => chosen.add(r));
      }
    }
    candidates = [...chosen];
  }
  // The world has no forks, archived or locked repositories, and every repository has issues.
  const visible = candidates.filter((repository) => {
    if (!world.canSee(context.viewer.login, repository)) return false;
    const visibility = world.visibilityOf(repository);
    // GitHub: "Internal repositories are considered private" by the `privacy` filter.
    const isPrivate = visibility !== "PUBLIC";
    if (args.privacy === "PUBLIC" && isPrivate) return false;
    if (args.privacy === "PRIVATE" && !isPrivate) return false;
    if (args.visibility != null && args.visibility !== visibility) return false;
    if (args.isFork === true || args.isArchived === true || args.isLocked === true) return false;
    if (args.hasIssuesEnabled === false) return false;
    return true;
  });
  const models = visible.map((repository) => repositoryModel(context, repository));
  const sorted = await orderRepositories(models, args.orderBy ?? null, context);
  return paginate(sorted, args, info);
}

async function orderRepositories(
  models: RepositoryModel[],
  orderBy: RepositoriesArgs["orderBy"],
  context: ResolverContext,
): Promise<RepositoryModel[]> {
  // Without orderBy, and for CREATED_AT, creation order: the world's ids grow with creation.
  const byId = (a: RepositoryModel, b: RepositoryModel): number => a.repository.id - b.repository.id;
  if (!orderBy) return [...models].sort(byId);
  const sign = orderBy.direction === "DESC" ? -1 : 1;
  switch (orderBy.field) {
    case "NAME":
      return [...models].sort(
        (a, b) =>
          sign * a.repository.name.toLowerCase().localeCompare(b.repository.name.toLowerCase(), "en") ||
          byId(a, b),
      );
    case "CREATED_AT":
    case "STARGAZERS": // no stars in the world: all equal
      return [...models].sort((a, b) => (orderBy.field === "CREATED_AT" ? sign * byId(a, b) : byId(a, b)));
    case "PUSHED_AT":
    case "UPDATED_AT": {
      const times = new Map(
        await Promise.all(models.map(async (model) => [model, await pushedAt(model, context)] as const)),
      );
      // Like MySQL: a null (never pushed) sorts before everything ascending, after everything descending.
      const value = (model: RepositoryModel): number => {
        const time = times.get(model);
        return time ? Date.parse(time) : -Infinity;
      };
      return [...models].sort((a, b) => {
        const difference = value(a) - value(b);
        return (Number.isNaN(difference) ? 0 : sign * Math.sign(difference)) || byId(a, b);
      });
    }
    default:
      throw new NotImplementedByStandInError(`Ordering repositories by ${orderBy.field}`);
  }
}

async function ownerRepository(
  owner: OwnerModel,
  args: { name: string },
  context: ResolverContext,
): Promise<RepositoryModel> {
  const login = owner.__typename === "User" ? owner.user.login : owner.organization.login;
  const repository = context.world.repository(login, args.name);
  if (!repository || !context.world.canSee(context.viewer.login, repository)) {
    throw repositoryNotFound(login, args.name);
  }
  return repositoryModel(context, repository);
}

// --- The resolvers, by type and field ---------------------------------------------------------

type FieldResolver = (
  source: never,
  args: never,
  context: ResolverContext,
  info: GraphQLResolveInfo,
) => unknown;

const gitObjectFields = {
  oid: (object: { oid: string }) => object.oid,
  abbreviatedOid: (object: { oid: string }) => object.oid.slice(0, 7),
  repository: (object: { repo: RepositoryModel }) => object.repo,
};

const Query = {
  viewer: (_: unknown, __: unknown, context: ResolverContext) => userModel(context.viewer),
  repositoryOwner: (_: unknown, args: { login: string }, context: ResolverContext) =>
    ownerModel(context, args.login),
  user: (_: unknown, args: { login: string }, context: ResolverContext) => {
    const user = userModel(context.world.user(args.login));
    if (!user)
      throw new GitHubFieldError(
        "NOT_FOUND",
        `Could not resolve to a User with the login of '${args.login}'.`,
      );
    return user;
  },
  organization: (_: unknown, args: { login: string }, context: ResolverContext) => {
    const organization = context.world.organization(args.login);
    if (!organization) {
      throw new GitHubFieldError(
        "NOT_FOUND",
        `Could not resolve to an Organization with the login of '${args.login}'.`,
      );
    }
    return { __typename: "Organization", organization };
  },
  repository: (_: unknown, args: { owner: string; name: string }, context: ResolverContext) => {
    const repository = context.world.repository(args.owner, args.name);
    // A private repository the token cannot see is indistinguishable from a missing one.
    if (!repository || !context.world.canSee(context.viewer.login, repository)) {
      throw repositoryNotFound(args.owner, args.name);
    }
    return repositoryModel(context, repository);
  },
  rateLimit: (_: unknown, args: { dryRun?: boolean | null }, context: ResolverContext) => {
    context.observations.uncacheable();
    if (args.dryRun) throw new NotImplementedByStandInError("rateLimit(dryRun: true)");
    return context.rateLimit;
  },
};

const RateLimit = {
  cost: (rate: ResolverContext["rateLimit"]) => rate.cost,
  limit: (rate: ResolverContext["rateLimit"]) => rate.limit,
  remaining: (rate: ResolverContext["rateLimit"]) => rate.remaining,
  used: (rate: ResolverContext["rateLimit"]) => rate.used,
  nodeCount: (rate: ResolverContext["rateLimit"]) => rate.nodeCount,
  resetAt: (rate: ResolverContext["rateLimit"]) => formatDateTime(rate.resetAt),
};

const User = {
  login: (model: UserModel) => model.user.login,
  name: (model: UserModel) => model.user.name ?? null,
  url: (model: UserModel, _: unknown, context: ResolverContext) => userUrl(context, model.user),
  databaseId: (model: UserModel) => model.user.id,
  id: (model: UserModel) => legacyNodeId("User", model.user.id),
  avatarUrl: (model: UserModel, args: { size?: number | null }) => avatarUrl(model.user.id, args.size),
  isSiteAdmin: (model: UserModel) => model.user.siteAdmin === true,
  repositories: ownerRepositories,
  repository: ownerRepository,
};

const Organization = {
  login: (model: OrganizationModel) => model.organization.login,
  name: (model: OrganizationModel) => model.organization.name ?? null,
  url: (model: OrganizationModel, _: unknown, context: ResolverContext) =>
    `${context.htmlUrl}/${model.organization.login}`,
  databaseId: (model: OrganizationModel) => model.organization.id,
  id: (model: OrganizationModel) => legacyNodeId("Organization", model.organization.id),
  avatarUrl: (model: OrganizationModel, args: { size?: number | null }) =>
    avatarUrl(model.organization.id, args.size),
  repositories: ownerRepositories,
  repository: ownerRepository,
};

const Repository = {
  name: (model: RepositoryModel) => model.repository.name,
  nameWithOwner: (model: RepositoryModel) => `${model.repository.owner}/${model.repository.name}`,
  owner: (model: RepositoryModel, _: unknown, context: ResolverContext) =>
    ownerModel(context, model.repository.owner),
  url: (model: RepositoryModel, _: unknown, context: ResolverContext) =>
    `${context.htmlUrl}/${model.repository.owner}/${model.repository.name}`,
  description: (model: RepositoryModel) => model.repository.description ?? null,
  // GitHub's schema: isPrivate "Identifies if the repository is private or internal."
  isPrivate: (model: RepositoryModel, _: unknown, context: ResolverContext) =>
    context.world.visibilityOf(model.repository) !== "PUBLIC",
  visibility: (model: RepositoryModel, _: unknown, context: ResolverContext) =>
    context.world.visibilityOf(model.repository),
  isFork: () => false,
  isArchived: () => false,
  stargazerCount: () => 0,
  databaseId: (model: RepositoryModel) => model.repository.id,
  id: (model: RepositoryModel) => legacyNodeId("Repository", model.repository.id),
  isEmpty: async (model: RepositoryModel, _: unknown, context: ResolverContext) => {
    if ((await defaultBranchTip(model, context)) !== null) return false;
    // Refs other than the default branch would have to be listed: not worth re-checking.
    context.observations.uncacheable();
    return model.git.isEmpty();
  },
  pushedAt: (model: RepositoryModel, _: unknown, context: ResolverContext) => pushedAt(model, context),
  defaultBranchRef: async (
    model: RepositoryModel,
    _: unknown,
    context: ResolverContext,
  ): Promise<RefModel | null> => {
    const tip = await defaultBranchTip(model, context);
    return tip === null ? null : { repo: model, name: tip.branch, prefix: "refs/heads/", oid: tip.oid };
  },
  object: async (
    model: RepositoryModel,
    args: { expression?: string | null; oid?: string | null },
    context: ResolverContext,
  ): Promise<GitObjectModel | null> => {
    if (args.oid != null) return /^[0-9a-f]{40}$/.test(args.oid) ? loadObject(model, args.oid, "") : null;
    if (args.expression == null) {
      // Unconfirmed: GitHub's answer when neither argument is given was not captured.
      throw new GitHubFieldError("INVALID_ARGUMENTS", "Either `expression` or `oid` must be provided.");
    }
    const info = await model.git.resolve(args.expression);
    context.observations.resolve(model.git, args.expression, info?.oid ?? null);
    if (!info) return null;
    // `<rev>:<path>` names a path: the entries of a tree reached this way carry full paths.
    const colon = args.expression.indexOf(":");
    const path = colon < 0 ? "" : args.expression.slice(colon + 1).replace(/^\/+|\/+$/g, "");
    return loadObject(model, info.oid, path);
  },
};

const Ref = {
  name: (ref: RefModel) => ref.name,
  prefix: (ref: RefModel) => ref.prefix,
  repository: (ref: RefModel) => ref.repo,
  target: (ref: RefModel) => loadObject(ref.repo, ref.oid, ""),
};

const Commit = {
  ...gitObjectFields,
  oid: (model: CommitModel) => model.commit.oid,
  abbreviatedOid: (model: CommitModel) => model.commit.oid.slice(0, 7),
  message: (model: CommitModel) => model.commit.message,
  // Unconfirmed whether GitHub's API shortens a very long first line the way its web pages do.
  messageHeadline: (model: CommitModel) => model.commit.message.split("\n", 1)[0] ?? "",
  messageBody: (model: CommitModel) => {
    const newline = model.commit.message.indexOf("\n");
    return newline < 0 ? "" : model.commit.message.slice(newline + 1).replace(/^\n+/, "");
  },
  url: (model: CommitModel, _: unknown, context: ResolverContext) =>
    commitUrl(context, model.repo, model.commit.oid),
  committedDate: (model: CommitModel) => dateTime(model.commit.committer?.time ?? 0),
  authoredDate: (model: CommitModel) => dateTime(model.commit.author?.time ?? 0),
  author: (model: CommitModel): GitActorModel | null =>
    model.commit.author ? { signature: model.commit.author } : null,
  committer: (model: CommitModel): GitActorModel | null =>
    model.commit.committer ? { signature: model.commit.committer } : null,
  tree: async (model: CommitModel) => loadObject(model.repo, model.commit.tree, ""),
  blame: async (model: CommitModel, args: { path: string }): Promise<BlameModel> => {
    const ranges = await model.repo.git.blame(model.commit.oid, args.path);
    // Unconfirmed for blame: a missing path is answered as Commit.file answers it (NOT_FOUND), and
    // so is a folder or a submodule (no file to blame; GitHub errors too, in words not captured).
    // As `blame` is non-null in the schema, the null propagates to the enclosing nullable field.
    // Also unconfirmed: a binary file gets git's ranges (its bytes split at newline bytes).
    if (ranges === null) {
      // GitHub reports every field that fails: `file(path)` beside `blame(path)` in the same
      // selection errors too. Its lookup settles first, so its error is never lost when this one
      // nulls the commit (graphql-js drops a sibling's error that comes after the response).
      await entryAt(model, args.path).catch(() => undefined);
      throw fileNotFound(args.path);
    }
    // Read every commit of the blame now, in one pipelined burst, so the ranges resolve synchronously.
    await Promise.all(
      [...new Set(ranges.map((range) => range.commitOid))].map((oid) => model.repo.git.commit(oid)),
    );
    return { repo: model.repo, ranges };
  },
  file: (model: CommitModel, args: { path: string }): Promise<TreeEntryModel> => entryAt(model, args.path),
};

/** Lookups of a path at one commit, shared by the fields of one request that ask the same. */
const entryLookups = new WeakMap<CommitModel, Map<string, Promise<TreeEntryModel>>>();

/** The tree entry at `path` in the commit: what `Commit.file(path)` answers, NOT_FOUND when none. */
function entryAt(model: CommitModel, path: string): Promise<TreeEntryModel> {
  let lookups = entryLookups.get(model);
  if (!lookups) {
    lookups = new Map();
    entryLookups.set(model, lookups);
  }
  let lookup = lookups.get(path);
  if (!lookup) {
    lookup = (async () => {
      if (!isSafeTreePath(path)) throw fileNotFound(path);
      const slash = path.lastIndexOf("/");
      const parentPath = slash < 0 ? "" : path.slice(0, slash);
      const name = path.slice(slash + 1);
      const parentOid =
        parentPath === ""
          ? model.commit.tree
          : (await model.repo.git.resolve(`${model.commit.oid}:${parentPath}`))?.oid;
      const entries = parentOid === undefined ? null : await model.repo.git.tree(parentOid);
      const entry = entries?.find((candidate) => candidate.name === name);
      if (!entry) throw fileNotFound(path);
      return { repo: model.repo, entry, path };
    })();
    lookup.catch(() => undefined);
    lookups.set(path, lookup);
  }
  return lookup;
}

const Blame = {
  ranges: (blame: BlameModel): BlameRangeModel[] =>
    blame.ranges.map((range) => ({ repo: blame.repo, range })),
};

const BlameRange = {
  startingLine: (model: BlameRangeModel) => model.range.startingLine,
  endingLine: (model: BlameRangeModel) => model.range.endingLine,
  age: (model: BlameRangeModel) => model.range.age,
  commit: (model: BlameRangeModel) => loadCommit(model.repo, model.range.commitOid),
};

const GitActor = {
  name: (actor: GitActorModel) => actor.signature.name,
  email: (actor: GitActorModel) => actor.signature.email,
  date: (actor: GitActorModel) => formatGitTimestamp(actor.signature.time, actor.signature.timezone),
  user: (actor: GitActorModel, _: unknown, context: ResolverContext) =>
    userModel(context.world.userForEmail(actor.signature.email)),
};

const Tree = {
  ...gitObjectFields,
  entries: (tree: TreeModel): TreeEntryModel[] =>
    tree.entries.map((entry) => ({ repo: tree.repo, entry, path: joinPath(tree.path, entry.name) })),
};

const TreeEntry = {
  name: (model: TreeEntryModel) => model.entry.name,
  path: (model: TreeEntryModel) => model.path,
  type: (model: TreeEntryModel) => model.entry.type,
  mode: (model: TreeEntryModel) => Number.parseInt(model.entry.mode, 8),
  oid: (model: TreeEntryModel) => model.entry.oid,
  repository: (model: TreeEntryModel) => model.repo,
  // GitHub gives a blob's byte size and 0 for folders and submodules.
  size: async (model: TreeEntryModel) =>
    model.entry.type === "blob" ? ((await model.repo.git.resolve(model.entry.oid))?.size ?? 0) : 0,
  // A submodule's commit lives in another repository: no object here.
  object: (model: TreeEntryModel) =>
    model.entry.type === "commit" ? null : loadObject(model.repo, model.entry.oid, model.path),
};

const Blob = {
  ...gitObjectFields,
  byteSize: (blob: BlobModel) => blob.content.length,
  isBinary: (blob: BlobModel) => looksBinary(blob.content),
  text: (blob: BlobModel) => blobText(blob.content),
  isTruncated: (blob: BlobModel) => !looksBinary(blob.content) && blob.content.length > BLOB_TEXT_LIMIT,
};

const Tag = {
  ...gitObjectFields,
  oid: (model: TagModel) => model.tag.oid,
  abbreviatedOid: (model: TagModel) => model.tag.oid.slice(0, 7),
  name: (model: TagModel) => model.tag.name,
  message: (model: TagModel) => model.tag.message,
  tagger: (model: TagModel): GitActorModel | null =>
    model.tag.tagger ? { signature: model.tag.tagger } : null,
  target: async (model: TagModel) => {
    const target = await loadObject(model.repo, model.tag.object, "");
    if (!target) throw new Error(`tag target ${model.tag.object} is missing`);
    return target;
  },
};

/** Resolvers that read a property of the same name (connection pages are plain objects). */
function plain(...keys: string[]): Record<string, FieldResolver> {
  const resolvers: Record<string, FieldResolver> = {};
  for (const key of keys) resolvers[key] = (source: Record<string, unknown>) => source[key];
  return resolvers;
}

/** Every field the stand-in implements, by type name and field name. */
export const RESOLVERS: Record<string, Record<string, FieldResolver>> = {
  Query,
  RateLimit,
  User,
  Organization,
  Repository: { ...Repository, ...repositoryIssueFields },
  Ref,
  Commit: { ...Commit, ...commitIssueFields },
  Blame,
  BlameRange,
  GitActor,
  Tree,
  TreeEntry,
  Blob,
  Tag,
  RepositoryConnection: plain("totalCount", "nodes", "edges", "pageInfo"),
  RepositoryEdge: plain("cursor", "node"),
  PageInfo: plain("startCursor", "endCursor", "hasNextPage", "hasPreviousPage"),
  Issue: ISSUE_TYPES.Issue,
  PullRequest: ISSUE_TYPES.PullRequest,
  PullRequestCommit: ISSUE_TYPES.PullRequestCommit,
  Label: ISSUE_TYPES.Label,
  Bot: ISSUE_TYPES.Bot,
  ...ISSUE_TYPES.checks,
  ...Object.fromEntries(
    Object.entries(ISSUE_TYPES.connections).map(([type, keys]) => [type, plain(...keys)]),
  ),
};

/**
 * The field resolver of every field: the stand-in's resolver when there is one, else a loud
 * "not implemented by the stand-in" error (never a silent null).
 */
export const standInFieldResolver: GraphQLFieldResolver<unknown, ResolverContext> = (
  source,
  args,
  context,
  info,
) => {
  const resolver = RESOLVERS[info.parentType.name]?.[info.fieldName];
  if (!resolver)
    throw new NotImplementedByStandInError(`The field '${info.parentType.name}.${info.fieldName}'`);
  return resolver(source as never, args as never, context, info);
};
