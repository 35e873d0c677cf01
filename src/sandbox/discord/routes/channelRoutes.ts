// Over 300 lines: every channel route the bot uses, each with Discord's own checks; one route table, like Discord's reference page.
import {
  ChannelType,
  GatewayIntentBits,
  MessageFlags,
  MessageType,
  PermissionFlagsBits,
  type APIChannel,
  type APIThreadChannel,
  type ThreadAutoArchiveDuration,
} from "discord-api-types/v10";
import { canHoldThreads } from "../guildPayload.js";
import { cloneJson, isRecord, merged, type JsonObject } from "../json.js";
import { createMessage, deleteMessage, editMessage, messageSnapshot } from "../messages.js";
import { hasPermissions } from "../permissions.js";
import { FormErrors, restErrors } from "../restErrors.js";
import type { RouteContext, RouteDefinition, RouteResult } from "../router.js";
import type { DiscordState, StoredMessage } from "../state.js";
import { validateThreadBody } from "../validation.js";
import { checkMessageBody } from "./messageChecks.js";

const P = PermissionFlagsBits;

/**
 * A channel the bot can see (404 10003 when unknown, 403 50001 without View Channel). A channel of
 * a server the bot is not in, or a private channel it is not part of, is 403 50001 Missing Access,
 * as Discord answers a user-installed app there (it holds no channel access at all).
 */
function visibleChannel(context: RouteContext): APIChannel {
  const channel = context.state.requireChannel(context.params.channel_id ?? "");
  if (!context.state.botCanReach(channel)) throw restErrors.missingAccess();
  if (context.state.guildIdOf(channel) !== null) {
    const permissions = context.state.botPermissionsIn(channel.id);
    if (!hasPermissions(permissions, P.ViewChannel)) throw restErrors.missingAccess();
  }
  return channel;
}

function requirePermission(state: DiscordState, channel: APIChannel, permission: bigint): void {
  if (state.guildIdOf(channel) === null) return;
  if (!hasPermissions(state.botPermissionsIn(channel.id), permission)) throw restErrors.missingPermissions();
}

/** A message of the channel that the bot can see: ephemeral messages are nobody's but their reader's. */
function channelMessage(context: RouteContext, channel: APIChannel): StoredMessage {
  const message = context.state.messages.get(context.params.message_id ?? "");
  if (!message || message.deleted || message.ephemeral || message.channelId !== channel.id) {
    throw restErrors.unknownMessage();
  }
  return message;
}

function isTextChannel(channel: APIChannel): boolean {
  return ![
    ChannelType.GuildCategory,
    ChannelType.GuildForum,
    ChannelType.GuildMedia,
    ChannelType.GuildDirectory,
  ].includes(channel.type);
}

/** The interaction a channel message belongs to: its own, or its thread's. */
function relatedInteraction(state: DiscordState, channelId: string, message?: StoredMessage): string | null {
  return message?.interactionId ?? state.interactionOfChannel(channelId);
}

function getChannel(context: RouteContext): RouteResult {
  return { status: 200, body: cloneJson(visibleChannel(context)) };
}

function listMessages(context: RouteContext): RouteResult {
  const { state, query } = context;
  const channel = visibleChannel(context);
  // Without Read Message History Discord answers with no messages rather than an error.
  if (
    state.guildIdOf(channel) !== null &&
    !hasPermissions(state.botPermissionsIn(channel.id), P.ReadMessageHistory)
  ) {
    return { status: 200, body: [] };
  }
  const limit = query.has("limit") ? Number(query.get("limit")) : 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    const errors = new FormErrors();
    errors.add(["limit"], "NUMBER_TYPE_MAX", "int value should be between 1 and 100.");
    errors.throwIfAny();
  }
  const visible = state.messagesOf(channel.id).filter((message) => !message.ephemeral);
  const before = query.get("before");
  const after = query.get("after");
  const around = query.get("around");
  let selected: StoredMessage[];
  if (around) {
    const index = visible.findIndex((message) => BigInt(message.id) >= BigInt(around));
    const center = index < 0 ? visible.length : index;
    const start = Math.max(0, center - Math.floor(limit / 2));
    selected = visible.slice(start, start + limit);
  } else if (after) {
    selected = visible.filter((message) => BigInt(message.id) > BigInt(after)).slice(0, limit);
  } else {
    const pool = before ? visible.filter((message) => BigInt(message.id) < BigInt(before)) : visible;
    selected = pool.slice(Math.max(0, pool.length - limit));
  }
  // Newest first, as Discord lists them.
  return { status: 200, body: selected.reverse().map((message) => messageSnapshot(message, state)) };
}

