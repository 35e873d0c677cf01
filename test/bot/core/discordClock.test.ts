import { describe, expect, it } from "vitest";
import {
  AHEAD_AFTER_MS,
  CLOCK_SAMPLES,
  CLOCK_SPAN_MS,
  createDiscordClock,
} from "../../../src/bot/core/discordClock.js";
import { snowflakeAt } from "../../../src/sandbox/discord/snowflake.js";
import { capturingLogger } from "../../cache/helpers.js";

/** A clock on a local time the test sets, and ids Discord made `aheadMs` before that time. */
function setUp() {
  const local = { now: Date.UTC(2026, 10, 29, 12) };
  const captured = capturingLogger("info");
  const loop = { busy: false };
  const clock = createDiscordClock({
    logger: captured.logger,
    now: () => local.now,
    loopBusy: () => loop.busy,
  });
  let increment = 0;
  /**
   * An interaction created by Discord `ageMs` before this machine's clock reads it, `gapMs` after
   * the one before (people ask now and then). With `snowflakeAt`, not the local Discord's
   * generator: that one never makes an id older than the last it made.
   */
  const idAged = (ageMs: number, gapMs = 200): string => {
    local.now += gapMs;
    return snowflakeAt(local.now - ageMs, increment++);
  };
  const lines = (text: string) => captured.lines().filter((line) => String(line.msg).includes(text));
  return { local, loop, clock, idAged, lines };
}

describe("Discord's time as the interactions show it", () => {
  it("is this machine's while interactions arrive fresh", () => {
    const { local, clock, idAged } = setUp();
    for (let n = 0; n < 3 * CLOCK_SAMPLES; n++) clock.arrived(idAged(120), 0);
    expect(clock.aheadMs()).toBe(0);
    expect(clock.now()).toBe(local.now);
  });

  it("allows for a clock ahead once every one of the latest idle arrivals read old, with one warning", () => {
    const { local, clock, idAged, lines } = setUp();
    for (let n = 0; n < CLOCK_SAMPLES - 1; n++) clock.arrived(idAged(3_500 + n * 10), 0);
    expect(clock.aheadMs()).toBe(0);
    clock.arrived(idAged(3_600), 0);
    // The least of the ages read, less a quarter second for the delivery.
    expect(clock.aheadMs()).toBe(3_250);
    expect(clock.now()).toBe(local.now - 3_250);
    expect(lines("clock seems ahead")).toEqual([expect.objectContaining({ aheadMs: 3_250 })]);
    // It follows the clock while it stays ahead, without another warning.
    for (let n = 0; n < CLOCK_SAMPLES; n++) clock.arrived(idAged(2_000), 0);
    expect(clock.aheadMs()).toBe(1_750);
    expect(lines("clock seems ahead")).toHaveLength(1);
  });

  it("ends the allowance at the first fresh idle arrival", () => {
    const { clock, idAged, lines } = setUp();
    for (let n = 0; n < CLOCK_SAMPLES; n++) clock.arrived(idAged(5_000), 0);
    expect(clock.aheadMs()).toBe(4_750);
    clock.arrived(idAged(80), 0);
    expect(clock.aheadMs()).toBe(0);
    expect(lines("arrive fresh again")).toHaveLength(1);
  });

  it("reads nothing from arrivals that found the bot busy: a bot behind is not a clock ahead", () => {
    const { clock, idAged, lines } = setUp();
    for (let n = 0; n < 5 * CLOCK_SAMPLES; n++) clock.arrived(idAged(4_000), 2);
    expect(clock.aheadMs()).toBe(0);
    expect(lines("clock seems ahead")).toEqual([]);
  });

  it("reads nothing either while the event loop barely idles, with nothing in hand: a bot behind takes each in turn", () => {
    const { loop, clock, idAged } = setUp();
    loop.busy = true;
    for (let n = 0; n < 5 * CLOCK_SAMPLES; n++) clock.arrived(idAged(4_000), 0);
    expect(clock.aheadMs()).toBe(0);
    expect(clock.mayBeBehind(0)).toBe(true);
    loop.busy = false;
    expect(clock.mayBeBehind(0)).toBe(false);
    expect(clock.mayBeBehind(1)).toBe(true);
  });

  it("reads nothing from old arrivals that came in one burst, as a gateway RESUME replays what it missed", () => {
    const { clock, idAged, lines } = setUp();
    for (let n = 0; n < 3 * CLOCK_SAMPLES; n++) clock.arrived(idAged(5_000, 10), 0);
    expect(clock.aheadMs()).toBe(0);
    expect(lines("clock seems ahead")).toEqual([]);
    // The same ages over more than CLOCK_SPAN_MS: the clock.
    for (let n = 0; n < CLOCK_SAMPLES; n++) clock.arrived(idAged(5_000, CLOCK_SPAN_MS / 4), 0);
    expect(clock.aheadMs()).toBe(4_750);
  });

  it("needs every one of the latest idle arrivals old: one fresh among them is enough to read none", () => {
    const { clock, idAged } = setUp();
    clock.arrived(idAged(AHEAD_AFTER_MS - 1), 0);
    for (let n = 0; n < CLOCK_SAMPLES - 1; n++) clock.arrived(idAged(6_000), 0);
    expect(clock.aheadMs()).toBe(0);
  });

  it("takes a clock behind Discord's (ages that read negative) and ids that are not snowflakes as nothing", () => {
    const { clock, idAged } = setUp();
    for (let n = 0; n < CLOCK_SAMPLES; n++) clock.arrived(idAged(-5_000), 0);
    clock.arrived("not a snowflake", 0);
    expect(clock.aheadMs()).toBe(0);
  });
});
