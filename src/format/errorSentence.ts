import type { PageOutOfRangeError } from "../answers/pageOutOfRange.js";
import type { PrivateRepositoryError } from "../answers/privateAccess.js";
import type { BusyError } from "../bot/core/admission.js";
import type { TokenRejectedError } from "../createServices.js";
import type {
  AdminOnlyError,
  DismissRefusedError,
  ExpiredComponentError,
  InvalidOptionError,
  NoFileLinkError,
  NoGitHubLinkError,
  UserFacingError,
} from "../errors.js";
import type { SignInUnavailableError } from "../signin/signInService.js";
import type { TokenChecksExhaustedError } from "../tokens/attemptLimit.js";
import type { DefaultShareUsedUpError } from "../tokens/defaultTokenShare.js";
import type { OwnersBudgetError } from "../owners/ownersBudgetError.js";
import type { SettingsStoreUnavailableError } from "../tokens/guildSettings.js";
import type { MissingTokenError } from "../tokens/tokenResolver.js";
import type {
  TokenStoreUnavailableError,
  VaultKeyMissingError,
  VaultLockedError,
} from "../tokens/tokenVault.js";
import type { SignInEndedError, SignInRenewalUnavailableError } from "../tokens/userTokens.js";
import { githubErrorSentence, type GitHubUserError } from "./githubErrorSentences.js";
import { pagesText, quoted, relativeTime, type ErrorSituation } from "./errorWords.js";

export type { ErrorSituation } from "./errorWords.js";

/**
 * The one place where a user-facing error becomes the one or two sentences the user reads (SPEC
 * section 2): what happened, and what to do next. Errors carry facts (src/errors.ts); the words,
 * and advice that fits the asker's situation (sign-in set up or not, a server or a DM), are here.
 */

/** Every user-facing error RepoScout raises, told apart by `code`. */
export type KnownUserError =
  | GitHubUserError
  | InvalidOptionError
  | NoFileLinkError
  | NoGitHubLinkError
  | AdminOnlyError
  | ExpiredComponentError
  | DismissRefusedError
  | PrivateRepositoryError
  | PageOutOfRangeError
  | MissingTokenError
  | DefaultShareUsedUpError
  | OwnersBudgetError
  | VaultKeyMissingError
  | VaultLockedError
  | TokenStoreUnavailableError
  | TokenChecksExhaustedError
  | SettingsStoreUnavailableError
  | SignInEndedError
  | SignInRenewalUnavailableError
  | SignInUnavailableError
  | TokenRejectedError
  | BusyError;

/** Why a request was not started or not finished, and when to try again. */
function busySentence(reason: BusyError["reason"]): string {
  switch (reason) {
    case "full":
      return "RepoScout has more requests than it can take right now, so this one was not started. Try again in a minute.";
    case "waitedTooLong":
      return "RepoScout was too busy to get to this request in time. Try again in a minute.";
    case "perUser":
      return "You already have several requests running or waiting, so this one was not started. Try again once they are answered.";
    case "perServer":
      return "This server already has as many requests running or waiting as RepoScout takes from one server, so this one was not started. Try again in a minute.";
  }
}

/** Why `/login` cannot work, and who can fix it. */
export function signInUnavailableSentence(reason: SignInUnavailableError["reason"]): string {
  switch (reason) {
    case "notConfigured":
      return "Sign-in is not set up on this bot: it has no GitHub app (`GITHUB_OAUTH_CLIENT_ID`). Commands use this server's token or the bot's default; ask the bot's operator if you need your own.";
    case "noKey":
      return "This bot has no `TOKEN_ENCRYPTION_KEY`, so it cannot keep your GitHub sign-in. Ask the bot's operator to set one.";
    case "deviceFlowDisabled":
      return "Sign-in is not available: the bot's GitHub app does not have device flow enabled. Ask the bot's operator to turn on “Enable Device Flow” in the app's settings.";
    case "appUnknown":
      return "GitHub does not recognize this bot's sign-in app (`GITHUB_OAUTH_CLIENT_ID`). Ask the bot's operator to check it.";
  }
}

/** GitHub refused a device sign-in with an error code it gave (`unsupported_grant_type`...). */
export function signInRefusedSentence(code: string): string {
  if (code === "device_flow_disabled") return signInUnavailableSentence("deviceFlowDisabled");
  if (code === "incorrect_client_credentials" || code === "Not Found") {
    return signInUnavailableSentence("appUnknown");
  }
  return `GitHub refused the sign-in (${quoted(code)}). Run \`/login\` to try again; if it keeps happening, tell the bot's operator.`;
}

