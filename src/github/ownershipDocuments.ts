/**
 * The GraphQL documents of `/history` and `/owners`, verbatim (documents.ts merges them into
 * DOCUMENTS, where test/github/documents.test.ts validates every one against GitHub's schema). All
 * user input goes in variables.
 */

/** Files whose blame one OwnersBlame request reads (aliases `f0` .. `f9`). */
export const BLAME_BATCH = 10;

/** How deep below the asked folder the OwnersTree document lists entries. */
export const TREE_DEPTH = 4;

/** The commit selection asked again on each annotated tag's `target`, as in BLAME_QUERY. */
function throughTags(fragment: string): string {
  return `__typename ...${fragment}
      ... on Tag { target { __typename ...${fragment}
        ... on Tag { target { __typename ...${fragment}
          ... on Tag { target { __typename ...${fragment} } } } } } }`;
}

/** `entries` of a tree, with the entries of its folders `depth - 1` more levels down. */
function nestedEntries(depth: number): string {
  const below = depth > 1 ? ` ... on Tree { ${nestedEntries(depth - 1)} }` : "";
  return `entries { name path type size object { __typename ... on Blob { isBinary }${below} } }`;
}

/**
 * One page of the commits that touched `path` (the whole repository when null), newest first, from
 * the commit `expression` names (the ref, `HEAD`, or the commit id a first page was pinned to).
 */
export const HISTORY_QUERY = `query History($owner: String!, $name: String!, $expression: String!, $path: String, $first: Int!, $after: String) {
  repository(owner: $owner, name: $name) { nameWithOwner url isPrivate visibility defaultBranchRef { name }
    object(expression: $expression) { ${throughTags("HistoryAt")} } }
}
fragment HistoryAt on Commit { oid url committedDate
  history(path: $path, first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor }
    nodes { oid abbreviatedOid messageHeadline url committedDate authoredDate additions deletions
      author { name email user { login } } } } }`;

/**
 * What `/owners` needs before any blame, in ONE request: the commit the answer is pinned to, the
 * commits of the last year that touched the path (`$since`), what is at the path (a file, or a
 * folder's files down to TREE_DEPTH levels with their sizes), and the three places of CODEOWNERS
 * (`<ref>:.github/CODEOWNERS`...: a missing one is a null object, no error). A submodule's gitlink
 * names another repository's commit, so `object` is null for it as for a missing path: the commit's
 * `file(path) { type }` (asked below the root only) tells them apart, as in CONTENTS_QUERY.
 */
export const OWNERS_TREE_QUERY = `query OwnersTree($owner: String!, $name: String!, $commitExpression: String!, $objectExpression: String!, $path: String, $filePath: String!, $hasPath: Boolean!, $since: GitTimestamp!, $codeowners1: String!, $codeowners2: String!, $codeowners3: String!) {
  repository(owner: $owner, name: $name) { nameWithOwner url isPrivate visibility defaultBranchRef { name }
    commit: object(expression: $commitExpression) { ${throughTags("OwnersCommit")} }
    object(expression: $objectExpression) { __typename
      ... on Blob { byteSize isBinary }
      ... on Tree { ${nestedEntries(TREE_DEPTH)} } }
    codeowners1: object(expression: $codeowners1) { ...CodeownersBlob }
    codeowners2: object(expression: $codeowners2) { ...CodeownersBlob }
    codeowners3: object(expression: $codeowners3) { ...CodeownersBlob } }
}
fragment OwnersCommit on Commit { oid url committedDate file(path: $filePath) @include(if: $hasPath) { type }
  history(path: $path, since: $since, first: 100) { totalCount
    nodes { oid authoredDate author { name email user { login } } } } }
fragment CodeownersBlob on GitObject { __typename ... on Blob { text byteSize isTruncated } }`;

function blameAlias(index: number): string {
  return `f${index}: object(oid: $oid) @include(if: $i${index}) { ... on Commit { blame(path: $p${index}) { ranges { startingLine endingLine commit { ...OwnersAuthor } } } } }`;
}

/**
 * The blame of up to BLAME_BATCH files at one commit in ONE request, by alias: `f<i>` blames
 * `$p<i>` when `$i<i>` is true. Each alias is its own `object`, so a blame that fails nulls that
 * alias only.
 */
export const OWNERS_BLAME_QUERY = `query OwnersBlame($owner: String!, $name: String!, $oid: GitObjectID!, ${Array.from(
  { length: BLAME_BATCH },
  (_, index) => `$p${index}: String!, $i${index}: Boolean!`,
).join(", ")}) {
  repository(owner: $owner, name: $name) { nameWithOwner isPrivate visibility
    ${Array.from({ length: BLAME_BATCH }, (_, index) => blameAlias(index)).join("\n    ")} }
}
fragment OwnersAuthor on Commit { oid authoredDate author { name email user { login } } }`;

/** The documents of this file, by operation name. */
export const OWNERSHIP_DOCUMENTS = {
  History: HISTORY_QUERY,
  OwnersTree: OWNERS_TREE_QUERY,
  OwnersBlame: OWNERS_BLAME_QUERY,
} as const;
