import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, request } from "node:http";
import type { Socket } from "node:net";
import {
  startDiscordStandIn,
  type DiscordStandIn,
  type InteractionHandle,
} from "../../../src/sandbox/discord/index.js";
import { identifiedRawGateway, type RawGatewayClient } from "./rawGatewayClient.js";

let discord: DiscordStandIn;
let gateway: RawGatewayClient;

beforeAll(async () => {
  discord = await startDiscordStandIn({ rateLimit: { limit: 5, windowMs: 60_000 } });
  discord.registerCommands([
    { name: "ping", description: "Answers pong" },
    {
      name: "settings",
      description: "Server settings",
      options: [
        {
          type: 1,
          name: "threads",
          description: "Answer in threads",
          options: [{ type: 5, name: "enabled", description: "on or off", required: true }],
        },
      ],
    },
  ]);
  ({ client: gateway } = await identifiedRawGateway(discord.gatewayUrl, discord.botToken));
});

afterAll(async () => {
  await gateway?.close();
  await discord?.close();
});

const v10 = (path: string) => `${discord.apiUrl}/v10${path}`;
const bot = () => ({ Authorization: `Bot ${discord.botToken}`, "Content-Type": "application/json" });

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = bot()) {
  const response = await fetch(v10(path), {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as unknown) : undefined,
  };
}

async function respond(handle: InteractionHandle, body: unknown, query = "") {
  return call("POST", `/interactions/${handle.id}/${handle.token}/callback${query}`, body, {
    "Content-Type": "application/json",
  });
}

const webhook = (handle: InteractionHandle, rest = "") =>
  `/webhooks/${discord.applicationId}/${handle.token}${rest}`;