function unarchiveOnPost(state: DiscordState, channel: APIChannel): void {
  if (state.isThread(channel) && channel.thread_metadata?.archived) {
    if (channel.thread_metadata.locked) throw restErrors.threadArchived();
    channel.thread_metadata.archived = false;
    channel.thread_metadata.archive_timestamp = new Date().toISOString();
  }
}

/**
 * The message a reply names (`message_reference.message_id`), checked as Discord does: replying
 * needs Read Message History; a message that is not in the channel is refused (50035
 * REPLIES_UNKNOWN_MESSAGE) unless `fail_if_not_exists: false`, which sends a plain message instead.
 * @returns the message replied to, or null for a plain message.
 */
function repliedMessage(
  state: DiscordState,
  channel: APIChannel,
  reference: JsonObject | null,
): StoredMessage | null {
  if (!reference || typeof reference.message_id !== "string") return null;
  requirePermission(state, channel, P.ReadMessageHistory);
  const target = state.messages.get(reference.message_id);
  const channelId = typeof reference.channel_id === "string" ? reference.channel_id : channel.id;
  if (
    target &&
    !target.deleted &&
    !target.ephemeral &&
    target.channelId === channel.id &&
    channelId === channel.id
  ) {
    return target;
  }
  if (reference.fail_if_not_exists === false) return null;
  const errors = new FormErrors();
  errors.add(["message_reference"], "REPLIES_UNKNOWN_MESSAGE", "Unknown message");
  errors.throwIfAny();
  return null;
}

/**
 * Whether a reply pings the author of the message it answers: always without `allowed_mentions`;
 * with it, only when `replied_user` is true (DISCORD-FACTS, "Messages from the gateway").
 */
function pingsRepliedUser(fields: JsonObject): boolean {
  if (!isRecord(fields.allowed_mentions)) return true;
  return fields.allowed_mentions.replied_user === true;
}

function postMessage(context: RouteContext): RouteResult {
  const { state } = context;
  const channel = visibleChannel(context);
  context.relate(relatedInteraction(state, channel.id));
  if (!isTextChannel(channel)) throw restErrors.cannotSendInNonText();
  requirePermission(state, channel, state.isThread(channel) ? P.SendMessagesInThreads : P.SendMessages);
  const fields = checkMessageBody(context.body, [], context.uploads, null);
  if (context.uploads.length > 0) requirePermission(state, channel, P.AttachFiles);
  const replied = repliedMessage(
    state,
    channel,
    isRecord(fields.message_reference) ? fields.message_reference : null,
  );
  unarchiveOnPost(state, channel);
  const guildId = state.guildIdOf(channel);
  const message = createMessage(state, {
    channelId: channel.id,
    author: state.bot,
    body: fields,
    uploads: context.uploads,
    via: "channel",
    type: replied ? MessageType.Reply : MessageType.Default,
    ...(replied
      ? {
          messageReference: {
            type: 0,
            message_id: replied.id,
            channel_id: channel.id,
            ...(guildId ? { guild_id: guildId } : {}),
          },
          referencedMessage: messageSnapshot(replied, state),
          ...(pingsRepliedUser(fields) && replied.api.author.id !== state.bot.id
            ? { pingedRepliedUser: replied.api.author }
            : {}),
        }
      : {}),
  });
  return { status: 200, body: messageSnapshot(message, state) };
}

function getMessage(context: RouteContext): RouteResult {
  const { state } = context;
  const channel = visibleChannel(context);
  if (
    state.guildIdOf(channel) !== null &&
    !hasPermissions(state.botPermissionsIn(channel.id), P.ReadMessageHistory)
  ) {
    throw restErrors.missingAccess();
  }
  return { status: 200, body: messageSnapshot(channelMessage(context, channel), state) };
}

