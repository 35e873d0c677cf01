import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ChannelType,
  ComponentType,
  InteractionContextType,
  InteractionType,
  type APIInteraction,
  type APIInteractionResponse,
  type APIMessage,
} from "discord-api-types/v10";
import type { CommandAnswer, CommandModule } from "../../../src/bot/commandModule.js";
import type { OutgoingMessage, Responder } from "../../../src/bot/core/responder.js";
import type { Services } from "../../../src/bot/services.js";

/** One call the core made, in order. */
export type ResponderCall =
  | { kind: "respond"; response: APIInteractionResponse }
  | { kind: "editOriginal" | "followUp"; message: OutgoingMessage }
  | { kind: "deleteOriginal" | "original" }
  | { kind: "startThread"; name: string }
  | { kind: "sendToChannel"; channelId: string; message: OutgoingMessage };

/**
 * A responder that records what the core says, as Discord would take it; `refuse` makes one kind
 * of call fail as Discord refuses it.
 */
export function recordingResponder(refuse: Partial<Record<ResponderCall["kind"], unknown>> = {}) {
  const calls: ResponderCall[] = [];
  const message = (id: string): APIMessage => ({ id }) as APIMessage;
  const record = async <T>(call: ResponderCall, result: T): Promise<T> => {
    calls.push(call);
    if (refuse[call.kind] !== undefined) throw refuse[call.kind];
    return result;
  };
  const responder: Responder = {
    respond: (response) => record({ kind: "respond", response }, null),
    editOriginal: (sent) => record({ kind: "editOriginal", message: sent }, message("original")),
    deleteOriginal: () => record({ kind: "deleteOriginal" }, undefined),
    original: () => record({ kind: "original" }, message("original")),
    followUp: (sent) => record({ kind: "followUp", message: sent }, message("followup")),
    startThread: (_channel, messageId, name) =>
      record({ kind: "startThread", name }, { id: messageId } as never),
    sendToChannel: (channelId, sent) =>
      record({ kind: "sendToChannel", channelId, message: sent }, message("in-thread")),
  };
  return { responder, calls };
}

/** Services as far as the core reads them: no threads by default, no private answers in channels. */
export function coreServices(): Services {
  return {
    config: { github: { oauth: {}, webUrl: "https://github.com" }, discord: { messageContent: false } },
    settings: {
      getThreads: async () => false,
      getPrivateAnswersInChannel: async () => false,
    },
  } as unknown as Services;
}

/** A command whose answer is `text`, after `delayMs`; or that throws `error`. */
export function echoCommand(
  options: { delayMs?: number; error?: Error; customIdPrefix?: string } = {},
): CommandModule {
  const answer = async (): Promise<CommandAnswer> => {
    await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
    if (options.error) throw options.error;
    return {
      message: {
        content: "the answer",
        embeds: [],
        components: [],
        files: [],
        allowedMentions: { parse: [] },
      },
    };
  };
  return {
    data: { name: "echo", description: "Answers" },
    customIdPrefixes: [options.customIdPrefix ?? "echo"],
    parse: (raw) => raw,
    execute: answer,
    button: answer,
  };
}

const GUILD = "81384788765712384";
const CHANNEL = "81384788765712385";

/**
 * A slash command payload in a server's text channel, sent now: by member 2, or `userId`; its id's
 * low bits are `sequence` (ids of the same millisecond differ by it).
 */
export function slashPayload(
  name = "echo",
  options: { userId?: string; sequence?: number } = {},
): APIInteraction {
  return {
    id: String((BigInt(Date.now() - 1_420_070_400_000) << 22n) | BigInt((options.sequence ?? 1) % 4_096)),
    application_id: "1",
    token: "interaction-token",
    type: InteractionType.ApplicationCommand,
    version: 1,
    guild_id: GUILD,
    channel: { id: CHANNEL, type: ChannelType.GuildText },
    channel_id: CHANNEL,
    member: {
      user: {
        id: options.userId ?? "2",
        username: "member",
        discriminator: "0",
        global_name: null,
        avatar: null,
      },
      permissions: "0",
      roles: [],
      joined_at: "2020-01-01T00:00:00.000Z",
      deaf: false,
      mute: false,
      flags: 0,
    },
    app_permissions: "0",
    locale: "en-US",
    context: InteractionContextType.Guild,
    entitlements: [],
    authorizing_integration_owners: {},
    attachment_size_limit: 10_000_000,
    data: {
      id: "3",
      name,
      type: ApplicationCommandType.ChatInput,
      options: [{ type: ApplicationCommandOptionType.String, name: "text", value: "hi" }],
    },
  } as unknown as APIInteraction;
}

/** A button press on a public message of the bot. */
export function buttonPayload(customId: string): APIInteraction {
  const base = slashPayload() as unknown as Record<string, unknown>;
  return {
    ...base,
    type: InteractionType.MessageComponent,
    message: { id: "9", flags: 0 },
    data: { custom_id: customId, component_type: ComponentType.Button },
  } as unknown as APIInteraction;
}

/** An autocomplete payload for `echo`'s `text` option. */
export function autocompletePayload(): APIInteraction {
  const base = slashPayload() as unknown as Record<string, unknown>;
  return {
    ...base,
    type: InteractionType.ApplicationCommandAutocomplete,
    data: {
      id: "3",
      name: "echo",
      type: ApplicationCommandType.ChatInput,
      options: [{ type: ApplicationCommandOptionType.String, name: "text", value: "h", focused: true }],
    },
  } as unknown as APIInteraction;
}
