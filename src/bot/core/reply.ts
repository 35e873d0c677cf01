import {
  InteractionResponseType,
  MessageFlags,
  type APIApplicationCommandOptionChoice,
  type APIMessage,
  type APIModalInteractionResponseCallbackData,
} from "discord-api-types/v10";
import type { FormattedMessage } from "../../format/message.js";
import { toOutgoing } from "./messagePayload.js";
import type { Responder } from "./responder.js";

/** A follow-up past what Discord takes for the interaction: a bug of the bot, caught before Discord's 40094. */
export class FollowUpLimitError extends Error {
  constructor(readonly limit: number) {
    super(`this interaction takes at most ${limit} follow-ups (a user install's limit)`);
    this.name = "FollowUpLimitError";
  }
}

/** How the first response deferred the answer, if it did. */
export type Deferral = "public" | "ephemeral" | "update" | null;

/**
 * The state of one interaction's reply over its {@link Responder}: whether the first response
 * went out and how, so that what comes next uses the route Discord allows (a second first
 * response is refused with 40060). State changes only once Discord took the response, so a
 * refused first response (10062) leaves the reply unacknowledged.
 */
export class InteractionReply {
  private deferralKind: Deferral = null;
  private repliedAlready = false;
  /**
   * How the interaction ended when it did not end with its answer: an error the asker can act on
   * (`user_error`: no such repository, a bad option, GitHub refusing), a failure of the bot's own
   * (`error`: what an operator's alert fires on), the bot too busy to take it (`busy`), or Discord
   * no longer taking a response (`expired`). Metrics.
   */
  outcome: "user_error" | "error" | "busy" | "expired" | undefined;
  /**
   * Follow-ups Discord takes for this interaction: 5 where only a user install serves it
   * (DISCORD-FACTS, "Installation contexts"), else no limit the bot could reach.
   */
  followUpLimit = Number.POSITIVE_INFINITY;
  private followUpsSent = 0;

  constructor(private readonly responder: Responder) {}

  /** The first response was a deferral. */
  get deferred(): boolean {
    return this.deferralKind !== null;
  }

  /** How it was deferred: a public or ephemeral "thinking…", or a component's silent update. */
  get deferral(): Deferral {
    return this.deferralKind;
  }

  /** The first response went out, whatever it was. */
  get acknowledged(): boolean {
    return this.deferralKind !== null || this.repliedAlready;
  }

  /** A message as the first response; `wantMessage` returns the message it made. */
  async reply(
    message: FormattedMessage,
    options: { ephemeral?: boolean; wantMessage?: boolean } = {},
  ): Promise<APIMessage | null> {
    const { body, files } = toOutgoing(message, options);
    const made = await this.responder.respond(
      { type: InteractionResponseType.ChannelMessageWithSource, data: body },
      files,
      { wantMessage: options.wantMessage ?? false },
    );
    this.repliedAlready = true;
    if (!options.wantMessage) return made;
    return made ?? (await this.responder.original());
  }

  /** "RepoScout is thinking…": the answer follows by editing it (or, ephemeral, to the asker). */
  async deferReply(options: { ephemeral?: boolean } = {}): Promise<void> {
    await this.responder.respond(
      {
        type: InteractionResponseType.DeferredChannelMessageWithSource,
        data: options.ephemeral ? { flags: MessageFlags.Ephemeral } : {},
      },
      [],
    );
    this.deferralKind = options.ephemeral ? "ephemeral" : "public";
  }

  /** A component's acknowledgement: the message it is on is edited later. */
  async deferUpdate(): Promise<void> {
    await this.responder.respond({ type: InteractionResponseType.DeferredMessageUpdate }, []);
    this.deferralKind = "update";
  }

  /** A component's first response: the new content of the message it is on. */
  async update(message: FormattedMessage): Promise<void> {
    const { body, files } = toOutgoing(message);
    await this.responder.respond({ type: InteractionResponseType.UpdateMessage, data: body }, files);
    this.repliedAlready = true;
  }

  async showModal(modal: APIModalInteractionResponseCallbackData): Promise<void> {
    await this.responder.respond({ type: InteractionResponseType.Modal, data: modal }, []);
    this.repliedAlready = true;
  }

  async autocomplete(choices: APIApplicationCommandOptionChoice[]): Promise<void> {
    await this.responder.respond(
      { type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices } },
      [],
    );
    this.repliedAlready = true;
  }

  /** Replaces the original response (or fills in a deferral). */
  editReply(message: FormattedMessage): Promise<APIMessage> {
    return this.responder.editOriginal(toOutgoing(message));
  }

  deleteReply(): Promise<void> {
    return this.responder.deleteOriginal();
  }

  /** @throws FollowUpLimitError past {@link followUpLimit}, sending nothing (Discord would answer 40094). */
  async followUp(message: FormattedMessage, options: { ephemeral?: boolean } = {}): Promise<APIMessage> {
    if (this.followUpsSent >= this.followUpLimit) throw new FollowUpLimitError(this.followUpLimit);
    this.followUpsSent += 1;
    return this.responder.followUp(toOutgoing(message, options));
  }

  /** The transport's responder, for what is not a reply (threads). */
  get via(): Responder {
    return this.responder;
  }
}
