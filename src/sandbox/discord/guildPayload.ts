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
import type { DiscordState } from "./state.js";
import type { GuildRecord } from "./world.js";

/** A member as Discord sends it (without interaction-only fields). */
export function memberPayload(
  state: DiscordState,
  userId: string,
  guild: GuildRecord = state.guild,
): APIGuildMember | null {
  const member = guild.members.get(userId);
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
export function guildPayload(state: DiscordState, guild: GuildRecord = state.guild): APIGuild {
  return guildObject(state, guild, guildChannels(state, guild));
}

function guildObject(state: DiscordState, guild: GuildRecord, channels: readonly APIChannel[]): APIGuild {
  const systemChannelId =
    guild === state.guild
      ? state.world.channels.text.id
      : (channels.find((channel) => channel.type === ChannelType.GuildText)?.id ?? null);
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
    roles: [...guild.roles.values()].map((role) => ({ ...role })),
    emojis: guild.emojis.map((emoji) => ({ ...emoji })),
    stickers: [],
    features: [...guild.features] as APIGuild["features"],
    mfa_level: GuildMFALevel.None,
    application_id: null,
    system_channel_id: systemChannelId,
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
export function guildChannels(state: DiscordState, guild: GuildRecord = state.guild): APIChannel[] {
  const part = state.generated?.decode(guild.id);
  const channels: APIChannel[] = [];
  guild.channelIds.forEach((id, k) => {
    // A generated channel nobody touched is built fresh (and dropped after use).
    const channel =
      part && !state.channels.holds(id) ? state.generated!.channelAt(part.index, k) : state.channels.get(id);
    if (channel) channels.push(channel);
  });
  return channels;
}

/**
 * The full GUILD_CREATE a bot gets after READY: the guild with roles, its channels (without
 * `guild_id`, as Discord sends them there), active threads, and, with only the Guilds intent,
 * the bot's own member. Enough for discord.js to cache the guild and compute permissions.
 */
export function guildCreatePayload(
  state: DiscordState,
  guild: GuildRecord = state.guild,
): GatewayGuildCreateDispatchData {
  // The copies are only serialized: a shallow copy without guild_id is enough.
  const strip = (channel: APIChannel) => {
    const { guild_id: _guildId, ...copy } = channel as APIChannel & { guild_id?: string };
    return copy;
  };
  const threads: APIChannel[] = [];
  for (const id of state.threads.keys()) {
    const channel = state.channels.get(id);
    if (
      channel &&
      state.isThread(channel) &&
      channel.guild_id === guild.id &&
      channel.thread_metadata?.archived !== true
    )
      threads.push(channel);
  }
  const me = memberPayload(state, state.bot.id, guild)!;
  const channels = guildChannels(state, guild);
  // Object.assign, not a spread: spreading a 45-field object into a literal costs a quarter of a
  // millisecond, which thousands of generated GUILD_CREATEs would feel.
  return Object.assign(guildObject(state, guild, channels), {
    joined_at: me.joined_at ?? new Date().toISOString(),
    large: guild.memberCount > 250,
    unavailable: false,
    member_count: guild.memberCount,
    voice_states: [],
    members: [me],
    channels: channels.map(strip) as GatewayGuildCreateDispatchData["channels"],
    threads: threads.map(strip) as GatewayGuildCreateDispatchData["threads"],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  });
}

/** True for channel types a thread can be started in. */
export function canHoldThreads(type: ChannelType): boolean {
  return type === ChannelType.GuildText || type === ChannelType.GuildAnnouncement;
}
