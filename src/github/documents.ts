import { COMMIT_QUERY, ISSUE_OR_PULL_REQUEST_QUERY } from "./issueDocuments.js";

/**
 * The GraphQL documents RepoScout sends, verbatim. Each is a named operation and takes all user
 * input as variables, never spliced into the text. test/github/documents.test.ts validates every
 * one against GitHub's published schema; the local GitHub stand-in answers exactly these.
 */

import { OWNERSHIP_DOCUMENTS } from "./ownershipDocuments.js";

/** The token's login and its GraphQL budget. */
export const VIEWER_QUERY = `query Viewer { viewer { login } rateLimit { limit remaining used resetAt cost } }`;

/**
 * One page of an owner's own repositories (`orderBy` PUSHED_AT DESC or NAME ASC). `$privacy` is
 * null for every repository the token can see, or `PUBLIC` for public ones only (GitHub counts
 * internal repositories as private there): the default token's list (SPEC section 4).
 */
export const OWNER_REPOSITORIES_QUERY = `query OwnerRepositories($login: String!, $first: Int!, $after: String, $orderBy: RepositoryOrder!, $privacy: RepositoryPrivacy) {
  repositoryOwner(login: $login) { __typename login
    repositories(first: $first, after: $after, orderBy: $orderBy, ownerAffiliations: [OWNER], privacy: $privacy) {
      totalCount pageInfo { endCursor hasNextPage hasPreviousPage startCursor }
      nodes { name nameWithOwner url pushedAt isPrivate visibility description }
    } } }`;

/** A repository's header and the tip of its default branch. */
export const REPOSITORY_INFO_QUERY = `query RepositoryInfo($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) { nameWithOwner url isPrivate visibility isEmpty
    defaultBranchRef { name target { oid } } } }`;

/**
 * Whether the token still sees a repository, and who may: one point, no git data. It tells
 * `/contributors` the visibility (REST says nothing of it) and re-confirms a token's access before
 * a cached private answer is served (SPEC section 4).
 */
export const REPOSITORY_ACCESS_QUERY = `query RepositoryAccess($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) { nameWithOwner isPrivate visibility } }`;

/**
 * The commit a ref points to now, and the repository's visibility: one point and no git data but
 * the commit id. When the short-lived commit of a branch expires, this alone tells whether the
 * branch moved; if not, the answer pinned to its commit is still good and is not fetched again.
 */
export const REF_COMMIT_QUERY = `query RefCommit($owner: String!, $name: String!, $expression: String!) {
  repository(owner: $owner, name: $name) { nameWithOwner isPrivate visibility defaultBranchRef { name }
    object(expression: $expression) { __typename ...CommitId
      ... on Tag { target { __typename ...CommitId
        ... on Tag { target { __typename ...CommitId
          ... on Tag { target { __typename ...CommitId } } } } } } } } }
fragment CommitId on Commit { oid }`;

/**
 * How many annotated tags deep the Blame and Contents documents follow a tag to what it tags (a tag
 * may tag another tag). Real chains are one deep; the nesting of `... on Tag { target { ... } }` in
 * both documents below is exactly this deep (test/github/documents.test.ts checks it).
 */
export const TAG_DEPTH = 3;

/**
 * Blame ranges and the file's text at one commit, in ONE request: `expression` is the ref, or
 * `HEAD` (GitHub resolves it to the default branch); the answer is pinned to the commit's oid.
 * `object(expression)` does not peel an annotated tag (it answers the `Tag`), so the same commit
 * selection is asked again on each tag's `target`: a tag of a commit is still one request.
 *
 * `blame` is non-null in GitHub's schema, so when it fails (a folder, a submodule, a missing path)
 * its error nulls the whole `object`, `file` included. `entry` asks the same commit for nothing but
 * the type of the tree entry at `path`, outside that selection, so the answer still tells a folder
 * (`tree`) or a submodule (`commit`) from a missing path (`file: null`). `object(expression:
 * "<ref>:<path>")` would not do: a submodule's gitlink names a commit of another repository, which
 * resolves to null here just like a missing path.
 *
 * GitHub writes a range's commit in full in every range it owns (2,890 ranges of 50 commits for a
 * 10,000-line file), so each field asked there is paid for thousands of times: in bytes over the
 * wire, then in reading, parsing and checking them. A range's commit asks only what cannot be
 * derived: its `url` is the repository's URL + `/commit/<oid>` and its `abbreviatedOid` the oid's
 * first 7 characters (GitHub's own), both derived in fetchBlame. That is a fifth of the answer.
 */
