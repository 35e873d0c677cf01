// Over 300 lines: the builders of every interaction kind's payload (slash, autocomplete, button, modal, message command) share the context code.
import { randomBytes } from "node:crypto";
import {
  ApplicationCommandType,
  ComponentType,
  InteractionContextType,
  InteractionType,
  type APIApplicationCommand,
  type APIChannel,
  type APIInteraction,
  type APIUser,
} from "discord-api-types/v10";
import { isRecord, merged, sortedJson, type JsonObject } from "./json.js";
import { commandData, commandPath } from "./commandData.js";
import {
  commandAllowedIn,
  commandType,
  contextOf,
  installContext,
  integrationTypesOf,
  type InstallContext,
} from "./installContexts.js";
import { messageSnapshot } from "./messages.js";
import { invokerAndPlace, partialChannel, resolveUser } from "./places.js";
import type { DiscordState, InteractionKind, InteractionState, StoredMessage } from "./state.js";
import { LIMITS } from "./validation.js";

/** An option value as a test gives it (users, channels, roles by id). */
export type OptionInput = string | number | boolean;

/** Who invokes an interaction and where; shared by every kind. */
export interface InteractionContextOptions {
  /**
   * `member` (default; in a generated server, one of its members), `admin` (holds Manage
   * Server), `owner`, `stranger` (owns `elsewhere`, not in the main server), or a user id.
   */
  user?: "member" | "admin" | "owner" | "stranger" | (string & {});
  /**
   * `text` (#general, default), `noThreads`, `thread`, `dm` (the invoker's DM with the bot),
   * `codeLinks`, `lobby` and `noApps` (in `elsewhere`, where the bot is not a member), `groupDm`,
   * `userDm` (a DM between member and admin), or a channel id (a generated server's too).
   */
  channel?: PlaceName | (string & {});
  /** Overrides `member.permissions` (default: computed from roles and overwrites). */
  memberPermissions?: bigint | string;
  /**
   * Overrides `app_permissions` in the payload only (default: the bot's real permissions in the
   * channel). The REST side keeps enforcing the channel's real permissions; to deny the bot
   * thread creation for real, use the `noThreads` channel or `setBotChannelPermissions`.
   */
  appPermissions?: bigint | string;
  /** The invoker's client locale (default `en-US`). */
  locale?: string;
  /** This interaction's response deadline, overriding the stand-in's (for lateness tests). */
  responseDeadlineMs?: number;
}

/** The named places of the stand-in's world. */
export type PlaceName =
  "text" | "noThreads" | "thread" | "dm" | "codeLinks" | "lobby" | "noApps" | "groupDm" | "userDm";

/** A slash command, typed as a user would: `name` may hold subcommands (`"token set"`). */
export interface SlashInteraction extends InteractionContextOptions {
  kind: "slash";
  name: string;
  subcommand?: string;
  group?: string;
  options?: Record<string, OptionInput>;
}

/** An autocomplete request while the user types into option `focused`. */
export interface AutocompleteInteraction extends InteractionContextOptions {
  kind: "autocomplete";
  name: string;
  subcommand?: string;
  group?: string;
  options?: Record<string, OptionInput>;
  focused: string;
}

/** A click on a button of a message the bot sent. */
export interface ButtonInteraction extends Omit<InteractionContextOptions, "channel"> {
  kind: "button";
  /** The message the button is on (its id, or anything with an `id`). */
  message: string | { id: string };
  customId: string;
}

/** The submission of a modal the bot showed in answer to interaction `from`. */
export interface ModalSubmitInteraction extends Omit<InteractionContextOptions, "channel" | "user"> {
  kind: "modal";
  /** The interaction the modal answered (its id, or anything with an `id`). */
  from: string | { id: string };
  /** Values typed into the modal's text inputs, by their `custom_id`. */
  fields: Record<string, string>;
}

/**
 * A message command: right-click `message` > Apps > `name` (e.g. "Show code"). The channel is the
 * message's; `user` defaults to `member`.
 */
