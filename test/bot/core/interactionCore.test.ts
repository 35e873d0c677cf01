import {
  InteractionResponseType,
  InteractionType,
  MessageFlags,
  type APIInteraction,
} from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createInteractionCore } from "../../../src/bot/core/interactionCore.js";
import { silentLogger } from "../../../src/logger.js";
import {
  autocompletePayload,
  buttonPayload,
  coreServices,
  echoCommand,
  recordingResponder,
  slashPayload,
  type ResponderCall,
} from "./recordingResponder.js";

function coreWith(command = echoCommand(), deferAfterMs = 50) {
  return createInteractionCore({
    commands: new Map([["echo", command]]),
    services: coreServices(),
    logger: silentLogger(),
    deferAfterMs,
  });
}

const kinds = (calls: ResponderCall[]): string[] =>
  calls.map((call) => (call.kind === "respond" ? `respond ${call.response.type}` : call.kind));

function firstResponse(calls: ResponderCall[]) {
  const call = calls[0];
  if (call?.kind !== "respond") throw new Error("no first response");
  return call.response as { type: number; data?: { flags?: number; content?: string; embeds?: unknown[] } };
}

describe("the interaction core, on raw payloads", () => {
  it("answers a quick command in its first response", async () => {
    const { responder, calls } = recordingResponder();
    await coreWith().handle(slashPayload(), responder);
    expect(kinds(calls)).toEqual([`respond ${InteractionResponseType.ChannelMessageWithSource}`]);
    expect(firstResponse(calls).data?.content).toBe("the answer");
  });

  it("defers an answer not ready in time, then edits it in", async () => {
    const { responder, calls } = recordingResponder();
    await coreWith(echoCommand({ delayMs: 150 })).handle(slashPayload(), responder);
    expect(kinds(calls)).toEqual([
      `respond ${InteractionResponseType.DeferredChannelMessageWithSource}`,
      "editOriginal",
    ]);
    expect(firstResponse(calls).data?.flags).toBeUndefined();
  });

  it("removes a public deferral before an error, which goes to the asker alone", async () => {
    const { responder, calls } = recordingResponder();
    await coreWith(echoCommand({ delayMs: 150, error: new Error("boom") })).handle(slashPayload(), responder);
    expect(kinds(calls)).toEqual([
      `respond ${InteractionResponseType.DeferredChannelMessageWithSource}`,
      "deleteOriginal",
      "followUp",
    ]);
    const followUp = calls[2] as {
      message: { body: { flags?: number; embeds?: Array<{ description?: string }> } };
    };
    expect(followUp.message.body.flags).toBe(MessageFlags.Ephemeral);
    expect(followUp.message.body.embeds?.[0]?.description).toMatch(/error id `[0-9a-f]{8}`/);
  });

  it("sends nothing more when Discord refused the first response (10062): the interaction is gone", async () => {
    const { responder, calls } = recordingResponder({
      respond: Object.assign(new Error("late"), { code: 10062 }),
    });
    await coreWith().handle(slashPayload(), responder);
    expect(kinds(calls)).toEqual([`respond ${InteractionResponseType.ChannelMessageWithSource}`]);
  });

  it("says a button whose command is gone has expired, to the presser alone", async () => {
    const { responder, calls } = recordingResponder();
    await coreWith().handle(buttonPayload("unknown:key"), responder);
    const response = firstResponse(calls);
    expect(response.type).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(response.data?.flags).toBe(MessageFlags.Ephemeral);
    expect(JSON.stringify(response.data)).toContain("This button has expired.");
  });

  it("updates the message a button is on with the new page", async () => {
    const { responder, calls } = recordingResponder();
    await coreWith().handle(buttonPayload("echo:key"), responder);
    expect(kinds(calls)).toEqual([`respond ${InteractionResponseType.UpdateMessage}`]);
  });

  it("answers autocomplete with no choices when the command has no suggestions", async () => {
    const { responder, calls } = recordingResponder();
    await coreWith().handle(autocompletePayload(), responder);
    expect(calls).toEqual([
      {
        kind: "respond",
        response: {
          type: InteractionResponseType.ApplicationCommandAutocompleteResult,
          data: { choices: [] },
        },
      },
    ]);
  });

  it("routes no PING: that is the transport's to answer", async () => {
    const { responder, calls } = recordingResponder();
    const core = coreWith();
    await core.handle({ type: InteractionType.Ping, id: "1" } as APIInteraction, responder);
    expect(calls).toEqual([]);
    expect(core.inFlight()).toBe(0);
  });

  it("once stopped, says it is restarting, and gives autocomplete no choices", async () => {
    const core = coreWith();
    core.stop();
    const command = recordingResponder();
    await core.handle(slashPayload(), command.responder);
    expect(firstResponse(command.calls).data?.flags).toBe(MessageFlags.Ephemeral);
    expect(JSON.stringify(firstResponse(command.calls).data)).toContain("RepoScout is restarting");
    const autocomplete = recordingResponder();
    await core.handle(autocompletePayload(), autocomplete.responder);
    expect(firstResponse(autocomplete.calls).type).toBe(
      InteractionResponseType.ApplicationCommandAutocompleteResult,
    );
  });

  it("drains: waits for the interactions in flight, up to a bound", async () => {
    const core = coreWith(echoCommand({ delayMs: 200 }), 1_000);
    const { responder } = recordingResponder();
    const running = core.handle(slashPayload(), responder);
    expect(core.inFlight()).toBe(1);
    expect(await core.drain(10)).toBe(false);
    expect(await core.drain(2_000)).toBe(true);
    await running;
    expect(core.inFlight()).toBe(0);
  });
});
