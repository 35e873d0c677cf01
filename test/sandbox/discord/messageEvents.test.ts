import { GatewayIntentBits, MessageFlags, MessageType, PermissionFlagsBits } from "discord-api-types/v10";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDiscordStandIn, type DiscordStandIn } from "../../../src/sandbox/discord/index.js";

/** A raw gateway session, as a bot with these intents sees it: every dispatch it was sent. */
interface RawSession {
  dispatches: Array<{ t: string; d: Record<string, unknown> }>;
  closed: Promise<number>;
  socket: WebSocket;
}

let discord: DiscordStandIn;
const sessions: RawSession[] = [];

async function connect(stand: DiscordStandIn, intents: number): Promise<RawSession> {
  const socket = new WebSocket(`${stand.gatewayUrl}?v=10&encoding=json`);
  const session: RawSession = {
    dispatches: [],
    socket,
    closed: new Promise((resolve) => socket.on("close", (code) => resolve(code))),
  };
  await new Promise<void>((resolve, reject) => {
    socket.on("error", reject);
    socket.on("message", (data) => {
      const payload = JSON.parse(String(data)) as { op: number; t: string; d: Record<string, unknown> };
      if (payload.op === 10) {
        socket.send(
          JSON.stringify({ op: 2, d: { token: stand.botToken, intents, properties: { os: "linux" } } }),
        );
      } else if (payload.op === 0) {
        session.dispatches.push({ t: payload.t, d: payload.d });
        if (payload.t === "READY") resolve();
      }
    });
    void session.closed.then(() => resolve());
  });
  sessions.push(session);
  return session;
}

async function rest(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${discord.apiUrl}/v10${path}`, {
    method,
    headers: { authorization: `Bot ${discord.botToken}`, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
}

/** Waits until `session` got a dispatch `t` about message `id`. */
async function dispatchOf(session: RawSession, t: string, id: string): Promise<Record<string, unknown>> {
  for (let waited = 0; waited < 2000; waited += 10) {
    const found = session.dispatches.find((entry) => entry.t === t && entry.d.id === id);
    if (found) return found.d;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no ${t} for ${id}`);
}

const LINK = "https://github.com/demo/widgets/pull/3";
let full: RawSession;
let noContent: RawSession;
let noIntent: RawSession;

beforeAll(async () => {
  discord = await startDiscordStandIn({
    privilegedIntents: GatewayIntentBits.MessageContent,
    identifyWindowMs: 0,
  });
  full = await connect(discord, GatewayIntentBits.GuildMessages | GatewayIntentBits.MessageContent);
  noContent = await connect(discord, GatewayIntentBits.GuildMessages);
  noIntent = await connect(discord, 0);
});

afterAll(async () => {
  for (const session of sessions) session.socket.close(1000);
  await discord.close();
});

describe("message events follow the intents asked for", () => {
  it("sends MESSAGE_CREATE with Guild Messages only, and its content only with Message Content", async () => {
    const posted = discord.postAsUser({ content: `Look: ${LINK}` });
    const withContent = await dispatchOf(full, "MESSAGE_CREATE", posted.id);
    expect(withContent.content).toBe(`Look: ${LINK}`);
    expect(withContent.guild_id).toBe(discord.guildId);
    const without = await dispatchOf(noContent, "MESSAGE_CREATE", posted.id);
    expect(without).toMatchObject({ content: "", embeds: [], attachments: [], components: [] });
    expect((without.author as { id: string }).id).toBe(discord.users.member.id);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(noIntent.dispatches.some((entry) => entry.t.startsWith("MESSAGE_"))).toBe(false);
  });

  it("sends nothing of a channel the bot cannot view", async () => {
    discord.setBotChannelPermissions(discord.channels.noThreads, { deny: PermissionFlagsBits.ViewChannel });
    try {
      const hidden = discord.postAsUser({ content: `Secret: ${LINK}`, channel: "noThreads" });
      const seen = discord.postAsUser({ content: `Open: ${LINK}` });
      await dispatchOf(full, "MESSAGE_CREATE", seen.id);
      expect(full.dispatches.some((entry) => entry.d.id === hidden.id)).toBe(false);
    } finally {
      discord.setBotChannelPermissions(discord.channels.noThreads, {});
    }
  });

  it("keeps the content of a message that mentions the bot, without Message Content", async () => {
    const posted = discord.postAsUser({ content: `<@${discord.botUserId}> what is ${LINK}?` });
    expect((await dispatchOf(noContent, "MESSAGE_CREATE", posted.id)).content).toContain(LINK);
  });

  it("sends MESSAGE_UPDATE on a person's edit and a bare MESSAGE_DELETE on a delete", async () => {
    const posted = discord.postAsUser({ content: "first words" });
    discord.editAsUser(posted.id, { content: `second words ${LINK}` });
    const update = await dispatchOf(full, "MESSAGE_UPDATE", posted.id);
    expect(update.content).toBe(`second words ${LINK}`);
    expect(update.edited_timestamp).not.toBeNull();
    expect((await dispatchOf(noContent, "MESSAGE_UPDATE", posted.id)).content).toBe("");
    discord.editAsUser(posted.id, { flags: MessageFlags.SuppressEmbeds });
    expect(discord.message(posted.id)?.flags).toBe(MessageFlags.SuppressEmbeds);
    discord.deleteAsUser(posted.id);
    expect(await dispatchOf(noContent, "MESSAGE_DELETE", posted.id)).toEqual({
      id: posted.id,
      channel_id: discord.channels.text,
      guild_id: discord.guildId,
    });
  });

  it("marks a webhook's and another bot's messages as a bot's", () => {
    const hook = discord.postAsUser({ content: LINK, from: "webhook" });
    expect(hook.api.webhook_id).toBe(hook.authorId);
    expect(hook.api.author.bot).toBe(true);
    const bot = discord.postAsUser({ content: LINK, from: "bot" });
    expect(bot.api.author.bot).toBe(true);
    expect(bot.api.webhook_id).toBeUndefined();
    expect(discord.postAsUser({ content: LINK }).api.author.bot).toBeUndefined();
  });

  it("closes with 4014 when Message Content is asked for but not enabled for the app", async () => {
    const other = await startDiscordStandIn({ identifyWindowMs: 0 });
    try {
      const session = await connect(
        other,
        GatewayIntentBits.GuildMessages | GatewayIntentBits.MessageContent,
      );
      expect(await session.closed).toBe(4014);
    } finally {
      await other.close();
    }
  });
});

