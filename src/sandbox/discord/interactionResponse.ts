import {
  ApplicationCommandType,
  InteractionResponseType,
  InteractionType,
  MessageFlags,
  MessageType,
  type APIModalInteractionResponseCallbackData,
  type APIApplicationCommandOptionChoice,
} from "discord-api-types/v10";
import { cloneJson, isRecord, merged, type JsonObject } from "./json.js";
import { createMessage, editMessage, messageSnapshot } from "./messages.js";
import { FormErrors, restErrors } from "./restErrors.js";
import { checkMessageBody } from "./routes/messageChecks.js";
import type { CallbackRecord, DiscordState, InteractionState, StoredMessage, UploadedFile } from "./state.js";
import { validateAutocompleteResult, validateModal } from "./validation.js";

/** Which first responses each interaction type accepts. */
function allowedResponses(interaction: InteractionState): InteractionResponseType[] {
  switch (interaction.type) {
    case InteractionType.ApplicationCommand:
      return [
        InteractionResponseType.ChannelMessageWithSource,
        InteractionResponseType.DeferredChannelMessageWithSource,
        InteractionResponseType.Modal,
      ];
    case InteractionType.MessageComponent:
      return [
        InteractionResponseType.ChannelMessageWithSource,
        InteractionResponseType.DeferredChannelMessageWithSource,
        InteractionResponseType.DeferredMessageUpdate,
        InteractionResponseType.UpdateMessage,
        InteractionResponseType.Modal,
      ];
    case InteractionType.ApplicationCommandAutocomplete:
      return [InteractionResponseType.ApplicationCommandAutocompleteResult];
    case InteractionType.ModalSubmit:
      // A modal cannot answer a modal; updating a message needs the modal to come from one.
      return interaction.sourceMessageId
        ? [
            InteractionResponseType.ChannelMessageWithSource,
            InteractionResponseType.DeferredChannelMessageWithSource,
            InteractionResponseType.DeferredMessageUpdate,
            InteractionResponseType.UpdateMessage,
          ]
        : [
            InteractionResponseType.ChannelMessageWithSource,
            InteractionResponseType.DeferredChannelMessageWithSource,
          ];
    default:
      return [];
  }
}

/** Discord numbers the components of a modal when it shows it; submissions carry those ids. */
function numberModal(data: JsonObject): APIModalInteractionResponseCallbackData {
  let next = 1;
  const visit = (component: unknown): unknown => {
    if (!isRecord(component)) return component;
    const copy: JsonObject = merged(component, {
      id: typeof component.id === "number" ? component.id : next,
    });
    next = Math.max(next, copy.id as number) + 1;
    if (Array.isArray(copy.components)) copy.components = copy.components.map(visit);
    if (isRecord(copy.component)) copy.component = visit(copy.component);
    return copy;
  };
  const copy = cloneJson(data);
  copy.components = Array.isArray(copy.components) ? copy.components.map(visit) : [];
  return copy as unknown as APIModalInteractionResponseCallbackData;
}

function sourceMessage(state: DiscordState, interaction: InteractionState): StoredMessage {
  const message = interaction.sourceMessageId ? state.messages.get(interaction.sourceMessageId) : undefined;
  if (!message || message.deleted) throw restErrors.unknownMessage();
  return message;
}

/**
 * Discord sets the ephemeral flag itself on the responses of a user-installed app where the
 * invoker may not use external apps (DISCORD-FACTS "Installation contexts").
 */
export function ephemeralIfForced(interaction: InteractionState, flags: number): number {
  return interaction.forcedEphemeral ? flags | MessageFlags.Ephemeral : flags;
}

/**
 * The type of the message a first response makes: a slash command's reply is CHAT_INPUT_COMMAND
 * (20), a user or message command's CONTEXT_MENU_COMMAND (23), any other interaction's DEFAULT.
 */
function responseMessageType(interaction: InteractionState): MessageType {
  const payload = interaction.payload;
  if (payload.type !== InteractionType.ApplicationCommand) return MessageType.Default;
  return payload.data.type === ApplicationCommandType.ChatInput
    ? MessageType.ChatInputCommand
    : MessageType.ContextMenuCommand;
}

/** A first response as it arrived: the callback route's body, or the body of the HTTP reply. */
export interface FirstResponse {
  body: unknown;
  uploads: readonly UploadedFile[];
  /** `?with_response=true`: answer the callback response object. */
  withResponse: boolean;
  via: CallbackRecord["via"];
}

/**
 * The first and only response to an interaction (the callback route, or the HTTP reply of an
 * interactions endpoint): within the response deadline (3 s), of a type the interaction accepts,
 * with a body within Discord's limits.
 * @returns 204, or 200 with the callback response object when `withResponse`.
 * @throws DiscordRestError as Discord answers (40060, 10062, 50035, ...).
 */
