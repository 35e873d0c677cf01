import { resolveLinkTarget } from "./symlink.js";
import { TAG_DEPTH } from "../github/documents.js";
import type {
  AuthLockoutError,
  EmptyRepositoryError,
  GitHubForbiddenError,
  GitHubUnauthorizedError,
  IssueNotFoundError,
  NotACommitError,
  NotAFileError,
  OwnerNotFoundError,
  PathNotFoundError,
  PrimaryRateLimitError,
  RefNotFoundError,
  RepositoryNotFoundError,
  SecondaryRateLimitError,
  TooLargeError,
  UpstreamError,
  UpstreamTimeoutError,
} from "../github/errors.js";
import { encodePath, maskedLink } from "./message.js";
import { quoted, relativeTime, repoName, type ErrorSituation } from "./errorWords.js";

/**
 * What the user reads for each error of the GitHub client (SPEC section 2): what happened, in one
 * sentence, and what to do next, in another. Advice about tokens fits whose token read (the
 * error's `tokenOrigin`): nobody already signed in is told to `/login`, and nobody in a DM is told
 * to ask a server admin.
 */
export type GitHubUserError =
  | GitHubUnauthorizedError
  | RepositoryNotFoundError
  | OwnerNotFoundError
  | RefNotFoundError
  | IssueNotFoundError
  | PathNotFoundError
  | NotACommitError
  | NotAFileError
  | GitHubForbiddenError
  | PrimaryRateLimitError
  | SecondaryRateLimitError
  | AuthLockoutError
  | TooLargeError
  | EmptyRepositoryError
  | UpstreamTimeoutError
  | UpstreamError;

function joinRoutes(routes: Array<string | false>): string {
  return routes.filter((route): route is string => route !== false).join(", or ");
}

function repositoryNotFound(error: RepositoryNotFoundError, situation: ErrorSituation): string {
  const name = repoName(error.repo);
  const check = "Check the owner and name in `repo`";
  switch (error.tokenOrigin) {
    case "user":
      // Signed in already: another sign-in would read with the same account.
      return `Repository ${name} was not found, or your GitHub account cannot see it. ${check}; if it is private, ask its owners for access.`;
    case "server": {
      const routes = joinRoutes([
        situation.signIn && "sign in with `/login` to read it with your own GitHub account",
        "an admin can `/token set` a token that can read it",
      ]);
      return `Repository ${name} was not found, or this server's GitHub token cannot see it. ${check}; if it is private, ${routes}.`;
    }
    case "default": {
      const routes = joinRoutes([
        situation.signIn && "sign in with `/login` to read it with your own GitHub account",
        situation.inServer && "an admin can `/token set` a token for this server",
      ]);
      const why = error.publicOnly
        ? "the bot's shared token reads public repositories only"
        : "the bot's shared token cannot see it";
      return routes
        ? `Repository ${name} was not found. ${check}; if it is private, ${why}: ${routes}.`
        : `Repository ${name} was not found. ${check}; if it is private, RepoScout cannot read it here: ${why}.`;
    }
    default:
      return `Repository ${name} was not found, or the token in effect cannot see it. ${check}.`;
  }
}

function unauthorized(error: GitHubUnauthorizedError, situation: ErrorSituation): string {
  if (error.tokenOrigin === "user") {
    return "GitHub no longer accepts your sign-in (it was revoked or has expired). Run `/login` to sign in again.";
  }
  if (situation.inServer) {
    // The server's own token, or none and the default one: a server token is the way out either way.
    return "The server's GitHub token is missing or no longer valid. An admin can run `/token set`.";
  }
  // A DM: there is no server token, so the default token is what failed.
  return `The bot's default GitHub token is no longer valid. ${
    situation.signIn ? "Sign in with `/login` to use your own GitHub account, or ask" : "Ask"
  } the bot's operator to replace \`GITHUB_TOKEN\`.`;
}

function forbidden(error: GitHubForbiddenError, situation: ErrorSituation): string {
  const what = error.repo ? repoName(error.repo) : "this";
  const reason = "(a missing permission, or an organization that requires SSO authorization)";
  if (error.tokenOrigin === "user") {
    return `GitHub refused your GitHub account access to ${what} ${reason}. Ask the organization for access, or authorize RepoScout for its SSO in your GitHub settings.`;
  }
  const routes = joinRoutes([
    situation.signIn && "sign in with `/login` with an account that has access",
    situation.inServer && "an admin can run `/token set` with a token that has access",
  ]);
  return `GitHub refused access to ${what} with the token in effect ${reason}.${
    routes
      ? ` ${routes.charAt(0).toUpperCase()}${routes.slice(1)}.`
      : " Ask the bot's operator for a token that has access."
  }`;
}