export interface MessageCommandInteraction extends Omit<InteractionContextOptions, "channel"> {
  kind: "message";
  name: string;
  /** The message (its id, or anything with an `id`, such as a `MessageView`). */
  message: string | { id: string };
}

/** Any interaction a test can send. */
export type InteractionRequest =
  | SlashInteraction
  | AutocompleteInteraction
  | ButtonInteraction
  | ModalSubmitInteraction
  | MessageCommandInteraction;

/** An interaction payload, and what the state must remember about it. */
export interface BuiltInteraction {
  payload: APIInteraction;
  state: Omit<InteractionState, "dispatchedAt" | "deadlineAt" | "expiresAt" | "lastActivityAt">;
}

/** Discord's interaction tokens are opaque base64; mimic the `interaction:<id>:<secret>` shape. */
function newToken(id: string): string {
  return Buffer.from(`interaction:${id}:${secret()}`).toString("base64url");
}

/** 48 random bytes in base64url, cut from a pool (one randomBytes call per 256 tokens). */
const randomPool = { bytes: Buffer.alloc(0), offset: 0 };
function secret(): string {
  if (randomPool.offset + 48 > randomPool.bytes.length) {
    randomPool.bytes = randomBytes(48 * 256);
    randomPool.offset = 0;
  }
  const slice = randomPool.bytes.subarray(randomPool.offset, randomPool.offset + 48);
  randomPool.offset += 48;
  return slice.toString("base64url");
}

function bitfield(value: bigint | string | undefined, fallback: bigint): string {
  if (value === undefined) return fallback.toString();
  return typeof value === "bigint" ? value.toString() : BigInt(value).toString();
}

/** The fields every interaction carries: who, where, what the app may do there. */
function commonFields(
  state: DiscordState,
  type: InteractionType,
  user: APIUser,
  channel: APIChannel,
  options: InteractionContextOptions,
  install: InstallContext,
): { fields: JsonObject; guildId: string | null } {
  const id = state.nextId();
  const guild = state.guildOfChannel(channel);
  const guildId = guild?.id ?? null;
  if (guild && !guild.members.has(user.id))
    throw new Error(`user ${user.id} is not in the server ${guild.id}`);
  const fields: JsonObject = {
    app_permissions: bitfield(options.appPermissions, install.appPermissions),
    application_id: state.applicationId,
    attachment_size_limit: LIMITS.fileBytes,
    authorizing_integration_owners: install.owners,
    channel: partialChannel(state, channel, user.id),
    channel_id: channel.id,
    context: install.context,
    entitlements: [],
    id,
    locale: options.locale ?? "en-US",
    token: newToken(id),
    type,
    version: 1,
  };
  if (guild) {
    fields.guild = { id: guild.id, locale: guild.preferredLocale, features: [...guild.features] };
    fields.guild_id = guild.id;
    fields.guild_locale = guild.preferredLocale;
    fields.member = state.interactionMember(
      user.id,
      channel.id,
      options.memberPermissions === undefined ? undefined : BigInt(bitfield(options.memberPermissions, 0n)),
    );
  } else {
    fields.user = user;
  }
  return { fields, guildId };
}

/**
 * Finds a registered command of a type where a user is: the server's own first (when the app is in
 * it), then global (guild commands win on Discord); its `contexts` must allow the place.
 */
