import { describe, expect, it } from "vitest";
import { FollowUpLimitError, InteractionReply } from "../../../src/bot/core/reply.js";
import { formatError } from "../../../src/format/error.js";
import { recordingResponder } from "./recordingResponder.js";

describe("the follow-ups of an interaction served by a user install only", () => {
  it("sends 5 and refuses the sixth before Discord would (40094), sending nothing", async () => {
    const { responder, calls } = recordingResponder();
    const reply = new InteractionReply(responder);
    reply.followUpLimit = 5;
    for (let index = 0; index < 5; index += 1) await reply.followUp(formatError(`line ${index}`));
    await expect(reply.followUp(formatError("one too many"))).rejects.toBeInstanceOf(FollowUpLimitError);
    expect(calls.filter((call) => call.kind === "followUp")).toHaveLength(5);
  });

  it("has no limit the bot could reach elsewhere", async () => {
    const { responder, calls } = recordingResponder();
    const reply = new InteractionReply(responder);
    for (let index = 0; index < 8; index += 1) await reply.followUp(formatError(`line ${index}`));
    expect(calls).toHaveLength(8);
  });
});
