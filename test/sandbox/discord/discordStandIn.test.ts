import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  ChannelType,
  Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  MessageFlags,
  ModalBuilder,
  Partials,
  PermissionFlagsBits,
  Routes,
  TextInputBuilder,
  TextInputStyle,
  type Interaction,
  type TextChannel,
} from "discord.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startDiscordStandIn, type DiscordStandIn } from "../../../src/sandbox/discord/index.js";

const COMMANDS = [
  { name: "ping", description: "Answers pong" },
  {
    name: "blame",
    description: "Who changed these lines",
    options: [
      { type: 3, name: "repo", description: "owner/name", required: true, autocomplete: true },
      { type: 3, name: "path", description: "file path", required: true, autocomplete: true },
      { type: 5, name: "thread", description: "answer in a thread" },
      { type: 4, name: "page", description: "page", min_value: 1 },
    ],
  },
  {
    name: "token",
    description: "Server token",
    default_member_permissions: "32",
    options: [
      { type: 1, name: "set", description: "Set the token" },
      { type: 1, name: "status", description: "Show the token" },
    ],
  },
];

let discord: DiscordStandIn;
let client: Client;
let handler: ((interaction: Interaction) => void) | null = null;

/** Runs `fn` on the next interaction the client receives; resolves with its result. */
function handleNext<T>(fn: (interaction: Interaction) => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    handler = (interaction) => {
      handler = null;
      fn(interaction).then(resolve, reject);
    };
  });
}

/** The DiscordAPIError a promise rejects with. */
async function apiError(promise: Promise<unknown>): Promise<DiscordAPIError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DiscordAPIError);
  return error as DiscordAPIError;
}

beforeAll(async () => {
  discord = await startDiscordStandIn({ heartbeatIntervalMs: 300 });
  client = new Client({
    intents: [GatewayIntentBits.Guilds],
    partials: [Partials.Channel],
    rest: { api: discord.apiUrl },
    allowedMentions: { parse: [] },
  });
  client.on(Events.InteractionCreate, (interaction) => handler?.(interaction));
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(discord.botToken);
  await ready;
  await client.application!.commands.set(COMMANDS, discord.guildId);
  // Guild commands are not offered in DMs; the global ping is.
  await client.application!.commands.set([COMMANDS[0]!]);
});

afterAll(async () => {
  await client?.destroy();
  await discord?.close();
});

