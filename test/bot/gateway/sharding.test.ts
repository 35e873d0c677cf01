import type { APIInteraction } from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBot, type Bot } from "../../../src/bot/bot.js";
import type { Responder } from "../../../src/bot/core/responder.js";
import { shardOptions } from "../../../src/bot/gateway/gatewayClient.js";
import { loadCommands } from "../../../src/bot/loadCommands.js";
import { silentLogger } from "../../../src/logger.js";
import { shardOf } from "../../../src/sandbox/discord/index.js";
import { startSandboxWorld, type SandboxWorld } from "../../../src/sandbox/harness.js";
import { transcriptOf } from "../../../src/sandbox/transcript.js";

/** Records which interactions a bot's core was handed. */
function recordRouted(bot: Bot): string[] {
  const routed: string[] = [];
  const { core } = bot;
  const handle = core.handle.bind(core);
  core.handle = (interaction: APIInteraction, responder: Responder) => {
    routed.push(interaction.id);
    return handle(interaction, responder);
  };
  return routed;
}

describe("the shards of a process (DISCORD_SHARDS / DISCORD_SHARD_COUNT)", () => {
  it("maps to discord.js's options: the ids named, every id below the count, or Discord's recommendation", () => {
    expect(shardOptions({ ids: [1, 3], count: 4 })).toEqual({ shards: [1, 3], shardCount: 4 });
    expect(shardOptions({ ids: undefined, count: 3 })).toEqual({ shards: [0, 1, 2], shardCount: 3 });
    expect(shardOptions({ ids: undefined, count: undefined })).toEqual({ shards: "auto" });
  });
});

describe("two gateway processes, one shard each", () => {
  let world: SandboxWorld;
  let second: Bot;
  let routedByShard: [string[], string[]];

  beforeAll(async () => {
    world = await startSandboxWorld({
      shards: { ids: [0], count: 2 },
      // Two IDENTIFYs at once are allowed (buckets 0 and 1), as for a bot with max_concurrency 2.
      discord: {
        maxConcurrency: 2,
        generatedGuilds: { count: 6, channels: 2, roles: 2, emojis: 0, members: 2 },
      },
    });
    second = createBot({
      token: world.discord.botToken,
      apiUrl: world.discord.apiUrl,
      shards: { ids: [1], count: 2 },
      commands: await loadCommands(),
      services: world.running.services,
      logger: silentLogger(),
    });
    await second.start();
    routedByShard = [recordRouted(world.bot), recordRouted(second)];
  });
  afterAll(async () => {
    await second?.stop(1_000);
    await world?.close();
  });

  it("identifies one session per shard, out of two", () => {
    const sessions = world.discord.gatewaySessions().filter((session) => session.connected);
    expect(sessions.map((session) => session.shard).sort()).toEqual([
      [0, 2],
      [1, 2],
    ]);
  });

  it("hands every server's interactions to exactly the process running its shard, which answers", async () => {
    const places = [{ guildId: world.discord.guildId, channel: world.discord.channels.text }];
    for (let index = 0; index < 6; index += 1) {
      const ids = world.discord.generatedGuild(index);
      places.push({ guildId: ids.guildId, channel: ids.textChannelIds[0]! });
    }
    const shards = new Set(places.map((place) => shardOf(place.guildId, 2)));
    expect([...shards].sort()).toEqual([0, 1]);
    for (const place of places) {
      const record = await world.run({ kind: "slash", name: "whoami", channel: place.channel });
      const shard = shardOf(place.guildId, 2);
      expect(record.delivery).toMatchObject({ transport: "gateway", shard: [shard, 2] });
      expect(routedByShard[shard]).toContain(record.id);
      expect(routedByShard[1 - shard]).not.toContain(record.id);
      expect(transcriptOf(record).text).toContain("demo\\-user");
    }
  });

  it("hands direct messages to shard 0", async () => {
    const record = await world.run({ kind: "slash", name: "whoami", channel: "dm" });
    expect(record.delivery).toMatchObject({ transport: "gateway", shard: [0, 2] });
    expect(routedByShard[0]).toContain(record.id);
    expect(routedByShard[1]).not.toContain(record.id);
    expect(transcriptOf(record).isError).toBe(false);
  });
});
