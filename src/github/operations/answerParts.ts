import {
  EmptyRepositoryError,
  NotACommitError,
  NotAFileError,
  PathNotFoundError,
  RefNotFoundError,
  RepositoryNotFoundError,
  type GitHubErrorContext,
} from "../errors.js";
import { explainNullField } from "../graphqlErrors.js";
import type { BlobData, GraphQLErrorItem, ThroughTags } from "../schemas.js";
import type {
  FileBody,
  PinnedCommit,
  RepoRef,
  RepositoryAccess,
  RepositoryHeader,
  RepositoryVisibility,
} from "../types.js";

/** The repository fields every answer repeats, its visibility included. */
export function toRepositoryHeader(repository: {
  nameWithOwner: string;
  url: string;
  isPrivate: boolean;
  visibility: RepositoryVisibility;
  defaultBranchRef: { name: string } | null;
}): RepositoryHeader {
  return {
    nameWithOwner: repository.nameWithOwner,
    url: repository.url,
    isPrivate: repository.isPrivate,
    visibility: repository.visibility,
    defaultBranch: repository.defaultBranchRef?.name ?? null,
  };
}

/**
 * The context of errors about something inside a repository GitHub answered with (a ref, a path):
 * they carry its visibility, so that a public-only token's answer can be the repository being
 * private whatever is or is not inside it (SPEC section 4).
 */
export function insideRepository(
  context: GitHubErrorContext,
  repository: RepositoryAccess,
): GitHubErrorContext {
  return {
    ...context,
    repository: {
      nameWithOwner: repository.nameWithOwner,
      isPrivate: repository.isPrivate,
      visibility: repository.visibility,
    },
  };
}

/** The commit an answer is pinned to. */
export function toPinnedCommit(commit: { oid: string; url: string; committedDate: string }): PinnedCommit {
  return { oid: commit.oid, url: commit.url, committedDate: commit.committedDate };
}

/**
 * A blob's text, or "binary" when GitHub gives no text (binary, or an encoding it cannot tell:
 * `isBinary` null with `text` null).
 */
export function toFileBody(blob: BlobData): FileBody {
  if (blob.text !== null && blob.isBinary !== true) {
    return { kind: "text", text: blob.text, byteSize: blob.byteSize, isTruncated: blob.isTruncated };
  }
  return { kind: "binary", byteSize: blob.byteSize };
}

/** A path as GitHub's expressions take it: no leading or trailing slash (`""` is the root). */
export function normalizePath(path: string): string {
  return path.replace(/^\/+/, "").replace(/\/+$/, "");
}

/** What a ref names once its annotated tags are followed (see {@link peelTags}). */
export interface PeeledObject<C> {
  /** The commit, the tree or blob a tag (or the ref itself) names, or a tag deeper than asked. */
  object: C | { __typename: "Blob" | "Tree" | "Tag" };
  /** How many annotated tags were followed to reach it: 0 when the ref names it directly. */
  tags: number;
  /** The answer path of `object` below the field the ref was asked on: one `target` per tag. */
  path: string[];
}

/**
 * Follows an annotated tag (and a tag of a tag) through the `target`s the documents ask for, to the
 * object it tags. A `Tag` left at the end is a chain deeper than the documents follow.
 */
export function peelTags<C extends { __typename: "Commit" }>(object: ThroughTags<C>): PeeledObject<C> {
  let current = object;
  const path: string[] = [];
  while (current.__typename === "Tag" && "target" in current && current.target !== undefined) {
    current = current.target;
    path.push("target");
  }
  return { object: current, tags: path.length, path };
}

/**
 * Why a revision asked on `field` resolved to nothing: an empty repository (no default branch),
 * else the error GitHub gave there, else the ref was not found.
 */
export function missingRevision(input: {
  errors: readonly GraphQLErrorItem[];
  field: readonly string[];
  hasDefaultBranch: boolean;
  repo: RepoRef;
  expression: string;
  context: GitHubErrorContext;
}): Error {
  const { repo, expression, context } = input;
  if (!input.hasDefaultBranch) return new EmptyRepositoryError(repo, context);
  return explainNullField(
    input.errors,
    input.field,
    context,
    () => new RefNotFoundError(repo, expression, context),
    repo,
  );
}

/**
 * The commit a revision names, through its annotated tags ({@link peelTags}), with the answer path
 * below the revision's field; a tag of a tree or blob, or a chain deeper than asked, is a
 * {@link NotACommitError}.
 */
