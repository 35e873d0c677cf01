import { describe, expect, it } from "vitest";
import type { InteractionRequest } from "../../src/sandbox/discord/index.js";
import { DEMO_PATHS } from "../../src/sandbox/github/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { useWorld } from "./helpers.js";

/**
 * A burst larger than the bot's bound on work in flight, through the local Discord, which refuses
 * a first response after 3 seconds as Discord does: every interaction is acknowledged in time and
 * ends answered or told plainly that the bot is busy. The large figures are `npm run bench`'s.
 */
describe("a burst of interactions", () => {
  // The burst comes from one person: their own bound (fairAdmission.test.ts) is set past it.
  const world = useWorld({ admission: { maxActive: 4, maxQueued: 16, maxPerUser: 30 } });

  it("acknowledges every one in time; the work beyond the slots waits its turn, and past the queue reads 'busy'", async () => {
    // Slow GitHub: the four slots stay busy while the burst arrives.
    world().github.setLatency(250);
    const paths = [DEMO_PATHS.engine, DEMO_PATHS.readme, "src", "docs", ""];
    const requests = Array.from({ length: 30 }, (_, index): InteractionRequest =>
      index % 2 === 0
        ? {
            kind: "slash",
            name: "blame",
            options: { repo: "demo/widgets", path: DEMO_PATHS.engine, lines: `${index + 1}` },
          }
        : {
            kind: "slash",
            name: "contents",
            options: { repo: "demo/widgets", path: paths[index % paths.length]! },
          },
    );
    const handles = await Promise.all(requests.map((request) => world().send(request)));
    // waitForResponse rejects when the local Discord's 3-second deadline passed without one.
    const first = await Promise.all(handles.map((handle) => handle.waitForResponse({ timeoutMs: 0 })));
    expect(Math.max(...first.map((response) => response.afterMs))).toBeLessThan(3_000);
    const records = await Promise.all(handles.map((handle) => handle.waitForAnswer({ timeoutMs: 30_000 })));
    const texts = records.map((record) => transcriptOf(record).text);
    const busy = texts.filter((text) => text.includes("more requests than it can take"));
    const answered = texts.filter((text) => text.includes("demo/widgets"));
    expect(busy.length).toBeGreaterThanOrEqual(30 - 4 - 16);
    expect(answered.length + busy.length).toBe(30);
    expect(answered.length).toBeGreaterThanOrEqual(4 + 16 - 2);
  });
});
