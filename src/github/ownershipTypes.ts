/**
 * The answers of the client's history and ownership reads (`/history`, `/owners`): plain
 * JSON-serializable data, as in types.ts.
 */
import type { PinnedCommit, RepositoryHeader } from "./types.js";

/** A commit's author: the git name and e-mail, and the login when GitHub links the e-mail. */
export interface GitAuthor {
  name: string | null;
  email: string | null;
  login: string | null;
}

/** One commit of a history page. */
export interface HistoryCommit {
  oid: string;
  abbreviatedOid: string;
  messageHeadline: string;
  url: string;
  committedDate: string;
  authoredDate: string;
  /** Lines added and deleted by the whole commit (GitHub's figures are per commit, not per path). */
  additions: number;
  deletions: number;
  author: GitAuthor;
}

/** One page of the commits that touched a path, pinned to the commit it was read from. */
export interface HistoryPage {
  repository: RepositoryHeader;
  commit: PinnedCommit;
  /** "" for the whole repository. */
  path: string;
  totalCount: number;
  commits: HistoryCommit[];
  hasNextPage: boolean;
  endCursor: string | null;
}

/** A file of a folder, as its tree lists it. */
export interface FolderFile {
  path: string;
  /** Bytes. */
  size: number;
  /** Null when GitHub cannot tell. */
  isBinary: boolean | null;
}

/** What is at the path of an `/owners` question. */
export type OwnersTarget =
  | { kind: "file"; byteSize: number; isBinary: boolean | null }
  | {
      kind: "folder";
      files: FolderFile[];
      /** Folders deeper than the listing reaches (their files are not counted). */
      deeperFolders: string[];
    };

/** A commit of the last year that touched the path. */
export interface RecentCommit {
  oid: string;
  authoredDate: string;
  author: GitAuthor;
}

/** Everything `/owners` reads before blame, in one request. */
export interface OwnersTree {
  repository: RepositoryHeader;
  commit: PinnedCommit;
  /** "" for the root. */
  path: string;
  target: OwnersTarget;
  /** The CODEOWNERS file GitHub would use (the first found), or null when there is none. */
  codeowners: { path: string; text: string | null; byteSize: number } | null;
  /** The commits since the `since` asked for (at most 100: see `recentTotal`). */
  recent: RecentCommit[];
  recentTotal: number;
  /** The `since` the recent commits were asked from (ISO). */
  since: string;
}

/** The lines one commit last changed in a file. */
export interface BlamedLines {
  lines: number;
  oid: string;
  authoredDate: string;
  author: GitAuthor;
}

/** The blame of one file of a batch: its lines by commit, or null when GitHub could not blame it. */
export interface FileBlame {
  path: string;
  lines: BlamedLines[] | null;
}

/** The blame of a batch of files at one commit. */
export interface BlameBatch {
  repository: Pick<RepositoryHeader, "nameWithOwner" | "isPrivate" | "visibility">;
  files: FileBlame[];
}
