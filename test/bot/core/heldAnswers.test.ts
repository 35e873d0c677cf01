import { InteractionResponseType, type APIInteraction } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import type { CommandAnswer, CommandModule } from "../../../src/bot/commandModule.js";
import { createInteractionCore } from "../../../src/bot/core/interactionCore.js";
import type { Services } from "../../../src/bot/services.js";
import { silentLogger } from "../../../src/logger.js";
import {
  buttonPayload,
  coreServices,
  recordingResponder,
  slashPayload,
  type ResponderCall,
} from "./recordingResponder.js";

// Issue 23: an answer a command holds in process (CommandModule.answerHeld) goes out as the first
// response without the steps of waiting for work; anything that would make the steps send
// something else (a thread, a private answer, more after it, an ephemeral command) takes them.

const message = (content: string): CommandAnswer["message"] => ({
  content,
  embeds: [],
  components: [],
  files: [],
  allowedMentions: { parse: [] },
});

/** A command that holds `held` (or nothing) and whose steps answer "from the steps". */
function holdingCommand(
  held: CommandAnswer | undefined,
  extra: Partial<CommandModule> = {},
): CommandModule & { executed: number } {
  const command = {
    executed: 0,
    data: { name: "echo", description: "Answers" },
    parse: (raw: unknown) => raw,
    execute: async () => {
      command.executed += 1;
      return { message: message("from the steps") };
    },
    answerHeld: () => held,
    ...extra,
  };
  return command as unknown as CommandModule & { executed: number };
}

function coreWith(command: CommandModule, services: Services = coreServices(), maxActive = 8) {
  return createInteractionCore({
    commands: new Map([["echo", command]]),
    services,
    logger: silentLogger(),
    deferAfterMs: 50,
    maxActive,
    maxQueued: 0,
  });
}

function answered(calls: ResponderCall[]): { type: number; content?: string; flags?: number } {
  expect(calls).toHaveLength(1);
  const call = calls[0]!;
  if (call.kind !== "respond") throw new Error(`first call was ${call.kind}`);
  const data = (call.response as { data?: { content?: string; flags?: number } }).data;
  return { type: call.response.type, content: data?.content, flags: data?.flags };
}

const servicesWithThreads = (held: boolean | undefined): Services => {
  const services = coreServices();
  (services.settings as { heldThreads?: (guildId: string) => boolean | undefined }).heldThreads = () => held;
  return services;
};

/**
 * What `echo` (`command`) answers to `payload` while another command holds the one work slot and
 * the queue takes none; that command's own answer comes once released.
 */
async function answeredWhileBusy(command: CommandModule, payload: APIInteraction): Promise<ResponderCall[]> {
  let release!: () => void;
  const slow = holdingCommand(undefined, {
    execute: () =>
      new Promise<CommandAnswer>((resolve) => (release = () => resolve({ message: message("slow") }))),
  });
  const core = createInteractionCore({
    commands: new Map<string, CommandModule>([
      ["slow", slow],
      ["echo", command],
    ]),
    services: coreServices(),
    logger: silentLogger(),
    deferAfterMs: 5_000,
    maxActive: 1,
    maxQueued: 0,
  });
  const busy = recordingResponder();
  const running = core.handle(slashPayload("slow", { sequence: 1 }), busy.responder);
  const { responder, calls } = recordingResponder();
  await core.handle(payload, responder);
  release();
  await running;
  expect(answered(busy.calls).content).toBe("slow");
  return calls;
}

