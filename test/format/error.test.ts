import { describe, expect, it } from "vitest";
import { checkPageInRange, PageOutOfRangeError } from "../../src/answers/pageOutOfRange.js";
import { PrivateRepositoryError } from "../../src/answers/privateAccess.js";
import { TokenRejectedError } from "../../src/createServices.js";
import {
  AdminOnlyError,
  ExpiredComponentError,
  InvalidOptionError,
  UserFacingError,
} from "../../src/errors.js";
import { formatError, formatThreadSummary, threadName } from "../../src/format/error.js";
import { errorSentence, type ErrorSituation } from "../../src/format/errorSentence.js";
import { ZWSP } from "../../src/format/escape.js";
import { COLORS } from "../../src/format/message.js";
import {
  AuthLockoutError,
  EmptyRepositoryError,
  GitHubError,
  GitHubForbiddenError,
  GitHubUnauthorizedError,
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
} from "../../src/github/errors.js";
import { SignInUnavailableError } from "../../src/signin/signInService.js";
import { TokenChecksExhaustedError } from "../../src/tokens/attemptLimit.js";
import { BusyError } from "../../src/bot/core/admission.js";
import { DefaultShareUsedUpError } from "../../src/tokens/defaultTokenShare.js";
import { SettingsStoreUnavailableError } from "../../src/tokens/guildSettings.js";
import { MissingTokenError } from "../../src/tokens/tokenResolver.js";
import {
  TokenStoreUnavailableError,
  VaultKeyMissingError,
  VaultLockedError,
} from "../../src/tokens/tokenVault.js";
import { SignInEndedError, SignInRenewalUnavailableError } from "../../src/tokens/userTokens.js";
import { descriptionOf, expectValidMessage } from "./checks.js";

describe("formatError", () => {
  it("is a red embed holding the sentence", () => {
    const message = formatError("The repository `octo/nope` was not found. Check the owner and name.");
    expectValidMessage(message);
    expect(message.embeds[0]!.color).toBe(COLORS.error);
    expect(descriptionOf(message)).toBe(
      "⚠️ The repository `octo/nope` was not found. Check the owner and name.",
    );
    expect(message.components).toEqual([]);
  });

  it("stays valid for an empty or huge sentence", () => {
    expectValidMessage(formatError(""));
    expectValidMessage(formatError("x".repeat(50_000)));
  });
});

describe("formatThreadSummary", () => {
  it("is one line naming the question", () => {
    expect(formatThreadSummary("blame", "demo/widgets src/app.ts")).toBe(
      "🧵 **/blame** demo/widgets src/app.ts — answer in the thread",
    );
  });

  it("escapes what the user typed", () => {
    const summary = formatThreadSummary("contents", ["octo/x", "@everyone <@1> **x**\nsecond line"]);
    expect(summary).toContain(`@${ZWSP}everyone <${ZWSP}@1\\> \\*\\*x\\*\\* second line`);
    expect(summary).not.toContain("\n");
    expect(formatThreadSummary("blame", "p".repeat(5000)).length).toBeLessThanOrEqual(2000);
  });
});

describe("threadName", () => {
  it("names the thread after the question", () => {
    expect(threadName("blame", "octo/widgets src/app.ts")).toBe("blame octo/widgets src/app.ts");
    expect(threadName("repos", ["octo"])).toBe("repos octo");
  });

  it("is one line of 1..100 characters, cut visibly", () => {
    const name = threadName("blame", `octo/widgets ${"very/long/".repeat(30)}\nfile.ts`);
    expect(name.length).toBe(100);
    expect(name.endsWith("…")).toBe(true);
    expect(name).not.toMatch(/\n/);
    expect(threadName("", "")).toBe("answer");
  });
});

const DEMO = { owner: "demo", name: "widgets" };
const IN_SERVER: ErrorSituation = { signIn: true, inServer: true, webUrl: "https://github.com" };
const IN_DM: ErrorSituation = { ...IN_SERVER, inServer: false };
const NO_SIGN_IN: ErrorSituation = { ...IN_SERVER, signIn: false };

