import { Events, type Client } from "discord.js";
import type { APIInteraction } from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayClient } from "../../../src/bot/gateway/gatewayClient.js";
import { silentLogger } from "../../../src/logger.js";
import { startDiscordStandIn, type DiscordStandIn } from "../../../src/sandbox/discord/index.js";

describe("the gateway client", () => {
  let discord: DiscordStandIn;
  let client: Client;
  const handed: APIInteraction[] = [];
  let structures = 0;

  beforeAll(async () => {
    discord = await startDiscordStandIn({ identifyWindowMs: 0 });
    discord.registerCommands([
      { name: "ping", description: "Answers pong", options: [{ type: 3, name: "text", description: "Any" }] },
    ]);
    client = createGatewayClient({
      apiUrl: discord.apiUrl,
      shards: { ids: undefined, count: undefined },
      logger: silentLogger(),
      onInteraction: (interaction) => handed.push(interaction),
    });
    client.on(Events.InteractionCreate, () => (structures += 1));
    await client.login(discord.botToken);
    await discord.waitForGatewaySession({ timeoutMs: 10_000 });
  });
  afterAll(async () => {
    await client?.destroy();
    await discord?.close();
  });

  it("hands each interaction's raw payload on, and discord.js builds no Interaction of it", async () => {
    const handle = await discord.interact({ kind: "slash", name: "ping", options: { text: "hello" } });
    const deadline = Date.now() + 5_000;
    while (!handed.some((interaction) => interaction.id === handle.id) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const raw = handed.find((interaction) => interaction.id === handle.id);
    expect(raw).toMatchObject({
      type: 2,
      data: { name: "ping", options: [{ name: "text", value: "hello" }] },
    });
    // A turn of the event loop later: discord.js would have emitted its structure by now.
    await new Promise((resolve) => setImmediate(resolve));
    expect(structures).toBe(0);
  });
});
