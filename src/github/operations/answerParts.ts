import type { BlobData } from "../schemas.js";
import type { FileBody, PinnedCommit, RepositoryHeader } from "../types.js";

/** The repository fields every answer repeats. */
export function toRepositoryHeader(repository: {
  nameWithOwner: string;
  url: string;
  isPrivate: boolean;
  defaultBranchRef: { name: string } | null;
}): RepositoryHeader {
  return {
    nameWithOwner: repository.nameWithOwner,
    url: repository.url,
    isPrivate: repository.isPrivate,
    defaultBranch: repository.defaultBranchRef?.name ?? null,
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
