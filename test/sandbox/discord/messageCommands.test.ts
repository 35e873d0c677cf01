import { Client, Events, GatewayIntentBits, MessageFlags, type Interaction } from "discord.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startDiscordStandIn,
  type DiscordStandIn,
  type InteractionHandle,
} from "../../../src/sandbox/discord/index.js";

const SHOW_CODE = { type: 3, name: "Show code", integration_types: [0, 1], contexts: [0, 1, 2] };
const BLAME_LINES = { type: 3, name: "Blame lines", integration_types: [0, 1], contexts: [0, 1, 2] };
const SERVER_ONLY = { type: 3, name: "Server only", integration_types: [0], contexts: [0, 1] };
const PING = { name: "ping", description: "Answers pong", integration_types: [0, 1], contexts: [0, 1, 2] };

let discord: DiscordStandIn;
let client: Client;
/** How discord.js answers the next interactions (then `defaultAnswer`). */
const nextAnswers: Array<(interaction: Interaction) => Promise<void>> = [];

beforeAll(async () => {
  discord = await startDiscordStandIn();
  discord.registerCommands([SHOW_CODE, BLAME_LINES, SERVER_ONLY, PING]);
  client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: discord.apiUrl } });
  client.on(Events.InteractionCreate, (interaction) => {
    const answer = nextAnswers.shift() ?? defaultAnswer;
    void answer(interaction).catch(() => undefined);
  });
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(discord.botToken);
  await ready;
});

afterAll(async () => {
  await client?.destroy();
  await discord?.close();
});