function readBy(
  origin: "user" | "server" | "default",
  publicOnly = origin === "default",
): RepositoryNotFoundError {
  return new RepositoryNotFoundError({ owner: "octo", name: "nope" }).readWith({ origin, publicOnly });
}

describe("errorSentence: repository not found says to check the name, and what fits the token that read", () => {
  it("read with the asker's own sign-in: check the name, no /login (they are signed in)", () => {
    const sentence = errorSentence(readBy("user"), IN_SERVER);
    expect(sentence).toBe(
      "Repository `octo/nope` was not found, or your GitHub account cannot see it. Check the owner and name in `repo`; if it is private, ask its owners for access.",
    );
    expect(sentence).not.toContain("/login");
    expect(sentence).not.toContain("/token set");
  });

  it("read with the server's token: that token cannot see it; /login reads with your own account", () => {
    expect(errorSentence(readBy("server"), IN_SERVER)).toBe(
      "Repository `octo/nope` was not found, or this server's GitHub token cannot see it. Check the owner and name in `repo`; if it is private, sign in with `/login` to read it with your own GitHub account, or an admin can `/token set` a token that can read it.",
    );
    expect(errorSentence(readBy("server"), NO_SIGN_IN)).toBe(
      "Repository `octo/nope` was not found, or this server's GitHub token cannot see it. Check the owner and name in `repo`; if it is private, an admin can `/token set` a token that can read it.",
    );
  });

  it("read with the default token that reads public repositories only: says so, then /login or /token set", () => {
    expect(errorSentence(readBy("default"), IN_SERVER)).toBe(
      "Repository `octo/nope` was not found. Check the owner and name in `repo`; if it is private, the bot's shared token reads public repositories only: sign in with `/login` to read it with your own GitHub account, or an admin can `/token set` a token for this server.",
    );
    // In a DM there is no server admin to ask.
    expect(errorSentence(readBy("default"), IN_DM)).toBe(
      "Repository `octo/nope` was not found. Check the owner and name in `repo`; if it is private, the bot's shared token reads public repositories only: sign in with `/login` to read it with your own GitHub account.",
    );
    // No sign-in and no server: nothing to offer but the reason.
    expect(errorSentence(readBy("default"), { ...IN_DM, signIn: false })).toBe(
      "Repository `octo/nope` was not found. Check the owner and name in `repo`; if it is private, RepoScout cannot read it here: the bot's shared token reads public repositories only.",
    );
  });

  it("read with a default token allowed private repositories: it cannot see it, rather than 'public only'", () => {
    const sentence = errorSentence(readBy("default", false), IN_SERVER);
    expect(sentence).toContain(
      "if it is private, the bot's shared token cannot see it: sign in with `/login`",
    );
    expect(sentence).not.toContain("public repositories only");
  });

  it("without knowing the token: check the name", () => {
    expect(errorSentence(new RepositoryNotFoundError({ owner: "octo", name: "nope" }), IN_SERVER)).toBe(
      "Repository `octo/nope` was not found, or the token in effect cannot see it. Check the owner and name in `repo`.",
    );
  });

  it("records the first token that read only", () => {
    const error = readBy("user").readWith({ origin: "default", publicOnly: true });
    expect(error.tokenOrigin).toBe("user");
    expect(error.publicOnly).toBe(false);
  });
});