describe("the Discord stand-in's REST rules", () => {
  it("answers 401 without a bot token, 404 for unknown routes and 405 for wrong methods", async () => {
    expect(await call("GET", "/users/@me", undefined, {})).toMatchObject({
      status: 401,
      body: { message: "401: Unauthorized", code: 0 },
    });
    expect(await call("GET", "/users/@me", undefined, { Authorization: "Bot wrong" })).toMatchObject({
      status: 401,
    });
    expect(await call("GET", "/nowhere")).toMatchObject({
      status: 404,
      body: { message: "404: Not Found", code: 0 },
    });
    expect(await call("DELETE", "/gateway/bot")).toMatchObject({ status: 405, body: { code: 0 } });
  });

  it("serves the gateway URL and the bot's user", async () => {
    expect(await call("GET", "/gateway", undefined, {})).toEqual(
      expect.objectContaining({ status: 200, body: { url: discord.gatewayUrl } }),
    );
    const gatewayBot = await call("GET", "/gateway/bot");
    expect(gatewayBot.body).toMatchObject({
      url: discord.gatewayUrl,
      shards: 1,
      session_start_limit: { max_concurrency: 1 },
    });
    expect((await call("GET", "/users/@me")).body).toMatchObject({ id: discord.botUserId, bot: true });
    expect((await call("GET", "/applications/@me")).body).toMatchObject({ id: discord.applicationId });
  });

  it("puts X-RateLimit headers on answers and enforces a bucket", async () => {
    const path = `/channels/${discord.channels.noThreads}`;
    const first = await call("GET", path);
    expect(first.headers.get("x-ratelimit-limit")).toBe("5");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("4");
    expect(first.headers.get("x-ratelimit-bucket")).toMatch(/^[0-9a-f]{32}$/);
    expect(Number(first.headers.get("x-ratelimit-reset-after"))).toBeGreaterThan(0);
    for (let request = 0; request < 4; request++) expect((await call("GET", path)).status).toBe(200);
    const limited = await call("GET", path);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ message: "You are being rate limited.", global: false });
  });

  it("shapes slash interactions like Discord: member in a guild, user in a DM, typed subcommand options", async () => {
    const inGuild = await discord.interact({
      kind: "slash",
      name: "settings threads",
      options: { enabled: false },
      user: "admin",
    });
    const payload = inGuild.payload as unknown as Record<string, unknown> & {
      member: { permissions: string; user: { id: string } };
      data: unknown;
    };
    expect(payload).toMatchObject({
      type: 2,
      version: 1,
      guild_id: discord.guildId,
      channel_id: discord.channels.text,
      channel: { id: discord.channels.text, type: 0 },
      context: 0,
      entitlements: [],
      authorizing_integration_owners: { "0": discord.guildId },
      guild: { id: discord.guildId },
      locale: "en-US",
    });
    expect(BigInt(payload.member.permissions) & 0x20n).toBe(0x20n);
    expect(payload.data).toMatchObject({
      name: "settings",
      type: 1,
      options: [{ name: "threads", type: 1, options: [{ name: "enabled", type: 5, value: false }] }],
    });
    const inDm = await discord.interact({ kind: "slash", name: "ping", channel: "dm" });
    const dm = inDm.payload as unknown as Record<string, unknown>;
    expect(dm.guild_id).toBeUndefined();
    expect(dm.member).toBeUndefined();
    expect(dm).toMatchObject({ context: 1, user: { id: discord.users.member.id }, channel: { type: 1 } });
    await expect(discord.interact({ kind: "slash", name: "settings threads" })).rejects.toThrow(
      /needs option enabled/,
    );
    await expect(discord.interact({ kind: "slash", name: "nope" })).rejects.toThrow(/not registered/);
  });

  it("returns the callback response with with_response=true and accepts %40original", async () => {
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    const deferred = await respond(handle, { type: 5, data: { flags: 64 } }, "?with_response=true");
    expect(deferred.status).toBe(200);
    expect(deferred.body).toMatchObject({
      interaction: {
        id: handle.id,
        type: 2,
        response_message_loading: true,
        response_message_ephemeral: true,
      },
      resource: { type: 5, message: { flags: 64 | 128, content: "" } },
    });
    const edited = await call(
      "PATCH",
      webhook(handle, "/messages/%40original"),
      { content: "done" },
      { "Content-Type": "application/json" },
    );
    expect(edited).toMatchObject({ status: 200, body: { content: "done", flags: 64 } });
    expect(handle.record()).toMatchObject({ answered: true, ephemeral: true });
  });

  it("lets the first follow-up after a deferral take the placeholder's place, keeping its visibility", async () => {
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    expect((await respond(handle, { type: 5 })).status).toBe(204);
    const first = await call(
      "POST",
      webhook(handle, "?wait=true"),
      { content: "answer", flags: 64 },
      { "Content-Type": "application/json" },
    );
    const record = handle.record();
    expect(first.body).toMatchObject({ id: record.original?.id, content: "answer", flags: 0 });
    const second = await call(
      "POST",
      webhook(handle),
      { content: "more", flags: 64 },
      { "Content-Type": "application/json" },
    );
    expect(second.body).toMatchObject({ content: "more", flags: 64 });
    expect(handle.record().followups.map((message) => message.ephemeral)).toEqual([false, true]);
  });

  it("sends a follow-up as a new message once the deferred placeholder was deleted", async () => {
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    await respond(handle, { type: 5 });
    expect((await call("DELETE", `${webhook(handle)}/messages/@original`)).status).toBe(204);
    const followup = await call(
      "POST",
      webhook(handle, "?wait=true"),
      { content: "private", flags: 64 },
      { "Content-Type": "application/json" },
    );
    expect(followup.status).toBe(200);
    expect(followup.body).toMatchObject({ content: "private", flags: 64 });
    expect(handle.record().originalDeleted).toBe(true);
    expect(handle.record().followups.map((message) => message.ephemeral)).toEqual([true]);
  });

  it("refuses an empty message (50006), a modal after a deferral (40060) and a wrong callback type", async () => {
    const empty = await discord.interact({ kind: "slash", name: "ping" });
    expect(await respond(empty, { type: 4, data: { content: "" } })).toMatchObject({
      status: 400,
      body: { code: 50006, message: "Cannot send an empty message" },
    });
    const deferred = await discord.interact({ kind: "slash", name: "ping" });
    await respond(deferred, { type: 5 });
    const modal = {
      type: 9,
      data: {
        custom_id: "m",
        title: "T",
        components: [{ type: 1, components: [{ type: 4, custom_id: "a", label: "A", style: 1 }] }],
      },
    };
    expect(await respond(deferred, modal)).toMatchObject({ status: 400, body: { code: 40060 } });
    const wrong = await discord.interact({ kind: "slash", name: "ping" });
    const refused = await respond(wrong, { type: 8, data: { choices: [] } });
    expect(refused).toMatchObject({
      status: 400,
      body: { code: 50035, errors: { type: { _errors: [{ code: "BASE_TYPE_CHOICES" }] } } },
    });
  });

  it("refuses a modal title over 45 and more than 25 autocomplete choices", async () => {
    const slash = await discord.interact({ kind: "slash", name: "ping" });
    const modal = await respond(slash, {
      type: 9,
      data: {
        custom_id: "m",
        title: "x".repeat(46),
        components: [{ type: 1, components: [{ type: 4, custom_id: "a", label: "L".repeat(46), style: 1 }] }],
      },
    });
    expect(modal.body).toMatchObject({
      code: 50035,
      errors: {
        data: {
          title: {
            _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 45 in length." }],
          },
          components: {
            "0": { components: { "0": { label: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH" }] } } } },
          },
        },
      },
    });
    discord.registerCommands(
      [
        {
          name: "find",
          description: "Find",
          options: [{ type: 3, name: "q", description: "query", autocomplete: true }],
        },
      ],
      { guildId: discord.guildId },
    );
    const typing = await discord.interact({
      kind: "autocomplete",
      name: "find",
      options: { q: "a" },
      focused: "q",
    });
    const choices = Array.from({ length: 26 }, (_, index) => ({
      name: `c${index}`,
      value: "v".repeat(index === 3 ? 101 : 1),
    }));
    const answer = await respond(typing, { type: 8, data: { choices } });
    expect(answer.body).toMatchObject({
      code: 50035,
      errors: {
        data: {
          choices: {
            _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 25 or fewer in length." }],
            "3": { value: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }] } },
          },
        },
      },
    });
  });

  it("mirrors a label-based modal's layout in its submission", async () => {
    const slash = await discord.interact({ kind: "slash", name: "ping", user: "admin" });
    const shown = await respond(slash, {
      type: 9,
      data: {
        custom_id: "token-set",
        title: "Set the token",
        components: [
          { type: 18, label: "GitHub token", component: { type: 4, custom_id: "token", style: 1 } },
        ],
      },
    });
    expect(shown.status).toBe(204);
    await expect(discord.interact({ kind: "modal", from: slash, fields: {} })).rejects.toThrow(/required/);
    const submit = await discord.interact({ kind: "modal", from: slash, fields: { token: "ghp_x" } });
    expect(submit.payload).toMatchObject({
      type: 5,
      member: { user: { id: discord.users.admin.id } },
      data: {
        custom_id: "token-set",
        components: [{ type: 18, id: 1, component: { type: 4, id: 2, custom_id: "token", value: "ghp_x" } }],
      },
    });
  });

  it("accepts multipart bodies: payload_json plus files[n]", async () => {
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    const form = new FormData();
    form.append(
      "payload_json",
      JSON.stringify({
        type: 4,
        data: { content: "file", attachments: [{ id: "0", description: "the log" }] },
      }),
    );
    form.append("files[0]", new Blob(["hello"], { type: "text/plain" }), "log.txt");
    const response = await fetch(v10(`/interactions/${handle.id}/${handle.token}/callback`), {
      method: "POST",
      body: form,
    });
    expect(response.status).toBe(204);
    const original = handle.record().original!;
    expect(original.attachments[0]).toMatchObject({
      filename: "log.txt",
      description: "the log",
      text: "hello",
      contentType: "text/plain",
    });
  });

  it("keeps thread rules: not from an ephemeral message, not in a DM, once per message, valid names", async () => {
    const ephemeral = await discord.interact({ kind: "slash", name: "ping" });
    await respond(ephemeral, { type: 4, data: { content: "secret", flags: 64 } });
    const ephemeralId = ephemeral.record().original!.id;
    expect(
      await call("POST", `/channels/${discord.channels.text}/messages/${ephemeralId}/threads`, { name: "t" }),
    ).toMatchObject({
      status: 404,
      body: { code: 10008 },
    });
    const inDm = await discord.interact({ kind: "slash", name: "ping", channel: "dm" });
    await respond(inDm, { type: 4, data: { content: "dm" } });
    const dmMessage = inDm.record().original!;
    expect(
      await call("POST", `/channels/${dmMessage.channelId}/messages/${dmMessage.id}/threads`, { name: "t" }),
    ).toMatchObject({
      status: 400,
      body: { code: 50024 },
    });
    const publicReply = await discord.interact({ kind: "slash", name: "ping" });
    await respond(publicReply, { type: 4, data: { content: "public" } });
    const replyId = publicReply.record().original!.id;
    const threads = `/channels/${discord.channels.text}/messages/${replyId}/threads`;
    expect(await call("POST", threads, { name: "x".repeat(101), auto_archive_duration: 30 })).toMatchObject({
      status: 400,
      body: {
        code: 50035,
        errors: {
          name: {
            _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 100 in length." }],
          },
          auto_archive_duration: {
            _errors: [
              { code: "BASE_TYPE_CHOICES", message: "Value must be one of {60, 1440, 4320, 10080}." },
            ],
          },
        },
      },
    });
    const created = await call("POST", threads, { name: "answer", auto_archive_duration: 60 });
    expect(created).toMatchObject({
      status: 201,
      body: { id: replyId, type: 11, parent_id: discord.channels.text, name: "answer" },
    });
    expect(await call("POST", threads, { name: "again" })).toMatchObject({
      status: 400,
      body: { code: 160004 },
    });
    expect(await call("POST", `/channels/${replyId}/messages`, { content: "in the thread" })).toMatchObject({
      status: 200,
    });
    expect(publicReply.record().threadMessages.map((message) => message.content)).toEqual(["in the thread"]);
  });

  it("creates standalone threads and lists channel messages newest first", async () => {
    const path = `/channels/${discord.channels.noThreads}/threads`;
    expect(await call("POST", path, { name: "denied", type: 11 })).toMatchObject({
      status: 403,
      body: { code: 50013 },
    });
    discord.setBotChannelPermissions(discord.channels.noThreads, { allow: (1n << 35n) | (1n << 36n) });
    const created = await call("POST", path, { name: "notes", type: 11 });
    expect(created).toMatchObject({
      status: 201,
      body: { type: 11, parent_id: discord.channels.noThreads, name: "notes" },
    });
    const threadId = (created.body as { id: string }).id;
    const announcement = discord.messagesIn(discord.channels.noThreads).at(-1);
    expect(announcement).toMatchObject({
      type: 18,
      content: "notes",
      api: { message_reference: { channel_id: threadId } },
    });
    const privateThread = await call("POST", path, { name: "private" });
    expect(privateThread.body).toMatchObject({ type: 12 });
    await call("POST", `/channels/${threadId}/messages`, { content: "one" });
    await call("POST", `/channels/${threadId}/messages`, { content: "two" });
    const listed = await call("GET", `/channels/${threadId}/messages?limit=1`);
    expect((listed.body as Array<{ content: string }>).map((message) => message.content)).toEqual(["two"]);
    expect(
      discord.threads.find((thread) => thread.id === threadId)?.messages.map((message) => message.content),
    ).toEqual(["one", "two"]);
  });

  it("expires interaction tokens after their lifetime with 401 50027", async () => {
    const quick = await startDiscordStandIn({ tokenLifetimeMs: 30 });
    quick.registerCommands([{ name: "ping", description: "Answers pong" }]);
    const { client } = await identifiedRawGateway(quick.gatewayUrl, quick.botToken);
    try {
      const handle = await quick.interact({ kind: "slash", name: "ping" });
      await fetch(`${quick.apiUrl}/v10/interactions/${handle.id}/${handle.token}/callback`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ type: 5 }),
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const late = await fetch(
        `${quick.apiUrl}/v10/webhooks/${quick.applicationId}/${handle.token}/messages/@original`,
        {
          method: "PATCH",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ content: "late" }),
        },
      );
      expect(late.status).toBe(401);
      expect(await late.json()).toEqual({ message: "Invalid Webhook Token", code: 50027 });
    } finally {
      await client.close();
      await quick.close();
    }
  });

  it("validates command definitions and keeps ids across overwrites", async () => {
    const invalid = await call("PUT", `/applications/${discord.applicationId}/commands`, [
      { name: "Blame", description: "x" },
      { name: "ok", description: "" },
    ]);
    expect(invalid).toMatchObject({
      status: 400,
      body: {
        code: 50035,
        errors: {
          "0": { name: { _errors: [{ code: "APPLICATION_COMMAND_INVALID_NAME" }] } },
          "1": {
            description: {
              _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 100 in length." }],
            },
          },
        },
      },
    });
    const path = `/applications/${discord.applicationId}/guilds/${discord.guildId}/commands`;
    const first = (await call("PUT", path, [{ name: "alpha", description: "A" }])).body as Array<{
      id: string;
    }>;
    const second = (
      await call("PUT", path, [
        { name: "alpha", description: "A again" },
        { name: "beta", description: "B" },
      ])
    ).body as Array<{ id: string; name: string; guild_id: string }>;
    expect(second[0]).toMatchObject({ id: first[0]!.id, name: "alpha", guild_id: discord.guildId });
    expect(second[1]!.id).not.toBe(first[0]!.id);
  });
});