/** discord.js's view of a message command: the target message's content, echoed back. */
async function defaultAnswer(interaction: Interaction): Promise<void> {
  if (interaction.isMessageContextMenuCommand()) {
    await interaction.reply({
      content: `target: ${interaction.targetMessage.content}`,
      allowedMentions: { parse: [] },
    });
  } else if (interaction.isChatInputCommand()) {
    await interaction.reply("pong");
  }
}

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${discord.apiUrl}/v10${path}`, {
    ...init,
    headers: {
      Authorization: `Bot ${discord.botToken}`,
      "Content-Type": "application/json",
      ...init.headers,
    },
  });

async function register(definitions: unknown[]) {
  const response = await api(`/applications/${discord.applicationId}/commands`, {
    method: "PUT",
    body: JSON.stringify(definitions),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe("message commands: registration", () => {
  it("keeps a message command with capitals and spaces, no description, and its install contexts", async () => {
    const stored = discord.commands().find((command) => command.name === "Show code");
    expect(stored).toMatchObject({
      type: 3,
      description: "",
      integration_types: [0, 1],
      contexts: [0, 1, 2],
    });
    expect(stored).not.toHaveProperty("options");
    // A command without integration_types takes the app's configured ones.
    expect(discord.commands().find((command) => command.name === "ping")?.integration_types).toEqual([0, 1]);
  });

  it("refuses a description, options, an unknown context or install type (50035)", async () => {
    const refused = await register([
      { type: 3, name: "Described", description: "no" },
      { type: 3, name: "With options", options: [{ type: 3, name: "x", description: "x" }] },
      { type: 3, name: "Bad contexts", contexts: [3], integration_types: [2] },
    ]);
    expect(refused).toMatchObject({
      status: 400,
      body: {
        code: 50035,
        errors: {
          0: {
            description: {
              _errors: [
                {
                  code: "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION_INVALID",
                  message: "Context menu commands cannot have description",
                },
              ],
            },
          },
          1: {
            options: {
              _errors: [
                {
                  code: "APPLICATION_COMMAND_CONTEXT_MENU_OPTIONS_INVALID",
                  message: "Context menu commands cannot have options",
                },
              ],
            },
          },
          2: { contexts: { 0: expect.any(Object) }, integration_types: { 0: expect.any(Object) } },
        },
      },
    });
    expect(discord.commands().map((command) => command.name)).toContain("Show code");
  });

  it("allows 15 message commands per scope (since 2026-03-03) and answers 30032 past them", async () => {
    const many = (count: number) =>
      Array.from({ length: count }, (_, index) => ({ type: 3, name: `Menu ${index}` }));
    expect((await register([...many(15), PING])).status).toBe(200);
    expect(await register(many(16))).toMatchObject({
      status: 400,
      body: { code: 30032, message: "Maximum number of application commands reached (15)" },
    });
    const one = await api(`/applications/${discord.applicationId}/commands`, {
      method: "POST",
      body: JSON.stringify({ type: 3, name: "One more" }),
    });
    expect(one.status).toBe(400);
    discord.registerCommands([SHOW_CODE, BLAME_LINES, SERVER_ONLY, PING]);
  });
});

describe("message commands: what Discord refuses in a registration", () => {
  it("refuses empty or repeated contexts and integration_types (50035), keeping what was registered", async () => {
    const before = discord.commands().map((command) => command.id);
    const refused = await register([
      { ...PING, contexts: [] },
      { ...PING, name: "again", integration_types: [0, 0] },
      { ...SHOW_CODE, contexts: [0, 1, 1] },
      { ...BLAME_LINES, integration_types: [] },
    ]);
    expect(refused).toMatchObject({
      status: 400,
      body: {
        code: 50035,
        errors: {
          0: { contexts: { _errors: [{ code: "BASE_TYPE_MIN_LENGTH" }] } },
          1: { integration_types: { 1: { _errors: [{ code: "SET_TYPE_ALREADY_CONTAINS_VALUE" }] } } },
          2: { contexts: { 2: { _errors: [{ code: "SET_TYPE_ALREADY_CONTAINS_VALUE" }] } } },
          3: { integration_types: { _errors: [{ code: "BASE_TYPE_MIN_LENGTH" }] } },
        },
      },
    });
    expect(discord.commands().map((command) => command.id)).toEqual(before);
  });

  it("refuses the whole registration when one command names a user install the app has not enabled", async () => {
    const guildOnly = await startDiscordStandIn({ integrationTypes: [0] });
    try {
      const put = await fetch(`${guildOnly.apiUrl}/v10/applications/${guildOnly.applicationId}/commands`, {
        method: "PUT",
        headers: { Authorization: `Bot ${guildOnly.botToken}`, "Content-Type": "application/json" },
        body: JSON.stringify([{ ...PING, integration_types: [0] }, SHOW_CODE]),
      });
      expect(put.status).toBe(400);
      expect(await put.json()).toMatchObject({
        code: 50035,
        errors: { 1: { integration_types: { 1: { _errors: [{ code: "BASE_TYPE_CHOICES" }] } } } },
      });
      expect(guildOnly.commands()).toEqual([]);
      // Without integration_types a command takes the app's own: accepted.
      guildOnly.registerCommands([{ name: "ping", description: "Answers pong" }]);
      expect(guildOnly.commands()[0]?.integration_types).toEqual([0]);
    } finally {
      await guildOnly.close();
    }
  });
});

describe("message commands: the interaction", () => {
  it("carries the target message with its content, in the server where the app is installed", async () => {
    const target = discord.message(discord.demoMessages.columnAnchor!)!;
    const handle = await discord.interact({ kind: "message", name: "Show code", message: target });
    const payload = handle.payload as unknown as {
      data: {
        type: number;
        name: string;
        target_id: string;
        resolved: { messages: Record<string, { content: string; author: { id: string } }> };
      };
    };
    expect(payload).toMatchObject({
      type: 2,
      context: 0,
      guild_id: discord.guildId,
      channel_id: discord.channels.codeLinks,
      authorizing_integration_owners: { "0": discord.guildId, "1": discord.users.member.id },
      data: { type: 3, name: "Show code", target_id: target.id },
    });
    expect(payload.data.resolved.messages[target.id]).toMatchObject({
      content: expect.stringContaining("https://github.com/demo/widgets/blob/main/src/engine.ts#L10C3-L20C5"),
      author: { id: target.authorId },
    });
    const record = await handle.waitForAnswer();
    expect(record.original?.content).toBe(`target: ${target.content}`);
  });

  it("makes the answer a context menu command's message (23) whose interaction_metadata names the target message", async () => {
    const target = discord.message(discord.demoMessages.oneLink!)!;
    const handle = await discord.interact({ kind: "message", name: "Show code", message: target });
    await handle.waitForAnswer();
    const answer = await api(`/webhooks/${discord.applicationId}/${handle.token}/messages/@original`);
    expect(await answer.json()).toMatchObject({
      type: 23,
      interaction_metadata: { type: 2, target_message_id: target.id, user: { id: discord.users.member.id } },
    });
  });

  it("takes a deferral with the ephemeral flag alone: any other flag is 50035", async () => {
    for (const [flags, status] of [
      [MessageFlags.SuppressEmbeds, 400],
      [MessageFlags.Ephemeral | MessageFlags.SuppressNotifications, 400],
      [MessageFlags.Ephemeral, 204],
    ] as const) {
      nextAnswers.push(async () => undefined);
      const handle = await discord.interact({ kind: "slash", name: "ping" });
      const callback = await api(`/interactions/${handle.id}/${handle.token}/callback`, {
        method: "POST",
        body: JSON.stringify({ type: 5, data: { flags } }),
      });
      expect(callback.status, String(flags)).toBe(status);
      if (status === 400) {
        expect(await callback.json()).toMatchObject({
          code: 50035,
          errors: { data: { flags: expect.any(Object) } },
        });
      }
    }
  });

  it("returns every embed field with `inline`, false when the bot left it out", async () => {
    nextAnswers.push(async () => undefined);
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    const fields = [
      { name: "left out", value: "a" },
      { name: "inline", value: "b", inline: true },
    ];
    await api(`/interactions/${handle.id}/${handle.token}/callback`, {
      method: "POST",
      body: JSON.stringify({ type: 4, data: { embeds: [{ title: "t", fields }] } }),
    });
    const original = await api(`/webhooks/${discord.applicationId}/${handle.token}/messages/@original`);
    expect(((await original.json()) as { embeds: Array<{ fields: unknown[] }> }).embeds[0]?.fields).toEqual([
      { name: "left out", value: "a", inline: false },
      { name: "inline", value: "b", inline: true },
    ]);
  });

  it("seeds #code-links with one case per message: several links, another host, no link, a private repository", () => {
    const contentOf = (name: string) => discord.message(discord.demoMessages[name]!)!.content;
    expect(contentOf("severalLinks").match(/https:\/\/github\.com\//g)).toHaveLength(3);
    expect(contentOf("slashBranch")).toContain("/blob/feature/gears/src/gears.ts#L6-L8");
    expect(contentOf("otherHost")).toMatch(/^[^]*https:\/\/gitlab\.com\//);
    expect(contentOf("noLink")).not.toMatch(/https?:/);
    expect(contentOf("privateRepo")).toContain("/demo/secret/");
    expect(discord.messagesIn(discord.channels.codeLinks).length).toBeGreaterThanOrEqual(10);
  });

  it('keeps only the owners the command supports: a guild-install-only command has no "1"', async () => {
    const handle = await discord.interact({
      kind: "message",
      name: "Server only",
      message: discord.demoMessages.noLink!,
    });
    expect(handle.payload.authorizing_integration_owners).toEqual({ "0": discord.guildId });
    await handle.waitForAnswer();
  });

  it("refuses an ephemeral target and a command the place does not allow", async () => {
    nextAnswers.push(async (interaction) => {
      if (interaction.isChatInputCommand())
        await interaction.reply({ content: "secret", flags: MessageFlags.Ephemeral });
    });
    const secret = await (await discord.interact({ kind: "slash", name: "ping" })).waitForAnswer();
    expect(secret.ephemeral).toBe(true);
    await expect(
      discord.interact({ kind: "message", name: "Show code", message: secret.original! }),
    ).rejects.toThrow(/ephemeral/);
    await expect(
      discord.interact({ kind: "message", name: "Server only", message: discord.demoMessages.groupDm! }),
    ).rejects.toThrow(/not available in group DMs/);
  });
});

describe("a user install where the bot is not a member", () => {
  async function inLobby(name = "Show code"): Promise<InteractionHandle> {
    return discord.interact({ kind: "message", name, message: discord.demoMessages.lobby! });
  }

  it("names only the user as owner, with the guild, the member and an external app's permissions", async () => {
    const handle = await inLobby();
    expect(handle.payload).toMatchObject({
      context: 0,
      guild_id: discord.guilds.elsewhere,
      authorizing_integration_owners: { "1": discord.users.member.id },
      member: { user: { id: discord.users.member.id } },
    });
    expect(handle.payload.authorizing_integration_owners).not.toHaveProperty("0");
    expect(BigInt(handle.payload.app_permissions)).toBe((1n << 15n) | (1n << 14n) | (1n << 17n));
    // discord.js answers it although the guild is not in its cache.
    expect((await handle.waitForAnswer()).original?.content).toMatch(/^target: Look what I found/);
  });

  it("is refused when the command only supports a guild install, or the user did not install the app", async () => {
    await expect(inLobby("Server only")).rejects.toThrow(/server the app is not installed to/);
    discord.setUserInstall("member", false);
    try {
      await expect(inLobby()).rejects.toThrow(/no installation of the app reaches mel.member/);
    } finally {
      discord.setUserInstall("member", true);
    }
  });

  it("answers channel routes there with 403 50001, so no thread can start from the answer", async () => {
    const record = await (await inLobby()).waitForAnswer();
    const message = await api(`/channels/${discord.channels.lobby}/messages/${record.original!.id}`);
    expect(message.status).toBe(403);
    expect(await message.json()).toMatchObject({ code: 50001, message: "Missing Access" });
    const thread = await api(`/channels/${discord.channels.lobby}/messages/${record.original!.id}/threads`, {
      method: "POST",
      body: JSON.stringify({ name: "answer" }),
    });
    expect(thread.status).toBe(403);
  });

  it("allows 5 follow-ups per interaction, then answers 40094", async () => {
    nextAnswers.push(async () => undefined);
    const handle = await inLobby();
    const callback = await api(`/interactions/${handle.id}/${handle.token}/callback`, {
      method: "POST",
      body: JSON.stringify({ type: 4, data: { content: "first" } }),
    });
    expect(callback.status).toBe(204);
    const statuses: number[] = [];
    let last: unknown;
    for (let index = 0; index < 6; index++) {
      const response = await fetch(
        `${discord.apiUrl}/v10/webhooks/${discord.applicationId}/${handle.token}`,
        {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ content: `follow-up ${index}` }),
        },
      );
      statuses.push(response.status);
      last = await response.json();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 400]);
    expect(last).toMatchObject({
      code: 40094,
      message: "This interaction has hit the maximum number of follow up messages",
    });
  });

  it("makes every response ephemeral in a channel where external apps are forbidden", async () => {
    nextAnswers.push(async (interaction) => {
      if (!interaction.isMessageContextMenuCommand()) return;
      await interaction.deferReply();
      await interaction.editReply("public, the bot thought");
      await interaction.followUp("a public follow-up");
    });
    const handle = await discord.interact({
      kind: "message",
      name: "Show code",
      message: discord.demoMessages.noApps!,
    });
    const record = await handle.waitForSettled();
    expect(record.ephemeral).toBe(true);
    expect((record.original!.flags & 64) === 64).toBe(true);
    expect(record.followups.at(-1)).toMatchObject({ content: "a public follow-up", ephemeral: true });
    expect(discord.messagesIn(discord.channels.noApps, { includeEphemeral: false })).toHaveLength(1);
  });

  it("works in a group DM (context 2) with the user, not a member", async () => {
    const handle = await discord.interact({
      kind: "message",
      name: "Blame lines",
      message: discord.demoMessages.groupDm!,
    });
    expect(handle.payload).toMatchObject({
      context: 2,
      authorizing_integration_owners: { "1": discord.users.member.id },
      user: { id: discord.users.member.id },
      channel: { id: discord.channels.groupDm, type: 3 },
    });
    expect(handle.payload).not.toHaveProperty("member");
    expect(handle.payload).not.toHaveProperty("guild_id");
    expect(BigInt(handle.payload.app_permissions)).toBe((1n << 15n) | (1n << 14n) | (1n << 17n));
    await handle.waitForAnswer();
  });

  it("uses the DM with the bot (context 1) with both owners", async () => {
    const handle = await discord.interact({
      kind: "message",
      name: "Show code",
      message: discord.demoMessages.dm!,
    });
    expect(handle.payload).toMatchObject({
      context: 1,
      authorizing_integration_owners: { "0": "0", "1": discord.users.member.id },
    });
    await handle.waitForAnswer();
  });
});
