import { ChannelType, InteractionContextType, MessageFlags } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import {
  answerPlaceOf,
  decideDelivery,
  decidePageDelivery,
  sendToAskerOnly,
  type AnswerableInteraction,
} from "../../../src/bot/core/privateDelivery.js";
import { PRIVATE_WITHHELD } from "../../../src/format/delivery.js";
import { formatNotice } from "../../../src/format/whoami.js";
import type { AnswerPrivacy } from "../../../src/format/privacy.js";
import { silentLogger } from "../../../src/logger.js";

const SECRET: AnswerPrivacy = { kind: "repository", nameWithOwner: "demo/secret", visibility: "PRIVATE" };

describe("how an answer is delivered (SPEC section 4, private code)", () => {
  it("delivers a public answer as usual anywhere, threads allowed, with no note", () => {
    for (const place of ["guild", "botDm", "elsewhere"] as const) {
      expect(
        decideDelivery({ privacy: undefined, place, inChannelAllowed: false, wantsThread: true }),
      ).toEqual({
        ephemeral: false,
        threadAllowed: true,
      });
    }
  });

  it("keeps a private answer to the asker in a server by default, in place, saying why and how admins change it", () => {
    const decision = decideDelivery({
      privacy: SECRET,
      place: "guild",
      inChannelAllowed: false,
      wantsThread: false,
    });
    expect(decision).toMatchObject({ ephemeral: true, threadAllowed: false });
    expect(decision.note).toBe(
      "-# 🔒 Only you can see this: `demo/secret` is private. An admin can allow private answers in this server's channels with `/settings private-answers in-channel:true`.",
    );
  });

  it("says the answer is not in a thread when one was wanted", () => {
    const decision = decideDelivery({
      privacy: SECRET,
      place: "guild",
      inChannelAllowed: false,
      wantsThread: true,
    });
    expect(decision).toMatchObject({ ephemeral: true, threadAllowed: false });
    expect(decision.note).toMatch(
      /^-# 🔒 Only you can see this, so it is here and not in a thread: `demo\/secret`/,
    );
  });

  it("posts a private answer as usual, marked, where the server's admins allow it, threads included", () => {
    const decision = decideDelivery({
      privacy: SECRET,
      place: "guild",
      inChannelAllowed: true,
      wantsThread: true,
    });
    expect(decision).toMatchObject({ ephemeral: false, threadAllowed: true });
    expect(decision.note).toBe(
      "-# 🔒 Private: `demo/secret` is private. This server's admins allow private answers in its channels.",
    );
  });

  it("posts a private answer as usual in the DM with the bot, which nobody else reads", () => {
    const decision = decideDelivery({
      privacy: SECRET,
      place: "botDm",
      inChannelAllowed: false,
      wantsThread: false,
    });
    expect(decision).toMatchObject({ ephemeral: false });
    expect(decision.note).toMatch(/Only you and RepoScout are in this conversation/);
  });

  it("keeps a private answer to the asker in a group DM, where no server setting applies", () => {
    const decision = decideDelivery({
      privacy: SECRET,
      place: "elsewhere",
      inChannelAllowed: true,
      wantsThread: true,
    });
    expect(decision).toMatchObject({ ephemeral: true, threadAllowed: false });
    expect(decision.note).toBe("-# 🔒 Only you can see this: `demo/secret` is private.");
  });
});

describe("where an interaction happened", () => {
  it("reads the interaction's context first, then its guild and channel", () => {
    expect(answerPlaceOf({ context: InteractionContextType.BotDM, guildId: null })).toBe("botDm");
    expect(answerPlaceOf({ context: InteractionContextType.PrivateChannel, guildId: null })).toBe(
      "elsewhere",
    );
    expect(answerPlaceOf({ context: InteractionContextType.Guild, guildId: "1" })).toBe("guild");
    expect(answerPlaceOf({ context: null, guildId: "1" })).toBe("guild");
    expect(answerPlaceOf({ context: null, guildId: null, channel: { type: ChannelType.DM } })).toBe("botDm");
    expect(answerPlaceOf({ context: null, guildId: null, channel: { type: ChannelType.GroupDM } })).toBe(
      "elsewhere",
    );
  });
});

describe("a button's new page", () => {
  const base = { place: "guild" as const, inChannelAllowed: false, onEphemeralMessage: false };

  it("replaces a public page when it is public itself", () => {
    expect(decidePageDelivery({ ...base, privacy: undefined })).toEqual({ mode: "update" });
  });

  it("goes to the presser alone when it is private and the message it would replace is public", () => {
    expect(decidePageDelivery({ ...base, privacy: SECRET })).toMatchObject({
      mode: "toPresserOnly",
      note: expect.stringMatching(/^-# 🔒 Only you can see this/),
    });
  });

  it("replaces a public page, marked, where the server allows private answers in its channels", () => {
    expect(decidePageDelivery({ ...base, privacy: SECRET, inChannelAllowed: true })).toMatchObject({
      mode: "update",
      note: expect.stringMatching(/^-# 🔒 Private:/),
    });
  });

  it("stays on an ephemeral message, saying again that only the asker sees it", () => {
    expect(
      decidePageDelivery({ ...base, privacy: SECRET, inChannelAllowed: true, onEphemeralMessage: true }),
    ).toMatchObject({ mode: "update", note: expect.stringMatching(/^-# 🔒 Only you can see this/) });
  });
});

describe("sending a private answer to the asker alone", () => {
  function fakeInteraction(deferred: boolean, deletion: "works" | "refused") {
    const calls: Array<{ method: string; flags?: unknown; text: string }> = [];
    const note =
      (method: string) =>
      async (message?: { embeds?: unknown; content?: string }, options?: { ephemeral?: boolean }) => {
        calls.push({
          method,
          flags: options?.ephemeral ? MessageFlags.Ephemeral : undefined,
          text: JSON.stringify(message ?? {}),
        });
      };
    const interaction: AnswerableInteraction = {
      deferred,
      reply: note("reply"),
      editReply: note("editReply"),
      followUp: note("followUp"),
      deleteReply: async () => {
        calls.push({ method: "deleteReply", text: "" });
        if (deletion === "refused") throw new Error("Unknown Message");
      },
    };
    return { interaction, calls };
  }
  const answer = formatNotice("the secret code");

  it("replies ephemerally when nothing was sent yet", async () => {
    const { interaction, calls } = fakeInteraction(false, "works");
    await sendToAskerOnly(interaction, answer, silentLogger());
    expect(calls.map((call) => [call.method, call.flags])).toEqual([["reply", 64]]);
  });

  it("deletes a public deferral first, then follows up ephemerally", async () => {
    const { interaction, calls } = fakeInteraction(true, "works");
    await sendToAskerOnly(interaction, answer, silentLogger());
    expect(calls.map((call) => [call.method, call.flags])).toEqual([
      ["deleteReply", undefined],
      ["followUp", 64],
    ]);
  });

  it("withholds the answer when the public deferral cannot be deleted, since a follow-up would replace it publicly", async () => {
    const { interaction, calls } = fakeInteraction(true, "refused");
    await sendToAskerOnly(interaction, answer, silentLogger());
    expect(calls.map((call) => call.method)).toEqual(["deleteReply", "editReply"]);
    expect(calls[1]!.text).not.toContain("the secret code");
    expect(calls[1]!.text).toContain(PRIVATE_WITHHELD);
  });
});
