import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  type APIApplicationCommand,
  type APIApplicationCommandOption,
  type APIChannel,
  type APIInteractionDataResolved,
  type APIInteractionDataResolvedChannel,
  type GuildMemberFlags,
} from "discord-api-types/v10";
import type { AutocompleteInteraction, OptionInput, SlashInteraction } from "./interactionPayloads.js";
import { merged, type JsonObject } from "./json.js";
import type { DiscordState } from "./state.js";

/** Option data as Discord sends it. */
interface OptionData {
  name: string;
  type: number;
  value?: OptionInput;
  options?: OptionData[];
  focused?: boolean;
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
    return merged(base, {
      type: channel.type,
      parent_id: channel.parent_id,
      thread_metadata: channel.thread_metadata,
    }) as APIInteractionDataResolvedChannel;
  }
  return base as APIInteractionDataResolvedChannel;
}

/** Converts a value to the option's type, as Discord's client would before sending. */
function convertOption(
  state: DiscordState,
  option: APIApplicationCommandOption,
  raw: OptionInput,
  resolved: APIInteractionDataResolved,
  context: { guildId: string | null; userId: string; channelId: string },
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
        const member = context.guildId ? state.guilds.get(context.guildId)?.members.get(id) : undefined;
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
            permissions: state.permissionsIn(context.channelId, id).toString(),
          };
        }
        return id;
      }
      const mentionable = context.guildId ? state.guilds.get(context.guildId)?.roles.get(id) : undefined;
      if (option.type === ApplicationCommandOptionType.Mentionable && mentionable) {
        (resolved.roles ??= {})[id] = mentionable;
        return id;
      }
      return fail(`unknown user ${id}`);
    }
    case ApplicationCommandOptionType.Role: {
      const id = String(raw);
      const role = context.guildId ? state.guilds.get(context.guildId)?.roles.get(id) : undefined;
      if (!role) return fail(`unknown role ${id}`);
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
export function commandPath(request: SlashInteraction | AutocompleteInteraction): {
  name: string;
  path: string[];
} {
  const words = request.name.trim().replace(/^\//, "").split(/\s+/);
  const name = words.shift()!;
  const path = [...words];
  if (request.group) path.push(request.group);
  if (request.subcommand) path.push(request.subcommand);
  return { name, path };
}

/** Builds the data of a slash command or autocomplete interaction from the registered definition. */
export function commandData(
  state: DiscordState,
  request: SlashInteraction | AutocompleteInteraction,
  command: APIApplicationCommand,
  guildId: string | null,
  userId: string,
  channelId: string,
): { data: JsonObject; displayName: string } {
  const { name, path } = commandPath(request);
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
    const value = convertOption(state, option, raw, resolved, { guildId, userId, channelId });
    leaf.push({ name: option.name, type: option.type, value });
  }
  let options: OptionData[] = leaf;
  for (let index = chain.length - 1; index >= 0; index--) {
    options = [merged(chain[index]!, { options })];
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
