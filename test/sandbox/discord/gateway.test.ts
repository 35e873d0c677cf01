import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDiscordStandIn, type DiscordStandIn } from "../../../src/sandbox/discord/index.js";
import { identifiedRawGateway, openRawGateway } from "./rawGatewayClient.js";

let discord: DiscordStandIn;

beforeAll(async () => {
  // These raw clients identify back to back; the IDENTIFY rate limit has its own tests.
  discord = await startDiscordStandIn({ heartbeatIntervalMs: 45_000, identifyWindowMs: 0 });
  discord.registerCommands([{ name: "ping", description: "Answers pong" }]);
});

afterAll(async () => {
  await discord?.close();
});

describe("the Discord stand-in's gateway", () => {
  it("says HELLO with the heartbeat interval and acknowledges heartbeats", async () => {
    const client = await openRawGateway(discord.gatewayUrl);
    const hello = await client.next((payload) => payload.op === 10);
    expect(hello).toMatchObject({ op: 10, s: null, t: null, d: { heartbeat_interval: 45_000 } });
    client.send({ op: 1, d: null });
    expect(await client.next((payload) => payload.op === 11)).toMatchObject({ op: 11 });
    await client.close();
  });

  it("answers IDENTIFY with READY (guild unavailable) then the full GUILD_CREATE", async () => {
    const { client, ready } = await identifiedRawGateway(discord.gatewayUrl, discord.botToken);
    expect(ready).toMatchObject({
      op: 0,
      s: 1,
      d: {
        v: 10,
        user: { id: discord.botUserId, bot: true },
        guilds: [{ id: discord.guildId, unavailable: true }],
        resume_gateway_url: discord.gatewayUrl,
        shard: [0, 1],
        application: { id: discord.applicationId },
      },
    });
    const guild = await client.next((payload) => payload.t === "GUILD_CREATE");
    expect(guild.s).toBe(2);
    const data = guild.d as {
      id: string;
      unavailable: boolean;
      roles: Array<{ id: string; permissions: string }>;
      channels: Array<{ id: string; type: number }>;
      threads: Array<{ id: string; parent_id: string }>;
      members: Array<{ user: { id: string } }>;
      member_count: number;
    };
    expect(data.unavailable).toBe(false);
    expect(data.roles.some((role) => role.id === discord.guildId)).toBe(true);
    expect(data.channels).toContainEqual(expect.objectContaining({ id: discord.channels.text, type: 0 }));
    expect(data.threads).toContainEqual(
      expect.objectContaining({ id: discord.channels.thread, parent_id: discord.channels.text }),
    );
    expect(data.members.map((member) => member.user.id)).toEqual([discord.botUserId]);
    expect(data.member_count).toBe(4);
    await client.close();
  });

  it("closes with 4004 on a wrong token and 4014 on a privileged intent not enabled", async () => {
    const wrong = await openRawGateway(discord.gatewayUrl);
    wrong.send({ op: 2, d: { token: "nope", intents: 1, properties: {} } });
    expect(await wrong.closed).toBe(4004);
    const members = await openRawGateway(discord.gatewayUrl);
    members.send({ op: 2, d: { token: discord.botToken, intents: 1 | (1 << 1), properties: {} } });
    expect(await members.closed).toBe(4014);
  });

  it("closes with 4003 when a payload comes before IDENTIFY", async () => {
    const client = await openRawGateway(discord.gatewayUrl);
    client.send({ op: 3, d: { status: "online" } });
    expect(await client.closed).toBe(4003);
  });

  it("dispatches INTERACTION_CREATE with increasing sequence numbers", async () => {
    const { client } = await identifiedRawGateway(discord.gatewayUrl, discord.botToken);
    await client.next((payload) => payload.t === "GUILD_CREATE");
    await discord.interact({ kind: "slash", name: "ping" });
    await discord.interact({ kind: "slash", name: "ping" });
    const first = await client.next((payload) => payload.t === "INTERACTION_CREATE");
    const second = await client.next((payload) => payload.t === "INTERACTION_CREATE");
    expect(first.s).toBe(3);
    expect(second.s).toBe(4);
    await client.close();
  });

  it("replays missed dispatches on RESUME, interactions included, then sends RESUMED", async () => {
    const { client, ready } = await identifiedRawGateway(discord.gatewayUrl, discord.botToken);
    await client.next((payload) => payload.t === "GUILD_CREATE");
    const sessionId = (ready.d as { session_id: string }).session_id;
    await client.close(4000);
    // The session survives a close other than 1000/1001; what happens meanwhile is kept for it.
    expect(discord.gatewaySessions().find((session) => session.sessionId === sessionId)?.connected).toBe(
      false,
    );
    // Discord queues what a resumable session owes, interactions too (they were refused before).
    const missed = await discord.interact({ kind: "slash", name: "ping" });
    const denied = (1n << 35n) | (1n << 36n) | (1n << 38n);
    discord.setBotChannelPermissions(discord.channels.noThreads, { deny: denied });
    const again = await openRawGateway(discord.gatewayUrl);
    await again.next((payload) => payload.op === 10);
    again.send({ op: 6, d: { token: discord.botToken, session_id: sessionId, seq: 2 } });
    const interaction = await again.next((payload) => payload.t === "INTERACTION_CREATE");
    expect(interaction).toMatchObject({ s: 3, d: { id: missed.id, token: missed.token } });
    const replayed = await again.next((payload) => payload.t === "CHANNEL_UPDATE");
    expect(replayed).toMatchObject({ s: 4, d: { id: discord.channels.noThreads } });
    const resumed = await again.next((payload) => payload.t === "RESUMED");
    expect(resumed.s).toBe(5);
    expect(discord.gatewaySessions().find((session) => session.sessionId === sessionId)?.resumes).toBe(1);
    await again.close();
  });

  it("answers a RESUME of an unknown session with INVALID_SESSION false", async () => {
    const client = await openRawGateway(discord.gatewayUrl);
    await client.next((payload) => payload.op === 10);
    client.send({ op: 6, d: { token: discord.botToken, session_id: "unknown", seq: 1 } });
    expect(await client.next((payload) => payload.op === 9)).toMatchObject({ op: 9, d: false });
    await client.close();
  });

  it("sends RECONNECT and INVALID_SESSION on request; a non-resumable one forgets the session", async () => {
    const { client } = await identifiedRawGateway(discord.gatewayUrl, discord.botToken);
    discord.sendGatewayOp(7);
    expect(await client.next((payload) => payload.op === 7)).toMatchObject({ op: 7, d: null });
    const before = discord.gatewaySessions().length;
    discord.sendGatewayOp(9, false);
    expect(await client.next((payload) => payload.op === 9)).toMatchObject({ op: 9, d: false });
    expect(discord.gatewaySessions().length).toBeLessThan(before);
    await client.close();
  });
});
