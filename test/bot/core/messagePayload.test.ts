import { InteractionResponseType, MessageFlags } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { encodedResponse, toOutgoing } from "../../../src/bot/core/messagePayload.js";
import { createRenderedAnswers } from "../../../src/bot/renderedAnswers.js";
import type { FormattedMessage } from "../../../src/format/message.js";

function message(description: string): FormattedMessage {
  return {
    content: "",
    embeds: [
      { title: "octo/widgets · src/app.ts — lines 1–3", description, fields: [{ name: "a", value: "b" }] },
    ],
    components: [],
    files: [{ name: "chart.png", data: Buffer.from([1, 2, 3]) }],
    allowedMentions: { parse: [] },
  };
}

const asText = (encoded: string | Buffer): string =>
  typeof encoded === "string" ? encoded : encoded.toString("utf8");

describe("the body and JSON of a kept answer, made once", () => {
  it("freezes a kept message whole (its files' bytes aside), so no repeat can change it", () => {
    const kept = createRenderedAnswers().message([{}], [], () => message("`1` const a = 1; · é 🙂"));
    expect(Object.isFrozen(kept)).toBe(true);
    expect(Object.isFrozen(kept.embeds[0]!.fields![0])).toBe(true);
    expect(() => {
      (kept.embeds[0] as { title?: string }).title = "changed";
    }).toThrow(TypeError);
    expect(kept.files[0]!.data.equals(Buffer.from([1, 2, 3]))).toBe(true);
  });

  it("gives a kept message the same body each time, and JSON equal to serializing the response", () => {
    const kept = createRenderedAnswers().message([{}], [], () => message("`1` const a = 1; · é 🙂"));
    const first = toOutgoing(kept);
    expect(toOutgoing(kept)).toBe(first);
    const ephemeral = toOutgoing(kept, { ephemeral: true });
    expect(ephemeral).not.toBe(first);
    expect(ephemeral.body.flags).toBe(MessageFlags.Ephemeral);
    expect(first.body.flags).toBeUndefined();
    for (const body of [first.body, ephemeral.body]) {
      for (const type of [
        InteractionResponseType.ChannelMessageWithSource,
        InteractionResponseType.UpdateMessage,
      ]) {
        const response = { type, data: body } as never;
        const encoded = encodedResponse(response);
        expect(JSON.parse(asText(encoded))).toEqual(JSON.parse(JSON.stringify(response)));
        expect(encodedResponse(response)).toBe(encoded);
      }
    }
  });

  it("builds a message that is not kept anew each time: a change to it shows in the next body", () => {
    const fresh = message("before");
    const first = toOutgoing(fresh);
    fresh.embeds[0]!.description = "after";
    const second = toOutgoing(fresh);
    expect(second).not.toBe(first);
    const text = asText(encodedResponse({ type: 4, data: second.body } as never));
    expect(text).toContain('"description":"after"');
  });
});
