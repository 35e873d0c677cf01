import {
  ChannelType,
  InteractionContextType,
  PermissionFlagsBits,
  type APIInteraction,
} from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import {
  assertAdmin,
  factsOf,
  snowflakeTime,
  type PersonInteraction,
} from "../../../src/bot/core/request.js";
import { silentLogger } from "../../../src/logger.js";
import { slashPayload } from "./recordingResponder.js";
import { sentenceOf } from "../../sentenceOf.js";

const logger = silentLogger();

describe("what the core reads of a payload", () => {
  it("reads a server interaction: guild, channel and its type, member, permissions, locale", () => {
    const payload = slashPayload() as PersonInteraction & Record<string, unknown>;
    const manage = String(PermissionFlagsBits.ManageGuild);
    const facts = factsOf(
      {
        ...payload,
        locale: "fr",
        app_permissions: String(PermissionFlagsBits.CreatePublicThreads),
        member: { ...payload.member!, permissions: manage },
      } as PersonInteraction,
      logger,
    );
    expect(facts.request).toMatchObject({
      guildId: "81384788765712384",
      channelId: "81384788765712385",
      userId: "2",
      memberPermissions: PermissionFlagsBits.ManageGuild,
      locale: "fr",
    });
    expect(facts).toMatchObject({
      place: "guild",
      inGuild: true,
      channelType: ChannelType.GuildText,
      appPermissions: PermissionFlagsBits.CreatePublicThreads,
    });
    expect(() => assertAdmin(facts.request)).not.toThrow();
  });

  it("reads a DM: the user, no member permissions, the bot's DM as the place; admin commands refused", () => {
    const {
      guild_id: _guild,
      member: _member,
      ...rest
    } = slashPayload() as PersonInteraction & {
      guild_id?: string;
      member?: unknown;
    };
    const facts = factsOf(
      {
        ...rest,
        user: { id: "5", username: "someone", discriminator: "0", global_name: null, avatar: null },
        channel: { id: "6", type: ChannelType.DM },
        context: InteractionContextType.BotDM,
      } as APIInteraction as PersonInteraction,
      logger,
    );
    expect(facts.request).toMatchObject({ guildId: null, userId: "5", memberPermissions: null });
    expect(facts).toMatchObject({ place: "botDm", inGuild: false, channelType: ChannelType.DM });
    expect(sentenceOf(thrownBy(() => assertAdmin(facts.request)))).toMatch(/server only/);
  });

  it("reads a user install only: a server's interaction with none of the server's token or settings", () => {
    const payload = slashPayload() as PersonInteraction;
    const facts = factsOf(
      { ...payload, authorizing_integration_owners: { "1": "2" } } as PersonInteraction,
      logger,
    );
    // Who else reads the answer is the server's channel; what the bot may use of the server is nothing.
    expect(facts).toMatchObject({ place: "guild", inGuild: false, userInstallOnly: true });
    expect(facts.request).toMatchObject({ guildId: null, userId: "2" });
    const both = factsOf(
      {
        ...payload,
        authorizing_integration_owners: { "0": payload.guild_id!, "1": "2" },
      } as PersonInteraction,
      logger,
    );
    expect(both).toMatchObject({ inGuild: true, userInstallOnly: false });
    expect(both.request.guildId).toBe(payload.guild_id);
  });

  it("refuses an admin command to a member without Manage Server", () => {
    const facts = factsOf(slashPayload() as PersonInteraction, logger);
    expect(sentenceOf(thrownBy(() => assertAdmin(facts.request)))).toMatch(/Manage Server/);
  });

  it("dates the reply's last edit from the interaction's snowflake: 15 minutes less a margin", () => {
    const payload = slashPayload() as PersonInteraction;
    const created = snowflakeTime(payload.id);
    expect(Math.abs(created - Date.now())).toBeLessThan(1_000);
    const { editBy } = factsOf(payload, logger).request;
    expect(editBy.getTime() - created).toBe(15 * 60_000 - 30_000);
    // Discord's own example: 175928847299117063 was made at 2016-04-30 11:18:25.796 UTC.
    expect(new Date(snowflakeTime("175928847299117063")).toISOString()).toBe("2016-04-30T11:18:25.796Z");
  });
});

/** What `run` throws (it must throw). */
function thrownBy(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}