function findCommand(
  state: DiscordState,
  name: string,
  type: ApplicationCommandType,
  channel: APIChannel,
): APIApplicationCommand {
  const guild = state.guildOfChannel(channel);
  const scopes = guild?.botMember
    ? [state.commandsFor(guild.id), state.globalCommands]
    : [state.globalCommands];
  const label = type === ApplicationCommandType.ChatInput ? `/${name}` : `"${name}"`;
  const context = contextOf(state, channel);
  for (const scope of scopes) {
    const command = scope.find((candidate) => candidate.name === name && commandType(candidate) === type);
    if (!command) continue;
    if (!commandAllowedIn(command, context)) {
      const where =
        context === InteractionContextType.BotDM
          ? "in DMs"
          : context === InteractionContextType.Guild
            ? "in servers"
            : "in group DMs or DMs between users";
      throw new Error(`${label} is not available ${where} (contexts ${JSON.stringify(command.contexts)})`);
    }
    return command;
  }
  throw new Error(
    `${label} is not registered${guild?.botMember ? " globally or in the server" : " globally"}; register it first`,
  );
}

/** Finds a component by custom id anywhere in a message's components. */
function findComponent(components: unknown, customId: string): JsonObject | null {
  if (!Array.isArray(components)) return null;
  for (const component of components) {
    if (!isRecord(component)) continue;
    if (component.custom_id === customId) return component;
    const inner =
      findComponent(component.components, customId) ??
      (isRecord(component.accessory) ? findComponent([component.accessory], customId) : null);
    if (inner) return inner;
  }
  return null;
}

function buildSlashOrAutocomplete(
  state: DiscordState,
  request: SlashInteraction | AutocompleteInteraction,
): BuiltInteraction {
  const { user, channel } = invokerAndPlace(state, request);
  const type =
    request.kind === "slash"
      ? InteractionType.ApplicationCommand
      : InteractionType.ApplicationCommandAutocomplete;
  const command = findCommand(state, commandPath(request).name, ApplicationCommandType.ChatInput, channel);
  const install = installContext(state, {
    channel,
    user,
    integrationTypes: integrationTypesOf(command),
    what: `/${command.name}`,
  });
  const { fields, guildId } = commonFields(state, type, user, channel, request, install);
  const { data, displayName } = commandData(state, request, command, guildId, user.id, channel.id);
  const payload = merged(fields, { data }) as unknown as APIInteraction;
  return {
    payload,
    state: stateFor(payload, request.kind, install, {
      channelId: channel.id,
      guildId,
      userId: user.id,
      sourceMessageId: null,
      commandName: displayName,
    }),
  };
}

/**
 * A message command on a message a user can see (not an ephemeral one): `data.target_id` and the
 * message in `data.resolved.messages`, with its content (the Message Content intent does not apply
 * to the message a command targets).
 */
function buildMessageCommand(state: DiscordState, request: MessageCommandInteraction): BuiltInteraction {
  const messageId = typeof request.message === "string" ? request.message : request.message.id;
  const message = state.messages.get(messageId);
  if (!message || message.deleted) throw new Error(`message ${messageId} does not exist (deleted?)`);
  if (message.ephemeral) throw new Error(`message ${messageId} is ephemeral: it has no context menu`);
  const channel = state.requireChannel(message.channelId);
  const user = resolveUser(state, request.user, channel);
  if (state.guildIdOf(channel) === null && !channelRecipients(channel).includes(user.id)) {
    throw new Error(`${user.username} cannot see the private channel ${channel.id}`);
  }
  const command = findCommand(state, request.name, ApplicationCommandType.Message, channel);
  const install = installContext(state, {
    channel,
    user,
    integrationTypes: integrationTypesOf(command),
    what: `the message command "${command.name}"`,
  });
  const { fields, guildId } = commonFields(
    state,
    InteractionType.ApplicationCommand,
    user,
    channel,
    request,
    install,
  );
  const data: JsonObject = {
    id: command.id,
    name: command.name,
    type: ApplicationCommandType.Message,
    target_id: message.id,
    resolved: { messages: { [message.id]: messageSnapshot(message, state) } },
    ...(command.guild_id ? { guild_id: command.guild_id } : {}),
  };
  const payload = merged(fields, { data }) as unknown as APIInteraction;
  return {
    payload,
    state: stateFor(payload, "message", install, {
      channelId: channel.id,
      guildId,
      userId: user.id,
      sourceMessageId: null,
      commandName: command.name,
    }),
  };
}

