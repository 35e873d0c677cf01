// Over 300 lines: message create and edit with every rule Discord applies to them (flags, attachments, references, components), in Discord's order.
import {
  ApplicationCommandType,
  GatewayIntentBits,
  InteractionType,
  MessageFlags,
  MessageType,
  PermissionFlagsBits,
  type APIAllowedMentions,
  type APIAttachment,
  type APIEmbed,
  type APIMessage,
  type APIMessageReference,
  type APIMessageTopLevelComponent,
  type APIUser,
} from "discord-api-types/v10";
import { cloneJson, isRecord, merged, type JsonObject } from "./json.js";
import { FormErrors } from "./restErrors.js";
import type { DiscordState, InteractionState, StoredMessage, UploadedFile, WriteVia } from "./state.js";

/** Flags a bot may set when sending; others are ignored, as Discord ignores them. */
const SETTABLE_FLAGS =
  MessageFlags.SuppressEmbeds | MessageFlags.SuppressNotifications | MessageFlags.IsComponentsV2;
/** Flags a bot may change on an edit. */
const EDITABLE_FLAGS = MessageFlags.SuppressEmbeds | MessageFlags.IsComponentsV2;

/** What a message create needs beyond its body. */
export interface NewMessage {
  channelId: string;
  author: APIUser;
  body: JsonObject;
  uploads: readonly UploadedFile[];
  via: WriteVia;
  type?: MessageType;
  ephemeral?: boolean;
  loading?: boolean;
  interaction?: InteractionState;
  messageReference?: APIMessageReference;
  /** A reply's message, as `referenced_message` shows it. */
  referencedMessage?: APIMessage;
  /** The author of the message replied to, when the reply pings them (`replied_user`). */
  pingedRepliedUser?: APIUser;
  /** A webhook's message: its id (the author is then the webhook, a bot). */
  webhookId?: string;
  /** Flags the client sets on a person's message (`SUPPRESS_EMBEDS`). */
  flags?: number;
  /** Reuse an id (a follow-up replacing a placeholder keeps the placeholder's id). */
  id?: string;
}

/** The guild of a channel, or null. */
function guildIdOfChannel(state: DiscordState, channelId: string): string | null {
  const channel = state.channels.get(channelId);
  return channel ? state.guildIdOf(channel) : null;
}

/**
 * Who a message would ping, from its content and `allowed_mentions` (absent: parse all).
 * `@everyone`/`@here` and unmentionable roles also need Mention Everyone in the channel.
 */
export function resolveMentions(
  state: DiscordState,
  content: string,
  allowed: APIAllowedMentions | undefined,
  where: { guildId: string | null; channelId: string; authorId: string },
): { users: APIUser[]; roles: string[]; everyone: boolean } {
  const { guildId } = where;
  const mayMentionEveryone =
    guildId === null ||
    (state.channels.has(where.channelId) &&
      (state.permissionsIn(where.channelId, where.authorId) & PermissionFlagsBits.MentionEveryone) !== 0n);
  const parse = new Set(allowed ? (allowed.parse ?? []) : ["users", "roles", "everyone"]);
  const allowedUsers = new Set(allowed?.users ?? []);
  const allowedRoles = new Set(allowed?.roles ?? []);
  const users: APIUser[] = [];
  for (const match of content.matchAll(/<@!?(\d{17,20})>/g)) {
    const id = match[1]!;
    const user = state.users.get(id);
    if (user && (parse.has("users") || allowedUsers.has(id)) && !users.some((known) => known.id === id)) {
      users.push(user);
    }
  }
  const roles: string[] = [];
  if (guildId) {
    for (const match of content.matchAll(/<@&(\d{17,20})>/g)) {
      const id = match[1]!;
      const role = state.guilds.get(guildId)?.roles.get(id);
      const mentionable = role !== undefined && (role.mentionable || mayMentionEveryone);
      if (mentionable && (parse.has("roles") || allowedRoles.has(id)) && !roles.includes(id)) {
        roles.push(id);
      }
    }
  }
  const everyone = parse.has("everyone") && mayMentionEveryone && /@(everyone|here)/.test(content);
  return { users, roles, everyone };
}

/** Discord marks embeds sent by apps as `rich` and gives every component a numeric `id`. */
function normalizeEmbeds(embeds: unknown): APIEmbed[] {
  if (!Array.isArray(embeds)) return [];
  return embeds.filter(isRecord).map((embed) => {
    const copy: JsonObject = { type: "rich", ...cloneJson(embed) };
    // Discord returns `inline` on every field, false when the write left it out.
    if (Array.isArray(copy.fields)) {
      copy.fields = copy.fields
        .filter(isRecord)
        .map((field) => merged(field, { inline: field.inline === true }));
    }
    return copy as unknown as APIEmbed;
  });
}

