import { InteractionResponseType, type APIInteraction } from "discord-api-types/v10";
import { describe, expect, it, vi } from "vitest";
import { Admission, BusyError } from "../../../src/bot/core/admission.js";
import {
  answerInTime,
  deferWindowMs,
  interactionAgeMs,
  QUEUE_LIMIT_MS,
  RESPONSE_DEADLINE_MS,
} from "../../../src/bot/core/deferral.js";
import { CLOCK_SAMPLES, CLOCK_SPAN_MS, createDiscordClock } from "../../../src/bot/core/discordClock.js";
import { createBotMetrics } from "../../../src/metrics/botMetrics.js";
import { snowflakeAt } from "../../../src/sandbox/discord/snowflake.js";
import { capturingLogger } from "../../cache/helpers.js";
import { createInteractionCore } from "../../../src/bot/core/interactionCore.js";
import { silentLogger } from "../../../src/logger.js";
import { coreServices, echoCommand, recordingResponder, slashPayload } from "./recordingResponder.js";

const idAt = (ms: number): string => snowflakeAt(ms, 7);

/** A slash payload created `ageMs` ago. */
function payloadAged(ageMs: number): APIInteraction {
  return { ...slashPayload(), id: idAt(Date.now() - ageMs) } as APIInteraction;
}

describe("an interaction's age", () => {
  it("is read from its snowflake id", () => {
    const now = Date.UTC(2026, 10, 24, 12);
    expect(interactionAgeMs(idAt(now - 1_234), now)).toBe(1_234);
  });

  it("reads as unknown (0) when it cannot be: in the future, past the token's 15 minutes, or no snowflake", () => {
    const now = Date.UTC(2026, 10, 24, 12);
    expect(interactionAgeMs(idAt(now + 5_000), now)).toBe(0);
    expect(interactionAgeMs(idAt(now - 16 * 60_000), now)).toBe(0);
    expect(interactionAgeMs("not-a-snowflake", now)).toBe(0);
  });

  it("shortens the window before deferring by the interaction's age, and leaves none when late", () => {
    expect(deferWindowMs(0, 1_500)).toBe(1_500);
    expect(deferWindowMs(400, 1_500)).toBe(1_500);
    expect(deferWindowMs(800, 1_500)).toBe(1_200);
    expect(deferWindowMs(2_400, 1_500)).toBe(0);
    expect(deferWindowMs(0, 3_000)).toBe(2_000);
  });
});

describe("the admission of work", () => {
  it("hands slots out, queues in arrival order, refuses past the queue, and passes a freed slot on", async () => {
    const admission = new Admission({ maxActive: 2, maxQueued: 1 });
    const first = admission.enter();
    const second = admission.enter();
    const third = admission.enter();
    expect([first?.kind, second?.kind, third?.kind]).toEqual(["now", "now", "queued"]);
    expect(admission.enter()).toEqual({ kind: "refused", reason: "full" });
    expect(admission.underPressure()).toBe(true);
    if (first?.kind !== "now" || third?.kind !== "queued") throw new Error("unexpected entries");
    first.release();
    first.release(); // twice is once
    const release = await third.slot;
    expect(admission.activeCount()).toBe(2);
    expect(admission.queuedCount()).toBe(0);
    release();
    if (second?.kind === "now") second.release();
    expect(admission.activeCount()).toBe(0);
    expect(admission.underPressure()).toBe(false);
  });
});

