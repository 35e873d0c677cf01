import {
  ApplicationIntegrationType,
  PermissionFlagsBits,
  type APIInteraction,
  type APIPingInteraction,
  type ChannelType,
} from "discord-api-types/v10";
import { AdminOnlyError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { CommandRequest } from "../commandModule.js";
import { answerPlaceOf, type AnswerPlace } from "./privateDelivery.js";

/** Any interaction but a PING: one a person sent. */
export type PersonInteraction = Exclude<APIInteraction, APIPingInteraction>;

/** An interaction's token edits its reply for 15 minutes; continuations stop this much earlier. */
const EDIT_WINDOW_MS = 15 * 60_000 - 30_000;
/** Discord's epoch (2015-01-01) in Unix milliseconds: a snowflake's top bits count from it. */
const DISCORD_EPOCH_MS = 1_420_070_400_000n;

/** What the core knows of where and by whom an interaction was sent, read from its payload. */
export interface InteractionFacts {
  /** What commands see. */
  request: CommandRequest;
  /** Who else reads an answer there. */
  place: AnswerPlace;
  /** Sent in a server that installed the app, by a member of it (not in a DM, not a user install only). */
  inGuild: boolean;
  /**
   * Only a user install serves it (`authorizing_integration_owners` without "0"): the bot is no
   * member of the place, so there is no server token, no server setting, no thread, and at most
   * 5 follow-ups.
   */
  userInstallOnly: boolean;
  /** The type of the channel it was sent in (null when the payload does not say). */
  channelType: ChannelType | null;
  /** What the bot may do in that channel (`app_permissions`). */
  appPermissions: bigint;
}

/** When a snowflake was made, in Unix milliseconds. */
export function snowflakeTime(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH_MS);
}

/** The facts of an interaction payload; `logger` is the interaction's own. */
export function factsOf(interaction: PersonInteraction, logger: Logger): InteractionFacts {
  const sentInGuild = interaction.guild_id ?? null;
  const owners = interaction.authorizing_integration_owners;
  // Payloads from before installation contexts carry no owners: the guild install, as then.
  const userInstallOnly =
    owners?.[ApplicationIntegrationType.UserInstall] !== undefined &&
    owners[ApplicationIntegrationType.GuildInstall] === undefined;
  // Where only the user's install reaches, nothing of the server applies: its token and settings
  // are for the app it installed, which it did not.
  const guildId = userInstallOnly ? null : sentInGuild;
  const user = interaction.member?.user ?? interaction.user;
  return {
    request: {
      interactionId: interaction.id,
      guildId,
      channelId: interaction.channel?.id ?? interaction.channel_id ?? null,
      userId: user?.id ?? "",
      memberPermissions: interaction.member ? BigInt(interaction.member.permissions) : null,
      locale: interaction.locale,
      logger,
      editBy: new Date(snowflakeTime(interaction.id) + EDIT_WINDOW_MS),
    },
    place: answerPlaceOf({
      context: interaction.context ?? null,
      guildId: sentInGuild,
      channel: interaction.channel ?? null,
    }),
    inGuild: guildId !== null && interaction.member !== undefined,
    userInstallOnly,
    channelType: interaction.channel?.type ?? null,
    appPermissions: BigInt(interaction.app_permissions ?? "0"),
  };
}

function isManager(permissions: bigint | null): boolean {
  if (permissions === null) return false;
  return (
    (permissions & PermissionFlagsBits.ManageGuild) !== 0n ||
    (permissions & PermissionFlagsBits.Administrator) !== 0n
  );
}

/**
 * Refuses an admin command outside a server or to a member without Manage Server: servers can
 * override `default_member_permissions`, so the member's own permissions are checked here too.
 * @throws AdminOnlyError saying which.
 */
export function assertAdmin(request: CommandRequest): void {
  if (request.guildId === null) {
    throw new AdminOnlyError("notInServer");
  }
  if (!isManager(request.memberPermissions)) {
    throw new AdminOnlyError("notManager");
  }
}
