/**
 * The two kinds of error RepoScout knows (STYLE.md habit 4).
 *
 * A {@link UserFacingError} is data: a stable `code` and the facts of the condition (the
 * repository, path, option or time it is about), never a sentence. What the user reads is derived
 * from those facts in one place, `src/format/errorSentence.ts`, which also says what to do next.
 * Anything else is a bug or an unforeseen upstream answer: it is logged with an error id and the
 * user reads a generic line carrying that id. One place (the bot's router) turns errors into
 * replies.
 */
export abstract class UserFacingError extends Error {
  /** A stable machine name of the condition, for logs, tests and the choice of sentence. */
  abstract readonly code: string;

  constructor(options?: { cause?: unknown }) {
    super(new.target.name, options);
    this.name = new.target.name;
    // Error's own message is for developers (a test's failure, a stack): the code and the plain
    // facts, read when asked, since subclasses set their fields after this constructor.
    Object.defineProperty(this, "message", {
      configurable: true,
      enumerable: false,
      get: () => describeFacts(this),
    });
  }
}

function describeFacts(error: UserFacingError): string {
  // Object.keys, not Object.entries: this getter runs while V8 formats the error's stack, and
  // Object.entries reads the stack's descriptor then, which cost 4 ms an error (a flood of
  // refusals, each a BusyError whose facts are logged, held the event loop for seconds).
  const record = error as unknown as Record<string, unknown>;
  const facts = Object.keys(error)
    .map((key): [string, unknown] => [key, record[key]])
    .filter(
      ([key, value]) =>
        !["code", "name", "cause"].includes(key) && ["string", "number", "boolean"].includes(typeof value),
    )
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  return facts.length > 0 ? `${error.code} (${facts.join(", ")})` : error.code;
}

/** A command option that is not of the form it takes. Nothing has been sent upstream. */
export class InvalidOptionError extends UserFacingError {
  readonly code = "invalid_option";

  /**
   * @param option the option's name as the user typed it (`repo`, `lines`...)
   * @param problem what is wrong and the form the option takes, as the end of a sentence that
   *   begins "The `option` option" (`takes a whole number from 1.`): the parser of the option is
   *   what knows its form
   */
  constructor(
    readonly option: string,
    readonly problem: string,
  ) {
    super();
  }
}

/** The member may not use an admin command here: in a DM, or without Manage Server. */
export class AdminOnlyError extends UserFacingError {
  readonly code = "admin_only";
  constructor(readonly reason: "notInServer" | "notManager") {
    super();
  }
}

/** A button or modal whose state is gone (an old message, a restart, an expired key). */
export class ExpiredComponentError extends UserFacingError {
  readonly code = "expired_component";
  /** @param command the command to run again, when known (`contributors`). */
  constructor(readonly command?: string) {
    super();
  }
}

/** Someone other than the author (and without Manage Messages) pressed an automatic preview's Dismiss. */
export class DismissRefusedError extends UserFacingError {
  readonly code = "dismiss_refused";
}

/**
 * A message menu was used on a message holding no file link of the configured GitHub host.
 * Nothing has been sent upstream.
 */
/** `Preview links` on a message that holds no GitHub link it can answer. */
export class NoGitHubLinkError extends UserFacingError {
  readonly code = "no_github_link";
  /**
   * @param otherHost the host of a link the message holds on another service, if any
   * @param bareReference the message holds a bare `#123` and the server has no default repository
   */
  constructor(
    readonly otherHost: string | undefined,
    readonly bareReference: boolean,
  ) {
    super();
  }
}

export class NoFileLinkError extends UserFacingError {
  readonly code = "no_file_link";
  /**
   * @param otherHost the host of a link the message holds on another service (`gitlab.com`), if any
   * @param notFile the message links to a repository or a folder of the GitHub host, not a file
   */
  constructor(
    readonly otherHost: string | undefined,
    readonly notFile: boolean,
  ) {
    super();
  }
}

/** Returns true when `error` is a {@link UserFacingError}. */
export function isUserFacingError(error: unknown): error is UserFacingError {
  return error instanceof UserFacingError;
}
