import type { APIInteraction } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import type { CommandModule } from "../../../src/bot/commandModule.js";
import { Admission, ZERO_COUNTS_KEPT, type Entry } from "../../../src/bot/core/admission.js";
import { createInteractionCore, MAX_PER_USER } from "../../../src/bot/core/interactionCore.js";
import { silentLogger } from "../../../src/logger.js";
import { coreServices, echoCommand, recordingResponder, slashPayload } from "./recordingResponder.js";

/*
 * One person's (or one server's) flood must not fill the slots and the queue everyone else waits in
 * (issue 21, item 8): each has a bound of their own, and what waits is served in turns.
 */

const DISCORD_EPOCH = 1_420_070_400_000;
let sequence = 0;

/** A slash command from `userId` in `guildId`, sent now, with an id of its own. */
function payloadFrom(userId: string, guildId = "81384788765712384"): APIInteraction {
  const base = slashPayload() as unknown as { member: { user: Record<string, unknown> } };
  sequence += 1;
  return {
    ...base,
    id: String((BigInt(Date.now() - DISCORD_EPOCH) << 22n) | BigInt(sequence % 4096)),
    guild_id: guildId,
    member: { ...base.member, user: { ...base.member.user, id: userId } },
  } as unknown as APIInteraction;
}

/** Takes the slot a queued entry is handed, in order, and records whose it was. */
function track(entry: Entry, who: string, order: string[]): void {
  if (entry.kind === "queued") void entry.slot.then((release) => (order.push(who), release()));
  else if (entry.kind === "now") void Promise.resolve().then(() => (order.push(who), entry.release()));
}

describe("fair admission", () => {
  it("serves waiting work person by person: someone who arrives behind a flood waits one turn, not the flood", async () => {
    const admission = new Admission({ maxActive: 1, maxQueued: 100, maxPerUser: 100 });
    const order: string[] = [];
    const held = admission.enter({ userId: "flooder", guildId: "g" });
    for (let index = 0; index < 6; index += 1) {
      track(admission.enter({ userId: "flooder", guildId: "g" }), `flooder ${index + 1}`, order);
    }
    track(admission.enter({ userId: "other", guildId: "g" }), "other", order);
    if (held.kind !== "now") throw new Error("the first entry should run at once");
    held.release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(order).toEqual([
      "flooder 1",
      "other",
      "flooder 2",
      "flooder 3",
      "flooder 4",
      "flooder 5",
      "flooder 6",
    ]);
  });

  it("serves waiting work server by server, whatever the number of people flooding from one", async () => {
    const admission = new Admission({ maxActive: 1, maxQueued: 100, maxPerUser: 100 });
    const order: string[] = [];
    const held = admission.enter({ userId: "a1", guildId: "busy" });
    for (let index = 0; index < 4; index += 1) {
      track(admission.enter({ userId: `a${index}`, guildId: "busy" }), "busy server", order);
    }
    track(admission.enter({ userId: "b", guildId: "quiet" }), "quiet server", order);
    if (held.kind !== "now") throw new Error("the first entry should run at once");
    held.release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(order.indexOf("quiet server")).toBe(1);
  });

  it("bounds what one person and one server may have running and waiting; a DM counts as the person's own", () => {
    const admission = new Admission({ maxActive: 2, maxQueued: 100, maxPerUser: 3, maxPerServer: 5 });
    const kinds = (entries: Entry[]) =>
      entries.map((entry) => (entry.kind === "refused" ? entry.reason : entry.kind));
    const mine = Array.from({ length: 4 }, () => admission.enter({ userId: "me", guildId: "g" }));
    expect(kinds(mine)).toEqual(["now", "now", "queued", "perUser"]);
    const others = ["x", "y", "z"].map((userId) => admission.enter({ userId, guildId: "g" }));
    expect(kinds(others)).toEqual(["queued", "queued", "perServer"]);
    // In a DM, or another server, nothing of that server's bound applies.
    expect(kinds([admission.enter({ userId: "z", guildId: null })])).toEqual(["queued"]);
    expect(kinds([admission.enter({ userId: "z", guildId: "h" })])).toEqual(["queued"]);
    // A slot freed counts for its person again.
    const first = mine[0];
    if (first?.kind !== "now") throw new Error("the first entry should run at once");
    first.release();
    expect(kinds([admission.enter({ userId: "me", guildId: "g" })])).toEqual(["queued"]);
  });

  it("keeps the count of a person whose work finished, at zero, until many are kept, then forgets them all", () => {
    const admission = new Admission({ maxActive: 10, maxQueued: 0, maxPerUser: 1, maxPerServer: 1 });
    const once = (userId: string) => {
      const entry = admission.enter({ userId, guildId: `server-${userId}` });
      if (entry.kind !== "now") throw new Error(`${userId} should run at once`);
      entry.release();
    };
    for (let n = 0; n < ZERO_COUNTS_KEPT; n++) once(`person-${n}`);
    expect(admission.countsHeld()).toEqual({ users: ZERO_COUNTS_KEPT, servers: ZERO_COUNTS_KEPT });
    // A kept zero counts as nothing: the person may run again, as often as before.
    once("person-0");
    once("person-0");
    expect(admission.countsHeld().users).toBe(ZERO_COUNTS_KEPT);
    // One more zero than are kept, and every zero goes; a count above zero stays.
    const running = admission.enter({ userId: "runner", guildId: "server-runner" });
    expect(running.kind).toBe("now");
    once(`person-${ZERO_COUNTS_KEPT}`);
    expect(admission.countsHeld()).toEqual({ users: 1, servers: 1 });
    expect(admission.enter({ userId: "runner", guildId: "elsewhere" })).toEqual({
      kind: "refused",
      reason: "perUser",
    });
  });
});

describe("the core while one person floods", () => {
  it("answers another person's command in their turn, and tells the flooder their own bound", async () => {
    const started: string[] = [];
    const slow = echoCommand({ delayMs: 5 });
    const execute = slow.execute;
    const command: CommandModule = {
      ...slow,
      execute: (args, request, services) => {
        started.push(request.userId);
        return execute(args, request, services);
      },
    };
    const core = createInteractionCore({
      commands: new Map([["echo", command]]),
      services: coreServices(),
      logger: silentLogger(),
      deferAfterMs: 1_500,
      maxActive: 1,
      maxQueued: 32,
    });
    const send = (userId: string) => {
      const { responder, calls } = recordingResponder();
      return { calls, done: core.handle(payloadFrom(userId), responder) };
    };
    const flood = Array.from({ length: MAX_PER_USER + 4 }, () => send("100000000000000001"));
    const other = send("100000000000000002");
    await Promise.all([...flood, other].map((one) => one.done));
    // The other person's command started right behind the flood's first two, not behind all of it.
    expect(started.indexOf("100000000000000002")).toBeLessThanOrEqual(2);
    expect(JSON.stringify(other.calls)).toContain("the answer");
    // Past their own bound, the flooder reads why their request was not started.
    const refused = flood.filter((one) =>
      JSON.stringify(one.calls).includes("You already have several requests"),
    );
    expect(refused.length).toBe(4);
  });
});