function normalizeComponents(components: unknown): APIMessageTopLevelComponent[] {
  if (!Array.isArray(components)) return [];
  let next = 1;
  const visit = (component: JsonObject): JsonObject => {
    const copy: JsonObject = merged(component);
    if (typeof copy.id !== "number") copy.id = next;
    next = Math.max(next, copy.id as number) + 1;
    if (Array.isArray(copy.components)) copy.components = copy.components.filter(isRecord).map(visit);
    if (isRecord(copy.accessory)) copy.accessory = visit(copy.accessory);
    if (isRecord(copy.component)) copy.component = visit(copy.component);
    return copy;
  };
  return components
    .filter(isRecord)
    .map((component) => visit(cloneJson(component)) as unknown as APIMessageTopLevelComponent);
}

/** Reads an attachment reference id (a snowflake string; the form check refused anything else). */
function referenceId(value: unknown): string | null {
  if (typeof value === "string" && /^\d+$/.test(value)) return value;
  return null;
}

/**
 * Works out a message's attachments after a write: entries of `attachments` name either an
 * existing attachment (kept) or a `files[n]` index (a new upload); uploads not named are added
 * on creation, or on an edit that sends no `attachments` list.
 * @throws DiscordRestError 50035 when an entry names neither.
 */
function planAttachments(
  state: DiscordState,
  body: JsonObject,
  uploads: readonly UploadedFile[],
  existing: StoredMessage | null,
  channelId: string,
): { attachments: APIAttachment[]; files: Map<string, { bytes: Buffer; contentType: string }> } {
  const files = new Map<string, { bytes: Buffer; contentType: string }>();
  const attachments: APIAttachment[] = [];
  const errors = new FormErrors();
  const used = new Set<number>();
  const addUpload = (upload: UploadedFile, meta: JsonObject | null) => {
    used.add(upload.index);
    const id = state.nextId();
    const filename =
      meta && typeof meta.filename === "string" && meta.filename.length > 0 ? meta.filename : upload.filename;
    const url = `${state.origin}/attachments/${channelId}/${id}/${encodeURIComponent(filename)}`;
    const attachment: APIAttachment = {
      id,
      filename,
      size: upload.bytes.length,
      url,
      proxy_url: url,
      content_type: upload.contentType,
      ...(meta && typeof meta.description === "string" ? { description: meta.description } : {}),
      ...(meta && typeof meta.title === "string" ? { title: meta.title } : {}),
    };
    attachments.push(attachment);
    files.set(id, { bytes: upload.bytes, contentType: upload.contentType });
  };
  const listed = Array.isArray(body.attachments) ? body.attachments : null;
  if (listed) {
    listed.forEach((entry, position) => {
      if (!isRecord(entry)) return;
      const id = referenceId(entry.id);
      const kept = existing?.api.attachments.find((attachment) => attachment.id === id);
      if (kept && id) {
        attachments.push(
          typeof entry.description === "string"
            ? merged(kept, { description: entry.description })
            : merged(kept),
        );
        const bytes = existing?.files.get(id);
        if (bytes) files.set(id, bytes);
        return;
      }
      const upload = id === null ? undefined : uploads.find((candidate) => String(candidate.index) === id);
      if (!upload) {
        errors.add(
          ["attachments", position, "id"],
          "ATTACHMENT_NOT_FOUND",
          `Unknown attachment id ${String(entry.id)}.`,
        );
        return;
      }
      addUpload(upload, entry);
    });
  } else if (existing) {
    for (const attachment of existing.api.attachments) {
      attachments.push(attachment);
      const bytes = existing.files.get(attachment.id);
      if (bytes) files.set(attachment.id, bytes);
    }
  }
  if (!listed || !existing) {
    for (const upload of uploads) if (!used.has(upload.index)) addUpload(upload, null);
  }
  errors.throwIfAny();
  return { attachments, files };
}

/** A message command's answer names the message it was used on; a user command's, the user. */
function commandTarget(interaction: InteractionState): { target_message_id?: string; target_user?: APIUser } {
  const payload = interaction.payload;
  if (payload.type !== InteractionType.ApplicationCommand) return {};
  const data = payload.data;
  if (data.type === ApplicationCommandType.Message) return { target_message_id: data.target_id };
  if (data.type === ApplicationCommandType.User) {
    const user = data.resolved.users[data.target_id];
    return user ? { target_user: user } : {};
  }
  return {};
}

