import { PermissionFlagsBits } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import {
  BOT_PERMISSIONS,
  invitePermissions,
  serverInviteUrl,
  userInstallUrl,
} from "../src/bot/permissions.js";

describe("npm run invite", () => {
  it("asks for exactly the permissions the bot uses: View Channel, Send Messages, threads, embeds, files, history", () => {
    const expected =
      PermissionFlagsBits.ViewChannel |
      PermissionFlagsBits.SendMessages |
      PermissionFlagsBits.CreatePublicThreads |
      PermissionFlagsBits.SendMessagesInThreads |
      PermissionFlagsBits.EmbedLinks |
      PermissionFlagsBits.AttachFiles |
      PermissionFlagsBits.ReadMessageHistory;
    expect(invitePermissions()).toBe(expected);
    // No administrator, no moderation, no message reading beyond history.
    expect(invitePermissions() & PermissionFlagsBits.Administrator).toBe(0n);
    expect(invitePermissions() & PermissionFlagsBits.ManageMessages).toBe(0n);
    expect(Object.keys(BOT_PERMISSIONS)).toHaveLength(7);
  });

  it("builds the server invite (bot and commands) and the user install (commands only)", () => {
    const server = new URL(serverInviteUrl("123"));
    expect(server.origin + server.pathname).toBe("https://discord.com/oauth2/authorize");
    expect(Object.fromEntries(server.searchParams)).toEqual({
      client_id: "123",
      scope: "bot applications.commands",
      permissions: invitePermissions().toString(),
      integration_type: "0",
    });
    expect(Object.fromEntries(new URL(userInstallUrl("123")).searchParams)).toEqual({
      client_id: "123",
      scope: "applications.commands",
      integration_type: "1",
    });
  });
});