export const BLAME_QUERY = `query Blame($owner: String!, $name: String!, $expression: String!, $path: String!) {
  repository(owner: $owner, name: $name) { nameWithOwner url isPrivate visibility
    defaultBranchRef { name }
    object(expression: $expression) { __typename ...BlameAtCommit
      ... on Tag { target { __typename ...BlameAtCommit
        ... on Tag { target { __typename ...BlameAtCommit
          ... on Tag { target { __typename ...BlameAtCommit } } } } } } }
    entry: object(expression: $expression) { __typename ...EntryAtCommit
      ... on Tag { target { __typename ...EntryAtCommit
        ... on Tag { target { __typename ...EntryAtCommit
          ... on Tag { target { __typename ...EntryAtCommit } } } } } } } } }
fragment BlameAtCommit on Commit { oid url committedDate
  blame(path: $path) { ranges { startingLine endingLine age
    commit { oid messageHeadline authoredDate committedDate author { name user { login } } } } }
  file(path: $path) { path object { __typename ... on Blob { oid text isBinary byteSize isTruncated } } } }
fragment EntryAtCommit on Commit { file(path: $path) { type mode } }`;

/**
 * A folder's entries or a file's text: `commitExpression` is the ref or `HEAD` (to pin the answer),
 * `objectExpression` is `<ref or HEAD>:<path>` (`HEAD:` for the root). Git peels a tag on `:`, so
 * `<tag>:<path>` already names the path at the tagged commit; the commit itself is reached through
 * the tags' `target`s, as in {@link BLAME_QUERY}.
 *
 * A submodule's gitlink names a commit of another repository, so `object` is null for it as for a
 * missing path; the commit's `file(path)` tells them apart (`type` "commit"). Its `mode` tells a
 * symbolic link (`0o120000`, which GitHub gives as the integer 40960) from a file: both are Blobs,
 * and a link's `text` is its target. `hasPath` is false for the root, which is no tree entry:
 * `file` is then not asked at all (`path` is "" and unused).
 */
export const CONTENTS_QUERY = `query Contents($owner: String!, $name: String!, $commitExpression: String!, $objectExpression: String!, $path: String!, $hasPath: Boolean!) {
  repository(owner: $owner, name: $name) { nameWithOwner url isPrivate visibility defaultBranchRef { name }
    commit: object(expression: $commitExpression) { __typename ...PinnedCommit
      ... on Tag { target { __typename ...PinnedCommit
        ... on Tag { target { __typename ...PinnedCommit
          ... on Tag { target { __typename ...PinnedCommit } } } } } } }
    object(expression: $objectExpression) { __typename
      ... on Tree { oid entries { name path type mode size object { __typename ... on Blob { byteSize isBinary } } } }
      ... on Blob { oid text isBinary byteSize isTruncated } } } }
fragment PinnedCommit on Commit { oid url committedDate file(path: $path) @include(if: $hasPath) { type mode } }`;

/** Every document by operation name (for the schema test and the stand-in). */
export const DOCUMENTS = {
  Viewer: VIEWER_QUERY,
  OwnerRepositories: OWNER_REPOSITORIES_QUERY,
  RepositoryInfo: REPOSITORY_INFO_QUERY,
  RepositoryAccess: REPOSITORY_ACCESS_QUERY,
  RefCommit: REF_COMMIT_QUERY,
  Blame: BLAME_QUERY,
  Contents: CONTENTS_QUERY,
  IssueOrPullRequest: ISSUE_OR_PULL_REQUEST_QUERY,
  Commit: COMMIT_QUERY,
  ...OWNERSHIP_DOCUMENTS,
} as const;

/** The name of one of RepoScout's GraphQL operations. */
export type OperationName = keyof typeof DOCUMENTS;