/** The `interaction_metadata` and legacy `interaction` fields of a message an interaction wrote. */
function interactionFields(
  state: DiscordState,
  interaction: InteractionState,
  isOriginal: boolean,
): Partial<APIMessage> {
  const user = state.users.get(interaction.userId)!;
  const owners = interaction.payload.authorizing_integration_owners;
  const base = { id: interaction.id, user, authorizing_integration_owners: owners };
  const originalId = isOriginal ? undefined : (interaction.originalMessageId ?? undefined);
  // Built with `merged` and assignments, not spreads, in the same field order (see `merged`).
  let entry: JsonObject;
  if (interaction.type === InteractionType.MessageComponent) {
    entry = merged(base, {
      type: InteractionType.MessageComponent,
      interacted_message_id: interaction.sourceMessageId ?? "0",
    });
    if (originalId) entry.original_response_message_id = originalId;
  } else if (interaction.type === InteractionType.ModalSubmit) {
    entry = merged(base, {
      type: InteractionType.ModalSubmit,
      triggering_interaction_metadata: merged(base, { type: InteractionType.ApplicationCommand }),
    });
    if (originalId) entry.original_response_message_id = originalId;
  } else {
    entry = merged(base, { type: InteractionType.ApplicationCommand });
    if (originalId) entry.original_response_message_id = originalId;
    // The target's fields are the code's own names (no key read from outside).
    Object.assign(entry, commandTarget(interaction));
  }
  const metadata = entry as unknown as APIMessage["interaction_metadata"];
  return {
    webhook_id: state.applicationId,
    application_id: state.applicationId,
    interaction_metadata: metadata,
    interaction: {
      id: interaction.id,
      type: interaction.type,
      name: interaction.commandName ?? "",
      user,
    },
  };
}

/** Copies the fields of a write into a message and recomputes mentions. */
function applyBody(
  state: DiscordState,
  message: StoredMessage,
  body: JsonObject,
  uploads: readonly UploadedFile[],
  creating: boolean,
): void {
  const { attachments, files } = planAttachments(
    state,
    body,
    uploads,
    creating ? null : message,
    message.channelId,
  );
  const api = message.api;
  if (typeof body.content === "string" || creating)
    api.content = typeof body.content === "string" ? body.content : "";
  if (body.embeds !== undefined || creating) api.embeds = normalizeEmbeds(body.embeds);
  if (body.components !== undefined || creating) api.components = normalizeComponents(body.components);
  if (body.attachments !== undefined || uploads.length > 0 || creating) {
    api.attachments = attachments.map((attachment) =>
      message.ephemeral ? merged(attachment, { ephemeral: true }) : attachment,
    );
    message.files = files;
  }
  if (typeof body.flags === "number") {
    const mask = creating ? SETTABLE_FLAGS : EDITABLE_FLAGS;
    api.flags = ((api.flags ?? 0) & ~mask) | (body.flags & mask);
  }
  if (body.allowed_mentions !== undefined) {
    message.allowedMentions = isRecord(body.allowed_mentions)
      ? (cloneJson(body.allowed_mentions) as APIAllowedMentions)
      : undefined;
  } else if (creating) message.allowedMentions = undefined;
  const mentions = resolveMentions(state, api.content, message.allowedMentions, {
    guildId: message.guildId,
    channelId: message.channelId,
    authorId: api.author.id,
  });
  api.mentions = mentions.users;
  api.mention_roles = mentions.roles;
  api.mention_everyone = mentions.everyone;
  if (typeof body.tts === "boolean" && creating) api.tts = body.tts;
  if ((typeof body.nonce === "string" || typeof body.nonce === "number") && creating) api.nonce = body.nonce;
}

/** Creates and stores a message; updates the channel's (and thread's) counters. */
export function createMessage(state: DiscordState, input: NewMessage): StoredMessage {
  const id = input.id ?? state.nextId();
  const now = Date.now();
  const guildId = guildIdOfChannel(state, input.channelId);
  let flags = 0;
  if (input.ephemeral) flags |= MessageFlags.Ephemeral;
  if (input.loading) flags |= MessageFlags.Loading;
  const api: APIMessage = {
    id,
    type: input.type ?? MessageType.Default,
    channel_id: input.channelId,
    author: input.author,
    content: "",
    timestamp: new Date(now).toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    components: [],
    pinned: false,
    flags,
    ...(input.messageReference ? { message_reference: input.messageReference } : {}),
    ...(input.referencedMessage ? { referenced_message: input.referencedMessage } : {}),
    ...(input.webhookId ? { webhook_id: input.webhookId } : {}),
    ...(input.interaction ? interactionFields(state, input.interaction, input.via === "callback") : {}),
  };
  const channel = state.channels.get(input.channelId);
  if (channel && state.isThread(channel) && !input.ephemeral) {
    channel.message_count = (channel.message_count ?? 0) + 1;
    channel.total_message_sent = (channel.total_message_sent ?? 0) + 1;
    api.position = channel.total_message_sent - 1;
  }
  const message: StoredMessage = {
    id,
    channelId: input.channelId,
    guildId,
    api,
    ephemeral: input.ephemeral ?? false,
    loading: input.loading ?? false,
    deleted: false,
    interactionId: input.interaction?.id ?? null,
    files: new Map(),
    allowedMentions: undefined,
    writes: [],
    createdAt: now,
    editedAt: null,
  };
  applyBody(state, message, input.body, input.uploads, true);
  // Flags set on creation keep ephemeral and loading as decided by the route.
  api.flags = (api.flags ?? 0) | flags | (input.flags ?? 0);
  // A reply pings the author of the message it replies to unless `replied_user` says otherwise.
  const replied = input.pingedRepliedUser;
  if (replied && !api.mentions.some((user) => user.id === replied.id)) api.mentions.push(replied);
  message.writes.push({
    at: now,
    via: input.via,
    body: cloneJson(input.body),
    files: input.uploads.map((upload) => ({ filename: upload.filename, size: upload.bytes.length })),
  });
  if (!input.ephemeral && channel && "last_message_id" in channel) channel.last_message_id = id;
  state.addMessage(message);
  if (!message.ephemeral) {
    dispatchMessageEvent(state, "MESSAGE_CREATE", message, () =>
      guildId ? merged(messageSnapshot(message), { guild_id: guildId }) : messageSnapshot(message),
    );
  }
  return message;
}

