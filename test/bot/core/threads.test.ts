import { ChannelType, PermissionFlagsBits } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { decidePlacement } from "../../../src/bot/core/threads.js";

const ALL = PermissionFlagsBits.CreatePublicThreads | PermissionFlagsBits.SendMessagesInThreads;

describe("thread placement", () => {
  it("answers in place when no thread is wanted", () => {
    expect(
      decidePlacement({
        wantsThread: false,
        inGuild: true,
        channelType: ChannelType.GuildText,
        appPermissions: ALL,
      }),
    ).toEqual({
      mode: "inPlace",
    });
  });

  it("starts a thread in a text channel when the bot may", () => {
    expect(
      decidePlacement({
        wantsThread: true,
        inGuild: true,
        channelType: ChannelType.GuildText,
        appPermissions: ALL,
      }),
    ).toEqual({
      mode: "thread",
    });
  });

  it("answers in place inside a thread, with no excuse", () => {
    expect(
      decidePlacement({
        wantsThread: true,
        inGuild: true,
        channelType: ChannelType.PublicThread,
        appPermissions: ALL,
      }),
    ).toEqual({ mode: "inPlace" });
  });

  it("says why when the bot lacks a permission", () => {
    const placement = decidePlacement({
      wantsThread: true,
      inGuild: true,
      channelType: ChannelType.GuildText,
      appPermissions: PermissionFlagsBits.SendMessagesInThreads,
    });
    expect(placement.mode).toBe("inPlace");
    expect(placement.mode === "inPlace" && placement.note).toMatch(/Create Public Threads/);
  });

  it("says why where only the asker's own install reaches", () => {
    expect(
      decidePlacement({
        wantsThread: true,
        inGuild: false,
        userInstallOnly: true,
        channelType: ChannelType.GuildText,
        appPermissions: 0n,
      }),
    ).toEqual({
      mode: "inPlace",
      note: "-# RepoScout is installed to your account, not to this place, so it cannot start threads here; the answer is here.",
    });
  });

  it("says why in a DM and in other kinds of channel", () => {
    const dm = decidePlacement({
      wantsThread: true,
      inGuild: false,
      channelType: ChannelType.DM,
      appPermissions: ALL,
    });
    expect(dm.mode === "inPlace" && dm.note).toMatch(/direct messages/);
    const voice = decidePlacement({
      wantsThread: true,
      inGuild: true,
      channelType: ChannelType.GuildVoice,
      appPermissions: ALL,
    });
    expect(voice.mode === "inPlace" && voice.note).toMatch(/text channels/);
  });
});