describe("replies and deletes are checked as Discord checks them", () => {
  it("makes a reply that pings nobody with allowed_mentions and replied_user false", async () => {
    const asked = discord.postAsUser({ content: LINK });
    const { status, json } = await rest("POST", `/channels/${discord.channels.text}/messages`, {
      content: "preview",
      message_reference: { message_id: asked.id, fail_if_not_exists: false },
      allowed_mentions: { parse: [], replied_user: false },
    });
    expect(status).toBe(200);
    const reply = json as { id: string; type: number; referenced_message: { id: string } };
    expect(reply.type).toBe(MessageType.Reply);
    expect(reply.referenced_message.id).toBe(asked.id);
    expect(discord.message(reply.id)?.pings.users).toEqual([]);
  });

  it("pings the author of the message replied to without allowed_mentions, or with replied_user true", async () => {
    const asked = discord.postAsUser({ content: LINK });
    for (const extra of [{}, { allowed_mentions: { parse: [], replied_user: true } }]) {
      const { json } = await rest("POST", `/channels/${discord.channels.text}/messages`, {
        content: "preview",
        message_reference: { message_id: asked.id },
        ...extra,
      });
      expect(discord.message((json as { id: string }).id)?.pings.users).toEqual([discord.users.member.id]);
    }
  });

  it("refuses a reply to a message that is not there, unless fail_if_not_exists is false", async () => {
    const gone = discord.postAsUser({ content: "soon gone" });
    discord.deleteAsUser(gone.id);
    const refused = await rest("POST", `/channels/${discord.channels.text}/messages`, {
      content: "preview",
      message_reference: { message_id: gone.id },
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      code: 50035,
      errors: { message_reference: { _errors: [{ code: "REPLIES_UNKNOWN_MESSAGE" }] } },
    });
    const plain = await rest("POST", `/channels/${discord.channels.text}/messages`, {
      content: "preview",
      message_reference: { message_id: gone.id, fail_if_not_exists: false },
    });
    expect(plain.status).toBe(200);
    expect(plain.json).toMatchObject({ type: MessageType.Default });
    expect((plain.json as Record<string, unknown>).message_reference).toBeUndefined();
  });

  it("refuses a message_reference of the wrong shape, by field", async () => {
    const asked = discord.postAsUser({ content: LINK });
    const refused = await rest("POST", `/channels/${discord.channels.text}/messages`, {
      content: "preview",
      message_reference: { message_id: asked.id, fail_if_not_exists: "no" },
    });
    expect(refused).toMatchObject({
      status: 400,
      json: {
        code: 50035,
        errors: { message_reference: { fail_if_not_exists: { _errors: [{ code: "BASE_TYPE_BOOLEAN" }] } } },
      },
    });
    const notObject = await rest("POST", `/channels/${discord.channels.text}/messages`, {
      content: "preview",
      message_reference: asked.id,
    });
    expect(notObject).toMatchObject({
      status: 400,
      json: { errors: { message_reference: { _errors: [{ code: "MODEL_TYPE_CONVERT" }] } } },
    });
  });

  it("refuses a reply without Read Message History (50013)", async () => {
    const asked = discord.postAsUser({ content: LINK, channel: "noThreads" });
    discord.setBotChannelPermissions(discord.channels.noThreads, {
      deny: PermissionFlagsBits.ReadMessageHistory,
    });
    try {
      const refused = await rest("POST", `/channels/${discord.channels.noThreads}/messages`, {
        content: "preview",
        message_reference: { message_id: asked.id },
      });
      expect(refused).toMatchObject({ status: 403, json: { code: 50013 } });
    } finally {
      discord.setBotChannelPermissions(discord.channels.noThreads, {});
    }
  });

  it("deletes the bot's own message, and another's only with Manage Messages", async () => {
    const person = discord.postAsUser({ content: "mine" });
    expect(await rest("DELETE", `/channels/${discord.channels.text}/messages/${person.id}`)).toMatchObject({
      status: 403,
      json: { code: 50013 },
    });
    const { json } = await rest("POST", `/channels/${discord.channels.text}/messages`, { content: "bot's" });
    const id = (json as { id: string }).id;
    expect((await rest("DELETE", `/channels/${discord.channels.text}/messages/${id}`)).status).toBe(204);
    expect(await rest("DELETE", `/channels/${discord.channels.text}/messages/${id}`)).toMatchObject({
      status: 404,
      json: { code: 10008 },
    });
  });
});
