import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shardOf, startDiscordStandIn, type DiscordStandIn } from "../../../src/sandbox/discord/index.js";
import { openRawGateway, type GatewayPayload } from "./rawGatewayClient.js";

const GENERATED = 2999;
let discord: DiscordStandIn;

beforeAll(async () => {
  discord = await startDiscordStandIn({ generatedGuilds: { count: GENERATED }, identifyWindowMs: 0 });
  discord.registerCommands([{ name: "ping", description: "Answers pong" }]);
});

afterAll(async () => {
  await discord?.close();
});

const v10 = (path: string) => `${discord.apiUrl}/v10${path}`;

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(v10(path), { headers: { Authorization: `Bot ${discord.botToken}` } });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** Identifies a raw session on `shard` and collects READY and every GUILD_CREATE it announces. */
async function identifyShard(shard: [number, number]) {
  const client = await openRawGateway(discord.gatewayUrl);
  await client.next((payload) => payload.op === 10);
  client.send({ op: 2, d: { token: discord.botToken, intents: 1, properties: {}, shard } });
  const ready = await client.next((payload) => payload.t === "READY" || payload.op === 9, 5000);
  const announced = (ready.d as { guilds?: Array<{ id: string; unavailable: boolean }> }).guilds ?? [];
  const creates: GatewayPayload[] = [];
  while (creates.length < announced.length) {
    creates.push(await client.next((payload) => payload.t === "GUILD_CREATE", 10_000));
  }
  return { client, ready, announced, creates };
}

interface GuildCreate {
  id: string;
  channels: Array<{ id: string; type: number; guild_id?: string }>;
  roles: Array<{ id: string; managed: boolean }>;
  emojis: unknown[];
  members: Array<{ user: { id: string }; roles: string[] }>;
  member_count: number;
}

describe("a world of many servers", () => {
  it("recommends one shard per 1,000 servers in GET /gateway/bot", async () => {
    const { body } = await get("/gateway/bot");
    // The generated servers and the main one; `elsewhere` does not count (the bot is not in it).
    expect(body).toMatchObject({ shards: 3, session_start_limit: { max_concurrency: 1 } });
  });

  it("closes an unsharded session with 4011 past 2,500 servers, as Discord does", async () => {
    const client = await openRawGateway(discord.gatewayUrl);
    await client.next((payload) => payload.op === 10);
    client.send({ op: 2, d: { token: discord.botToken, intents: 1, properties: {} } });
    expect(await client.closed).toBe(4011);
  });

  it("streams a realistic GUILD_CREATE for every server of the session's shard and only those", async () => {
    const { client, announced, creates } = await identifyShard([1, 3]);
    expect(announced.length).toBeGreaterThan(900);
    expect(announced.every((guild) => shardOf(guild.id, 3) === 1 && guild.unavailable)).toBe(true);
    expect(announced.some((guild) => guild.id === discord.guilds.elsewhere)).toBe(false);
    expect(creates.map((payload) => (payload.d as GuildCreate).id)).toEqual(
      announced.map((guild) => guild.id),
    );
    // Sequence numbers follow READY without a gap.
    expect(creates.map((payload) => payload.s)).toEqual(creates.map((_, index) => index + 2));
    const generated = creates
      .map((payload) => payload.d as GuildCreate)
      .find((guild) => guild.id !== discord.guildId)!;
    expect(generated.channels).toHaveLength(30);
    expect(generated.channels.every((channel) => channel.guild_id === undefined)).toBe(true);
    expect(generated.roles).toHaveLength(20);
    expect(generated.roles.filter((role) => role.managed)).toHaveLength(1);
    expect(generated.emojis).toHaveLength(20);
    expect(generated.members).toEqual([
      expect.objectContaining({ user: expect.objectContaining({ id: discord.botUserId }) }),
    ]);
    expect(generated.member_count).toBe(51);
    await client.close();
  });

  it("answers the REST routes of a generated server as its GUILD_CREATE describes it", async () => {
    const ids = discord.generatedGuild(42);
    const guild = await get(`/guilds/${ids.guildId}`);
    expect(guild).toMatchObject({ status: 200, body: { id: ids.guildId, name: "Generated 43" } });
    const channels = await get(`/guilds/${ids.guildId}/channels`);
    expect((channels.body as Array<{ id: string }>).map((channel) => channel.id)).toEqual(ids.channelIds);
    const channel = await get(`/channels/${ids.textChannelIds[0]}`);
    expect(channel).toMatchObject({
      status: 200,
      body: { id: ids.textChannelIds[0], guild_id: ids.guildId, type: 0 },
    });
    const member = await get(`/guilds/${ids.guildId}/members/${ids.memberIds[3]}`);
    expect(member).toMatchObject({ status: 200, body: { user: { id: ids.memberIds[3] } } });
    expect((member.body as { roles: string[] }).roles.length).toBeGreaterThan(1);
    expect(await get(`/guilds/${ids.guildId}/members/${discord.users.member.id}`)).toMatchObject({
      status: 404,
      body: { code: 10007 },
    });
  });

  it("lists the bot's servers 200 at a time, by id", async () => {
    const first = (await get("/users/@me/guilds")).body as Array<{ id: string }>;
    expect(first).toHaveLength(200);
    const next = (await get(`/users/@me/guilds?after=${first.at(-1)!.id}&limit=5`)).body as Array<{
      id: string;
    }>;
    expect(next).toHaveLength(5);
    expect(BigInt(next[0]!.id)).toBeGreaterThan(BigInt(first.at(-1)!.id));
  });

  it("sends an interaction of a generated server with its member, roles and channel", async () => {
    const ids = discord.generatedGuild(7);
    const shard = shardOf(ids.guildId, 3);
    const { client } = await identifyShard([shard, 3]);
    const handle = await discord.interact({ kind: "slash", name: "ping", channel: ids.textChannelIds[2]! });
    const received = await client.next((payload) => payload.t === "INTERACTION_CREATE");
    expect(received.d).toMatchObject({
      id: handle.id,
      guild_id: ids.guildId,
      channel_id: ids.textChannelIds[2],
      channel: { id: ids.textChannelIds[2], type: 0 },
      member: { user: { id: ids.memberIds[1] } },
      authorizing_integration_owners: { "0": ids.guildId },
    });
    expect((received.d as { member: { roles: string[] } }).member.roles.length).toBeGreaterThan(1);
    await client.close();
  });

  it("keeps the bot out of a server it is not in and of private channels it is not part of", async () => {
    expect(await get(`/guilds/${discord.guilds.elsewhere}`)).toMatchObject({
      status: 403,
      body: { code: 50001 },
    });
    for (const channel of [discord.channels.lobby, discord.channels.groupDm, discord.channels.userDm]) {
      expect(await get(`/channels/${channel}`)).toMatchObject({
        status: 403,
        body: { code: 50001, message: "Missing Access" },
      });
    }
    expect(await get(`/channels/${discord.channels.codeLinks}`)).toMatchObject({ status: 200 });
  });
});