function patchMessage(context: RouteContext): RouteResult {
  const { state } = context;
  const channel = visibleChannel(context);
  const message = channelMessage(context, channel);
  context.relate(relatedInteraction(state, channel.id, message));
  if (message.api.author.id !== state.bot.id) throw restErrors.cannotEditOthersMessage();
  const fields = checkMessageBody(context.body, [], context.uploads, message);
  editMessage(state, message, fields, context.uploads, "channel");
  const interaction = message.interactionId ? state.interactions.get(message.interactionId) : undefined;
  if (interaction && interaction.originalMessageId === message.id) interaction.originalEdits++;
  return { status: 200, body: messageSnapshot(message, state) };
}

function removeMessage(context: RouteContext): RouteResult {
  const { state } = context;
  const channel = visibleChannel(context);
  const message = channelMessage(context, channel);
  context.relate(relatedInteraction(state, channel.id, message));
  if (message.api.author.id !== state.bot.id) requirePermission(state, channel, P.ManageMessages);
  deleteMessage(state, message);
  return { status: 204 };
}

/** Builds a thread channel and tells the gateway (THREAD_CREATE reaches Guilds-intent bots). */
function openThread(
  state: DiscordState,
  parent: APIChannel,
  input: {
    id: string;
    name: string;
    type: ChannelType;
    duration: number;
    invitable?: boolean;
    rateLimit: number;
    starterMessageId: string | null;
  },
): APIThreadChannel {
  const now = new Date().toISOString();
  const guildId = state.guildIdOf(parent)!;
  const thread = {
    id: input.id,
    type: input.type,
    guild_id: guildId,
    parent_id: parent.id,
    owner_id: state.bot.id,
    name: input.name,
    last_message_id: null,
    rate_limit_per_user: input.rateLimit,
    message_count: 0,
    member_count: 1,
    total_message_sent: 0,
    flags: 0,
    thread_metadata: {
      archived: false,
      auto_archive_duration: input.duration as ThreadAutoArchiveDuration,
      archive_timestamp: now,
      locked: false,
      create_timestamp: now,
      ...(input.type === ChannelType.PrivateThread ? { invitable: input.invitable ?? true } : {}),
    },
  } as unknown as APIThreadChannel;
  state.channels.set(thread.id, thread);
  state.threads.set(thread.id, {
    id: thread.id,
    starterMessageId: input.starterMessageId,
    createdAt: Date.now(),
    createdBy: state.bot.id,
  });
  const member = { id: thread.id, user_id: state.bot.id, join_timestamp: now, flags: 0 };
  state.dispatch(
    "THREAD_CREATE",
    () => merged(cloneJson(thread), { newly_created: true, member }),
    GatewayIntentBits.Guilds,
    guildId,
  );
  return thread;
}

function threadFields(body: unknown, standalone: boolean): JsonObject {
  const fields = isRecord(body) ? body : {};
  const errors = new FormErrors();
  validateThreadBody(errors, fields, standalone);
  errors.throwIfAny();
  return fields;
}

/**
 * `POST /channels/{channel_id}/messages/{message_id}/threads`: a public thread whose id is the
 * message's id. Only in text and announcement channels (not DMs, not threads), only from a
 * message the bot can see (an ephemeral one is nobody's), once per message, with Create Public
 * Threads.
 */
function threadFromMessage(context: RouteContext): RouteResult {
  const { state } = context;
  const channel = visibleChannel(context);
  const fields = threadFields(context.body, false);
  if (!canHoldThreads(channel.type) || state.guildIdOf(channel) === null) throw restErrors.wrongChannelType();
  const message = channelMessage(context, channel);
  context.relate(message.interactionId);
  requirePermission(state, channel, P.CreatePublicThreads);
  if (state.threads.has(message.id)) throw restErrors.threadAlreadyCreated();
  const parentDefault =
    "default_auto_archive_duration" in channel && channel.default_auto_archive_duration
      ? channel.default_auto_archive_duration
      : 4320;
  const thread = openThread(state, channel, {
    id: message.id,
    name: String(fields.name),
    type:
      channel.type === ChannelType.GuildAnnouncement
        ? ChannelType.AnnouncementThread
        : ChannelType.PublicThread,
    duration: typeof fields.auto_archive_duration === "number" ? fields.auto_archive_duration : parentDefault,
    rateLimit: typeof fields.rate_limit_per_user === "number" ? fields.rate_limit_per_user : 0,
    starterMessageId: message.id,
  });
  message.api.flags = (message.api.flags ?? 0) | MessageFlags.HasThread;
  return { status: 201, body: cloneJson(thread) };
}

