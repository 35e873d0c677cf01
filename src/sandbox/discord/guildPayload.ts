import {
  ChannelType,
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  GuildMFALevel,
  GuildNSFWLevel,
  GuildPremiumTier,
  GuildVerificationLevel,
  type Locale,
  type APIChannel,
  type APIGuild,
  type APIGuildMember,
  type GuildMemberFlags,
  type GuildSystemChannelFlags,
  type GatewayGuildCreateDispatchData,
} from "discord-api-types/v10";
import { cloneJson } from "./json.js";
import type { DiscordState } from "./state.js";

/** A member as Discord sends it (without interaction-only fields). */
export function memberPayload(state: DiscordState, userId: string): APIGuildMember | null {
  const member = state.guild.members.get(userId);
  if (!member) return null;
  return {
    user: member.user,
    roles: [...member.roleIds],
    nick: member.nick,
    avatar: null,
    banner: null,
    joined_at: member.joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0 as GuildMemberFlags,
    pending: false,
    communication_disabled_until: null,
  };
}

/** The guild object of `GET /guilds/{id}`. */
export function guildPayload(state: DiscordState): APIGuild {
  const guild = state.guild;
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    icon_hash: null,
    splash: null,
    discovery_splash: null,
    owner_id: guild.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: GuildVerificationLevel.Low,
    default_message_notifications: GuildDefaultMessageNotifications.OnlyMentions,
    explicit_content_filter: GuildExplicitContentFilter.AllMembers,
    roles: [...guild.roles.values()].map((role) => cloneJson(role)),
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: GuildMFALevel.None,
    application_id: null,
    system_channel_id: state.world.channels.text.id,
    system_channel_flags: 0 as GuildSystemChannelFlags,
    rules_channel_id: null,
    max_presences: null,
    max_members: 500_000,
    vanity_url_code: null,
    description: null,
    banner: null,
    premium_tier: GuildPremiumTier.None,
    premium_subscription_count: 0,
    preferred_locale: guild.preferredLocale as Locale,
    public_updates_channel_id: null,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    nsfw_level: GuildNSFWLevel.Default,
    premium_progress_bar_enabled: false,
    hub_type: null,
    safety_alerts_channel_id: null,
    incidents_data: null,
  };
}

/** Channels of the guild that are not threads, as Discord lists them. */
export function guildChannels(state: DiscordState): APIChannel[] {
  return [...state.channels.values()].filter(
    (channel) => state.guildIdOf(channel) === state.guild.id && !state.isThread(channel),
  );
}

/**
 * The full GUILD_CREATE a bot gets after READY: the guild with roles, its channels (without
 * `guild_id`, as Discord sends them there), active threads, and, with only the Guilds intent,
 * the bot's own member. Enough for discord.js to cache the guild and compute permissions.
 */
export function guildCreatePayload(state: DiscordState): GatewayGuildCreateDispatchData {
  const strip = (channel: APIChannel) => {
    const copy = cloneJson(channel) as APIChannel & { guild_id?: string };
    delete copy.guild_id;
    return copy;
  };
  const threads = [...state.channels.values()].filter(
    (channel) =>
      state.isThread(channel) &&
      channel.guild_id === state.guild.id &&
      channel.thread_metadata?.archived !== true,
  );
  const me = memberPayload(state, state.bot.id)!;
  return {
    ...guildPayload(state),
    joined_at: me.joined_at ?? new Date().toISOString(),
    large: false,
    unavailable: false,
    member_count: state.guild.members.size,
    voice_states: [],
    members: [me],
    channels: guildChannels(state).map(strip) as GatewayGuildCreateDispatchData["channels"],
    threads: threads.map(strip) as GatewayGuildCreateDispatchData["threads"],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

/** True for channel types a thread can be started in. */
export function canHoldThreads(type: ChannelType): boolean {
  return type === ChannelType.GuildText || type === ChannelType.GuildAnnouncement;
}
