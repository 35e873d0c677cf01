import type { RepositoryHeader, RepositoryVisibility } from "../../src/github/types.js";

/** A repository's header as the client shapes it from GitHub's answer (default branch `main`). */
export function repositoryHeader(nameWithOwner: string, visibility: RepositoryVisibility): RepositoryHeader {
  return {
    nameWithOwner,
    url: `https://github.com/${nameWithOwner}`,
    isPrivate: visibility !== "PUBLIC",
    visibility,
    defaultBranch: "main",
  };
}
