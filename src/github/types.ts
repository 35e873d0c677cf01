/**
 * The answers of the GitHub client, as the rest of RepoScout sees them. Plain JSON-serializable
 * data (dates as ISO 8601 strings), so the cache can store them as they are and the formatters
 * never see a raw GitHub payload.
 */

/** `owner/name` of a repository, as the user gave it (validated). */
export interface RepoRef {
  owner: string;
  name: string;
}

/** The last `x-ratelimit-*` figures seen for one token (by fingerprint, never the token). */
export interface RateLimitSnapshot {
  /** `graphql`, `core`... (`x-ratelimit-resource`). */
  resource: string;
  limit: number;
  remaining: number;
  used: number;
  /** When the budget refills (ISO). */
  resetAt: string;
  /** When these figures were read (ISO). */
  observedAt: string;
}

/**
 * GitHub's `RepositoryVisibility`: who may see a repository. `INTERNAL` is visible to the members of
 * an enterprise, not to the public; RepoScout treats it as private (SPEC section 4).
 */
export type RepositoryVisibility = "PUBLIC" | "PRIVATE" | "INTERNAL";

export interface RepositoryHeader {
  nameWithOwner: string;
  url: string;
  /** GitHub's `isPrivate`: true for private and internal repositories. */
  isPrivate: boolean;
  /** Asked in the same request as the answer, so the answer knows who may see it. */
  visibility: RepositoryVisibility;
  /** Null for an empty repository. */
  defaultBranch: string | null;
}

/** The commit an answer is pinned to. */
export interface PinnedCommit {
  oid: string;
  url: string;
  committedDate: string;
}

/** The text of a file at a commit, or why there is none to show. */
export type FileBody =
  | {
      kind: "text";
      text: string;
      byteSize: number;
      /** GitHub cut the text at 512,000 bytes. */ isTruncated: boolean;
    }
  | { kind: "binary"; byteSize: number };

export interface BlameCommit {
  oid: string;
  abbreviatedOid: string;
  messageHeadline: string;
  url: string;
  authoredDate: string;
  /** When the commit was made (after a rebase, later than `authoredDate`). */
  committedDate: string;
  /** The git author name, when any. */
  authorName: string | null;
  /** The GitHub login of the author, when the email maps to an account. */
  authorLogin: string | null;
}

export interface BlameRange {
  /** 1-based, inclusive. */
  startingLine: number;
  endingLine: number;
  /** 1 (newest) .. 10 (oldest), a quantile relative to the file's changes. */
  age: number;
  commit: BlameCommit;
}

export interface BlameAnswer {
  repository: RepositoryHeader;
  commit: PinnedCommit;
  path: string;
  file: FileBody;
  /** Sorted, covering the whole file. */
  ranges: BlameRange[];
}

export interface TreeEntry {
  name: string;
  path: string;
  /** `commit` is a submodule. */
  type: "blob" | "tree" | "commit";
  mode: number;
  /** Bytes for a blob; 0 for folders and submodules. */
  size: number;
  isBinary: boolean | null;
}

/** Git's mode of a symbolic link: a Blob whose content is the path it points to. */
export const SYMLINK_MODE = 0o120000;

export type ContentsAnswer =
  | { kind: "tree"; repository: RepositoryHeader; commit: PinnedCommit; path: string; entries: TreeEntry[] }
  | { kind: "blob"; repository: RepositoryHeader; commit: PinnedCommit; path: string; file: FileBody }
  | {
      kind: "symlink";
      repository: RepositoryHeader;
      commit: PinnedCommit;
      path: string;
      /** The path the link points to, as git stores it (relative to the link's folder, or absolute); null when GitHub gives no text for it. */
      target: string | null;
    };

export interface RepositorySummary {
  name: string;
  nameWithOwner: string;
  url: string;
  /** Null for a repository never pushed to. */
  pushedAt: string | null;
  /** True for private and internal repositories. */
  isPrivate: boolean;
  visibility: RepositoryVisibility;
  description: string | null;
}

export type RepositorySort = "pushed" | "name";

export interface RepositoriesPage {
  owner: { login: string; type: "User" | "Organization" };
  totalCount: number;
  repositories: RepositorySummary[];
  pageInfo: {
    startCursor: string | null;
    endCursor: string | null;
    hasNextPage: boolean;
    hasPreviousPage: boolean;
  };
  /** True when the list was asked for public repositories only (`privacy: PUBLIC`). */
  publicOnly?: boolean;
}

export type Contributor =
  | {
      kind: "account";
      login: string;
      htmlUrl: string;
      type: "User" | "Bot" | "Organization";
      contributions: number;
    }
  | { kind: "anonymous"; name: string | null; email: string | null; contributions: number };

export interface ContributorsPage {
  page: number;
  perPage: number;
  contributors: Contributor[];
  /** From `rel="last"` of the Link header; the current page when there is no Link header. */
  lastPage: number | null;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

export interface Viewer {
  login: string;
  rateLimit: RateLimitSnapshot | null;
}

export interface RepositoryInfo extends RepositoryHeader {
  isEmpty: boolean;
  /** The commit at the tip of the default branch; null for an empty repository. */
  defaultBranchOid: string | null;
}

/**
 * What a token is shown of a repository's visibility (`RepositoryAccess` document): the cheap read
 * that tells `/contributors` (REST says nothing of it) and re-confirms access behind a cached
 * private answer. A token that lost access gets `RepositoryNotFoundError` instead.
 */
export interface RepositoryAccess {
  nameWithOwner: string;
  isPrivate: boolean;
  visibility: RepositoryVisibility;
}

/** Where a ref points now, with the repository's visibility (the `RefCommit` document). */
export interface RefCommit {
  repository: RepositoryAccess;
  /** The commit, through annotated tags. */
  oid: string;
}
