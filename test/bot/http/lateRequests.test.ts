import pino from "pino";
import type { APIInteraction } from "discord-api-types/v10";
import { afterEach, describe, expect, it } from "vitest";
import type { InteractionCore } from "../../../src/bot/core/interactionCore.js";
import type { DiscordRest } from "../../../src/bot/core/responder.js";
import { createBotHttpServer, type BotHttpServer } from "../../../src/bot/http/httpServer.js";
import { RESPONSE_DEADLINE_MS } from "../../../src/bot/core/deferral.js";
import { CLOCK_SAMPLES, createDiscordClock } from "../../../src/bot/core/discordClock.js";
import { LATE_WARNING_EVERY_MS } from "../../../src/bot/core/lateWarning.js";
import { createInteractionsEndpoint, MAX_AGE_SECONDS } from "../../../src/bot/http/interactionsEndpoint.js";
import { createMemoryReplayGuard } from "../../../src/bot/http/replayGuard.js";
import { createSignatureVerifier } from "../../../src/bot/http/signature.js";
import { InteractionSigner } from "../../../src/sandbox/discord/interactionSigner.js";
import { snowflakeAt } from "../../../src/sandbox/discord/snowflake.js";
import { capturingLogger } from "../../cache/helpers.js";

const signer = new InteractionSigner();
let server: BotHttpServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A bot's endpoint on a clock the test sets (Unix ms), whose core answers every command at once
 * and says it has `inHand` interactions in hand (0: idle); what it routed, counted and logged.
 */
async function start(clock: { now: number }, inHand = 0) {
  const routed: string[] = [];
  const counted: Array<Record<string, string>> = [];
  const captured = capturingLogger("warn");
  const core = {
    async handle(
      interaction: APIInteraction,
      responder: { respond(response: unknown, files: []): Promise<unknown> },
    ) {
      routed.push(interaction.id);
      await responder.respond({ type: 4, data: { content: "answered" } }, []);
    },
    inFlight: () => inHand,
  } as unknown as InteractionCore;
  const refuseRest = (): never => {
    throw new Error("this core never calls Discord's REST");
  };
  server = createBotHttpServer({
    logger: pino({ level: "silent" }),
    interactions: createInteractionsEndpoint({
      verify: createSignatureVerifier(signer.publicKeyHex),
      core,
      rest: { bot: refuseRest, interactions: refuseRest, callbacks: refuseRest } as unknown as DiscordRest,
      replayGuard: createMemoryReplayGuard(),
      logger: captured.logger,
      metrics: { interactions: { inc: (labels: Record<string, string>) => counted.push(labels) } as never },
      now: () => clock.now,
      // This test process's own event loop says nothing of the endpoint's: only `inHand` does.
      clock: createDiscordClock({ logger: captured.logger, now: () => clock.now, loopBusy: () => false }),
    }),
  });
  await server.listen(0, "127.0.0.1");
  const url = `${server.url!}/interactions`;
  let increment = 0;
  /**
   * A slash command (or a PING, type 1) created at `createdAt`, signed with the timestamp
   * `signedAt` (both Unix ms), with the application's key or another; the answer's status.
   */
  const send = async (createdAt: number, signedAt: number, key?: "otherKey", type = 2): Promise<number> => {
    const id = snowflakeAt(createdAt, increment++);
    const body = JSON.stringify({ id, type, application_id: "1", token: `t-${id}`, version: 1, data: {} });
    const at = String(Math.floor(signedAt / 1000));
    const response = await fetch(url, {
      method: "POST",
      body,
      headers: {
        "Content-Type": "application/json",
        "X-Signature-Ed25519": key ? signer.signWithOtherKey(at, body) : signer.sign(at, body),
        "X-Signature-Timestamp": at,
      },
    });
    await response.arrayBuffer();
    return response.status;
  };
  const warnings = () => captured.lines().filter((line) => String(line.msg).includes("after Discord's 3 s"));
  const clockWarnings = () =>
    captured.lines().filter((line) => String(line.msg).includes("clock seems ahead"));
  return { send, routed, counted, warnings, clockWarnings };
}

