import { describe, expect, it } from "vitest";
import { startDiscordStandIn, type DiscordStandIn } from "../../../src/sandbox/discord/index.js";

/** Every id a fresh stand-in hands out before anything happens in it, by what it names. */
function issuedIds(discord: DiscordStandIn): Array<[string, string]> {
  return [
    ["application", discord.applicationId],
    ["guild", discord.guildId],
    ...Object.entries(discord.channels).map(([name, id]): [string, string] => [`channel ${name}`, id]),
    ...Object.entries(discord.users)
      // The bot user's id is the application's id, as on Discord.
      .filter(([name]) => name !== "bot")
      .map(([name, user]): [string, string] => [`user ${name}`, user.id]),
    // @everyone's id is the guild's id, as on Discord.
    ...Object.entries(discord.roles)
      .filter(([name]) => name !== "everyone")
      .map(([name, id]): [string, string] => [`role ${name}`, id]),
  ];
}

async function call(discord: DiscordStandIn, method: string, path: string, body?: unknown) {
  const response = await fetch(`${discord.apiUrl}/v10${path}`, {
    method,
    headers: { Authorization: `Bot ${discord.botToken}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as unknown };
}

describe("the ids the Discord stand-in issues", () => {
  it("never gives two things the same id, in start after start", async () => {
    // Starts in the same millisecond are what made the application and the guild share an id.
    const starts = await Promise.all(Array.from({ length: 8 }, () => startDiscordStandIn()));
    try {
      for (const discord of starts) {
        const ids = issuedIds(discord);
        const byId = new Map<string, string[]>();
        for (const [name, id] of ids) byId.set(id, [...(byId.get(id) ?? []), name]);
        const shared = [...byId.values()].filter((names) => names.length > 1);
        expect(shared).toEqual([]);
        expect(discord.users.bot.id).toBe(discord.applicationId);
      }
    } finally {
      await Promise.all(starts.map((discord) => discord.close()));
    }
  });

  it("refuses a bot that swapped the application id and the guild id", async () => {
    const discord = await startDiscordStandIn();
    try {
      const command = [{ name: "ping", description: "Answers pong" }];
      const swapped = `/applications/${discord.guildId}/guilds/${discord.applicationId}/commands`;
      expect(await call(discord, "PUT", swapped, command)).toMatchObject({
        status: 403,
        body: { code: 50001, message: "Missing Access" },
      });
      expect(await call(discord, "PUT", `/applications/${discord.guildId}/commands`, command)).toMatchObject({
        status: 403,
        body: { code: 50001 },
      });
      const right = `/applications/${discord.applicationId}/guilds/${discord.guildId}/commands`;
      expect((await call(discord, "PUT", right, command)).status).toBe(200);
      expect(discord.commands({ guildId: discord.guildId }).map((entry) => entry.name)).toEqual(["ping"]);
      expect(discord.commands()).toEqual([]);
    } finally {
      await discord.close();
    }
  });
});