/** The user ids of a private channel's recipients (the bot's DMs list the other user only). */
function channelRecipients(channel: APIChannel): string[] {
  const recipients = "recipients" in channel ? (channel.recipients ?? []) : [];
  return recipients.map((recipient) => recipient.id);
}

function buildButton(state: DiscordState, request: ButtonInteraction): BuiltInteraction {
  const messageId = typeof request.message === "string" ? request.message : request.message.id;
  const message: StoredMessage | undefined = state.messages.get(messageId);
  if (!message || message.deleted) throw new Error(`message ${messageId} does not exist (deleted?)`);
  const component = findComponent(message.api.components, request.customId);
  if (!component || component.type !== ComponentType.Button) {
    throw new Error(`message ${messageId} has no button with custom_id ${request.customId}`);
  }
  if (component.disabled === true) throw new Error(`button ${request.customId} is disabled`);
  const channel = state.requireChannel(message.channelId);
  const user = resolveUser(state, request.user, channel);
  const origin = message.interactionId ? state.interactions.get(message.interactionId) : undefined;
  // Only the person an ephemeral message was sent to sees it, so nobody else can press its buttons.
  if (message.ephemeral && origin && origin.userId !== user.id) {
    throw new Error(`message ${messageId} is ephemeral: only user ${origin.userId} can see it`);
  }
  // A component carries the owners of the interaction whose message holds it.
  const install = installContext(state, {
    channel,
    user,
    integrationTypes: null,
    inherited: origin?.payload.authorizing_integration_owners as Record<string, string> | undefined,
    what: `the button ${request.customId}`,
  });
  const { fields, guildId } = commonFields(
    state,
    InteractionType.MessageComponent,
    user,
    channel,
    request,
    install,
  );
  const payload = merged(fields, {
    message: messageSnapshot(message, state),
    data: { custom_id: request.customId, component_type: ComponentType.Button },
  }) as unknown as APIInteraction;
  return {
    payload,
    state: stateFor(payload, "button", install, {
      channelId: channel.id,
      guildId,
      userId: user.id,
      sourceMessageId: message.id,
      commandName: origin?.commandName ?? null,
    }),
  };
}

/** Mirrors the shown modal's layout (rows or labels) with the typed values, as Discord does. */
function modalComponents(
  shown: readonly unknown[],
  values: Record<string, string>,
): { components: JsonObject[]; used: Set<string> } {
  const used = new Set<string>();
  const input = (component: JsonObject): JsonObject => {
    const customId = String(component.custom_id);
    if (component.type !== ComponentType.TextInput) {
      return { type: component.type, id: component.id, custom_id: customId, values: [] };
    }
    const value = values[customId] ?? (typeof component.value === "string" ? component.value : "");
    if (values[customId] !== undefined) used.add(customId);
    const required = component.required !== false;
    if (required && value.length === 0) throw new Error(`the modal's text input ${customId} is required`);
    if (value.length > 0) {
      if (typeof component.min_length === "number" && value.length < component.min_length) {
        throw new Error(
          `the modal's text input ${customId} needs at least ${component.min_length} characters`,
        );
      }
      if (
        value.length >
        (typeof component.max_length === "number" ? component.max_length : LIMITS.textInputValue)
      ) {
        throw new Error(
          `the modal's text input ${customId} takes at most ${String(component.max_length ?? LIMITS.textInputValue)} characters`,
        );
      }
    }
    return { type: ComponentType.TextInput, id: component.id, custom_id: customId, value };
  };
  const components: JsonObject[] = [];
  for (const entry of shown) {
    if (!isRecord(entry)) continue;
    if (entry.type === ComponentType.ActionRow && Array.isArray(entry.components)) {
      components.push({
        type: ComponentType.ActionRow,
        id: entry.id,
        components: entry.components.filter(isRecord).map(input),
      });
    } else if (entry.type === ComponentType.Label && isRecord(entry.component)) {
      components.push({ type: ComponentType.Label, id: entry.id, component: input(entry.component) });
    } else if (entry.type === ComponentType.TextDisplay) {
      components.push({ type: ComponentType.TextDisplay, id: entry.id });
    }
  }
  return { components, used };
}

