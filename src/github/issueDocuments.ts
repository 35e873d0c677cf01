/**
 * The GraphQL documents of `/issue` and `/commit` (GITHUB-FACTS.md "Issues, pull requests and
 * commits"), verbatim; documents.ts lists them with the others, and test/github/documents.test.ts
 * validates them against GitHub's schema.
 */

/** The checks of a commit, counted by state: `first: 1` pages nothing the answer reads. */
const CHECK_COUNTS = `statusCheckRollup { state contexts(first: 1) { checkRunCount checkRunCountsByState { state count }
  statusContextCount statusContextCountsByState { state count } } }`;

/**
 * An issue or a pull request by number, in ONE request (they share one number sequence). `state` is
 * asked under two aliases: `IssueState` and `PullRequestState` are different types, which GraphQL
 * will not merge under one name.
 */
export const ISSUE_OR_PULL_REQUEST_QUERY = `query IssueOrPullRequest($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) { nameWithOwner url isPrivate visibility defaultBranchRef { name }
    issueOrPullRequest(number: $number) { __typename
      ... on Issue { number title url issueState: state stateReason author { login } createdAt updatedAt closedAt
        labels(first: 20) { totalCount nodes { name color } } assignees(first: 10) { totalCount nodes { login } }
        comments { totalCount } body
        closedByPullRequestsReferences(first: 5) { totalCount nodes { number title url pullState: state isDraft } } }
      ... on PullRequest { number title url pullState: state isDraft mergedAt author { login } createdAt updatedAt closedAt
        labels(first: 20) { totalCount nodes { name color } } assignees(first: 10) { totalCount nodes { login } }
        comments { totalCount } body baseRefName headRefName headRepositoryOwner { login }
        reviewDecision additions deletions changedFiles mergeable
        closingIssuesReferences(first: 5) { totalCount nodes { number title url issueState: state stateReason } }
        commits(last: 1) { nodes { commit { oid ${CHECK_COUNTS} } } } } } } }`;

/**
 * A commit by revision (`HEAD`: the default branch), through annotated tags as the Blame document
 * does: headline, message, author and co-authors (`authors` reads the `Co-authored-by` trailers),
 * `+/-`, checks, and the pull requests it belongs to. Its files come from REST.
 */
export const COMMIT_QUERY = `query Commit($owner: String!, $name: String!, $expression: String!) {
  repository(owner: $owner, name: $name) { nameWithOwner url isPrivate visibility defaultBranchRef { name }
    object(expression: $expression) { __typename ...CommitDetails
      ... on Tag { target { __typename ...CommitDetails
        ... on Tag { target { __typename ...CommitDetails
          ... on Tag { target { __typename ...CommitDetails } } } } } } } } }
fragment CommitDetails on Commit { oid abbreviatedOid url messageHeadline messageBody authoredDate committedDate
  authors(first: 10) { totalCount nodes { name email user { login } } }
  additions deletions changedFilesIfAvailable parents(first: 2) { totalCount }
  ${CHECK_COUNTS}
  associatedPullRequests(first: 5) { totalCount nodes { number title url pullState: state isDraft } } }`;