describe("an answer held in process (issue 23)", () => {
  it("is the first response, and the command's steps never run", async () => {
    const command = holdingCommand({ message: message("held") });
    const { responder, calls } = recordingResponder();
    await coreWith(command).handle(slashPayload(), responder);
    expect(answered(calls)).toEqual({
      type: InteractionResponseType.ChannelMessageWithSource,
      content: "held",
      flags: undefined,
    });
    expect(command.executed).toBe(0);
  });

  it("needs no work slot: answered while every slot is taken and the queue is full", async () => {
    const calls = await answeredWhileBusy(
      holdingCommand({ message: message("held") }),
      slashPayload("echo", { sequence: 2 }),
    );
    expect(answered(calls).content).toBe("held");
  });

  it("takes the steps when the command holds nothing", async () => {
    const command = holdingCommand(undefined);
    const { responder, calls } = recordingResponder();
    await coreWith(command).handle(slashPayload(), responder);
    expect(answered(calls).content).toBe("from the steps");
    expect(command.executed).toBe(1);
  });

  it("takes the steps for a private answer, an answer with more after it, and an ephemeral command", async () => {
    const privacy = { kind: "private", repository: "demo/secret" } as unknown as CommandAnswer["privacy"];
    const cases: CommandModule[] = [
      holdingCommand({ message: message("held"), privacy }),
      holdingCommand({ message: message("held"), privateRest: { message: message("rest") } }),
      holdingCommand({
        message: message("held"),
        continuation: async () => undefined,
      } as unknown as CommandAnswer),
      holdingCommand({ message: message("held") }, { ephemeral: true }),
    ];
    for (const command of cases) {
      const { responder } = recordingResponder();
      await coreWith(command).handle(slashPayload(), responder);
      expect((command as CommandModule & { executed: number }).executed).toBe(1);
    }
  });

  it("takes the steps when a thread is asked for, or the server's default is on or not held", async () => {
    const asked = holdingCommand({ message: message("held") }, { threadAsked: () => true });
    await coreWith(asked).handle(slashPayload(), recordingResponder().responder);
    expect(asked.executed).toBe(1);

    for (const setting of [true, undefined]) {
      const byDefault = holdingCommand({ message: message("held") }, { threadAsked: () => undefined });
      await coreWith(byDefault, servicesWithThreads(setting)).handle(
        slashPayload(),
        recordingResponder().responder,
      );
      expect(byDefault.executed).toBe(1);
    }

    const off = holdingCommand({ message: message("held") }, { threadAsked: () => undefined });
    const { responder, calls } = recordingResponder();
    await coreWith(off, servicesWithThreads(false)).handle(slashPayload(), responder);
    expect(answered(calls).content).toBe("held");
    expect(off.executed).toBe(0);
    const notAsked = holdingCommand({ message: message("held") }, { threadAsked: () => false });
    await coreWith(notAsked).handle(slashPayload(), recordingResponder().responder);
    expect(notAsked.executed).toBe(0);
  });

  it("says what went wrong, to the asker alone, when holding the answer fails", async () => {
    const command = holdingCommand(undefined, {
      answerHeld: () => {
        throw new Error("a bug");
      },
    });
    const { responder, calls } = recordingResponder();
    await coreWith(command).handle(slashPayload(), responder);
    const first = answered(calls);
    expect(first.flags).toBeDefined();
    expect(command.executed).toBe(0);
  });
});

/** A command whose button holds `held` (or nothing), and whose button's steps answer "from the steps". */
function holdingButtons(
  held: CommandAnswer | undefined,
  extra: Partial<CommandModule> = {},
): CommandModule & { pressed: number } {
  const command = {
    pressed: 0,
    data: { name: "echo", description: "Answers" },
    customIdPrefixes: ["echo"],
    parse: (raw: unknown) => raw,
    execute: async () => ({ message: message("from the steps") }),
    button: async () => {
      command.pressed += 1;
      return { message: message("from the steps") };
    },
    buttonHeld: () => held,
    ...extra,
  };
  return command as unknown as CommandModule & { pressed: number };
}

describe("a page held in process, for a button press (issue 23)", () => {
  it("replaces the message as the first response, and the button's steps never run", async () => {
    const command = holdingButtons({ message: message("held page") });
    const { responder, calls } = recordingResponder();
    await coreWith(command).handle(buttonPayload("echo:key"), responder);
    expect(answered(calls)).toEqual({
      type: InteractionResponseType.UpdateMessage,
      content: "held page",
      flags: undefined,
    });
    expect(command.pressed).toBe(0);
  });

  it("needs no work slot: answered while every slot is taken and the queue is full", async () => {
    const calls = await answeredWhileBusy(
      holdingButtons({ message: message("held page") }),
      buttonPayload("echo:key"),
    );
    expect(answered(calls).content).toBe("held page");
  });

  it("takes the steps when nothing is held, for a private page, a removal, or more after it", async () => {
    const privacy = { kind: "private", repository: "demo/secret" } as unknown as CommandAnswer["privacy"];
    const cases = [
      holdingButtons(undefined),
      holdingButtons({ message: message("held"), privacy }),
      holdingButtons({ message: message("held"), removeMessage: true }),
      holdingButtons({ message: message("held"), privateRest: { message: message("rest") } }),
    ];
    for (const command of cases) {
      const { responder, calls } = recordingResponder();
      await coreWith(command).handle(buttonPayload("echo:key"), responder);
      expect(command.pressed).toBe(1);
      expect(answered(calls)).toMatchObject({
        type: InteractionResponseType.UpdateMessage,
        content: "from the steps",
      });
    }
  });

  it("says what went wrong, to the presser alone, when holding the page fails", async () => {
    const command = holdingButtons(undefined, {
      buttonHeld: () => {
        throw new Error("a bug");
      },
    });
    const { responder, calls } = recordingResponder();
    await coreWith(command).handle(buttonPayload("echo:key"), responder);
    expect(answered(calls).flags).toBeDefined();
    expect(command.pressed).toBe(0);
  });
});