describe("errorSentence: contributors too large links the repository's contributors page on the web host", () => {
  it("on github.com", () => {
    expect(errorSentence(new TooLargeError({ owner: "torvalds", name: "linux" }), IN_SERVER)).toBe(
      "GitHub will not list the contributors of a repository as large as `torvalds/linux`. See them on [its contributors page](https://github.com/torvalds/linux/graphs/contributors) on GitHub.",
    );
  });

  it("on an Enterprise host (GITHUB_WEB_URL), whatever trailing slash it has", () => {
    const sentence = errorSentence(new TooLargeError({ owner: "core", name: "monolith" }), {
      ...IN_SERVER,
      webUrl: "https://ghe.example.com/",
    });
    expect(sentence).toContain(
      "[its contributors page](https://ghe.example.com/core/monolith/graphs/contributors)",
    );
  });

  it("a name that could break the link is encoded, never markup", () => {
    const sentence = errorSentence(new TooLargeError({ owner: "a)b", name: "c d" }), IN_SERVER);
    expect(sentence).toContain("(https://github.com/a%29b/c%20d/graphs/contributors)");
  });
});

describe("errorSentence: a page past the end says how many pages there are", () => {
  it("contributors: page 4 of 3", () => {
    expect(errorSentence(new PageOutOfRangeError("contributors", "demo/crowd", 4, 3), IN_SERVER)).toBe(
      "Page 4 is past the end of the contributors of `demo/crowd`: there are 3 pages. Ask for `page` 1 to 3.",
    );
  });

  it("contributors: one page, and a count GitHub did not give", () => {
    expect(errorSentence(new PageOutOfRangeError("contributors", "demo/widgets", 2, 1), IN_SERVER)).toBe(
      "Page 2 is past the end of the contributors of `demo/widgets`: there is 1 page. Ask for `page` 1.",
    );
    expect(errorSentence(new PageOutOfRangeError("contributors", "demo/widgets", 2, null), IN_SERVER)).toBe(
      "Page 2 is past the end of the contributors of `demo/widgets`. Ask for a lower `page`, starting from 1.",
    );
  });

  it("repositories (paged by buttons): how many pages there are now, and how to start over", () => {
    expect(errorSentence(new PageOutOfRangeError("repositories", "bulk", 5, 3), IN_SERVER)).toBe(
      "Page 5 is past the end of the repositories of `bulk`: there are 3 pages now. Run `/repos` again to start from the first page.",
    );
  });
});

describe("checkPageInRange", () => {
  it("refuses an empty page past the last one, and nothing else", () => {
    const args = { list: "contributors" as const, subject: "demo/crowd" };
    expect(() => checkPageInRange({ ...args, page: 4, shown: 0, pages: 3 })).toThrow(PageOutOfRangeError);
    expect(() => checkPageInRange({ ...args, page: 4, shown: 0, pages: null })).toThrow(PageOutOfRangeError);
    expect(() => checkPageInRange({ ...args, page: 3, shown: 15, pages: 3 })).not.toThrow();
    // An empty first page is an empty list, which the answer itself says.
    expect(() => checkPageInRange({ ...args, page: 1, shown: 0, pages: 1 })).not.toThrow();
  });
});

