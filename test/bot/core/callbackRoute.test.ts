import { DiscordAPIError, REST, Routes, type Client } from "discord.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postCallback, SEND_AGAIN } from "../../../src/bot/core/callbackRoute.js";
import { discordCode } from "../../../src/bot/core/errorReply.js";
import { restResponder } from "../../../src/bot/core/responder.js";
import { createGatewayClient } from "../../../src/bot/gateway/gatewayClient.js";
import { silentLogger } from "../../../src/logger.js";
import { startDiscordStandIn, type DiscordStandIn } from "../../../src/sandbox/discord/index.js";

/** A first response the way the core sends a ready answer: its JSON bytes. */
const answer = (content: string): Buffer =>
  Buffer.from(JSON.stringify({ type: 4, data: { content, allowed_mentions: { parse: [] } } }));

describe("a first response sent straight to the callback route", () => {
  let discord: DiscordStandIn;
  let rest: REST;
  let client: Client;

  beforeAll(async () => {
    discord = await startDiscordStandIn({ identifyWindowMs: 0 });
    discord.registerCommands([{ name: "ping", description: "Answers pong" }]);
    rest = new REST({ api: discord.apiUrl, globalRequestsPerSecond: Number.POSITIVE_INFINITY });
    // A connected bot that answers nothing itself: the test sends the responses.
    client = createGatewayClient({
      apiUrl: discord.apiUrl,
      shards: { ids: undefined, count: undefined },
      logger: silentLogger(),
      onInteraction: () => undefined,
    });
    await client.login(discord.botToken);
    await discord.waitForGatewaySession({ timeoutMs: 10_000 });
  });
  afterAll(async () => {
    await client?.destroy();
    await discord?.close();
  });

  it("is taken as Discord's first response, and with_response returns the message it made", async () => {
    const plain = await discord.interact({ kind: "slash", name: "ping" });
    const route = Routes.interactionCallback(plain.id, plain.token);
    expect(await postCallback(rest, route, answer("pong"))).toBeNull();
    expect((await plain.waitForAnswer({ timeoutMs: 2_000 })).callbacks[0]).toMatchObject({
      type: 4,
      data: { content: "pong" },
    });

    const asked = await discord.interact({ kind: "slash", name: "ping" });
    const made = (await postCallback(
      rest,
      Routes.interactionCallback(asked.id, asked.token),
      answer("made"),
      new URLSearchParams({ with_response: "true" }),
    )) as { resource?: { message?: { content?: string; id?: string } } };
    expect(made.resource?.message).toMatchObject({ content: "made", id: expect.any(String) });
  });

  it("throws the DiscordAPIError REST would, with Discord's code: a second response is 40060", async () => {
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    const route = Routes.interactionCallback(handle.id, handle.token);
    await postCallback(rest, route, answer("first"));
    const error = await postCallback(rest, route, answer("second")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DiscordAPIError);
    expect(discordCode(error)).toBe(40060);
    expect((error as DiscordAPIError).status).toBe(400);
  });

  it("leaves a rate-limited send to REST, which waits it out: the answer still arrives, once", async () => {
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    const route = Routes.interactionCallback(handle.id, handle.token);
    discord.injectRateLimit({ method: "POST", route, count: 1, retryAfterSeconds: 0.05 });
    expect(await postCallback(rest, route, answer("limited"))).toBe(SEND_AGAIN);
    expect(handle.record().callbacks).toHaveLength(0);

    discord.injectRateLimit({ method: "POST", route, count: 1, retryAfterSeconds: 0.05 });
    const responder = restResponder({ bot: rest, interactions: rest }, handle.payload);
    await responder.respond({ type: 4, data: { content: "after the wait" } }, []);
    const record = await handle.waitForAnswer({ timeoutMs: 2_000 });
    expect(record.callbacks).toHaveLength(1);
    expect(record.callbacks[0]).toMatchObject({ type: 4, data: { content: "after the wait" } });
  });

  it("leaves an unreachable Discord to REST too (a network failure settles nothing)", async () => {
    const gone = new REST({ api: "http://127.0.0.1:9", retries: 0, timeout: 1_000 });
    expect(await postCallback(gone, "/interactions/1/x/callback", answer("nowhere"))).toBe(SEND_AGAIN);
  });
});
