import { randomBytes } from "node:crypto";
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ComponentType,
  InteractionContextType,
  InteractionType,
  type APIApplicationCommand,
  type APIApplicationCommandOption,
  type APIChannel,
  type APIInteraction,
  type APIInteractionDataResolved,
  type APIInteractionDataResolvedChannel,
  type APIUser,
  type GuildMemberFlags,
} from "discord-api-types/v10";
import { cloneJson, isRecord, type JsonObject } from "./json.js";
import { messageSnapshot } from "./messages.js";
import type { DiscordState, InteractionKind, InteractionState, StoredMessage } from "./state.js";
import { LIMITS } from "./validation.js";

/** An option value as a test gives it (users, channels, roles by id). */
export type OptionInput = string | number | boolean;

/** Who invokes an interaction and where; shared by every kind. */
export interface InteractionContextOptions {
  /** `member` (default), `admin` (holds Manage Server), `owner`, or a user id. */
  user?: "member" | "admin" | "owner" | (string & {});
  /** `text` (#general, default), `noThreads`, `thread`, `dm`, or a channel id. */
  channel?: "text" | "noThreads" | "thread" | "dm" | (string & {});
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

/** Any interaction a test can send. */
export type InteractionRequest =
  SlashInteraction | AutocompleteInteraction | ButtonInteraction | ModalSubmitInteraction;

/** Option data as Discord sends it. */
interface OptionData {
  name: string;
  type: number;
  value?: OptionInput;
  options?: OptionData[];
  focused?: boolean;
}

/** An interaction payload, and what the state must remember about it. */
export interface BuiltInteraction {
  payload: APIInteraction;
  state: Omit<InteractionState, "dispatchedAt" | "deadlineAt" | "expiresAt" | "lastActivityAt">;
}

/** Discord's interaction tokens are opaque base64; mimic the `interaction:<id>:<secret>` shape. */
function newToken(id: string): string {
  return Buffer.from(`interaction:${id}:${randomBytes(48).toString("base64url")}`).toString("base64url");
}

function resolveUser(state: DiscordState, user: InteractionContextOptions["user"]): APIUser {
  const cast = state.world.users;
  if (user === undefined || user === "member") return cast.member;
  if (user === "admin") return cast.admin;
  if (user === "owner") return cast.owner;
  const found = state.users.get(user);
  if (!found) throw new Error(`unknown user ${user}`);
  return found;
}

function resolveChannel(
  state: DiscordState,
  channel: InteractionContextOptions["channel"],
  user: APIUser,
): APIChannel {
  const places = state.world.channels;
  if (channel === undefined || channel === "text") return places.text;
  if (channel === "noThreads") return places.noThreads;
  if (channel === "thread") return places.thread;
  if (channel === "dm") return state.dmChannelWith(user);
  const found = state.channels.get(channel);
  if (!found) throw new Error(`unknown channel ${channel}`);
  return found;
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
): { fields: JsonObject; guildId: string | null } {
  const id = state.nextId();
  const guildId = state.guildIdOf(channel);
  const inGuild = guildId !== null;
  if (inGuild && !state.guild.members.has(user.id)) throw new Error(`user ${user.id} is not in the server`);
  const fields: JsonObject = {
    app_permissions: bitfield(options.appPermissions, state.botPermissionsIn(channel.id)),
    application_id: state.applicationId,
    attachment_size_limit: LIMITS.fileBytes,
    // A guild install is authorized by the guild; in the bot's DM Discord sends "0" for it.
    authorizing_integration_owners: { "0": inGuild ? guildId : "0" },
    channel: cloneJson(channel),
    channel_id: channel.id,
    context: inGuild ? InteractionContextType.Guild : InteractionContextType.BotDM,
    entitlements: [],
    id,
    locale: options.locale ?? "en-US",
    token: newToken(id),
    type,
    version: 1,
  };
  if (inGuild) {
    fields.guild = { id: guildId, locale: state.guild.preferredLocale, features: [] };
    fields.guild_id = guildId;
    fields.guild_locale = state.guild.preferredLocale;
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

/** Finds a registered command: the server's own first, then global (guild commands win on Discord). */
function findCommand(state: DiscordState, name: string, guildId: string | null): APIApplicationCommand {
  const scopes = guildId ? [state.commandsFor(guildId), state.globalCommands] : [state.globalCommands];
  for (const scope of scopes) {
    const command = scope.find(
      (candidate) => candidate.name === name && (candidate.type ?? 1) === ApplicationCommandType.ChatInput,
    );
    if (command) {
      const dmAllowed =
        command.dm_permission !== false &&
        (!command.contexts || command.contexts.includes(InteractionContextType.BotDM));
      if (!guildId && !dmAllowed) {
        throw new Error(`/${name} is not available in DMs (contexts ${JSON.stringify(command.contexts)})`);
      }
      return command;
    }
  }
  throw new Error(
    `/${name} is not registered${guildId ? " globally or in the server" : " globally"}; register it first`,
  );
}

function channelResolved(
  state: DiscordState,
  channel: APIChannel,
  userId: string,
): APIInteractionDataResolvedChannel {
  const base = {
    id: channel.id,
    name: "name" in channel && channel.name ? channel.name : "",
    type: channel.type,
    permissions: state.guildIdOf(channel) ? state.permissionsIn(channel.id, userId).toString() : "0",
  };
  if (state.isThread(channel)) {
    return {
      ...base,
      type: channel.type,
      parent_id: channel.parent_id,
      thread_metadata: channel.thread_metadata,
    } as APIInteractionDataResolvedChannel;
  }
  return base as APIInteractionDataResolvedChannel;
}

/** Converts a value to the option's type, as Discord's client would before sending. */
function convertOption(
  state: DiscordState,
  option: APIApplicationCommandOption,
  raw: OptionInput,
  resolved: APIInteractionDataResolved,
  context: { guildId: string | null; userId: string },
): OptionInput {
  const fail = (why: string): never => {
    throw new Error(`option ${option.name}: ${why}`);
  };
  switch (option.type) {
    case ApplicationCommandOptionType.String: {
      const value = String(raw);
      if (option.choices?.length && !option.choices.some((choice) => choice.value === value)) {
        fail(`must be one of ${option.choices.map((choice) => JSON.stringify(choice.value)).join(", ")}`);
      }
      if (option.min_length !== undefined && value.length < option.min_length)
        fail(`at least ${option.min_length} characters`);
      if (option.max_length !== undefined && value.length > option.max_length)
        fail(`at most ${option.max_length} characters`);
      return value;
    }
    case ApplicationCommandOptionType.Integer:
    case ApplicationCommandOptionType.Number: {
      const value = typeof raw === "number" ? raw : Number(raw);
      if (!Number.isFinite(value) || typeof raw === "boolean") fail("takes a number");
      if (option.type === ApplicationCommandOptionType.Integer && !Number.isInteger(value))
        fail("takes a whole number");
      if (option.min_value !== undefined && value < option.min_value) fail(`at least ${option.min_value}`);
      if (option.max_value !== undefined && value > option.max_value) fail(`at most ${option.max_value}`);
      if (option.choices?.length && !option.choices.some((choice) => choice.value === value))
        fail("not one of its choices");
      return value;
    }
    case ApplicationCommandOptionType.Boolean: {
      if (typeof raw === "boolean") return raw;
      if (raw === "true") return true;
      if (raw === "false") return false;
      return fail("takes true or false");
    }
    case ApplicationCommandOptionType.User:
    case ApplicationCommandOptionType.Mentionable: {
      const id = String(raw);
      const user = state.users.get(id);
      if (user) {
        (resolved.users ??= {})[id] = user;
        const member = context.guildId ? state.guild.members.get(id) : undefined;
        if (member) {
          (resolved.members ??= {})[id] = {
            roles: [...member.roleIds],
            nick: member.nick,
            avatar: null,
            banner: null,
            joined_at: member.joinedAt,
            premium_since: null,
            pending: false,
            flags: 0 as GuildMemberFlags,
            communication_disabled_until: null,
            permissions: state.permissionsIn(state.world.channels.text.id, id).toString(),
          };
        }
        return id;
      }
      if (option.type === ApplicationCommandOptionType.Mentionable && state.guild.roles.has(id)) {
        (resolved.roles ??= {})[id] = state.guild.roles.get(id)!;
        return id;
      }
      return fail(`unknown user ${id}`);
    }
    case ApplicationCommandOptionType.Role: {
      const id = String(raw);
      const role = state.guild.roles.get(id);
      if (!role || !context.guildId) return fail(`unknown role ${id}`);
      (resolved.roles ??= {})[id] = role;
      return id;
    }
    case ApplicationCommandOptionType.Channel: {
      const id = String(raw);
      const channel = state.channels.get(id);
      if (!channel) return fail(`unknown channel ${id}`);
      if (option.channel_types?.length && !option.channel_types.includes(channel.type as never)) {
        fail(`channel type ${channel.type} not allowed`);
      }
      (resolved.channels ??= {})[id] = channelResolved(state, channel, context.userId);
      return id;
    }
    default:
      return fail(`option type ${option.type} is not supported by the stand-in`);
  }
}

/** Splits `"token set"` into command, group and subcommand names. */
function commandPath(request: SlashInteraction | AutocompleteInteraction): { name: string; path: string[] } {
  const words = request.name.trim().replace(/^\//, "").split(/\s+/);
  const name = words.shift()!;
  const path = [...words];
  if (request.group) path.push(request.group);
  if (request.subcommand) path.push(request.subcommand);
  return { name, path };
}

/** Builds the data of a slash command or autocomplete interaction from the registered definition. */
function commandData(
  state: DiscordState,
  request: SlashInteraction | AutocompleteInteraction,
  guildId: string | null,
  userId: string,
): { data: JsonObject; displayName: string } {
  const { name, path } = commandPath(request);
  const command = findCommand(state, name, guildId);
  const resolved: APIInteractionDataResolved = {};
  const focused = request.kind === "autocomplete" ? request.focused : null;
  let definitions: readonly APIApplicationCommandOption[] = command.options ?? [];
  const chain: OptionData[] = [];
  for (const word of path) {
    const sub = definitions.find(
      (option) =>
        option.name === word &&
        (option.type === ApplicationCommandOptionType.Subcommand ||
          option.type === ApplicationCommandOptionType.SubcommandGroup),
    );
    if (!sub) throw new Error(`/${name} has no subcommand ${word}`);
    chain.push({ name: sub.name, type: sub.type });
    definitions = ("options" in sub ? sub.options : undefined) ?? [];
  }
  const needsSub = definitions.some(
    (option) =>
      option.type === ApplicationCommandOptionType.Subcommand ||
      option.type === ApplicationCommandOptionType.SubcommandGroup,
  );
  if (needsSub) throw new Error(`/${[name, ...path].join(" ")} needs a subcommand`);
  const given = request.options ?? {};
  for (const key of Object.keys(given)) {
    if (!definitions.some((option) => option.name === key)) {
      throw new Error(`/${[name, ...path].join(" ")} has no option ${key}`);
    }
  }
  if (focused !== null && !definitions.some((option) => option.name === focused)) {
    throw new Error(`/${[name, ...path].join(" ")} has no option ${focused} to focus`);
  }
  const leaf: OptionData[] = [];
  for (const option of definitions) {
    if (option.name === focused) {
      if (!("autocomplete" in option) || option.autocomplete !== true) {
        throw new Error(`option ${option.name} does not autocomplete`);
      }
      // While typing, the focused value is the raw text, whatever the option's type.
      leaf.push({
        name: option.name,
        type: option.type,
        value: String(given[option.name] ?? ""),
        focused: true,
      });
      continue;
    }
    const raw = given[option.name];
    if (raw === undefined) {
      if ("required" in option && option.required && focused === null) {
        throw new Error(`/${[name, ...path].join(" ")} needs option ${option.name}`);
      }
      continue;
    }
    const value = convertOption(state, option, raw, resolved, { guildId, userId });
    leaf.push({ name: option.name, type: option.type, value });
  }
  let options: OptionData[] = leaf;
  for (let index = chain.length - 1; index >= 0; index--) {
    options = [{ ...chain[index]!, options }];
  }
  const data: JsonObject = {
    id: command.id,
    name: command.name,
    type: ApplicationCommandType.ChatInput,
    ...(options.length > 0 ? { options } : {}),
    ...(Object.keys(resolved).length > 0 ? { resolved } : {}),
    ...(command.guild_id ? { guild_id: command.guild_id } : {}),
  };
  return { data, displayName: [command.name, ...path].join(" ") };
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
  const user = resolveUser(state, request.user);
  const channel = resolveChannel(state, request.channel, user);
  const type =
    request.kind === "slash"
      ? InteractionType.ApplicationCommand
      : InteractionType.ApplicationCommandAutocomplete;
  const { fields, guildId } = commonFields(state, type, user, channel, request);
  const { data, displayName } = commandData(state, request, guildId, user.id);
  const payload = { ...fields, data } as unknown as APIInteraction;
  return {
    payload,
    state: stateFor(payload, request.kind, {
      channelId: channel.id,
      guildId,
      userId: user.id,
      sourceMessageId: null,
      commandName: displayName,
    }),
  };
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
  const user = resolveUser(state, request.user);
  const channel = state.requireChannel(message.channelId);
  const { fields, guildId } = commonFields(state, InteractionType.MessageComponent, user, channel, request);
  const origin = message.interactionId ? state.interactions.get(message.interactionId) : undefined;
  const payload = {
    ...fields,
    message: messageSnapshot(message, state),
    data: { custom_id: request.customId, component_type: ComponentType.Button },
  } as unknown as APIInteraction;
  return {
    payload,
    state: stateFor(payload, "button", {
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
    const copy: JsonObject = { ...component, id: typeof component.id === "number" ? component.id : next };
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
  const { fields, guildId } = commonFields(state, InteractionType.ModalSubmit, user, channel, request);
  const shown = numberComponents(origin.modal.components as unknown[]);
  const { components, used } = modalComponents(shown, request.fields);
  for (const key of Object.keys(request.fields)) {
    if (!used.has(key)) throw new Error(`the modal has no text input ${key}`);
  }
  const source = origin.sourceMessageId ? state.messages.get(origin.sourceMessageId) : undefined;
  const payload = {
    ...fields,
    ...(source ? { message: messageSnapshot(source, state) } : {}),
    data: { custom_id: origin.modal.custom_id, components },
  } as unknown as APIInteraction;
  return {
    payload,
    state: stateFor(payload, "modal", {
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
  };
}

/**
 * Builds an interaction payload exactly as Discord sends it over the gateway, for a slash
 * command, an autocomplete request, a button click or a modal submission.
 * @throws Error when a real user could not send it (unregistered command, unknown option,
 * missing required option, no such button, a modal that was never shown).
 */
export function buildInteraction(state: DiscordState, request: InteractionRequest): BuiltInteraction {
  switch (request.kind) {
    case "slash":
    case "autocomplete":
      return buildSlashOrAutocomplete(state, request);
    case "button":
      return buildButton(state, request);
    case "modal":
      return buildModalSubmit(state, request);
  }
}