describe("the Discord stand-in's request bodies", () => {
  /**
   * Sends `chunks` as a request's body, one write each, over `agent`, and gives the socket it went
   * over. (Node's `reusedSocket` is no witness: it stays false for a request that waited in the
   * agent's queue and was then given the same connection, as the next one here is when it is asked
   * before the refused body has been written out.)
   */
  function send(
    agent: Agent,
    path: string,
    chunks: readonly Buffer[],
  ): Promise<{ status: number; body: unknown; socket: Socket | null }> {
    const { hostname, port, pathname } = new URL(v10(path));
    return new Promise((resolve, reject) => {
      const outgoing = request(
        {
          agent,
          hostname,
          port,
          path: pathname,
          method: "POST",
          headers: {
            ...bot(),
            "Content-Length": String(chunks.reduce((total, chunk) => total + chunk.length, 0)),
          },
        },
        (response) => {
          const parts: Buffer[] = [];
          response.on("data", (part: Buffer) => parts.push(part));
          response.on("end", () => {
            const text = Buffer.concat(parts).toString("utf8");
            resolve({
              status: response.statusCode ?? 0,
              body: text ? (JSON.parse(text) as unknown) : undefined,
              socket: outgoing.socket,
            });
          });
        },
      );
      outgoing.on("error", reject);
      for (const chunk of chunks) outgoing.write(chunk);
      outgoing.end();
    });
  }

  it("reads a body that comes in many pieces whole", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const text = Buffer.from(JSON.stringify({ content: `pieces ${"é".repeat(300)} end` }));
      const pieces = Array.from({ length: Math.ceil(text.length / 7) }, (_, n) =>
        text.subarray(n * 7, n * 7 + 7),
      );
      const sent = await send(agent, `/channels/${discord.channels.text}/messages`, pieces);
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({ content: `pieces ${"é".repeat(300)} end` });
    } finally {
      agent.destroy();
    }
  });

  it("refuses a body past Discord's cap with 413 (40005), and the connection carries the next request", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // 27 MiB, past the 25 MiB of files and the form around them: in 1 MiB writes.
      const mib = Buffer.alloc(1024 * 1024, 0x61);
      const refused = await send(
        agent,
        `/channels/${discord.channels.text}/messages`,
        Array.from({ length: 27 }, () => mib),
      );
      expect(refused).toMatchObject({
        status: 413,
        body: { code: 40005, message: "Request entity too large" },
      });
      const next = await send(agent, `/channels/${discord.channels.text}/messages`, [
        Buffer.from(JSON.stringify({ content: "after the refusal" })),
      ]);
      expect(next).toMatchObject({ status: 200, body: { content: "after the refusal" } });
      expect(refused.socket).not.toBeNull();
      expect(next.socket).toBe(refused.socket);
    } finally {
      agent.destroy();
    }
  });
});