export function peeledCommit<C extends { __typename: "Commit" }>(
  answered: ThroughTags<C>,
  input: { repo: RepoRef; expression: string; context: GitHubErrorContext },
): { commit: C; path: string[] } {
  const peeled = peelTags(answered);
  const object = peeled.object;
  if (object.__typename !== "Commit") {
    throw new NotACommitError(
      input.repo,
      input.expression,
      { objectType: object.__typename, tags: peeled.tags },
      input.context,
    );
  }
  return { commit: object as C, path: peeled.path };
}

/** Why `repository` came back null: the error GitHub gave there, else "repository not found". */
export function missingRepository(
  errors: readonly GraphQLErrorItem[],
  repo: RepoRef,
  context: GitHubErrorContext,
): Error {
  return explainNullField(
    errors,
    ["repository"],
    context,
    () => new RepositoryNotFoundError(repo, context),
    repo,
  );
}

/** A GraphQL answer as the transport gives it: data, the errors beside it, and the request's context. */
interface RepositoryAnswer<R> {
  data: { repository: R | null };
  errors: readonly GraphQLErrorItem[];
  context: GitHubErrorContext;
}

/**
 * The repository an answer found, and the context of errors about what is inside it
 * ({@link insideRepository}); a null repository is {@link missingRepository}.
 */
export function answeredRepository<R extends RepositoryAccess>(
  answer: RepositoryAnswer<R>,
  repo: RepoRef,
): { repository: R; context: GitHubErrorContext } {
  const repository = answer.data.repository;
  if (!repository) throw missingRepository(answer.errors, repo, answer.context);
  return { repository, context: insideRepository(answer.context, repository) };
}

/**
 * The commit a revision asked on `field` names: nothing there is {@link missingRevision}, and
 * annotated tags are followed by {@link peeledCommit}.
 */
export function revisionCommit<C extends { __typename: "Commit" }>(
  answered: ThroughTags<C> | null,
  input: {
    errors: readonly GraphQLErrorItem[];
    field: readonly string[];
    repository: { defaultBranchRef: { name: string } | null };
    repo: RepoRef;
    expression: string;
    context: GitHubErrorContext;
  },
): { commit: C; path: string[] } {
  const { errors, field, repository, repo, expression, context } = input;
  if (!answered) {
    const hasDefaultBranch = repository.defaultBranchRef !== null;
    throw missingRevision({ errors, field, hasDefaultBranch, repo, expression, context });
  }
  return peeledCommit(answered, { repo, expression, context });
}

/**
 * The steps every answer read at a revision starts with: the repository ({@link answeredRepository}),
 * then the commit the revision names ({@link revisionCommit}), picked from the repository by
 * `revision` and asked on `field`. The context returned carries the repository's visibility, so that
 * what goes wrong inside a private repository can read, to a public-only token, as it being private.
 */
export function repositoryAtRevision<
  R extends RepositoryAccess & { defaultBranchRef: { name: string } | null },
  C extends { __typename: "Commit" },
>(
  answer: RepositoryAnswer<R>,
  revision: (repository: R) => ThroughTags<C> | null,
  input: { field: readonly string[]; repo: RepoRef; expression: string },
): { repository: R; context: GitHubErrorContext; commit: C; path: string[] } {
  const { repository, context } = answeredRepository(answer, input.repo);
  const { commit, path } = revisionCommit(revision(repository), {
    ...input,
    errors: answer.errors,
    repository,
    context,
  });
  return { repository, context, commit, path };
}

/**
 * Why the object at a path (asked on `repository.object`) came back null: a submodule when the
 * commit's tree entry there is a gitlink (`entry`, type `commit`: it names a commit of another
 * repository, and `object` is null for it as for a missing path), else the error GitHub gave there,
 * else the path was not found at the revision.
 */
export function missingPathObject(input: {
  errors: readonly GraphQLErrorItem[];
  entry: { type: string } | null | undefined;
  repo: RepoRef;
  path: string;
  ref: string | undefined;
  context: GitHubErrorContext;
}): Error {
  const { repo, path, ref, context } = input;
  if (input.entry?.type === "commit") return new NotAFileError(repo, path, "submodule", context);
  return explainNullField(
    input.errors,
    ["repository", "object"],
    context,
    () => new PathNotFoundError(repo, path, ref, context),
    repo,
  );
}
