import { Agent, request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { startDiscordStandIn, type DiscordStandIn } from "../../../src/sandbox/discord/index.js";
import { identifiedRawGateway, type GatewayPayload, type RawGatewayClient } from "./rawGatewayClient.js";

let discord: DiscordStandIn | undefined;
let gateway: RawGatewayClient | undefined;

afterEach(async () => {
  await gateway?.close();
  await discord?.close();
  gateway = undefined;
  discord = undefined;
});

const BLAME = {
  name: "blame",
  description: "Who changed these lines",
  options: [
    { type: 3, name: "repo", description: "owner/name", required: true },
    { type: 3, name: "path", description: "file path", required: true },
  ],
};

async function start(options: Parameters<typeof startDiscordStandIn>[0] = {}) {
  discord = await startDiscordStandIn({ identifyWindowMs: 0, ...options });
  discord.registerCommands([BLAME]);
  ({ client: gateway } = await identifiedRawGateway(discord.gatewayUrl, discord.botToken));
  return { stand: discord, bot: gateway };
}

/** A trivial bot: answers every INTERACTION_CREATE with a type 4 message through the callback route. */
function answerEverything(stand: DiscordStandIn, bot: RawGatewayClient): void {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const body = JSON.stringify({ type: 4, data: { content: "ok" } });
  bot.socket.on("message", (data) => {
    const payload = JSON.parse(String(data)) as GatewayPayload;
    if (payload.t !== "INTERACTION_CREATE") return;
    const { id, token } = payload.d as { id: string; token: string };
    const call = request(
      `${stand.apiUrl}/v10/interactions/${id}/${token}/callback`,
      { method: "POST", agent, headers: { "Content-Type": "application/json" } },
      (response) => response.resume(),
    );
    call.end(body);
  });
}

const callback = (stand: DiscordStandIn, id: string, token: string, body: unknown) =>
  fetch(`${stand.apiUrl}/v10/interactions/${id}/${token}/callback`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

/** A /blame the bot deferred (type 5): its answer is still to come. */
async function deferredBlame(stand: DiscordStandIn) {
  const handle = await stand.interact({
    kind: "slash",
    name: "blame",
    options: { repo: "demo/widgets", path: "README.md" },
  });
  expect((await callback(stand, handle.id, handle.token, { type: 5 })).status).toBe(204);
  return handle;
}

describe("the local Discord under load", () => {
  it("sends interaction payloads of Discord's shape: member with roles, partial channel, app_permissions, locales", async () => {
    const { stand } = await start({ generatedGuilds: { count: 4 } });
    const ids = stand.generatedGuild(3);
    const handle = await stand.interact({
      kind: "slash",
      name: "blame",
      options: { repo: "demo/widgets", path: "src/engine.ts" },
      channel: ids.textChannelIds[1]!,
      user: ids.memberIds[4]!,
      locale: "de",
    });
    const payload = handle.payload as unknown as Record<string, unknown> & {
      member: { roles: string[]; permissions: string; user: { id: string } };
      channel: Record<string, unknown>;
    };
    expect(Object.keys(payload).sort()).toEqual(
      [
        "app_permissions",
        "application_id",
        "attachment_size_limit",
        "authorizing_integration_owners",
        "channel",
        "channel_id",
        "context",
        "data",
        "entitlements",
        "guild",
        "guild_id",
        "guild_locale",
        "id",
        "locale",
        "member",
        "token",
        "type",
        "version",
      ].sort(),
    );
    expect(payload).toMatchObject({ locale: "de", guild_locale: "en-GB", entitlements: [], version: 1 });
    expect(payload.member.roles.length).toBeGreaterThanOrEqual(2);
    expect(payload.member.user.id).toBe(ids.memberIds[4]);
    expect(payload.channel).toMatchObject({ id: ids.textChannelIds[1], guild_id: ids.guildId, type: 0 });
    expect(payload.channel.permissions).toMatch(/^\d+$/);
    expect(payload.channel).not.toHaveProperty("permission_overwrites");
  });

  it("answers a burst of 50 interactions in time, and tells the first response without a snapshot", async () => {
    const { stand, bot } = await start({ requestLog: "counts" });
    answerEverything(stand, bot);
    const handles = await Promise.all(
      Array.from({ length: 50 }, () =>
        stand.interact({
          kind: "slash",
          name: "blame",
          options: { repo: "demo/widgets", path: "README.md" },
        }),
      ),
    );
    const responses = await Promise.all(handles.map((handle) => handle.waitForResponse()));
    expect(responses.every((response) => response.type === 4 && response.afterMs < 3000)).toBe(true);
    expect(stand.requestCounts()).toEqual({
      "POST /interactions/:interaction_id/:interaction_token/callback 204": 50,
    });
    // Counts only: no request records, but refusals stay on their interaction.
    expect(stand.requests).toHaveLength(0);
    const second = await callback(stand, handles[0]!.id, handles[0]!.token, {
      type: 4,
      data: { content: "again" },
    });
    expect(second.status).toBe(400);
    expect(handles[0]!.record().errors).toEqual([
      expect.objectContaining({ status: 400, response: expect.objectContaining({ code: 40060 }) }),
    ]);
  });

  it("rejects waitForResponse once the deadline passed without a response", async () => {
    const { stand } = await start();
    const handle = await stand.interact({
      kind: "slash",
      name: "blame",
      options: { repo: "demo/widgets", path: "README.md" },
      responseDeadlineMs: 50,
    });
    await expect(handle.waitForResponse({ timeoutMs: 10 })).rejects.toThrow(
      /no first response before its deadline/,
    );
  });

  it("tells when the final answer came, a deferral's once its placeholder is edited, without a snapshot", async () => {
    const { stand } = await start();
    const handle = await deferredBlame(stand);
    const answered = handle.waitForAnswerTime({ timeoutMs: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const beforeEdit = Date.now();
    const edit = await fetch(
      `${stand.apiUrl}/v10/webhooks/${stand.applicationId}/${handle.token}/messages/@original`,
      {
        method: "PATCH",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ content: "the answer" }),
      },
    );
    expect(edit.status).toBe(200);
    const at = await answered;
    // Not the deferral's time: the edit's, which is when the person reads an answer.
    expect(at).toBeGreaterThanOrEqual(beforeEdit);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect(handle.record()).toMatchObject({ answered: true, deferred: true });
  });

  it("rejects waitForAnswerTime when no final answer came in time", async () => {
    const { stand } = await start();
    const handle = await deferredBlame(stand);
    await expect(handle.waitForAnswerTime({ timeoutMs: 50 })).rejects.toThrow(
      /a final answer not reached within 50 ms/,
    );
  });

  it("holds at most maxInteractions, forgetting the oldest and the messages they wrote", async () => {
    const { stand, bot } = await start({ maxInteractions: 3 });
    answerEverything(stand, bot);
    const handles = [];
    for (let index = 0; index < 5; index++) {
      const handle = await stand.interact({
        kind: "slash",
        name: "blame",
        options: { repo: "a/b", path: `f${index}` },
      });
      await handle.waitForResponse();
      handles.push(handle);
    }
    expect(stand.interaction(handles[0]!.id)).toBeUndefined();
    expect(stand.interaction(handles[4]!.id)).toBeDefined();
    expect(stand.messagesIn(stand.channels.text)).toHaveLength(3);
    const followUp = await fetch(`${stand.apiUrl}/v10/webhooks/${stand.applicationId}/${handles[0]!.token}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ content: "late" }),
    });
    expect(followUp.status).toBe(404);
    expect(await followUp.json()).toMatchObject({ code: 10015 });
  });
});
