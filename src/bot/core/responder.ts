import {
  Routes,
  type RESTPostAPIInteractionCallbackWithResponseResult,
  type APIInteractionResponse,
  type APIMessage,
  type APIThreadChannel,
  type RESTPostAPIChannelMessageJSONBody,
  type Snowflake,
} from "discord-api-types/v10";
import type { RawFile, REST } from "discord.js";
import type { CallbackRoute } from "./callbackRoute.js";
import { encodedResponse } from "./messagePayload.js";

/** A message body for Discord's REST routes, with its uploads (`attachments[n]` names `files[n]`). */
export interface OutgoingMessage {
  body: RESTPostAPIChannelMessageJSONBody & { flags?: number };
  files: RawFile[];
}

/**
 * Everything the core says to Discord about one interaction. The first response is the
 * transport's (the callback route over the gateway, the HTTP reply over HTTP); the rest uses the
 * interaction's webhook routes (token auth, not counted in the bot's global limit) and, for
 * threads, the channel routes with the bot's own auth.
 */
export interface Responder {
  /**
   * The first response. With `wantMessage`, resolves to the message it created when the
   * transport can tell at once (else null: read it with {@link Responder.original}).
   */
  respond(
    response: APIInteractionResponse,
    files: readonly RawFile[],
    options?: { wantMessage?: boolean },
  ): Promise<APIMessage | null>;
  editOriginal(message: OutgoingMessage): Promise<APIMessage>;
  deleteOriginal(): Promise<void>;
  original(): Promise<APIMessage>;
  followUp(message: OutgoingMessage): Promise<APIMessage>;
  /** Starts a public thread from a message (its id becomes the thread's). */
  startThread(channelId: Snowflake, messageId: Snowflake, name: string): Promise<APIThreadChannel>;
  sendToChannel(channelId: Snowflake, message: OutgoingMessage): Promise<APIMessage>;
}

/** The ids a responder needs of an interaction. */
export interface InteractionIds {
  id: Snowflake;
  token: string;
  application_id: Snowflake;
}

/** The two REST clients: one with the bot's token, one for interaction tokens. */
export interface DiscordRest {
  /** Authenticated as the bot (channel and thread routes). */
  bot: REST;
  /**
   * Without auth, with a global budget of its own: Discord does not count interaction callbacks
   * and webhooks in the bot's 50 requests a second, so neither may wait behind it here.
   */
  interactions: REST;
  /** The first response without uploads, sent by undici itself (./callbackRoute.ts). */
  callbacks: CallbackRoute;
}

/**
 * `given` with another first response, its other routes as they are. Written out rather than
 * spread (`{ ...given, respond }`): in Node 20's V8 an object that starts as a copy of another's
 * properties and then gets more of its own survives young collections, with everything it reaches
 * (see eslint.config.js). Each interaction makes one or two of these.
 */
export function withFirstResponse(given: Responder, respond: Responder["respond"]): Responder {
  return {
    respond,
    editOriginal: given.editOriginal,
    deleteOriginal: given.deleteOriginal,
    original: given.original,
    followUp: given.followUp,
    startThread: given.startThread,
    sendToChannel: given.sendToChannel,
  };
}

/**
 * The responder over Discord's REST routes: the first response through the callback route
 * (`with_response` when the created message is wanted), the rest through the webhook routes.
 */
export function restResponder(rest: DiscordRest, interaction: InteractionIds): Responder {
  const { id, token, application_id: applicationId } = interaction;
  const webhook = rest.interactions;
  return {
    async respond(response, files, options = {}) {
      if (files.length === 0) {
        // Without uploads, the JSON as is (a kept answer's is made once, ./messagePayload.ts),
        // sent by undici itself; REST takes what it would retry.
        const answer = (await rest.callbacks.post(
          id,
          token,
          encodedResponse(response),
          options.wantMessage === true,
        )) as RESTPostAPIInteractionCallbackWithResponseResult | undefined;
        return answer?.resource?.message ?? null;
      }
      const result = (await webhook.post(Routes.interactionCallback(id, token), {
        auth: false,
        body: response,
        files: [...files],
        ...(options.wantMessage ? { query: new URLSearchParams({ with_response: "true" }) } : {}),
      })) as RESTPostAPIInteractionCallbackWithResponseResult | undefined;
      return result?.resource?.message ?? null;
    },
    async editOriginal(message) {
      return (await webhook.patch(Routes.webhookMessage(applicationId, token, "@original"), {
        auth: false,
        body: message.body,
        files: message.files,
      })) as APIMessage;
    },
    async deleteOriginal() {
      await webhook.delete(Routes.webhookMessage(applicationId, token, "@original"), { auth: false });
    },
    async original() {
      return (await webhook.get(Routes.webhookMessage(applicationId, token, "@original"), {
        auth: false,
      })) as APIMessage;
    },
    async followUp(message) {
      return (await webhook.post(Routes.webhook(applicationId, token), {
        auth: false,
        body: message.body,
        files: message.files,
      })) as APIMessage;
    },
    async startThread(channelId, messageId, name) {
      return (await rest.bot.post(Routes.threads(channelId, messageId), {
        body: { name: name.slice(0, 100) || "answer", auto_archive_duration: 1440 },
      })) as APIThreadChannel;
    },
    async sendToChannel(channelId, message) {
      return (await rest.bot.post(Routes.channelMessages(channelId), {
        body: message.body,
        files: message.files,
      })) as APIMessage;
    },
  };
}