describe("answering in time", () => {
  const quick = async (): Promise<string> => "done";

  it("answers a quick, fresh interaction without deferring", async () => {
    const deferrals: string[] = [];
    const result = await answerInTime(
      { id: idAt(Date.now()), admission: new Admission({ maxActive: 4, maxQueued: 4 }), deferAfterMs: 1_500 },
      quick,
      async () => deferrals.push("defer"),
    );
    expect(result).toEqual({ value: "done", deferred: false });
    expect(deferrals).toEqual([]);
  });

  it("defers before the work ends when the interaction arrived late", async () => {
    const order: string[] = [];
    const result = await answerInTime(
      {
        id: idAt(Date.now() - 2_400),
        admission: new Admission({ maxActive: 4, maxQueued: 4 }),
        deferAfterMs: 1_500,
      },
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push("work done");
        return "done";
      },
      async () => order.push("deferred"),
    );
    expect(result.deferred).toBe(true);
    expect(order).toEqual(["deferred", "work done"]);
  });

  it("answers a queued interaction in its first response when its turn comes within the window", async () => {
    const admission = new Admission({ maxActive: 1, maxQueued: 4 });
    const held = admission.enter();
    const order: string[] = [];
    const pending = answerInTime(
      { id: idAt(Date.now()), admission, deferAfterMs: 1_500 },
      async () => {
        order.push("work");
        return "done";
      },
      async () => order.push("deferred"),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    if (held?.kind === "now") held.release();
    await expect(pending).resolves.toEqual({ value: "done", deferred: false });
    expect(order).toEqual(["work"]);
    expect(admission.activeCount()).toBe(0);
  });

  it("defers a queued interaction when its window ends, and starts its work only when a slot frees", async () => {
    const admission = new Admission({ maxActive: 1, maxQueued: 4 });
    const held = admission.enter();
    const order: string[] = [];
    const pending = answerInTime(
      { id: idAt(Date.now()), admission, deferAfterMs: 30 },
      async () => {
        order.push("work");
        return "done";
      },
      async () => order.push("deferred"),
    );
    await vi.waitFor(() => expect(order).toEqual(["deferred"]));
    expect(admission.queuedCount()).toBe(1);
    if (held?.kind === "now") held.release();
    await expect(pending).resolves.toEqual({ value: "done", deferred: true });
    expect(order).toEqual(["deferred", "work"]);
    expect(admission.activeCount()).toBe(0);
  });

  it("defers at once a queued interaction that arrived too late to wait for its turn", async () => {
    const admission = new Admission({ maxActive: 1, maxQueued: 4 });
    const held = admission.enter();
    const order: string[] = [];
    const pending = answerInTime(
      { id: idAt(Date.now() - 2_400), admission, deferAfterMs: 1_500 },
      async () => {
        order.push("work");
        return "done";
      },
      async () => order.push("deferred"),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(["deferred"]);
    if (held?.kind === "now") held.release();
    await expect(pending).resolves.toEqual({ value: "done", deferred: true });
    expect(admission.activeCount()).toBe(0);
  });

  it("says the bot is busy, doing nothing else, when the queue is full", async () => {
    const admission = new Admission({ maxActive: 1, maxQueued: 0 });
    admission.enter();
    let started = false;
    const deferrals: string[] = [];
    await expect(
      answerInTime(
        { id: idAt(Date.now()), admission, deferAfterMs: 1_500 },
        async () => {
          started = true;
          return "done";
        },
        async () => deferrals.push("defer"),
      ),
    ).rejects.toEqual(new BusyError("full"));
    expect(started).toBe(false);
    expect(deferrals).toEqual([]);
  });

  it("says the bot was too busy when a queued interaction's turn comes too late to answer", async () => {
    const admission = new Admission({ maxActive: 1, maxQueued: 4 });
    const held = admission.enter();
    let clock = Date.now();
    const pending = answerInTime(
      { id: idAt(clock), admission, deferAfterMs: 1_500, now: () => clock },
      quick,
      async () => undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    clock += QUEUE_LIMIT_MS + 1_000;
    if (held?.kind === "now") held.release();
    await expect(pending).rejects.toMatchObject({ code: "busy", reason: "waitedTooLong" });
    expect(admission.activeCount()).toBe(0);
  });

  it("gives the queue place back when the deferral of a queued interaction fails", async () => {
    const admission = new Admission({ maxActive: 1, maxQueued: 4 });
    const held = admission.enter();
    await expect(
      answerInTime({ id: idAt(Date.now()), admission, deferAfterMs: 10 }, quick, async () => {
        throw Object.assign(new Error("Unknown interaction"), { code: 10062 });
      }),
    ).rejects.toMatchObject({ code: 10062 });
    if (held?.kind === "now") held.release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(admission.activeCount()).toBe(0);
    expect(admission.queuedCount()).toBe(0);
  });
});

describe("the core under a burst", () => {
  it("acknowledges every interaction of a burst larger than its slots and queue, in time: answers, deferrals and 'busy'", async () => {
    const core = createInteractionCore({
      commands: new Map([["echo", echoCommand({ delayMs: 30 })]]),
      services: coreServices(),
      logger: silentLogger(),
      // A window shorter than the command's 30 ms: no slot frees before a queued interaction's
      // window ends (a turn that comes within it is answered in the first response, tested above).
      deferAfterMs: 10,
      maxActive: 4,
      maxQueued: 8,
      // The burst comes from one person: their own bound (fairAdmission.test.ts) is set past it.
      maxPerUser: 20,
    });
    const burst = Array.from({ length: 20 }, () => {
      const { responder, calls } = recordingResponder();
      const acknowledged = new Promise<number>((resolve) => {
        const respond = responder.respond.bind(responder);
        const sent = Date.now();
        responder.respond = (...args) => {
          resolve(Date.now() - sent);
          return respond(...args);
        };
      });
      return { calls, acknowledged, done: core.handle(payloadAged(0), responder) };
    });
    await Promise.all(burst.map((one) => one.done));
    const firstTypes = burst.map((one) => one.calls[0]?.kind === "respond" && one.calls[0].response.type);
    const ackMs = await Promise.all(burst.map((one) => one.acknowledged));
    // Every one was acknowledged, long before Discord's 3 seconds.
    expect(Math.max(...ackMs)).toBeLessThan(500);
    // The 8 queued were deferred when their window ended and answered by an edit; the 8 past the
    // queue read "busy".
    const deferred = firstTypes.filter(
      (type) => type === InteractionResponseType.DeferredChannelMessageWithSource,
    );
    expect(deferred.length).toBeGreaterThanOrEqual(8);
    const busy = burst.filter((one) => JSON.stringify(one.calls).includes("more requests than it can take"));
    expect(busy).toHaveLength(8);
    for (const one of burst) {
      const text = JSON.stringify(one.calls);
      expect(text.includes("the answer") || text.includes("more requests than it can take")).toBe(true);
    }
  });
});

describe("a late interaction whose answer is ready at once", () => {
  it("is answered in its first response, not deferred and edited (one request to Discord, not two)", async () => {
    const deferrals: string[] = [];
    const result = await answerInTime(
      {
        id: idAt(Date.now() - 2_500),
        admission: new Admission({ maxActive: 4, maxQueued: 4 }),
        deferAfterMs: 1_500,
      },
      async () => "held in memory",
      async () => deferrals.push("defer"),
    );
    expect(result).toEqual({ value: "held in memory", deferred: false });
    expect(deferrals).toEqual([]);
  });
});

/** The echo command, and whether it ran. */
function watchedEcho(): { command: ReturnType<typeof echoCommand>; ran: () => boolean } {
  let ran = false;
  const command = echoCommand();
  const execute = command.execute;
  command.execute = async (...args) => {
    ran = true;
    return execute(...args);
  };
  return { command, ran: () => ran };
}

describe("an interaction that reaches the core nearly 3 s old", () => {
  it("is told at once that the bot is busy, in its first response, and its command never runs", async () => {
    const { command, ran } = watchedEcho();
    const core = createInteractionCore({
      commands: new Map([["echo", command]]),
      services: coreServices(),
      logger: silentLogger(),
    });
    const { responder, calls } = recordingResponder();
    await core.handle(payloadAged(2_600), responder);
    expect(ran()).toBe(false);
    expect(calls).toHaveLength(1);
    const first = calls[0];
    if (first?.kind !== "respond") throw new Error("no first response");
    expect(first.response.type).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(JSON.stringify(first.response)).toContain("more requests than it can take");
  });
});

describe("an interaction that reaches the core after Discord's 3 s", () => {
  it("is left unanswered: its command never runs, nothing is sent to Discord; counted expired, one warning a minute", async () => {
    const { command, ran } = watchedEcho();
    const captured = capturingLogger("warn");
    const metrics = createBotMetrics();
    const core = createInteractionCore({
      commands: new Map([["echo", command]]),
      services: coreServices(),
      logger: captured.logger,
      metrics,
    });
    const { responder, calls } = recordingResponder();
    await core.handle(payloadAged(RESPONSE_DEADLINE_MS + 100), responder);
    await core.handle(payloadAged(RESPONSE_DEADLINE_MS + 5_000), responder);
    expect(ran()).toBe(false);
    expect(calls).toEqual([]);
    const counted = (await metrics.interactions.get()).values;
    expect(counted).toEqual([
      expect.objectContaining({ labels: { kind: "command", command: "echo", outcome: "expired" }, value: 2 }),
    ]);
    const warnings = captured.lines().filter((line) => String(line.msg).includes("after Discord's 3 s"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ late: 1 });
    // Fresh, it is answered as ever.
    await core.handle(payloadAged(0), responder);
    expect(calls.map((call) => call.kind)).toEqual(["respond"]);
  });
});

describe("interactions on a machine whose clock runs ahead of Discord's", () => {
  it("are left unanswered only until the idle arrivals show the clock ahead, then answered, with a warning that names the clock", async () => {
    const { command, ran } = watchedEcho();
    const captured = capturingLogger("warn");
    // This machine's time as the test moves it: people ask a quarter second apart.
    let passed = 0;
    const core = createInteractionCore({
      commands: new Map([["echo", command]]),
      services: coreServices(),
      logger: captured.logger,
      // This test process's own event loop says nothing of the core's.
      clock: createDiscordClock({
        logger: captured.logger,
        loopBusy: () => false,
        now: () => Date.now() + passed,
      }),
    });
    const { responder, calls } = recordingResponder();
    // Discord sent each at once; by this machine's clock, 3.5 s ahead, each is 3.5 s old.
    const ask = async (): Promise<void> => {
      passed += CLOCK_SPAN_MS / 4;
      await core.handle(
        { ...slashPayload(), id: idAt(Date.now() + passed - 3_500) } as APIInteraction,
        responder,
      );
    };
    for (let n = 0; n < CLOCK_SAMPLES - 1; n++) await ask();
    expect(ran()).toBe(false);
    expect(calls).toEqual([]);
    // The arrival that completes the reading is answered, and every one after.
    await ask();
    await ask();
    expect(calls.map((call) => call.kind)).toEqual(["respond", "respond"]);
    const clockWarnings = captured.lines().filter((line) => String(line.msg).includes("clock seems ahead"));
    expect(clockWarnings).toEqual([expect.objectContaining({ aheadMs: expect.any(Number) })]);
    expect(clockWarnings[0]!.aheadMs).toBeGreaterThan(3_000);
  });

  it("are not mistaken for one when a burst left the bot behind: arrivals that found it busy say nothing of the clock", async () => {
    const captured = capturingLogger("warn");
    const core = createInteractionCore({
      commands: new Map([["echo", echoCommand()]]),
      services: coreServices(),
      logger: captured.logger,
      clock: createDiscordClock({ logger: captured.logger, loopBusy: () => false }),
    });
    const { responder, calls } = recordingResponder();
    // All at once: only the first finds the bot idle.
    await Promise.all(
      Array.from({ length: 3 * CLOCK_SAMPLES }, () => core.handle(payloadAged(3_500), responder)),
    );
    expect(calls).toEqual([]);
    expect(captured.lines().filter((line) => String(line.msg).includes("clock seems ahead"))).toEqual([]);
  });
});

describe("an interaction Discord no longer knows (10015 Unknown Webhook after a late HTTP reply)", () => {
  it("gets no second attempt: no deletion of the deferral, no follow-up", async () => {
    const core = createInteractionCore({
      commands: new Map([["echo", echoCommand({ delayMs: 80 })]]),
      services: coreServices(),
      logger: silentLogger(),
      deferAfterMs: 20,
    });
    const { responder, calls } = recordingResponder({
      editOriginal: Object.assign(new Error("Unknown Webhook"), { code: 10015 }),
    });
    await core.handle(payloadAged(0), responder);
    expect(calls.map((call) => call.kind)).toEqual(["respond", "editOriginal"]);
  });
});