/** `POST /channels/{channel_id}/threads`: a thread without a starter message. */
function standaloneThread(context: RouteContext): RouteResult {
  const { state } = context;
  const channel = visibleChannel(context);
  const fields = threadFields(context.body, true);
  if (!canHoldThreads(channel.type) || state.guildIdOf(channel) === null) throw restErrors.wrongChannelType();
  // API v9 documented PRIVATE_THREAD as the default type; discord.js always sends one.
  const type = typeof fields.type === "number" ? (fields.type as ChannelType) : ChannelType.PrivateThread;
  if (type === ChannelType.PrivateThread && channel.type !== ChannelType.GuildText)
    throw restErrors.wrongChannelType();
  requirePermission(
    state,
    channel,
    type === ChannelType.PrivateThread ? P.CreatePrivateThreads : P.CreatePublicThreads,
  );
  const thread = openThread(state, channel, {
    id: state.nextId(),
    name: String(fields.name),
    type,
    duration: typeof fields.auto_archive_duration === "number" ? fields.auto_archive_duration : 4320,
    ...(typeof fields.invitable === "boolean" ? { invitable: fields.invitable } : {}),
    rateLimit: typeof fields.rate_limit_per_user === "number" ? fields.rate_limit_per_user : 0,
    starterMessageId: null,
  });
  if (type !== ChannelType.PrivateThread) {
    // Discord announces a public thread without a starter with a system message in the parent.
    createMessage(state, {
      channelId: channel.id,
      author: state.bot,
      body: { content: thread.name, allowed_mentions: { parse: [] } },
      uploads: [],
      via: "channel",
      type: MessageType.ThreadCreated,
      messageReference: { type: 0, channel_id: thread.id, guild_id: thread.guild_id! },
    });
  }
  return { status: 201, body: cloneJson(thread) };
}

function typing(context: RouteContext): RouteResult {
  const channel = visibleChannel(context);
  requirePermission(
    context.state,
    channel,
    context.state.isThread(channel) ? P.SendMessagesInThreads : P.SendMessages,
  );
  return { status: 204 };
}

function threadMembership(context: RouteContext): RouteResult {
  const channel = visibleChannel(context);
  if (!context.state.isThread(channel)) throw restErrors.wrongChannelType();
  return { status: 204 };
}

/** Channels, their messages, and threads. */
export const channelRoutes: RouteDefinition[] = [
  { method: "GET", template: "/channels/:channel_id", auth: "bot", major: "channel_id", handler: getChannel },
  {
    method: "GET",
    template: "/channels/:channel_id/messages",
    auth: "bot",
    major: "channel_id",
    handler: listMessages,
  },
  {
    method: "POST",
    template: "/channels/:channel_id/messages",
    auth: "bot",
    major: "channel_id",
    handler: postMessage,
  },
  {
    method: "GET",
    template: "/channels/:channel_id/messages/:message_id",
    auth: "bot",
    major: "channel_id",
    handler: getMessage,
  },
  {
    method: "PATCH",
    template: "/channels/:channel_id/messages/:message_id",
    auth: "bot",
    major: "channel_id",
    handler: patchMessage,
  },
  {
    method: "DELETE",
    template: "/channels/:channel_id/messages/:message_id",
    auth: "bot",
    major: "channel_id",
    handler: removeMessage,
  },
  {
    method: "POST",
    template: "/channels/:channel_id/messages/:message_id/threads",
    auth: "bot",
    major: "channel_id",
    handler: threadFromMessage,
  },
  {
    method: "POST",
    template: "/channels/:channel_id/threads",
    auth: "bot",
    major: "channel_id",
    handler: standaloneThread,
  },
  {
    method: "POST",
    template: "/channels/:channel_id/typing",
    auth: "bot",
    major: "channel_id",
    handler: typing,
  },
  {
    method: "PUT",
    template: "/channels/:channel_id/thread-members/@me",
    auth: "bot",
    major: "channel_id",
    handler: threadMembership,
  },
  {
    method: "DELETE",
    template: "/channels/:channel_id/thread-members/@me",
    auth: "bot",
    major: "channel_id",
    handler: threadMembership,
  },
];
