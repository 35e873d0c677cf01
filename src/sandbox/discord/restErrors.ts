/** One entry of Discord's `_errors` lists. */
export interface FieldError {
  code: string;
  message: string;
}

/** Discord's nested error tree: keys are field names or array indexes, leaves hold `_errors`. */
export interface ErrorTree {
  _errors?: FieldError[];
  [key: string]: ErrorTree | FieldError[] | undefined;
}

/** The JSON body of a Discord error answer. */
export interface DiscordErrorBody {
  message: string;
  code: number;
  errors?: ErrorTree;
}

/** An answer with an error status, thrown by route handlers and turned into the HTTP reply. */
export class DiscordRestError extends Error {
  readonly status: number;
  readonly body: DiscordErrorBody;
  readonly headers: Record<string, string>;

  constructor(status: number, body: DiscordErrorBody, headers: Record<string, string> = {}) {
    super(`${status} ${body.code}: ${body.message}`);
    this.name = "DiscordRestError";
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/**
 * Collects field errors in Discord's nested shape, e.g. `embeds.0.title._errors`, so that one
 * answer reports every broken field at once, as Discord's form validation does.
 */
export class FormErrors {
  private readonly tree: ErrorTree = {};
  private count = 0;

  /** Adds an error at `path` (field names and array indexes, outermost first). */
  add(path: ReadonlyArray<string | number>, code: string, message: string): void {
    let node = this.tree;
    for (const key of path) {
      const name = String(key);
      const next = node[name];
      if (next && !Array.isArray(next)) {
        node = next;
      } else {
        const created: ErrorTree = {};
        node[name] = created;
        node = created;
      }
    }
    (node._errors ??= []).push({ code, message });
    this.count++;
  }

  /** True when no error was added. */
  get empty(): boolean {
    return this.count === 0;
  }

  /** The error tree as Discord sends it. */
  toTree(): ErrorTree {
    return this.tree;
  }

  /** Throws 400 Invalid Form Body (50035) when any error was added. */
  throwIfAny(): void {
    if (!this.empty) throw invalidFormBody(this.tree);
  }
}

/** 400 `{"code":50035,"message":"Invalid Form Body","errors":{...}}`. */
export function invalidFormBody(errors: ErrorTree): DiscordRestError {
  return new DiscordRestError(400, { message: "Invalid Form Body", code: 50035, errors });
}

/** Builds an error answer with a JSON code and message as Discord words them. */
function coded(status: number, code: number, message: string): DiscordRestError {
  return new DiscordRestError(status, { message, code });
}

/** Discord's error answers, by name; codes and messages as the API documents them. */
export const restErrors = {
  unauthorized: () => coded(401, 0, "401: Unauthorized"),
  notFound: () => coded(404, 0, "404: Not Found"),
  methodNotAllowed: () => coded(405, 0, "405: Method Not Allowed"),
  unknownApplication: () => coded(404, 10002, "Unknown Application"),
  unknownChannel: () => coded(404, 10003, "Unknown Channel"),
  unknownGuild: () => coded(404, 10004, "Unknown Guild"),
  unknownMember: () => coded(404, 10007, "Unknown Member"),
  unknownUser: () => coded(404, 10013, "Unknown User"),
  unknownMessage: () => coded(404, 10008, "Unknown Message"),
  unknownWebhook: () => coded(404, 10015, "Unknown Webhook"),
  unknownApplicationCommand: () => coded(404, 10063, "Unknown application command"),
  unknownInteraction: () => coded(404, 10062, "Unknown interaction"),
  alreadyAcknowledged: () => coded(400, 40060, "Interaction has already been acknowledged."),
  missingAccess: () => coded(403, 50001, "Missing Access"),
  cannotEditOthersMessage: () => coded(403, 50005, "Cannot edit a message authored by another user"),
  emptyMessage: () => coded(400, 50006, "Cannot send an empty message"),
  missingPermissions: () => coded(403, 50013, "Missing Permissions"),
  cannotSendInNonText: () => coded(400, 50008, "Cannot send messages in a non-text channel"),
  wrongChannelType: () => coded(400, 50024, "Cannot execute action on this channel type"),
  invalidWebhookToken: () => coded(401, 50027, "Invalid Webhook Token"),
  invalidJson: () => coded(400, 50109, "The request body contains invalid JSON."),
  requestTooLarge: () => coded(413, 40005, "Request entity too large"),
  threadAlreadyCreated: () => coded(400, 160004, "A thread has already been created for this message"),
  threadArchived: () => coded(400, 50083, "Thread is archived"),
  tooManyFollowups: () =>
    coded(400, 40094, "This interaction has hit the maximum number of follow up messages"),
  tooManyCommands: (limit: number) =>
    coded(400, 30032, `Maximum number of application commands reached (${limit})`),
  systemMessage: () => coded(400, 50021, "Cannot execute action on a system message"),
} as const;
