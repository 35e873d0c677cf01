import { Client, Events, GatewayIntentBits } from "discord.js";
import { afterEach, describe, expect, it } from "vitest";
import { shardOf, startDiscordStandIn, type DiscordStandIn } from "../../../src/sandbox/discord/index.js";
import { openRawGateway, type GatewayPayload, type RawGatewayClient } from "./rawGatewayClient.js";

let discord: DiscordStandIn | undefined;
const clients: RawGatewayClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await discord?.close();
  discord = undefined;
});

async function start(options: Parameters<typeof startDiscordStandIn>[0]): Promise<DiscordStandIn> {
  discord = await startDiscordStandIn(options);
  discord.registerCommands([{ name: "ping", description: "Answers pong" }]);
  return discord;
}

/** Opens a connection and sends IDENTIFY for `shard`; resolves with READY or INVALID_SESSION. */
async function identify(
  shard: [number, number],
): Promise<{ client: RawGatewayClient; first: GatewayPayload }> {
  const client = await openRawGateway(discord!.gatewayUrl);
  clients.push(client);
  await client.next((payload) => payload.op === 10);
  client.send({ op: 2, d: { token: discord!.botToken, intents: 1, properties: {}, shard } });
  const first = await client.next((payload) => payload.t === "READY" || payload.op === 9);
  return { client, first };
}

describe("sharded gateway sessions", () => {
  it("gives each session the guilds of its shard, and each guild's interactions to its shard only", async () => {
    const stand = await start({ generatedGuilds: { count: 12 }, maxConcurrency: 2 });
    const shards = [await identify([0, 2]), await identify([1, 2])];
    for (const [id, { first }] of shards.entries()) {
      const guilds = (first.d as { guilds: Array<{ id: string }>; shard: number[] }).guilds;
      expect((first.d as { shard: number[] }).shard).toEqual([id, 2]);
      expect(guilds.length).toBeGreaterThan(0);
      expect(guilds.every((guild) => shardOf(guild.id, 2) === id)).toBe(true);
    }
    const seen: Array<{ shard: number; interaction: string }> = [];
    for (const [id, { client }] of shards.entries()) {
      client.socket.on("message", (data) => {
        const payload = JSON.parse(String(data)) as GatewayPayload;
        if (payload.t === "INTERACTION_CREATE")
          seen.push({ shard: id, interaction: (payload.d as { id: string }).id });
      });
    }
    const sent: Array<{ shard: number; interaction: string }> = [];
    for (let index = 0; index < 6; index++) {
      const ids = stand.generatedGuild(index);
      const handle = await stand.interact({ kind: "slash", name: "ping", channel: ids.textChannelIds[0]! });
      sent.push({ shard: shardOf(ids.guildId, 2), interaction: handle.id });
      expect(handle.record().delivery).toMatchObject({
        transport: "gateway",
        shard: [shardOf(ids.guildId, 2), 2],
      });
    }
    const dm = await stand.interact({ kind: "slash", name: "ping", channel: "dm" });
    sent.push({ shard: 0, interaction: dm.id });
    await expect.poll(() => seen.length).toBe(sent.length);
    expect([...seen].sort((a, b) => a.interaction.localeCompare(b.interaction))).toEqual(
      [...sent].sort((a, b) => a.interaction.localeCompare(b.interaction)),
    );
    expect(new Set(sent.map((entry) => entry.shard))).toEqual(new Set([0, 1]));
  });

  it("says no session serves a guild whose shard nobody identified for", async () => {
    const stand = await start({ generatedGuilds: { count: 8 }, maxConcurrency: 2 });
    await identify([1, 2]);
    const index = [...Array(8).keys()].find(
      (candidate) => shardOf(stand.generatedGuild(candidate).guildId, 2) === 0,
    )!;
    await expect(
      stand.interact({
        kind: "slash",
        name: "ping",
        channel: stand.generatedGuild(index).textChannelIds[0]!,
      }),
    ).rejects.toThrow(/no gateway session serves the shard/);
  });

  it("lets max_concurrency IDENTIFYs through per 5 seconds and answers INVALID_SESSION past it", async () => {
    const stand = await start({ maxConcurrency: 2 });
    const gatewayBot = await fetch(`${stand.apiUrl}/v10/gateway/bot`, {
      headers: { Authorization: `Bot ${stand.botToken}` },
    });
    expect(await gatewayBot.json()).toMatchObject({ shards: 1, session_start_limit: { max_concurrency: 2 } });
    // Buckets 0 and 1 (shard_id % 2) each take one IDENTIFY; a second one in bucket 0 is refused.
    expect((await identify([0, 4])).first.t).toBe("READY");
    expect((await identify([1, 4])).first.t).toBe("READY");
    expect((await identify([2, 4])).first).toMatchObject({ op: 9, d: false });
  });

  it("replays an interaction created while disconnected, with its deadline counted from creation", async () => {
    const stand = await start({ responseDeadlineMs: 300 });
    const { client, first } = await identify([0, 1]);
    await client.next((payload) => payload.t === "GUILD_CREATE");
    await client.close(4000);
    const handle = await stand.interact({ kind: "slash", name: "ping" });
    expect(handle.record().delivery).toMatchObject({ queued: true });
    await new Promise((resolve) => setTimeout(resolve, 350));
    const again = await openRawGateway(stand.gatewayUrl);
    clients.push(again);
    await again.next((payload) => payload.op === 10);
    again.send({
      op: 6,
      d: { token: stand.botToken, session_id: (first.d as { session_id: string }).session_id, seq: 2 },
    });
    expect(await again.next((payload) => payload.t === "INTERACTION_CREATE")).toMatchObject({
      s: 3,
      d: { id: handle.id },
    });
    const late = await fetch(`${stand.apiUrl}/v10/interactions/${handle.id}/${handle.token}/callback`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ type: 4, data: { content: "late" } }),
    });
    expect(late.status).toBe(404);
    expect(await late.json()).toMatchObject({ code: 10062 });
  });

  it("serves discord.js with shards: 'auto': the recommended shards, every guild cached once", async () => {
    // Few guilds keep it quick; the recommendation is forced to 2 (it would be 1 under 1,000 guilds).
    const stand = await start({ generatedGuilds: { count: 150 }, recommendedShards: 2, maxConcurrency: 2 });
    const client = new Client({
      intents: [GatewayIntentBits.Guilds],
      shards: "auto",
      rest: { api: stand.apiUrl },
    });
    try {
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      await client.login(stand.botToken);
      await ready;
      expect(client.ws.shards.size).toBe(2);
      expect(client.guilds.cache.size).toBe(151);
      expect(
        stand
          .gatewaySessions()
          .map((session) => session.shard)
          .sort(),
      ).toEqual([
        [0, 2],
        [1, 2],
      ]);
    } finally {
      await client.destroy();
    }
  });
});
