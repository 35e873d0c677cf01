import {
  Client,
  Events,
  GatewayDispatchEvents,
  GatewayIntentBits,
  Options,
  type APIInteraction,
} from "discord.js";
import type { Logger } from "../../logger.js";

/** The shards of this process (SPEC section 5): both undefined, every shard Discord recommends. */
export interface ShardSelection {
  ids: number[] | undefined;
  count: number | undefined;
}

/**
 * discord.js's `shards` and `shardCount` for a selection: the ids named (out of `count`), every id
 * below `count`, or "auto" (the count `GET /gateway/bot` recommends, all in this process).
 */
export function shardOptions(shards: ShardSelection): { shards: number[] | "auto"; shardCount?: number } {
  if (shards.count === undefined) return { shards: "auto" };
  const ids = shards.ids ?? Array.from({ length: shards.count }, (_, id) => id);
  return { shards: ids, shardCount: shards.count };
}

/**
 * The discord.js client of the gateway transport: the Guilds intent only (no privileged intent),
 * and caches limited to what discord.js needs to keep its sessions (the core reads raw payloads,
 * so the messages, members, emojis, stickers, presences and users of every server are not kept).
 * Each INTERACTION_CREATE's raw payload goes to `onInteraction`, whatever discord.js makes of it.
 */
export function createGatewayClient(options: {
  apiUrl: string;
  shards: ShardSelection;
  logger: Logger;
  onInteraction: (interaction: APIInteraction, shardId: number) => void;
}): Client {
  const { logger } = options;
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    ...shardOptions(options.shards),
    makeCache: Options.cacheWithLimits({
      MessageManager: 0,
      ReactionManager: 0,
      ReactionUserManager: 0,
      GuildMemberManager: 0,
      UserManager: 0,
      PresenceManager: 0,
      VoiceStateManager: 0,
      GuildEmojiManager: 0,
      BaseGuildEmojiManager: 0,
      GuildStickerManager: 0,
      GuildScheduledEventManager: 0,
      StageInstanceManager: 0,
      ThreadMemberManager: 0,
      ApplicationCommandManager: 0,
      GuildBanManager: 0,
      GuildInviteManager: 0,
      AutoModerationRuleManager: 0,
    }),
    rest: { api: options.apiUrl },
    allowedMentions: { parse: [] },
  });
  client.ws.on(GatewayDispatchEvents.InteractionCreate, (interaction: APIInteraction, shardId: number) =>
    options.onInteraction(interaction, shardId),
  );
  client.on(Events.Error, (error) => logger.error({ err: error }, "discord client error"));
  client.on(Events.Warn, (message) => logger.warn({ discord: message }, "discord client warning"));
  client.on(Events.ShardReady, (shardId) => logger.info({ shardId }, "gateway shard ready"));
  client.on(Events.ShardDisconnect, (_event, shardId) => logger.warn({ shardId }, "gateway disconnected"));
  client.on(Events.ShardResume, (shardId) => logger.info({ shardId }, "gateway resumed"));
  return client;
}
