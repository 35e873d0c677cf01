import type {
  APIApplicationCommandOptionChoice,
  APIModalInteractionResponseCallbackData,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
  RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from "discord-api-types/v10";
import { z } from "zod";
import type { FormattedMessage } from "../format/message.js";
import type { AnswerPrivacy } from "../format/privacy.js";
import type { Logger } from "../logger.js";
import type { Services } from "./services.js";

/**
 * Options of an interaction, flattened: `{ repo: "demo/widgets", thread: true }`. A subcommand
 * arrives as `subcommand` (and `group` for a subcommand group).
 */
export type RawOptions = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * The raw options a message command (a message menu) is given: the text of the message it was
 * used on (`data.resolved.messages[target_id].content`), read without any privileged intent.
 */
export const TARGET_MESSAGE_CONTENT = "target-message-content";

/**
 * The links of that message's embeds (their `url`, one per line): where another answer, a bot's
 * included, keeps the link it is about (RepoScout's own answers link their file and lines there).
 */
export const TARGET_MESSAGE_EMBED_LINKS = "target-message-embed-links";

/** Who asked, where: what a command may know of the interaction, without discord.js objects. */
export interface CommandRequest {
  interactionId: string;
  /**
   * The server that installed the app, where the interaction was sent: null in a DM, and where only
   * the asker's own install of the app serves it (no server token, no server setting applies).
   */
  guildId: string | null;
  channelId: string | null;
  userId: string;
  /** The member's permissions in the channel (null in a DM). */
  memberPermissions: bigint | null;
  locale: string;
  logger: Logger;
  /**
   * The last moment this interaction's reply can still be edited: Discord's interaction token lives
   * 15 minutes from the interaction; this is that, less a safety margin.
   */
  editBy: Date;
}

/** What a {@link Continuation} is given. */
export interface ContinuationContext {
  /**
   * Aborted when the bot stops: the continuation then returns at once with the message to leave
   * behind (for example "RepoScout restarted; run the command again").
   */
  signal: AbortSignal;
}

/**
 * Work that goes on after the first answer was delivered in place (a sign-in waiting for the
 * person to approve it on GitHub). What it resolves to replaces the reply (`editReply`); what it
 * throws replaces it with the error line, as any command error. It must be done by the request's
 * `editBy`, after which the reply can no longer be edited. The core runs it while the
 * interaction counts as in flight, so a stop waits for it after aborting `signal`.
 */
export type Continuation = (context: ContinuationContext) => Promise<FormattedMessage>;

/** A finished answer: the message and, for thread mode, its thread name and channel summary. */
export interface CommandAnswer {
  message: FormattedMessage;
  /** The name of the thread when the answer goes into one (1..100 characters). */
  threadName?: string;
  /** The one line posted in the channel when the answer goes into a thread. */
  summary?: string;
  /** Slash commands answered in place only: edits the reply later (see {@link Continuation}). */
  continuation?: Continuation;
  /**
   * Set when the answer holds private code (SPEC section 4): the interaction core then shows it to the asker
   * only, unless the place is already private or the server allows private answers in its
   * channels, and never starts a public thread for it. Commands declare it; the core does not
   * look into answers to guess it.
   */
  privacy?: AnswerPrivacy;
  /**
   * Private answers that come beside this public one (a message menu on links to public and private
   * repositories): delivered after it, by the private-code rule on their own (to the asker alone,
   * unless the place may show them), so the public part stays where everyone reads it.
   */
  privateRest?: CommandAnswer;
  /**
   * A button press only: remove the message the button is on (an automatic preview's Dismiss)
   * instead of replacing it; `message` is then not shown.
   */
  removeMessage?: boolean;
}

/** What a button or a modal submit may do to the message. */
export interface ComponentContext {
  request: CommandRequest;
  /** The custom id, whole. */
  customId: string;
}

/**
 * One application command: a slash command or a message command (a message menu, whose `parse` is
 * given {@link TARGET_MESSAGE_CONTENT} and {@link TARGET_MESSAGE_EMBED_LINKS}). `data` is the registration (plain discord-api-types data,
 * shared with deploy-commands.ts); `parse` turns raw options into typed arguments (zod), throwing
 * `InvalidOptionError`; `execute` does the work through services and returns an answer. The core
 * owns every Discord concern: deferral, threads, ephemeral errors.
 */
export interface CommandModule<Args = unknown> {
  data: RESTPostAPIChatInputApplicationCommandsJSONBody | RESTPostAPIContextMenuApplicationCommandsJSONBody;
  /** Replies are ephemeral (admin commands). Errors are always ephemeral. */
  ephemeral?: boolean;
  /** Manage Server is required, checked from the interaction's member permissions; refused in DMs. */
  adminOnly?: boolean;
  /** Custom id prefixes (before the first `:`) of the buttons and modals this command handles. */
  customIdPrefixes?: readonly string[];
  parse(options: RawOptions, services: Services): Args;
  /** When it returns a modal, the modal is the first response and `execute` is not called. */
  modal?(
    args: Args,
    request: CommandRequest,
    services: Services,
  ): APIModalInteractionResponseCallbackData | null;
  /**
   * Present when the answer may go into a thread (SPEC section 3): reads the `thread` option from
   * the parsed arguments (undefined when not given: the server's setting decides).
   */
  threadAsked?(args: Args): boolean | undefined;
  execute(args: Args, request: CommandRequest, services: Services): Promise<CommandAnswer>;
  /**
   * The answer `execute` would give, when all it takes is held in this process (the token in
   * effect, a public answer read lately, its buttons' states stored lately): made at once, nothing
   * awaited, so the core sends it as the first response without the steps of waiting for work
   * (issue 23). Undefined when `execute` must run. It must never differ from what `execute` gives.
   */
  answerHeld?(args: Args, request: CommandRequest, services: Services): CommandAnswer | undefined;
  autocomplete?(
    focused: { name: string; value: string },
    options: RawOptions,
    request: CommandRequest,
    services: Services,
  ): Promise<APIApplicationCommandOptionChoice[]>;
  /** A button press: the new message, replacing the one the button is on. */
  button?(context: ComponentContext, services: Services): Promise<CommandAnswer>;
  /**
   * The answer `button` would give, when all it takes is held in this process (the button's state
   * stored lately, the token in effect, a public page read lately, its own buttons' states stored
   * lately): made at once, as `answerHeld` is for `execute`. Undefined when `button` must run; it
   * must never differ from what `button` gives.
   */
  buttonHeld?(context: ComponentContext, services: Services): CommandAnswer | undefined;
  /** A modal submit: an ephemeral answer. */
  modalSubmit?(
    context: ComponentContext & { fields: Readonly<Record<string, string>> },
    services: Services,
  ): Promise<CommandAnswer>;
}

const functionSchema = z.custom<(...args: never[]) => unknown>((value) => typeof value === "function", {
  message: "must be a function",
});

/** The shape every module of `commands/` must have; checked at load, before use. */
/** Install types (0 guild, 1 user) and contexts (0 server, 1 the bot's DM, 2 other private channels). */
const installFields = {
  integration_types: z.array(z.union([z.literal(0), z.literal(1)])).min(1),
  contexts: z.array(z.union([z.literal(0), z.literal(1), z.literal(2)])).min(1),
};

const slashData = z
  .object({
    type: z.literal(1).optional(),
    name: z.string().regex(/^[-_\p{L}\p{N}]{1,32}$/u, "must be 1..32 lowercase characters"),
    description: z.string().min(1).max(100),
    options: z
      .array(z.object({ name: z.string(), description: z.string().min(1).max(100) }).loose())
      .max(25)
      .optional(),
    ...installFields,
  })
  .loose();

/** A message command: a name people read in the menu (capitals and spaces), no description, no options. */
const messageMenuData = z
  .object({
    type: z.literal(3),
    name: z
      .string()
      .regex(/^[^\s](?:.{0,30}[^\s])?$/u, "must be 1..32 characters, not starting or ending with a space"),
    description: z.never().optional(),
    options: z.never().optional(),
    ...installFields,
  })
  .loose();

export const commandModuleSchema = z.object({
  data: z.union([slashData, messageMenuData]),
  ephemeral: z.boolean().optional(),
  adminOnly: z.boolean().optional(),
  threadAsked: functionSchema.optional(),
  customIdPrefixes: z.array(z.string().min(1).max(40)).optional(),
  parse: functionSchema,
  execute: functionSchema,
  answerHeld: functionSchema.optional(),
  modal: functionSchema.optional(),
  autocomplete: functionSchema.optional(),
  button: functionSchema.optional(),
  buttonHeld: functionSchema.optional(),
  modalSubmit: functionSchema.optional(),
});
