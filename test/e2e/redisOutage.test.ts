import { randomBytes } from "node:crypto";
import { createServer, connect, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { SandboxWorld } from "../../src/sandbox/harness.js";
import { capturingLogger, describeWithRedis, redisTestUrl, removeRedisKeys } from "../cache/helpers.js";
import { startWorld } from "./helpers.js";

/**
 * A Redis outage as the operator reads it in the log: the bot's Redis (the cache, the vaults, the
 * settings) is the tests' Redis behind a TCP relay that the test cuts and restores, as a network
 * fault or a Redis restart would.
 */
function relayTo(target: URL): { url: () => string; cut(): Promise<void>; restore(): Promise<void> } {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = (): Promise<void> =>
    new Promise((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  return {
    url: () => `redis://127.0.0.1:${port}`,
    async cut() {
      if (!server) return;
      const closing = new Promise<void>((resolve) => server?.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closing;
      server = null;
    },
    restore: listen,
  };
}

describeWithRedis("a Redis outage, in the log", () => {
  const log = capturingLogger("info");
  const prefix = `outage-${randomBytes(4).toString("hex")}`;
  const relay = relayTo(new URL(redisTestUrl()));
  let world: SandboxWorld;
  beforeAll(async () => {
    await relay.restore();
    world = await startWorld({
      redisUrl: relay.url(),
      storePrefix: prefix,
      logger: log.logger,
      discord: { generatedGuilds: { count: 3, channels: 3, roles: 3, emojis: 0, members: 3 } },
    });
  });
  afterAll(async () => {
    await world?.close();
    await relay.cut();
    await removeRedisKeys(prefix);
  });

  it("is one warning when it starts and one line when it ends, for the vaults as for the cache", async () => {
    await world.run({ kind: "slash", name: "whoami" });
    const before = log.lines().length;
    const since = () => log.lines().slice(before);
    await relay.cut();
    // Servers and people this process has not read yet (a read is trusted for a while): each
    // command reads the user vault, the server's vault record and the cache.
    for (const index of [0, 1, 2]) {
      const place = world.discord.generatedGuild(index);
      await world.run({ kind: "slash", name: "whoami", channel: place.textChannelIds[0]! });
      await world.run({
        kind: "slash",
        name: "contents",
        options: { repo: "demo/widgets" },
        channel: place.textChannelIds[0]!,
      });
    }
    await world.run({ kind: "slash", name: "whoami", channel: "dm", user: "owner" });
    const during = since().filter((line) => Number(line.level) >= 40);
    expect(during.map((line) => [line.level, line.msg])).toEqual([
      [40, "store unavailable: reads count as misses until it answers again"],
    ]);
    expect(during[0]).toMatchObject({ store: "redis" });

    await relay.restore();
    await expect
      .poll(() => since().filter((line) => line.msg === "store answers again").length, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe(1);
    await world.run({ kind: "slash", name: "whoami" });
    expect(since().filter((line) => Number(line.level) >= 40)).toHaveLength(1);
    expect(since().filter((line) => line.msg === "store answers again")).toHaveLength(1);
  });
});