describe("requests that reach the bot after Discord stopped waiting", () => {
  it("answers one created and signed within Discord's 3 s", async () => {
    const clock = { now: Date.now() };
    const bot = await start(clock);
    expect(await bot.send(clock.now - RESPONSE_DEADLINE_MS + 200, clock.now - 1_000)).toBe(200);
    expect(bot.routed).toHaveLength(1);
    expect(bot.counted).toEqual([]);
  });

  it("refuses, without its work, one whose timestamp is past Discord's 3 s while the bot is behind: unread, so neither counted nor warned about", async () => {
    const clock = { now: Date.now() };
    const bot = await start(clock, 1);
    // Behind: a signed interaction 3.2 s old found it with work in hand (counted, one warning).
    expect(await bot.send(clock.now - RESPONSE_DEADLINE_MS - 200, clock.now)).toBe(401);
    expect(bot.counted).toHaveLength(1);
    expect(bot.warnings()).toHaveLength(1);
    expect(await bot.send(clock.now - 5_000, clock.now - 5_000)).toBe(401);
    // Signed with another key: refused the same, before anything is read.
    expect(await bot.send(clock.now - 5_000, clock.now - 5_000, "otherKey")).toBe(401);
    expect(bot.routed).toEqual([]);
    expect(bot.counted).toHaveLength(1);
    expect(bot.warnings()).toHaveLength(1);
    // A second on, nothing shows it behind any more: the next is read (and, signed, counted).
    clock.now += 1_000;
    expect(await bot.send(clock.now - 5_000, clock.now - 5_000, "otherKey")).toBe(401);
    expect(bot.counted).toHaveLength(1);
    expect(await bot.send(clock.now - 5_000, clock.now - 5_000)).toBe(401);
    expect(bot.counted).toHaveLength(2);
  });

  it("refuses, without its work, a signed interaction created more than 3 s ago: counted expired, one warning a minute", async () => {
    const clock = { now: Date.now() };
    const bot = await start(clock);
    // Signed this second (the header's whole seconds let it through), created 3.2 s ago.
    expect(await bot.send(clock.now - RESPONSE_DEADLINE_MS - 200, clock.now)).toBe(401);
    expect(await bot.send(clock.now - RESPONSE_DEADLINE_MS - 900, clock.now - 1_000)).toBe(401);
    // One signed with another key is refused as any bad signature: not counted.
    expect(await bot.send(clock.now - RESPONSE_DEADLINE_MS - 200, clock.now, "otherKey")).toBe(401);
    expect(bot.routed).toEqual([]);
    expect(bot.counted).toEqual([
      { kind: "unknown", command: "other", outcome: "expired" },
      { kind: "unknown", command: "other", outcome: "expired" },
    ]);
    expect(bot.warnings()).toHaveLength(1);
    expect(bot.warnings()[0]).toMatchObject({ late: 1 });
    clock.now += LATE_WARNING_EVERY_MS;
    expect(await bot.send(clock.now - RESPONSE_DEADLINE_MS - 500, clock.now)).toBe(401);
    expect(bot.warnings()).toHaveLength(2);
    expect(bot.warnings()[1]).toMatchObject({ late: 2 });
  });

  it("still refuses as stale, not as late, a timestamp past the replay window or ahead of it", async () => {
    const clock = { now: Date.now() };
    const bot = await start(clock);
    const window = MAX_AGE_SECONDS * 1000;
    expect(await bot.send(clock.now, clock.now - window - 2_000)).toBe(401);
    expect(await bot.send(clock.now, clock.now + window + 2_000)).toBe(401);
    // Ahead by less than the window (a clock behind Discord's): taken.
    expect(await bot.send(clock.now, clock.now + 60_000)).toBe(200);
    expect(bot.routed).toHaveLength(1);
    expect(bot.counted).toEqual([]);
  });

  it("on a machine whose clock runs 5 s ahead: refused late, then answered once the signed interactions show the clock", async () => {
    const clock = { now: Date.now() };
    const bot = await start(clock);
    const ahead = 5_000;
    // Discord created and signed each at once; by this machine's clock each is 5 s old.
    const statuses: number[] = [];
    for (let n = 0; n < CLOCK_SAMPLES + 2; n++) {
      clock.now += 250; // people ask now and then
      statuses.push(await bot.send(clock.now - ahead, clock.now - ahead));
    }
    expect(statuses).toEqual([...Array<number>(CLOCK_SAMPLES).fill(401), 200, 200]);
    // Read (an idle bot cannot be behind), signed and late by this clock: counted, and what they
    // show allowed for after.
    expect(bot.counted).toHaveLength(CLOCK_SAMPLES);
    expect(bot.routed).toHaveLength(2);
    expect(bot.warnings()).toHaveLength(1);
    expect(bot.clockWarnings()).toHaveLength(1);
  });

  it("reads one whose timestamp is past Discord's 3 s when idle (it cannot be behind): refused once checked, and counted only when signed", async () => {
    const clock = { now: Date.now() };
    const bot = await start(clock);
    expect(await bot.send(clock.now - 5_000, clock.now - 5_000)).toBe(401);
    expect(await bot.send(clock.now - 5_000, clock.now - 5_000, "otherKey")).toBe(401);
    expect(bot.routed).toEqual([]);
    expect(bot.counted).toEqual([{ kind: "unknown", command: "other", outcome: "expired" }]);
  });

  it("answers Discord's PING whatever its age, busy or idle: the endpoint's check passes on any clock", async () => {
    const clock = { now: Date.now() };
    for (const inHand of [0, 1]) {
      const bot = await start(clock, inHand);
      expect(await bot.send(clock.now - 2_000, clock.now - 2_000, undefined, 1)).toBe(200);
      expect(await bot.send(clock.now - 3_500, clock.now - 1_000, undefined, 1)).toBe(200);
      expect(bot.counted).toEqual([]);
      await server?.close();
    }
  });
});
