/**
 * The two kinds of error RepoScout knows (STYLE.md habit 4).
 *
 * A {@link UserFacingError} carries the one or two sentences the user reads, and says what to do
 * next. Anything else is a bug or an unforeseen upstream answer: it is logged with an error id and
 * the user reads a generic line carrying that id. One place (the bot's router) turns errors into
 * replies.
 */
export abstract class UserFacingError extends Error {
  /** A stable machine name of the condition, for logs and tests. */
  abstract readonly code: string;

  /** @param userMessage what the user reads, already phrased for Discord (no raw upstream text). */
  constructor(
    readonly userMessage: string,
    options?: { cause?: unknown },
  ) {
    super(userMessage, options);
    this.name = new.target.name;
  }
}

/** A command option that is not of the form it takes. Nothing has been sent upstream. */
export class InvalidOptionError extends UserFacingError {
  readonly code = "invalid_option";

  /**
   * @param option the option's name as the user typed it (`repo`, `lines`...)
   * @param problem what is wrong and the form the option takes
   */
  constructor(
    readonly option: string,
    problem: string,
  ) {
    super(`The \`${option}\` option ${problem}`);
  }
}

/** The member may not use an admin command here (no Manage Server, or a DM). */
export class AdminOnlyError extends UserFacingError {
  readonly code = "admin_only";
}

/** A button or modal whose state is gone (an old message, a restart, an expired key). */
export class ExpiredComponentError extends UserFacingError {
  readonly code = "expired_component";
  constructor(command?: string) {
    super(`This button has expired. Run ${command ? `\`/${command}\`` : "the command"} again.`);
  }
}

/** Returns true when `error` is a {@link UserFacingError}. */
export function isUserFacingError(error: unknown): error is UserFacingError {
  return error instanceof UserFacingError;
}