/** Discord numbers modal components when it shows the modal; submissions carry those ids. */
function numberComponents(components: unknown[]): unknown[] {
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
  return components.map(visit);
}

function buildModalSubmit(state: DiscordState, request: ModalSubmitInteraction): BuiltInteraction {
  const fromId = typeof request.from === "string" ? request.from : request.from.id;
  const origin = state.interactions.get(fromId);
  if (!origin) throw new Error(`unknown interaction ${fromId}`);
  if (!origin.modal) throw new Error(`interaction ${fromId} was not answered with a modal`);
  const user = state.users.get(origin.userId)!;
  const channel = state.requireChannel(origin.channelId);
  const install = installContext(state, {
    channel,
    user,
    integrationTypes: null,
    inherited: origin.payload.authorizing_integration_owners as Record<string, string> | undefined,
    what: "the modal",
  });
  const { fields, guildId } = commonFields(
    state,
    InteractionType.ModalSubmit,
    user,
    channel,
    request,
    install,
  );
  const shown = numberComponents(origin.modal.components as unknown[]);
  const { components, used } = modalComponents(shown, request.fields);
  for (const key of Object.keys(request.fields)) {
    if (!used.has(key)) throw new Error(`the modal has no text input ${key}`);
  }
  const source = origin.sourceMessageId ? state.messages.get(origin.sourceMessageId) : undefined;
  const data = { custom_id: origin.modal.custom_id, components };
  const payload = merged(
    fields,
    source ? { message: messageSnapshot(source, state), data } : { data },
  ) as unknown as APIInteraction;
  return {
    payload,
    state: stateFor(payload, "modal", install, {
      channelId: channel.id,
      guildId,
      userId: user.id,
      sourceMessageId: origin.sourceMessageId,
      commandName: origin.commandName,
    }),
  };
}

function stateFor(
  payload: APIInteraction,
  kind: InteractionKind,
  install: InstallContext,
  where: Pick<InteractionState, "channelId" | "guildId" | "userId" | "sourceMessageId" | "commandName">,
): BuiltInteraction["state"] {
  return {
    id: payload.id,
    token: payload.token,
    kind,
    type: payload.type,
    payload,
    ...where,
    response: null,
    callbacks: [],
    originalMessageId: null,
    deferredEphemeral: false,
    followupIds: [],
    followupReplacedOriginal: false,
    originalEdits: 0,
    modal: null,
    choices: null,
    delivery: null,
    signedRequest: null,
    errors: [],
    userInstallOnly: install.userInstallOnly,
    forcedEphemeral: install.forcedEphemeral,
  };
}

/**
 * Builds an interaction payload exactly as Discord sends it over the gateway, for a slash
 * command, an autocomplete request, a button click or a modal submission.
 * @throws Error when a real user could not send it (unregistered command, unknown option,
 * missing required option, no such button, a modal that was never shown).
 */
export function buildInteraction(state: DiscordState, request: InteractionRequest): BuiltInteraction {
  const built = buildOfKind(state, request);
  // Each object's fields in order, as Discord sends them (json.ts `sortedJson`): a bot that
  // parses the JSON meets the shapes it meets from Discord.
  const payload = sortedJson(built.payload);
  built.state.payload = payload;
  return { payload, state: built.state };
}

function buildOfKind(state: DiscordState, request: InteractionRequest): BuiltInteraction {
  switch (request.kind) {
    case "slash":
    case "autocomplete":
      return buildSlashOrAutocomplete(state, request);
    case "button":
      return buildButton(state, request);
    case "modal":
      return buildModalSubmit(state, request);
    case "message":
      return buildMessageCommand(state, request);
  }
}
