import { InteractionResponseType, MessageFlags, MessageType } from "discord-api-types/v10";
import { ephemeralIfForced } from "../interactionResponse.js";
import { createMessage, deleteMessage, editMessage, messageSnapshot } from "../messages.js";
import { restErrors } from "../restErrors.js";
import type { RouteContext, RouteDefinition, RouteResult } from "../router.js";
import type { InteractionState, StoredMessage } from "../state.js";
import { checkMessageBody } from "./messageChecks.js";

/** Follow-ups a user-installed app may create per interaction where it is not installed to the server. */
const USER_INSTALL_FOLLOWUPS = 5;

/**
 * The interaction behind a webhook route's token. The token lives 15 minutes (401 50027 after);
 * it is a webhook only once the interaction was acknowledged with a message-bearing response.
 */
function interactionOf(context: RouteContext): InteractionState {
  const { state, params } = context;
  const interaction = state.interactionsByToken.get(params.webhook_token ?? "");
  if (!interaction || params.webhook_id !== state.applicationId) throw restErrors.unknownWebhook();
  context.relate(interaction.id);
  if (Date.now() > interaction.expiresAt) throw restErrors.invalidWebhookToken();
  if (
    !interaction.response ||
    interaction.response.type === InteractionResponseType.ApplicationCommandAutocompleteResult
  ) {
    throw restErrors.unknownWebhook();
  }
  return interaction;
}

/** The message a webhook message route names: `@original`, or the id of the original or a follow-up. */
function messageOf(context: RouteContext, interaction: InteractionState): StoredMessage {
  const requested = context.params.message_id ?? "";
  const id = requested === "@original" ? interaction.originalMessageId : requested;
  const own = id !== null && (id === interaction.originalMessageId || interaction.followupIds.includes(id));
  const message = own && id ? context.state.messages.get(id) : undefined;
  if (!message || message.deleted) throw restErrors.unknownMessage();
  return message;
}

function getMessage(context: RouteContext): RouteResult {
  const interaction = interactionOf(context);
  return { status: 200, body: messageSnapshot(messageOf(context, interaction), context.state) };
}

function patchMessage(context: RouteContext): RouteResult {
  const interaction = interactionOf(context);
  const message = messageOf(context, interaction);
  const fields = checkMessageBody(context.body, [], context.uploads, message);
  editMessage(context.state, message, fields, context.uploads, "webhook");
  if (message.id === interaction.originalMessageId) interaction.originalEdits++;
  return { status: 200, body: messageSnapshot(message, context.state) };
}

function deleteWebhookMessage(context: RouteContext): RouteResult {
  const interaction = interactionOf(context);
  deleteMessage(context.state, messageOf(context, interaction));
  return { status: 204 };
}

/**
 * A follow-up (`POST /webhooks/{app}/{token}`; `wait` is always true for interactions). The first
 * follow-up after a deferral takes the place of the "is thinking..." placeholder, keeping the
 * deferral's ephemeral state whatever its own flags say; later ones, and one after the placeholder
 * was deleted, are new messages.
 */
function followUp(context: RouteContext): RouteResult {
  const { state } = context;
  const interaction = interactionOf(context);
  const original = interaction.originalMessageId
    ? state.messages.get(interaction.originalMessageId)
    : undefined;
  const fields = checkMessageBody(context.body, [], context.uploads, null);
  if (
    interaction.response?.type === InteractionResponseType.DeferredChannelMessageWithSource &&
    original?.loading &&
    // A deleted placeholder is gone: Discord then sends the follow-up as a new message (it
    // answered 10008 "Unknown Message" here once, fixed in 2021: discord-api-docs#2739).
    !original.deleted
  ) {
    editMessage(state, original, fields, context.uploads, "webhook");
    interaction.followupIds.push(original.id);
    interaction.followupReplacedOriginal = true;
    return { status: 200, body: messageSnapshot(original, state) };
  }
  // A user-installed app where it is not installed to the server gets 5 follow-ups per interaction.
  const created = interaction.followupIds.length - (interaction.followupReplacedOriginal ? 1 : 0);
  if (interaction.userInstallOnly && created >= USER_INSTALL_FOLLOWUPS) throw restErrors.tooManyFollowups();
  const flags = ephemeralIfForced(interaction, typeof fields.flags === "number" ? fields.flags : 0);
  const message = createMessage(state, {
    channelId: interaction.channelId,
    author: state.bot,
    body: fields,
    uploads: context.uploads,
    via: "webhook",
    type: MessageType.Default,
    ephemeral: (flags & MessageFlags.Ephemeral) !== 0,
    interaction,
  });
  interaction.followupIds.push(message.id);
  return { status: 200, body: messageSnapshot(message, state) };
}

/** Interaction webhooks: follow-ups and the original response / follow-up messages by id. */
export const webhookRoutes: RouteDefinition[] = [
  {
    method: "POST",
    template: "/webhooks/:webhook_id/:webhook_token",
    auth: "none",
    major: "webhook",
    handler: followUp,
  },
  {
    method: "GET",
    template: "/webhooks/:webhook_id/:webhook_token/messages/:message_id",
    auth: "none",
    major: "webhook",
    handler: getMessage,
  },
  {
    method: "PATCH",
    template: "/webhooks/:webhook_id/:webhook_token/messages/:message_id",
    auth: "none",
    major: "webhook",
    handler: patchMessage,
  },
  {
    method: "DELETE",
    template: "/webhooks/:webhook_id/:webhook_token/messages/:message_id",
    auth: "none",
    major: "webhook",
    handler: deleteWebhookMessage,
  },
];
