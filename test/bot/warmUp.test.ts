import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBot } from "../../src/bot/bot.js";
import type { CommandModule } from "../../src/bot/commandModule.js";
import { loadCommands } from "../../src/bot/loadCommands.js";
import { createRenderedAnswers } from "../../src/bot/renderedAnswers.js";
import type { Services } from "../../src/bot/services.js";
import { REPEATS_PER_ROUND, warmUp } from "../../src/bot/warmUp.js";
import { silentLogger } from "../../src/logger.js";
import { startDiscordStandIn } from "../../src/sandbox/discord/index.js";
import { capturingLogger } from "../cache/helpers.js";
import { coreServices } from "./core/recordingResponder.js";

function services(): Services {
  const scout = new Proxy(
    {},
    {
      get: () => async () => {
        throw new Error("the warm-up must not ask the real Scout");
      },
    },
  );
  return { ...coreServices(), scout, rendered: createRenderedAnswers(), now: () => new Date() } as Services;
}

/** A command the warm-up asks (`/commit`), held until the test lets it answer. */
function heldCommit(): { commit: CommandModule; warmUpReached: Promise<void>; release: () => void } {
  let reached!: () => void;
  const warmUpReached = new Promise<void>((resolve) => (reached = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const commit: CommandModule = {
    data: { name: "commit", description: "Held", integration_types: [0], contexts: [1] },
    parse: (raw) => raw,
    async execute() {
      reached();
      await released;
      return {
        message: { embeds: [{ title: "commit" }], components: [], files: [], allowedMentions: { parse: [] } },
      };
    },
  };
  return { commit, warmUpReached, release };
}

describe("warm-up", () => {
  it("answers every sample question with the real commands, and asks the Scout nothing", async () => {
    const { logger } = capturingLogger();
    const seen = await warmUp({ commands: await loadCommands(), services: services(), logger, rounds: 4 });
    // Five sample questions a round (two /blame, /contents, /issue, /commit), each a message; then
    // the four rounds' questions again, REPEATS_PER_ROUND times as many: each held answer's message
    // is made at its first time and sent again after.
    expect(seen).toEqual({
      answers: 20 * (1 + REPEATS_PER_ROUND),
      errors: 0,
      reused: 20 * REPEATS_PER_ROUND - 20,
    });
  });

  it("runs before the gateway's IDENTIFY", async () => {
    const discord = await startDiscordStandIn();
    const { commit, warmUpReached, release } = heldCommit();
    const bot = createBot({
      token: discord.botToken,
      apiUrl: discord.apiUrl,
      commands: new Map([["commit", commit]]),
      services: services(),
      logger: silentLogger(),
      warmUpRounds: 1,
    });
    const started = bot.start();
    try {
      await warmUpReached;
      expect(discord.gatewaySessions()).toEqual([]);
      release();
      await started;
      expect(discord.gatewaySessions().filter((session) => session.connected)).toHaveLength(1);
    } finally {
      release();
      await started.catch(() => undefined);
      await bot.stop(0);
      await discord.close();
    }
  });

  describe("readiness", () => {
    // Discord's one route the HTTP transport reads at start: the bot's own user.
    let discord: Server;
    let apiUrl: string;
    beforeAll(async () => {
      discord = createServer((_request, reply) => {
        reply.setHeader("content-type", "application/json");
        reply.end(JSON.stringify({ id: "1", username: "reposcout", discriminator: "0", bot: true }));
      });
      await new Promise<void>((resolve) => discord.listen(0, "127.0.0.1", resolve));
      apiUrl = `http://127.0.0.1:${(discord.address() as AddressInfo).port}/api`;
    });
    afterAll(() => new Promise<void>((resolve) => discord.close(() => resolve())));

    it("says ready only after the warm-up answered its sample questions", async () => {
      const { commit, warmUpReached, release } = heldCommit();
      const publicKey = generateKeyPairSync("ed25519")
        .publicKey.export({ format: "der", type: "spki" })
        .subarray(-32)
        .toString("hex");
      const { logger, lines } = capturingLogger();
      const bot = createBot({
        token: "token",
        apiUrl,
        publicKey,
        httpPort: 0,
        metricsPort: 0,
        httpHost: "127.0.0.1",
        commands: new Map([["commit", commit]]),
        services: services(),
        logger,
        warmUpRounds: 1,
      });
      const started = bot.start();
      try {
        await warmUpReached;
        const during = await fetch(`${bot.metricsUrl}/readyz`);
        expect(during.status).toBe(503);
        expect(bot.httpUrl).toBeNull(); // the interactions endpoint is not listening yet
        release();
        await started;
        const after = await fetch(`${bot.metricsUrl}/readyz`);
        expect(after.status).toBe(200);
        expect(
          lines().some((line) => line.msg === "warmed up" && line.answers === 1 + REPEATS_PER_ROUND),
        ).toBe(true);
      } finally {
        release();
        await started.catch(() => undefined);
        await bot.stop(0);
      }
    });
  });
});