/** Every user-facing error RepoScout raises, one of each kind that reads differently. */
function everyError(): UserFacingError[] {
  const at = new Date("2030-01-01T00:00:00Z");
  return [
    new InvalidOptionError("lines", "takes a line or a range, like `12` or `12-40`."),
    new AdminOnlyError("notInServer"),
    new AdminOnlyError("notManager"),
    new ExpiredComponentError("contributors"),
    new ExpiredComponentError(),
    new PrivateRepositoryError("demo/secret"),
    new PageOutOfRangeError("contributors", "demo/crowd", 4, 3),
    new PageOutOfRangeError("repositories", "bulk", 4, null),
    new MissingTokenError(),
    new DefaultShareUsedUpError("server", at, 0.2),
    new VaultKeyMissingError(),
    new VaultLockedError(),
    new TokenStoreUnavailableError("read"),
    new TokenStoreUnavailableError("write", undefined, "user"),
    new TokenChecksExhaustedError(at),
    new SettingsStoreUnavailableError({ action: "read" }),
    new SignInEndedError("refused"),
    new SignInEndedError("expired"),
    new SignInRenewalUnavailableError(),
    new SignInUnavailableError("notConfigured"),
    new SignInUnavailableError("noKey"),
    new SignInUnavailableError("deviceFlowDisabled"),
    new SignInUnavailableError("appUnknown"),
    new TokenRejectedError(),
    new GitHubUnauthorizedError(),
    new GitHubUnauthorizedError().readWith({ origin: "default", publicOnly: true }),
    new GitHubUnauthorizedError().readWith({ origin: "user", publicOnly: false }),
    new GitHubUnauthorizedError().readWith({ origin: "server", publicOnly: false }),
    new RepositoryNotFoundError(DEMO),
    readBy("user"),
    readBy("server"),
    readBy("default"),
    new OwnerNotFoundError("ghost"),
    new RefNotFoundError(DEMO, "nope"),
    new PathNotFoundError(DEMO, "src/nope.ts", undefined),
    new NotACommitError(DEMO, "main:src", { objectType: "Tree", tags: 0 }),
    new NotACommitError(DEMO, "v1", { objectType: "Blob", tags: 1 }),
    new NotACommitError(DEMO, "deep", { objectType: "Tag", tags: 3 }),
    new NotAFileError(DEMO, "src", "folder"),
    new NotAFileError(DEMO, "vendor/gearbox", "submodule"),
    new GitHubForbiddenError(DEMO),
    new GitHubForbiddenError(DEMO).readWith({ origin: "user", publicOnly: false }),
    new PrimaryRateLimitError(at),
    new SecondaryRateLimitError(at),
    new AuthLockoutError(at),
    new AuthLockoutError(at).readWith({ origin: "user", publicOnly: false }),
    new AuthLockoutError(at).readWith({ origin: "default", publicOnly: true }),
    new TooLargeError(DEMO),
    new EmptyRepositoryError(DEMO),
    new UpstreamTimeoutError(),
    new UpstreamError("server_error"),
    new UpstreamError("unreadable"),
    new UpstreamError("unreachable"),
    new BusyError("full"),
    new BusyError("waitedTooLong"),
    new BusyError("perUser"),
    new BusyError("perServer"),
  ];
}

/** Errors that only arise in a server: its token read, or its token or settings were being handled. */
function ONLY_IN_A_SERVER(error: UserFacingError): boolean {
  if (error instanceof GitHubError && error.tokenOrigin === "server") return true;
  if (error instanceof TokenStoreUnavailableError) return error.whose === "server";
  // A DM counts as the person's own server, whose bound a person's own (smaller) comes before.
  if (error instanceof BusyError) return error.reason === "perServer";
  return [
    "vault_key_missing",
    "vault_locked",
    "token_checks_exhausted",
    "settings_store_unavailable",
    "token_rejected",
  ].includes(error.code);
}

/** The words a next step starts with (SPEC section 2: every error says what to do next). */
const NEXT_STEP =
  /\b(Check|Try|Run|Ask|Use|Give|Sign in|sign in|See|an admin can|An admin can|have an admin|avoids it|takes|Ask for|ask)\b/;

