import type { BlobData, ThroughTags } from "../schemas.js";
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