/** The line a user reads for an error that is not theirs to fix, with the id of its log entry. */
export function genericErrorSentence(errorId: string): string {
  return `Something went wrong on RepoScout's side (error id \`${errorId}\`). Try again; if it keeps happening, give this id to the bot's operator.`;
}

function pageOutOfRange(error: PageOutOfRangeError): string {
  const page = error.page.toLocaleString("en-US");
  if (error.list === "contributors") {
    const whose = `the contributors of ${quoted(error.subject)}`;
    if (error.pages === null) {
      return `Page ${page} is past the end of ${whose}. Ask for a lower \`page\`, starting from 1.`;
    }
    const last = error.pages.toLocaleString("en-US");
    return `Page ${page} is past the end of ${whose}: there ${error.pages === 1 ? "is" : "are"} ${pagesText(error.pages)}. Ask for \`page\` ${error.pages === 1 ? "1" : `1 to ${last}`}.`;
  }
  // Repositories page by buttons: a page is past the end when the list shrank since the last one.
  const whose = `the repositories of ${quoted(error.subject)}`;
  const now =
    error.pages === null ? "" : `: there ${error.pages === 1 ? "is" : "are"} ${pagesText(error.pages)} now`;
  return `Page ${page} is past the end of ${whose}${now}. Run \`/repos\` again to start from the first page.`;
}

function privateRepository(error: PrivateRepositoryError, situation: ErrorSituation): string {
  const routes = [
    situation.signIn ? "Sign in with `/login` to read it with your own GitHub account" : null,
    situation.inServer ? "an admin can `/token set` a token for this server" : null,
  ].filter((route): route is string => route !== null);
  const next =
    routes.length > 0
      ? `${routes.join(", or ")}.`
      : "RepoScout cannot read it here; ask the bot's operator if it should.";
  return `Repository ${quoted(error.nameWithOwner)} is private, and the bot's shared token reads public repositories only. ${next.charAt(0).toUpperCase()}${next.slice(1)}`;
}

function missingToken(situation: ErrorSituation): string {
  if (situation.inServer) {
    return `This server has no GitHub token and the bot has no default one. An admin can run \`/token set\`${
      situation.signIn ? ", or sign in with `/login` to use your own GitHub account" : ""
    }.`;
  }
  return situation.signIn
    ? "There is no GitHub token to read with here: the bot has no default one. Sign in with `/login` to use your own GitHub account."
    : "There is no GitHub token to read with here: the bot has no default one. Ask the bot's operator to set `GITHUB_TOKEN`, or use RepoScout in a server that has its own token.";
}

function defaultShareUsedUp(error: DefaultShareUsedUpError, situation: ErrorSituation): string {
  const unix = Math.ceil(error.until.getTime() / 1000);
  const routes = [
    situation.signIn ? "`/login`" : null,
    situation.inServer ? "a server token (`/token set`)" : null,
  ].filter((route): route is string => route !== null);
  const next = routes.length > 0 ? `${routes.join(" or ")} avoids it.` : "Try again then.";
  return `The shared GitHub budget is used up ${error.scope === "server" ? "for this server" : "for you"} until <t:${unix}:t> (<t:${unix}:R>): each ${error.scope} may spend ${Math.round(error.share * 100)}% of the bot's shared token in an hour. ${next.charAt(0).toUpperCase()}${next.slice(1)}`;
}

function ownersBudget(error: OwnersBudgetError, situation: ErrorSituation): string {
  const cost = `${error.cost.toLocaleString("en-US")} GitHub point${error.cost === 1 ? "" : "s"}`;
  const files = error.files === 1 ? "this file" : `these ${error.files.toLocaleString("en-US")} files`;
  const when = error.until ? ` until ${relativeTime(error.until)}` : "";
  if (error.reason === "token") {
    return `Reading the owners of ${files} costs ${cost}, more than the GitHub token in effect has left${when}, so nothing was sent. Ask for a smaller folder or a single file, or try again then.`;
  }
  const routes = [
    situation.signIn ? "`/login`" : null,
    situation.inServer ? "a server token (`/token set`)" : null,
  ].filter((route): route is string => route !== null);
  const next = routes.length > 0 ? ` ${routes.join(" or ")} avoids the shared budget.` : "";
  return `Reading the owners of ${files} costs ${cost}, more than is left of ${situation.inServer ? "this server's" : "your"} share of the bot's shared GitHub token${when}, so nothing was sent. Ask for a smaller folder or a single file.${next}`;
}

