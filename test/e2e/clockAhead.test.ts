import { describe, expect, it } from "vitest";
import { CLOCK_SAMPLES } from "../../src/bot/core/discordClock.js";
import { capturingLogger } from "../cache/helpers.js";
import { useWorld } from "./helpers.js";
import { e2eTransport } from "./transport.js";

const captured = capturingLogger("info");
// Discord's clock 5 s behind this machine's: by the bot's clock, each interaction is 5 s old when
// it arrives (over HTTP, its signed timestamp too), though Discord sent it at once.
const world = useWorld({
  logger: captured.logger,
  discord: { clockOffsetMs: -5_000 },
  httpServer: true,
  metricsServer: true,
});

async function clockAheadGauge(): Promise<number> {
  const { bot } = world();
  const text = await (await fetch(`${bot.metricsUrl ?? bot.httpUrl}/metrics`)).text();
  const line = /^reposcout_clock_ahead_seconds(?:\{[^}]*\})? (\S+)$/m.exec(text);
  if (!line) throw new Error("no reposcout_clock_ahead_seconds in /metrics");
  return Number(line[1]);
}

describe("a bot on a machine whose clock runs 5 s ahead of Discord's", () => {
  it("answers again once the interactions that found it idle show the clock, and says why", async () => {
    // Over HTTP, the endpoint reads each arrival it refuses; over the gateway, the core reads each
    // before it decides, and answers the one that completes the reading. An arrival that finds this
    // process's event loop busy (it hosts the test and the stand-ins too) is not read, and over HTTP
    // a late one that finds the bot busy has the next second's refused unread: a few more.
    const fewest = e2eTransport() === "http" ? CLOCK_SAMPLES : CLOCK_SAMPLES - 1;
    const mostLost = 3 * CLOCK_SAMPLES;
    expect(await clockAheadGauge()).toBe(0);
    let lost = 0;
    for (;;) {
      const handle = await world().send({ kind: "slash", name: "whoami" });
      // One at a time: each finds the bot idle. A dropped one gets nothing (over HTTP, a 401).
      const record = await handle
        .waitFor((seen) => seen.callbacks.length > 0 || (seen.delivery?.status ?? 0) >= 400, {
          timeoutMs: 400,
        })
        .catch(() => null);
      if (record && record.callbacks.length > 0) break;
      lost += 1;
      expect(lost).toBeLessThanOrEqual(mostLost);
      // A pause, as between people asking: the loop this process shares with the bot idles, or
      // the next arrival reads as the bot behind and tells nothing of the clock.
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(lost).toBeGreaterThanOrEqual(fewest);
    // Every one after is answered as ever.
    const next = await world().run({ kind: "slash", name: "whoami" });
    expect(next.errors).toEqual([]);
    expect(next.callbacks).toHaveLength(1);
    const warned = captured.lines().filter((line) => String(line.msg).includes("clock seems ahead"));
    expect(warned).toEqual([expect.objectContaining({ level: 40 })]);
    expect(Number(warned[0]!.aheadMs)).toBeGreaterThan(4_000);
    expect(await clockAheadGauge()).toBeGreaterThan(4);
  });
});