describe("the real discord.js client against the Discord stand-in", () => {
  it("connects, becomes ready and caches the guild, its channels and its own member", () => {
    expect(client.user?.id).toBe(discord.botUserId);
    const guild = client.guilds.cache.get(discord.guildId);
    expect(guild?.available).toBe(true);
    const text = guild?.channels.cache.get(discord.channels.text) as TextChannel;
    expect(text.type).toBe(ChannelType.GuildText);
    const me = guild!.members.me!;
    expect(text.permissionsFor(me).has(PermissionFlagsBits.CreatePublicThreads)).toBe(true);
    const noThreads = guild!.channels.cache.get(discord.channels.noThreads) as TextChannel;
    expect(noThreads.permissionsFor(me).has(PermissionFlagsBits.CreatePublicThreads)).toBe(false);
    expect(guild!.channels.cache.get(discord.channels.thread)?.isThread()).toBe(true);
  });

  it("registers guild commands and sends slash interactions with their id and typed options", async () => {
    const blame = discord.commands({ guildId: discord.guildId }).find((command) => command.name === "blame")!;
    const seen = handleNext(async (interaction) => {
      if (!interaction.isChatInputCommand()) throw new Error("not a slash command");
      await interaction.reply({ content: "ok", allowedMentions: { parse: [] } });
      return {
        commandId: interaction.commandId,
        repo: interaction.options.getString("repo"),
        thread: interaction.options.getBoolean("thread"),
        page: interaction.options.getInteger("page"),
      };
    });
    const handle = await discord.interact({
      kind: "slash",
      name: "blame",
      options: { repo: "demo/widgets", path: "README.md", thread: true, page: 2 },
    });
    expect(await seen).toEqual({ commandId: blame.id, repo: "demo/widgets", thread: true, page: 2 });
    const record = await handle.waitForAnswer();
    expect(record.original?.content).toBe("ok");
    expect(record.original?.allowedMentions).toEqual({ parse: [] });
  });

  it("records a direct reply", async () => {
    const done = handleNext(async (interaction) => {
      if (interaction.isChatInputCommand()) await interaction.reply({ content: "pong @everyone" });
    });
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    await done;
    const record = await handle.waitForAnswer();
    expect(record.callbacks.map((callback) => callback.type)).toEqual([4]);
    expect(record.original).toMatchObject({ content: "pong @everyone", ephemeral: false, type: 20 });
    expect(record.original?.pings.everyone).toBe(false);
    expect(discord.messagesIn(discord.channels.text).at(-1)?.id).toBe(record.original?.id);
  });

  it("waits for the edit after a deferral", async () => {
    const done = handleNext(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.deferReply();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await interaction.editReply({ embeds: [{ title: "README.md", description: "line 1" }] });
    });
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    const record = await handle.waitForAnswer();
    await done;
    expect(record.deferred).toBe(true);
    expect(record.original?.loading).toBe(false);
    expect(record.original?.embeds[0]).toMatchObject({ type: "rich", title: "README.md" });
    expect(record.original?.editedAt).toBeNull();
  });

  it("keeps a deferred public reply public and records an ephemeral follow-up", async () => {
    const done = handleNext(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.deferReply();
      await interaction.editReply({ content: "summary", flags: MessageFlags.SuppressEmbeds });
      await interaction.followUp({ content: "only you", flags: MessageFlags.Ephemeral });
    });
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    await done;
    const record = await handle.waitForSettled({ quietMs: 50 });
    expect(record.original).toMatchObject({ content: "summary", ephemeral: false });
    expect(record.followups).toHaveLength(1);
    expect(record.followups[0]).toMatchObject({ content: "only you", ephemeral: true });
  });

  it("shows a modal and receives its submission", async () => {
    const shown = handleNext(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      const input = new TextInputBuilder()
        .setCustomId("token")
        .setLabel("GitHub token")
        .setStyle(TextInputStyle.Short);
      await interaction.showModal(
        new ModalBuilder()
          .setCustomId("token-set:1")
          .setTitle("Set the server token")
          .addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input)),
      );
    });
    const handle = await discord.interact({ kind: "slash", name: "token set", user: "admin" });
    await shown;
    const record = await handle.waitForAnswer();
    expect(record.callbacks[0]?.type).toBe(9);
    expect(record.modal?.title).toBe("Set the server token");
    const submitted = handleNext(async (interaction) => {
      if (!interaction.isModalSubmit()) throw new Error("not a modal submit");
      const value = interaction.fields.getTextInputValue("token");
      await interaction.reply({ content: `got ${value.length} characters`, flags: MessageFlags.Ephemeral });
      return { customId: interaction.customId, value };
    });
    const submission = await discord.interact({
      kind: "modal",
      from: handle,
      fields: { token: "ghp_secret" },
    });
    expect(await submitted).toEqual({ customId: "token-set:1", value: "ghp_secret" });
    const answer = await submission.waitForAnswer();
    expect(answer.original).toMatchObject({ content: "got 10 characters", ephemeral: true });
  });

  it("delivers a DM interaction with the user and no guild, and takes the reply", async () => {
    const done = handleNext(async (interaction) => {
      if (!interaction.isChatInputCommand()) throw new Error("not a slash command");
      await interaction.reply({ content: "hello in private" });
      return {
        inGuild: interaction.inGuild(),
        channelType: interaction.channel?.type,
        userId: interaction.user.id,
      };
    });
    const handle = await discord.interact({ kind: "slash", name: "ping", channel: "dm" });
    expect(await done).toEqual({
      inGuild: false,
      channelType: ChannelType.DM,
      userId: discord.users.member.id,
    });
    const record = await handle.waitForAnswer();
    expect(record.original).toMatchObject({
      channelId: discord.channels.dm,
      guildId: null,
      content: "hello in private",
    });
  });

  it("answers autocomplete with the focused option", async () => {
    const done = handleNext(async (interaction) => {
      if (!interaction.isAutocomplete()) throw new Error("not autocomplete");
      const focused = interaction.options.getFocused(true);
      await interaction.respond([{ name: `${focused.value}gets`, value: `${focused.value}gets` }]);
      return focused;
    });
    const handle = await discord.interact({
      kind: "autocomplete",
      name: "blame",
      options: { repo: "demo/wid" },
      focused: "repo",
    });
    expect(await done).toMatchObject({ name: "repo", value: "demo/wid" });
    const record = await handle.waitForAnswer();
    expect(record.choices).toEqual([{ name: "demo/widgets", value: "demo/widgets" }]);
  });

  it("updates a message when its button is clicked", async () => {
    const replied = handleNext(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      const next = new ButtonBuilder().setCustomId("page:2").setLabel("Next").setStyle(ButtonStyle.Primary);
      await interaction.reply({
        content: "page 1",
        components: [new ActionRowBuilder<ButtonBuilder>().addComponents(next)],
      });
    });
    const first = await discord.interact({ kind: "slash", name: "ping" });
    await replied;
    const { original } = await first.waitForAnswer();
    const clicked = handleNext(async (interaction) => {
      if (!interaction.isButton()) throw new Error("not a button");
      await interaction.update({ content: "page 2", components: [] });
      return { customId: interaction.customId, messageId: interaction.message.id };
    });
    const click = await discord.interact({ kind: "button", message: original!, customId: "page:2" });
    expect(await clicked).toEqual({ customId: "page:2", messageId: original!.id });
    const record = await click.waitForAnswer();
    expect(record.callbacks[0]?.type).toBe(7);
    expect(discord.message(original!.id)).toMatchObject({ content: "page 2", components: [] });
  });

  it("lets only the person an ephemeral message was sent to press its buttons, and keeps it ephemeral", async () => {
    const replied = handleNext(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      const next = new ButtonBuilder().setCustomId("mine:2").setLabel("Next").setStyle(ButtonStyle.Primary);
      await interaction.reply({
        content: "page 1, for you only",
        components: [new ActionRowBuilder<ButtonBuilder>().addComponents(next)],
        flags: MessageFlags.Ephemeral,
      });
    });
    const first = await discord.interact({ kind: "slash", name: "ping", user: "member" });
    await replied;
    const { original } = await first.waitForAnswer();
    expect(original?.ephemeral).toBe(true);
    await expect(
      discord.interact({ kind: "button", message: original!, customId: "mine:2", user: "admin" }),
    ).rejects.toThrow(/ephemeral/);

    const clicked = handleNext(async (interaction) => {
      if (!interaction.isButton()) throw new Error("not a button");
      const wasEphemeral = interaction.message.flags.has(MessageFlags.Ephemeral);
      await interaction.update({ content: "page 2, for you only", components: [] });
      return wasEphemeral;
    });
    await discord.interact({ kind: "button", message: original!, customId: "mine:2", user: "member" });
    expect(await clicked).toBe(true);
    expect(discord.message(original!.id)).toMatchObject({ content: "page 2, for you only", ephemeral: true });
  });

  it("starts a thread from the reply and posts the answer in it", async () => {
    const done = handleNext(async (interaction) => {
      if (!interaction.isChatInputCommand()) throw new Error("not a slash command");
      await interaction.reply({ content: "Answer in the thread" });
      const reply = await interaction.fetchReply();
      const thread = await reply.startThread({
        name: "blame demo/widgets README.md",
        autoArchiveDuration: 1440,
      });
      await thread.send({ content: "the full answer", allowedMentions: { parse: [] } });
      return thread.id;
    });
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    const threadId = await done;
    const record = await handle.waitFor((current) => current.threadMessages.length > 0);
    expect(record.thread).toMatchObject({
      id: record.original?.id,
      name: "blame demo/widgets README.md",
      parentId: discord.channels.text,
    });
    expect(threadId).toBe(record.original?.id);
    expect(record.threadMessages[0]).toMatchObject({
      content: "the full answer",
      allowedMentions: { parse: [] },
    });
    // THREAD_CREATE reached the client over the gateway.
    await vi.waitFor(() => expect(client.channels.cache.get(threadId)?.isThread()).toBe(true));
  });

  it("receives a file attachment with its name and bytes", async () => {
    const done = handleNext(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.reply({
        content: "see file",
        files: [{ attachment: Buffer.from("line 1\nline 2\n"), name: "answer.txt" }],
      });
    });
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    await done;
    const record = await handle.waitForAnswer();
    expect(record.original?.attachments).toHaveLength(1);
    expect(record.original?.attachments[0]).toMatchObject({
      filename: "answer.txt",
      size: 14,
      text: "line 1\nline 2\n",
    });
    const served = await fetch(record.original!.api.attachments[0]!.url);
    expect(await served.text()).toBe("line 1\nline 2\n");
  });

  it("refuses a second acknowledgement with 40060", async () => {
    const done = handleNext(async (interaction) => {
      if (!interaction.isChatInputCommand()) return null;
      await interaction.reply("first");
      return apiError(
        client.rest.post(Routes.interactionCallback(interaction.id, interaction.token), {
          body: { type: 4, data: { content: "second" } },
          auth: false,
        }),
      );
    });
    await discord.interact({ kind: "slash", name: "ping" });
    const error = await done;
    expect(error?.code).toBe(40060);
    expect(error?.status).toBe(400);
    expect(error?.message).toBe("Interaction has already been acknowledged.");
  });

  it("refuses a first response after the deadline with 10062", async () => {
    const done = handleNext(async (interaction) => {
      if (!interaction.isChatInputCommand()) return null;
      await new Promise((resolve) => setTimeout(resolve, 120));
      return apiError(interaction.reply("too late"));
    });
    const handle = await discord.interact({ kind: "slash", name: "ping", responseDeadlineMs: 60 });
    const error = await done;
    expect(error).toMatchObject({ code: 10062, status: 404, message: "Unknown interaction" });
    expect(handle.record().errors.map((request) => request.status)).toEqual([404]);
  });

  it("refuses an over-long embed with 50035 in Discord's nested error shape", async () => {
    const done = handleNext(async (interaction) => {
      if (!interaction.isChatInputCommand()) return null;
      return apiError(interaction.reply({ embeds: [{ title: "t".repeat(257) }] }));
    });
    await discord.interact({ kind: "slash", name: "ping" });
    const error = await done;
    expect(error?.code).toBe(50035);
    expect(error?.rawError).toEqual({
      message: "Invalid Form Body",
      code: 50035,
      errors: {
        data: {
          embeds: {
            "0": {
              title: {
                _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 256 or fewer in length." }],
              },
            },
          },
        },
      },
    });
  });

  it("refuses a thread where the bot lacks Create Public Threads with 50013", async () => {
    const done = handleNext(async (interaction) => {
      if (!interaction.isChatInputCommand()) return null;
      await interaction.reply("summary");
      const reply = await interaction.fetchReply();
      return apiError(reply.startThread({ name: "answer" }));
    });
    const handle = await discord.interact({ kind: "slash", name: "ping", channel: "noThreads" });
    const error = await done;
    expect(error).toMatchObject({ code: 50013, status: 403, message: "Missing Permissions" });
    const payload = handle.payload;
    expect(BigInt(payload.app_permissions) & PermissionFlagsBits.CreatePublicThreads).toBe(0n);
  });

  it("answers 429 with retry-after, and discord.js's REST waits and succeeds", async () => {
    discord.injectRateLimit({
      method: "POST",
      route: "/channels/:channel_id/messages",
      retryAfterSeconds: 0.3,
    });
    const channel = client.channels.cache.get(discord.channels.text) as TextChannel;
    const started = Date.now();
    const message = await channel.send({ content: "after the wait", allowedMentions: { parse: [] } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    const attempts = discord.requests.filter(
      (request) => request.route === "/channels/:channel_id/messages" && request.method === "POST",
    );
    expect(attempts.slice(-2).map((request) => request.status)).toEqual([429, 200]);
    expect(attempts.at(-2)?.response).toEqual({
      message: "You are being rate limited.",
      retry_after: 0.3,
      global: false,
    });
    expect(discord.message(message.id)?.content).toBe("after the wait");
  });

  it("acknowledges heartbeats", async () => {
    await vi.waitFor(() => expect(client.ws.ping).toBeGreaterThanOrEqual(0), { timeout: 3000 });
    expect(discord.gatewaySessions()[0]?.heartbeats).toBeGreaterThan(0);
  });

  it("resumes after RECONNECT and keeps delivering interactions", async () => {
    // Relative: with a 300 ms heartbeat, a CPU-starved run can make discord.js resume a "zombie"
    // connection on its own before this test.
    const before = discord.gatewaySessions()[0]?.resumes ?? 0;
    const resumed = new Promise<void>((resolve) => client.once(Events.ShardResume, () => resolve()));
    discord.sendGatewayOp(7);
    await resumed;
    expect(discord.gatewaySessions()[0]?.resumes).toBeGreaterThan(before);
    const done = handleNext(async (interaction) => {
      if (interaction.isChatInputCommand()) await interaction.reply("still here");
    });
    const handle = await discord.interact({ kind: "slash", name: "ping" });
    await done;
    expect((await handle.waitForAnswer()).original?.content).toBe("still here");
  });

  it("closes cleanly on client.destroy()", async () => {
    await client.destroy();
    await vi.waitFor(() => expect(discord.gatewaySessions()).toEqual([]));
    await expect(discord.interact({ kind: "slash", name: "ping" })).rejects.toThrow(/no bot is connected/);
  });
});