describe("errorSentence: every error says what to do next (SPEC section 2)", () => {
  for (const situation of [IN_SERVER, IN_DM, { ...IN_DM, signIn: false }]) {
    it(`in ${situation === IN_SERVER ? "a server" : situation.signIn ? "a DM" : "a DM without sign-in"}`, () => {
      const failures: string[] = [];
      for (const error of everyError()) {
        const sentence = errorSentence(error, situation);
        expect(sentence, error.code).toMatch(NEXT_STEP);
        // One or two sentences: what happened, what to do.
        expect(sentence.split(/(?<=[.!?])\s+(?=[A-Z`])/).length, sentence).toBeLessThanOrEqual(2);
        expect(sentence.length, sentence).toBeLessThan(400);
        if (!situation.inServer && !ONLY_IN_A_SERVER(error)) {
          failures.push(...(/an admin can|a server token/i.test(sentence) ? [sentence] : []));
        }
        if (!situation.signIn)
          expect(sentence, error.code).not.toMatch(/sign in with `\/login`|`\/login` or/i);
      }
      expect(failures).toEqual([]);
    });
  }

  it("a submodule names where its repository is written", () => {
    expect(errorSentence(new NotAFileError(DEMO, "vendor/gearbox", "submodule"), IN_SERVER)).toBe(
      "`vendor/gearbox` in `demo/widgets` is a submodule: its files live in another repository, which `/contents path:.gitmodules` names. Ask about that repository instead.",
    );
  });

  it("no token at all: /login where sign-in is set up; in a DM, no server admin", () => {
    expect(errorSentence(new MissingTokenError(), IN_SERVER)).toBe(
      "This server has no GitHub token and the bot has no default one. An admin can run `/token set`, or sign in with `/login` to use your own GitHub account.",
    );
    expect(errorSentence(new MissingTokenError(), IN_DM)).toBe(
      "There is no GitHub token to read with here: the bot has no default one. Sign in with `/login` to use your own GitHub account.",
    );
    expect(errorSentence(new MissingTokenError(), { ...IN_DM, signIn: false })).toBe(
      "There is no GitHub token to read with here: the bot has no default one. Ask the bot's operator to set `GITHUB_TOKEN`, or use RepoScout in a server that has its own token.",
    );
  });

  it("a 401: a server admin's /token set in a server; in a DM, /login or the operator; signed in, /login again", () => {
    const byDefault = new GitHubUnauthorizedError().readWith({ origin: "default", publicOnly: true });
    expect(errorSentence(byDefault, IN_SERVER)).toBe(
      "The server's GitHub token is missing or no longer valid. An admin can run `/token set`.",
    );
    expect(errorSentence(byDefault, IN_DM)).toBe(
      "The bot's default GitHub token is no longer valid. Sign in with `/login` to use your own GitHub account, or ask the bot's operator to replace `GITHUB_TOKEN`.",
    );
    expect(errorSentence(byDefault, { ...IN_DM, signIn: false })).toBe(
      "The bot's default GitHub token is no longer valid. Ask the bot's operator to replace `GITHUB_TOKEN`.",
    );
    const own = new GitHubUnauthorizedError().readWith({ origin: "user", publicOnly: false });
    expect(errorSentence(own, IN_SERVER)).toBe(
      "GitHub no longer accepts your sign-in (it was revoked or has expired). Run `/login` to sign in again.",
    );
  });

  it("GitHub refusing someone signed in points at their own access, not at /token set", () => {
    const error = new GitHubForbiddenError(DEMO).readWith({ origin: "user", publicOnly: false });
    const sentence = errorSentence(error, IN_SERVER);
    expect(sentence).toContain("refused your GitHub account access to `demo/widgets`");
    expect(sentence).not.toMatch(/\/token set|\/login/);
  });

  it("the default token's rate limit: when, and that /login brings your own budget", () => {
    const error = new PrimaryRateLimitError(new Date(1_900_000_000_000)).readWith({
      origin: "default",
      publicOnly: true,
    });
    expect(errorSentence(error, IN_SERVER)).toBe(
      "GitHub's rate limit for the token in effect is used up. Try again <t:1900000000:R>, or sign in with `/login` to read with your own budget.",
    );
  });

  it("an admin command in a DM or without Manage Server says where and who", () => {
    expect(errorSentence(new AdminOnlyError("notInServer"), IN_DM)).toBe(
      "This command works in a server only, not in direct messages. Run it in a channel of the server.",
    );
    expect(errorSentence(new AdminOnlyError("notManager"), IN_SERVER)).toBe(
      "Only members with the Manage Server permission can use this command. Ask a server admin to run it.",
    );
  });

  it("an error it does not know still reads as a line with a next step, naming its code", () => {
    class NewError extends UserFacingError {
      readonly code = "something_new";
    }
    expect(errorSentence(new NewError(), IN_SERVER)).toBe(
      "RepoScout could not answer (`something_new`). Try again; if it keeps happening, tell the bot's operator.",
    );
  });
});