/** The intent that lets a session receive message events of a guild channel or a DM. */
function messageIntent(guildId: string | null): number {
  return guildId ? GatewayIntentBits.GuildMessages : GatewayIntentBits.DirectMessages;
}

/**
 * Sends a message event to the bot's sessions, unless the bot is not in that channel or cannot see
 * it (a server channel without View Channel sends the bot nothing of its messages).
 */
function dispatchMessageEvent(
  state: DiscordState,
  t: string,
  message: StoredMessage,
  d: () => unknown,
): void {
  const channel = state.channels.get(message.channelId);
  if (channel && !state.botCanReach(channel)) return;
  if (
    channel &&
    message.guildId !== null &&
    (state.botPermissionsIn(channel.id) & PermissionFlagsBits.ViewChannel) === 0n
  ) {
    return;
  }
  state.dispatch(t, d, messageIntent(message.guildId), message.guildId);
}

/**
 * Applies an edit. Replacing a deferred response's placeholder is not an "edit" to readers: the
 * message keeps `edited_timestamp` null and loses the Loading flag.
 */
export function editMessage(
  state: DiscordState,
  message: StoredMessage,
  body: JsonObject,
  uploads: readonly UploadedFile[],
  via: WriteVia,
): void {
  const now = Date.now();
  const wasLoading = message.loading;
  applyBody(state, message, body, uploads, false);
  if (wasLoading) {
    message.loading = false;
    message.api.flags = (message.api.flags ?? 0) & ~MessageFlags.Loading;
  } else {
    message.editedAt = now;
    message.api.edited_timestamp = new Date(now).toISOString();
  }
  // Ephemeral state is fixed when the message is created; an edit cannot change it.
  if (message.ephemeral) message.api.flags = (message.api.flags ?? 0) | MessageFlags.Ephemeral;
  else message.api.flags = (message.api.flags ?? 0) & ~MessageFlags.Ephemeral;
  message.writes.push({
    at: now,
    via,
    body: cloneJson(body),
    files: uploads.map((upload) => ({ filename: upload.filename, size: upload.bytes.length })),
  });
  if (!message.ephemeral) {
    const guildId = message.guildId;
    dispatchMessageEvent(state, "MESSAGE_UPDATE", message, () =>
      guildId ? merged(messageSnapshot(message), { guild_id: guildId }) : messageSnapshot(message),
    );
  }
}

/** Deletes a message (threads started from it stay, as on Discord). */
export function deleteMessage(state: DiscordState, message: StoredMessage): void {
  message.deleted = true;
  const channel = state.channels.get(message.channelId);
  if (channel && state.isThread(channel) && !message.ephemeral) {
    channel.message_count = Math.max(0, (channel.message_count ?? 1) - 1);
  }
  if (!message.ephemeral) {
    dispatchMessageEvent(state, "MESSAGE_DELETE", message, () => ({
      id: message.id,
      channel_id: message.channelId,
      ...(message.guildId ? { guild_id: message.guildId } : {}),
    }));
  }
}

/** What Discord answers for a message: a copy of it, with its thread when one was started. */
export function messageSnapshot(message: StoredMessage, state?: DiscordState): APIMessage {
  const api = cloneJson(message.api);
  if (state) {
    const thread = state.threads.get(message.id);
    const channel = thread ? state.channels.get(thread.id) : undefined;
    if (thread && channel && thread.starterMessageId === message.id) api.thread = cloneJson(channel);
  }
  return api;
}
