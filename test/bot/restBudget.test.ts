import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandboxWorld, type SandboxWorld } from "../../src/sandbox/harness.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";

let world: SandboxWorld;
beforeAll(async () => {
  world = await startSandboxWorld();
});
afterAll(async () => {
  await world?.close();
});

describe("Discord's global rate limit", () => {
  it("holds the bot's own requests, never the interaction webhooks, which Discord does not count in it", async () => {
    // Starting a thread meets a global 429: the bot's REST client holds its requests 5 s.
    world.discord.injectRateLimit({
      method: "POST",
      route: /\/threads$/,
      global: true,
      retryAfterSeconds: 5,
    });
    const threaded = await world.send({
      kind: "slash",
      name: "contents",
      options: { repo: "demo/widgets", path: "README.md", thread: true },
    });
    await expect
      .poll(() => world.discord.requests.some((request) => request.status === 429), { timeout: 5_000 })
      .toBe(true);
    const heldSince = Date.now();

    // Meanwhile a slow answer is deferred, then edited in through its webhook: not held.
    world.github.setLatency(1_800);
    const record = await world.run({ kind: "slash", name: "contents", options: { repo: "demo/sprockets" } });
    world.github.setLatency(0);
    expect(record.deferred).toBe(true);
    expect(transcriptOf(record).text).toContain("sprockets");
    expect(Date.now() - heldSince).toBeLessThan(4_500);

    // The thread goes out once the hold is over.
    const done = await threaded.waitFor((record) => record.threadMessages.length > 0, { timeoutMs: 10_000 });
    expect(done.thread).not.toBeNull();
  });
});
