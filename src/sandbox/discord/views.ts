import type {
  APIAllowedMentions,
  APIEmbed,
  APIMessage,
  APIMessageTopLevelComponent,
  APIThreadChannel,
} from "discord-api-types/v10";
import { cloneJson } from "./json.js";
import { messageSnapshot } from "./messages.js";
import type { DiscordState, MessageWrite, StoredMessage } from "./state.js";

/** An attachment as a test reads it: name, type, size and the bytes themselves. */
export interface AttachmentView {
  id: string;
  filename: string;
  contentType: string;
  size: number;
  description: string | null;
  bytes: Buffer;
  /** The bytes as UTF-8 text (convenient for text attachments). */
  text: string;
}

/** A message as a test reads it. */
export interface MessageView {
  id: string;
  channelId: string;
  guildId: string | null;
  authorId: string;
  type: number;
  content: string;
  embeds: APIEmbed[];
  components: APIMessageTopLevelComponent[];
  flags: number;
  ephemeral: boolean;
  /** A deferred response's "is thinking..." placeholder not yet replaced. */
  loading: boolean;
  deleted: boolean;
  attachments: AttachmentView[];
  /** `allowed_mentions` as the bot sent it on the latest write (undefined: not sent). */
  allowedMentions: APIAllowedMentions | undefined;
  /** Who Discord would ping for this message. */
  pings: { everyone: boolean; users: string[]; roles: string[] };
  interactionId: string | null;
  /** The thread started from this message, if any. */
  threadId: string | null;
  createdAt: number;
  editedAt: number | null;
  /** Every create and edit, oldest first. */
  writes: MessageWrite[];
  /** The message object Discord would answer. */
  api: APIMessage;
}

/** A thread as a test reads it. */
export interface ThreadView {
  id: string;
  name: string;
  type: number;
  parentId: string | null;
  ownerId: string | null;
  autoArchiveDuration: number | null;
  /** The message it was started from (same id as the thread), or null for a standalone one. */
  starterMessageId: string | null;
  createdAt: number;
  messages: MessageView[];
  api: APIThreadChannel;
}

/** A snapshot of a stored message for tests. */
export function messageView(state: DiscordState, message: StoredMessage): MessageView {
  const thread = state.threads.get(message.id);
  // One copy of the message; its embeds and components are the copy's.
  const api = messageSnapshot(message, state);
  return {
    id: message.id,
    channelId: message.channelId,
    guildId: message.guildId,
    authorId: message.api.author.id,
    type: message.api.type,
    content: message.api.content,
    embeds: api.embeds,
    components: api.components ?? [],
    flags: message.api.flags ?? 0,
    ephemeral: message.ephemeral,
    loading: message.loading,
    deleted: message.deleted,
    attachments: message.api.attachments.map((attachment) => {
      const stored = message.files.get(attachment.id);
      const bytes = stored?.bytes ?? Buffer.alloc(0);
      return {
        id: attachment.id,
        filename: attachment.filename,
        contentType: attachment.content_type ?? "application/octet-stream",
        size: attachment.size,
        description: attachment.description ?? null,
        bytes,
        text: bytes.toString("utf8"),
      };
    }),
    allowedMentions: message.allowedMentions ? cloneJson(message.allowedMentions) : undefined,
    pings: {
      everyone: message.api.mention_everyone,
      users: message.api.mentions.map((user) => user.id),
      roles: [...message.api.mention_roles],
    },
    interactionId: message.interactionId,
    threadId: thread && thread.starterMessageId === message.id ? thread.id : null,
    createdAt: message.createdAt,
    editedAt: message.editedAt,
    writes: cloneJson(message.writes),
    api,
  };
}

/** A snapshot of a thread and the messages posted in it, for tests. */
export function threadView(state: DiscordState, threadId: string): ThreadView | null {
  const record = state.threads.get(threadId);
  const channel = state.channels.get(threadId);
  if (!record || !channel || !state.isThread(channel)) return null;
  return {
    id: channel.id,
    name: channel.name,
    type: channel.type,
    parentId: channel.parent_id ?? null,
    ownerId: channel.owner_id ?? null,
    autoArchiveDuration: channel.thread_metadata?.auto_archive_duration ?? null,
    starterMessageId: record.starterMessageId,
    createdAt: record.createdAt,
    messages: state.messagesOf(threadId).map((message) => messageView(state, message)),
    api: cloneJson(channel),
  };
}
