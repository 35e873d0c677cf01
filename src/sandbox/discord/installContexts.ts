import {
  ApplicationCommandType,
  ApplicationIntegrationType,
  InteractionContextType,
  PermissionFlagsBits,
  type APIApplicationCommand,
  type APIChannel,
  type APIUser,
} from "discord-api-types/v10";
import { DM_APP_PERMISSIONS, hasPermissions } from "./permissions.js";
import type { DiscordState } from "./state.js";

const P = PermissionFlagsBits;

/**
 * `app_permissions` of an app reached through a user install where it is no member: what the
 * docs list for DMs between users ("ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE"). Discord does
 * not document the value in a server the app is not in; the stand-in gives the same bits, less
 * those the invoker lacks there (a user-installed app is "forced to respect the user's
 * permissions").
 */
export const EXTERNAL_APP_PERMISSIONS: bigint = P.AttachFiles | P.EmbedLinks | P.MentionEveryone;

/** Who authorized an interaction and what follows from it. */
export interface InstallContext {
  /** 0 server, 1 DM with the bot, 2 group DM or DM between users. */
  context: InteractionContextType;
  /** `authorizing_integration_owners`: "0" (guild install) the guild id or "0" in the bot's DM; "1" (user install) the user. */
  owners: Record<string, string>;
  appPermissions: bigint;
  /** Only a user install authorizes it: at most 5 follow-ups, no channel access. */
  userInstallOnly: boolean;
  /**
   * Discord makes the responses ephemeral: a user-installed app in a server it is not in, where
   * the invoker may not use external apps (Use External Apps, `1 << 50`) or send messages.
   */
  forcedEphemeral: boolean;
}

/** The interaction context of a channel. */
export function contextOf(state: DiscordState, channel: APIChannel): InteractionContextType {
  if (state.guildIdOf(channel) !== null) return InteractionContextType.Guild;
  return state.foreignChannels.has(channel.id)
    ? InteractionContextType.PrivateChannel
    : InteractionContextType.BotDM;
}

/** The installation contexts a command supports (guild commands: the guild install only). */
export function integrationTypesOf(command: APIApplicationCommand): number[] {
  if (command.guild_id) return [ApplicationIntegrationType.GuildInstall];
  return command.integration_types ?? [ApplicationIntegrationType.GuildInstall];
}

/** True when a command may be used in a context (its `contexts`, and the legacy `dm_permission`). */
export function commandAllowedIn(command: APIApplicationCommand, context: InteractionContextType): boolean {
  if (command.guild_id) return context === InteractionContextType.Guild;
  if (context === InteractionContextType.BotDM && command.dm_permission === false) return false;
  return !command.contexts || command.contexts.includes(context);
}

/**
 * Works out `context`, `authorizing_integration_owners` and `app_permissions` of an interaction,
 * by the rules of DISCORD-FACTS "Installation contexts": a key is present when the app is
 * installed that way (the guild install: the bot is in the server, or the bot's own DM; the user
 * install: the invoker installed the app to their account) and the command supports it
 * (`integration_types`). Components and modals carry the owners of the interaction that made them.
 * @throws Error when no installation reaches the app there (a user could not send it).
 */
export function installContext(
  state: DiscordState,
  input: {
    channel: APIChannel;
    user: APIUser;
    /** The command's integration types (null: a component, which inherits `inherited`). */
    integrationTypes: readonly number[] | null;
    inherited?: Record<string, string> | undefined;
    what: string;
  },
): InstallContext {
  const { channel, user } = input;
  const context = contextOf(state, channel);
  const guild = state.guildOfChannel(channel);
  let owners: Record<string, string>;
  if (input.inherited) {
    owners = { ...input.inherited };
  } else {
    owners = {};
    const supports = (type: number) =>
      input.integrationTypes === null || input.integrationTypes.includes(type);
    const guildInstalled =
      context === InteractionContextType.Guild
        ? guild?.botMember === true
        : context === InteractionContextType.BotDM;
    if (guildInstalled && supports(ApplicationIntegrationType.GuildInstall)) {
      owners[ApplicationIntegrationType.GuildInstall] = guild ? guild.id : "0";
    }
    if (state.userInstalls.has(user.id) && supports(ApplicationIntegrationType.UserInstall)) {
      owners[ApplicationIntegrationType.UserInstall] = user.id;
    }
  }
  if (Object.keys(owners).length === 0) {
    const where =
      context === InteractionContextType.Guild
        ? guild?.botMember
          ? "in this server"
          : "in a server the app is not installed to"
        : context === InteractionContextType.BotDM
          ? "in the DM with the bot"
          : "in a group DM or a DM between users";
    throw new Error(
      `${input.what} cannot be used ${where}: no installation of the app reaches ${user.username} here ` +
        `(integration_types ${JSON.stringify(input.integrationTypes)}, user install ${state.userInstalls.has(user.id) ? "yes" : "no"})`,
    );
  }
  const userInstallOnly = owners[ApplicationIntegrationType.GuildInstall] === undefined;
  let appPermissions: bigint;
  let forcedEphemeral = false;
  if (guild?.botMember) {
    appPermissions = state.botPermissionsIn(channel.id);
  } else if (guild) {
    const invoker = state.permissionsIn(channel.id, user.id);
    appPermissions = EXTERNAL_APP_PERMISSIONS & invoker;
    forcedEphemeral = !hasPermissions(invoker, P.UseExternalApps | P.SendMessages);
  } else {
    appPermissions = context === InteractionContextType.BotDM ? DM_APP_PERMISSIONS : EXTERNAL_APP_PERMISSIONS;
  }
  return { context, owners, appPermissions, userInstallOnly, forcedEphemeral };
}

/** The type of a registered command as a number (absent: chat input). */
export function commandType(command: { type?: number }): number {
  return command.type ?? ApplicationCommandType.ChatInput;
}