export function acceptFirstResponse(
  state: DiscordState,
  interaction: InteractionState,
  input: FirstResponse,
): { status: number; body?: unknown } {
  if (interaction.response) throw restErrors.alreadyAcknowledged();
  // The deadline is the last moment: a response that arrives at it is already too late.
  if (Date.now() >= interaction.deadlineAt) throw restErrors.unknownInteraction();

  const errors = new FormErrors();
  const body = isRecord(input.body) ? input.body : {};
  const type = body.type;
  if (type === undefined || type === null) {
    errors.add(["type"], "BASE_TYPE_REQUIRED", "This field is required");
    errors.throwIfAny();
  }
  const allowed = allowedResponses(interaction);
  if (typeof type !== "number" || !allowed.includes(type)) {
    errors.add(["type"], "BASE_TYPE_CHOICES", `Value must be one of {${allowed.join(", ")}}.`);
    errors.throwIfAny();
  }
  const responseType = type as InteractionResponseType;
  const data = body.data;
  let message: StoredMessage | null = null;
  switch (responseType) {
    case InteractionResponseType.ChannelMessageWithSource: {
      const fields = checkMessageBody(data, ["data"], input.uploads, null);
      const flags = ephemeralIfForced(interaction, typeof fields.flags === "number" ? fields.flags : 0);
      message = createMessage(state, {
        channelId: interaction.channelId,
        author: state.bot,
        body: fields,
        uploads: input.uploads,
        via: "callback",
        type: responseMessageType(interaction),
        ephemeral: (flags & MessageFlags.Ephemeral) !== 0,
        interaction,
      });
      interaction.originalMessageId = message.id;
      break;
    }
    case InteractionResponseType.DeferredChannelMessageWithSource: {
      const asked = isRecord(data) ? data.flags : undefined;
      // A deferral takes the ephemeral flag alone: the rest of a message is decided by its edit.
      if (asked !== undefined && asked !== null && asked !== 0 && asked !== MessageFlags.Ephemeral) {
        errors.add(
          ["data", "flags"],
          "BASE_TYPE_CHOICES",
          `Value must be one of {0, ${MessageFlags.Ephemeral}}.`,
        );
        errors.throwIfAny();
      }
      const flags = ephemeralIfForced(interaction, typeof asked === "number" ? asked : 0);
      const ephemeral = (flags & MessageFlags.Ephemeral) !== 0;
      message = createMessage(state, {
        channelId: interaction.channelId,
        author: state.bot,
        body: {},
        uploads: [],
        via: "callback",
        type: responseMessageType(interaction),
        ephemeral,
        loading: true,
        interaction,
      });
      interaction.originalMessageId = message.id;
      interaction.deferredEphemeral = ephemeral;
      break;
    }
    case InteractionResponseType.DeferredMessageUpdate: {
      interaction.originalMessageId = sourceMessage(state, interaction).id;
      break;
    }
    case InteractionResponseType.UpdateMessage: {
      const source = sourceMessage(state, interaction);
      const fields = checkMessageBody(data, ["data"], input.uploads, source);
      editMessage(state, source, fields, input.uploads, "callback");
      interaction.originalMessageId = source.id;
      message = source;
      break;
    }
    case InteractionResponseType.ApplicationCommandAutocompleteResult: {
      validateAutocompleteResult(errors, data, ["data"]);
      errors.throwIfAny();
      const choices = isRecord(data) && Array.isArray(data.choices) ? data.choices : [];
      interaction.choices = cloneJson(choices) as APIApplicationCommandOptionChoice[];
      break;
    }
    case InteractionResponseType.Modal: {
      validateModal(errors, data, ["data"]);
      errors.throwIfAny();
      interaction.modal = numberModal(data as JsonObject);
      break;
    }
    default:
      break;
  }
  const at = Date.now();
  interaction.response = { type: responseType, at };
  const withResponse = input.withResponse;
  interaction.callbacks.push({
    type: responseType,
    data: data === undefined ? undefined : cloneJson(data),
    at,
    withResponse,
    via: input.via,
  });
  if (!withResponse) return { status: 204 };
  return {
    status: 200,
    body: {
      interaction: {
        id: interaction.id,
        type: interaction.type,
        ...(message
          ? {
              response_message_id: message.id,
              response_message_loading: message.loading,
              response_message_ephemeral: message.ephemeral,
            }
          : {}),
      },
      resource: {
        type: responseType,
        ...(message ? { message: messageSnapshot(message, state) } : {}),
      },
    },
  };
}