function noFileLink(error: NoFileLinkError, situation: ErrorSituation): string {
  const host = new URL(situation.webUrl).host;
  const example = `\`${situation.webUrl.replace(/\/+$/, "")}/owner/name/blob/main/src/app.ts#L10-L20\``;
  if (error.notFile) {
    return `There is no GitHub file link in that message: it links to a repository, a folder, an issue, a pull request or a commit. **Preview links** answers those; this menu takes a link like ${example}.`;
  }
  if (error.otherHost !== undefined) {
    return `There is no GitHub file link in that message: RepoScout reads links to ${quoted(host)}, and ${quoted(error.otherHost)} is another service.`;
  }
  return `There is no GitHub file link in that message. Use the menu on a message with a link like ${example}.`;
}

function noGitHubLink(error: NoGitHubLinkError, situation: ErrorSituation): string {
  const host = new URL(situation.webUrl).host;
  if (error.bareReference) {
    return situation.inServer
      ? "There is no GitHub link in that message: a bare `#123` needs a default repository, which an admin sets with `/settings repo`. Or write `owner/name#123`."
      : "There is no GitHub link in that message: a bare `#123` names no repository here. Write `owner/name#123`.";
  }
  if (error.otherHost !== undefined) {
    return `There is no GitHub link in that message: RepoScout reads links to ${quoted(host)}, and ${quoted(error.otherHost)} is another service.`;
  }
  return "There is no GitHub link in that message. Use the menu on a message with a link to an issue, a pull request, a commit, a file or a folder, or `owner/name#123`.";
}

function knownErrorSentence(error: KnownUserError, situation: ErrorSituation): string {
  switch (error.code) {
    case "invalid_option":
      return `The \`${error.option}\` option ${error.problem}`;
    case "admin_only":
      return error.reason === "notInServer"
        ? "This command works in a server only, not in direct messages. Run it in a channel of the server."
        : "Only members with the Manage Server permission can use this command. Ask a server admin to run it.";
    case "no_file_link":
      return noFileLink(error, situation);
    case "dismiss_refused":
      return "Only the author can dismiss this preview: it answers their message. Members who can manage messages may remove it too.";
    case "no_github_link":
      return noGitHubLink(error, situation);
    case "expired_component":
      return `This button has expired. Run ${error.command ? `\`/${error.command}\`` : "the command"} again.`;
    case "private_through_default_token":
      return privateRepository(error, situation);
    case "page_out_of_range":
      return pageOutOfRange(error);
    case "missing_token":
      return missingToken(situation);
    case "default_share_used_up":
      return defaultShareUsedUp(error, situation);
    case "owners_budget":
      return ownersBudget(error, situation);
    case "vault_key_missing":
      return "This bot has no TOKEN_ENCRYPTION_KEY, so it cannot store server tokens. Ask its operator to set one.";
    case "vault_locked":
      return "This server's GitHub token is stored under an encryption key the bot no longer has. Ask the bot's operator to restore TOKEN_ENCRYPTION_KEY, or have an admin run `/token set` again.";
    case "token_store_unavailable": {
      const store = error.whose === "server" ? "this server's token store" : "your GitHub sign-in";
      return `RepoScout cannot ${error.operation === "read" ? "read" : "save"} ${store} right now. Try again in a moment.`;
    }
    case "token_checks_exhausted":
      return `This server has already checked ${error.checksPerWindow} tokens in the last ${error.windowMinutes} minutes, the most allowed, so this one was not sent to GitHub. Try \`/token set\` again ${relativeTime(error.retryAt)}.`;
    case "settings_store_unavailable":
      return `RepoScout cannot ${error.action === "read" ? "read" : "save"} this server's settings right now. Try again in a moment.`;
    case "sign_in_ended":
      return error.reason === "refused"
        ? "GitHub no longer accepts your sign-in (it was revoked or has expired), so RepoScout forgot it. Run `/login` to sign in again."
        : "Your GitHub sign-in has expired and cannot be renewed, so RepoScout forgot it. Run `/login` to sign in again.";
    case "sign_in_renewal_unavailable":
      return "GitHub did not answer while RepoScout renewed your sign-in. Try again in a moment; you are still signed in.";
    case "sign_in_unavailable":
      return signInUnavailableSentence(error.reason);
    case "busy":
      return busySentence(error.reason);
    case "token_rejected":
      return "GitHub did not accept that token, so nothing was stored. Check that it was copied whole and has not expired or been revoked, then run `/token set` again.";
    default:
      return githubErrorSentence(error, situation);
  }
}

/**
 * What the user reads for a user-facing error: one or two sentences that say what happened and
 * what to do next. An error this file does not know (a new class without its sentence yet) reads
 * as a generic line naming its code rather than as nothing.
 */
export function errorSentence(error: UserFacingError, situation: ErrorSituation): string {
  const sentence = knownErrorSentence(error as KnownUserError, situation) as string | undefined;
  return (
    sentence ??
    `RepoScout could not answer (${quoted(error.code)}). Try again; if it keeps happening, tell the bot's operator.`
  );
}