function notACommit(error: NotACommitError): string {
  const revision = `Revision ${quoted(error.ref)} of ${repoName(error.repo)}`;
  if (error.tags === 0) {
    return `${revision} does not name a commit. Give a branch, a tag or a commit id as \`ref\`.`;
  }
  if (error.objectType === "Tag") {
    return `${revision} is a tag of a tag nested more than ${TAG_DEPTH} deep, which RepoScout does not follow. Give the commit id it leads to as \`ref\`.`;
  }
  const what = error.objectType === "Tree" ? "a folder (a Git tree)" : "a single file (a Git blob)";
  return `${revision} is a tag of ${what}, not of a commit, so it has no history to show. Give a branch, a tag of a commit or a commit id as \`ref\`.`;
}

function tooLarge(error: TooLargeError, situation: ErrorSituation): string {
  const base = situation.webUrl.replace(/\/+$/, "");
  const page = `${base}/${encodePath(`${error.repo.owner}/${error.repo.name}`)}/graphs/contributors`;
  const link = maskedLink("its contributors page", page);
  return `GitHub will not list the contributors of a repository as large as ${repoName(error.repo)}. See them on ${link} on GitHub.`;
}

/** The sentence of a GitHub error, with its next step. */
export function githubErrorSentence(error: GitHubUserError, situation: ErrorSituation): string {
  switch (error.code) {
    case "github_unauthorized":
      return unauthorized(error, situation);
    case "repository_not_found":
      return repositoryNotFound(error, situation);
    case "owner_not_found":
      return `No GitHub user or organization called ${quoted(error.login)} was found. Check the spelling of \`owner\`.`;
    case "ref_not_found":
      return `Revision ${quoted(error.ref)} was not found in ${repoName(error.repo)}. Check \`ref\`: a branch, a tag or a commit id.`;
    case "issue_not_found":
      return `${repoName(error.repo)} has no issue or pull request #${error.number}. Check \`number\`, or give the issue's URL as \`repo\`.`;
    case "path_not_found":
      return `Path ${quoted(error.path === "" ? "/" : error.path)} was not found in ${repoName(error.repo)} at ${
        error.ref === undefined ? "the default branch" : quoted(error.ref)
      }. Check \`path\`; \`/contents\` lists the files that are there.`;
    case "not_a_commit":
      return notACommit(error);
    case "not_a_file":
      if (error.found === "symlink") return symlinkSentence(error);
      return error.found === "folder"
        ? `${quoted(error.path)} in ${repoName(error.repo)} is a folder, and blame works on files. Use \`/contents\` to list it, or give a file as \`path\`.`
        : `${quoted(error.path)} in ${repoName(error.repo)} is a submodule: its files live in another repository, which \`/contents path:.gitmodules\` names. Ask about that repository instead.`;
    case "github_forbidden":
      return forbidden(error, situation);
    case "rate_limited":
      return `GitHub's rate limit for the token in effect is used up. Try again ${relativeTime(error.retryAt)}${
        error.tokenOrigin === "default" && situation.signIn
          ? ", or sign in with `/login` to read with your own budget"
          : ""
      }.`;
    case "secondary_rate_limited":
      return `GitHub asked RepoScout to slow down (a secondary rate limit). Try again ${relativeTime(error.retryAt)}.`;
    case "auth_lockout":
      return `GitHub is refusing requests for a while after too many failed sign-in attempts. Try again ${relativeTime(error.retryAt)}; if it keeps failing, ${
        error.tokenOrigin === "user"
          ? "run `/login` to sign in again"
          : error.tokenOrigin === "default" || !situation.inServer
            ? "tell the bot's operator"
            : "an admin can check the token with `/token set`"
      }.`;
    case "too_large":
      return tooLarge(error, situation);
    case "empty_repository":
      return `Repository ${repoName(error.repo)} has no commits yet, so there is nothing to show. Try again once something is pushed.`;
    case "upstream_timeout":
      return "GitHub did not answer in time. Try again in a moment.";
    case "upstream_error":
      return error.reason === "unreachable"
        ? "GitHub could not be reached. Try again in a moment."
        : error.reason === "unreadable"
          ? "GitHub sent an answer RepoScout could not read. Try again in a moment."
          : // SPEC section 2 reads every 5xx as "did not answer in time": say that, and what happened.
            "GitHub did not answer in time: it failed with a server error. Try again in a moment.";
  }
}

/** A symbolic link has no lines of its own: say where it points, and how to blame that. */
function symlinkSentence(error: NotAFileError): string {
  const target = error.target ?? "";
  const lead = `${quoted(error.path)} in ${repoName(error.repo)} is a symbolic link to ${quoted(target)}`;
  const resolved = resolveLinkTarget(error.path, target);
  return resolved === null
    ? `${lead}, outside the repository: there are no lines here to blame.`
    : `${lead}: it has no lines of its own. Blame its target with \`path:${resolved}\`.`;
}
