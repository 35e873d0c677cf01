/**
 * A page turn (a `/blame` answer's Next button) through the core, in process: held (issue 23: the
 * pressed button's state, the page's read and its own buttons' states all held, answered at once)
 * beside the very same press taking the steps (the same commands with `buttonHeld` taken away: a
 * work slot, the state read from the store, the Scout's read, the page's buttons stored). The
 * services are the single machine's deployment: SQLite caches and vaults in a data folder, the
 * GitHub stand-in behind them. CPU and wall time per press; the two take turns, five rounds each.
 *
 *   npx tsx bench/page-turns.ts
 */
import { pathToFileURL } from "node:url";
import type { APIInteraction } from "discord-api-types/v10";
import type { CommandModule } from "../src/bot/commandModule.js";
import { createInteractionCore, type InteractionCore } from "../src/bot/core/interactionCore.js";
import type { Responder } from "../src/bot/core/responder.js";
import { loadCommands } from "../src/bot/loadCommands.js";
import { silentLogger } from "../src/logger.js";
import { benchServices, interactionBody } from "./load/httpSteps.js";
import { percentile } from "./load/rates.js";

const PRESSES = 5_000;
const ROUNDS = 5;

/** A press of `customId` on a public message of the bot, as Discord sends it: the slash command's member and place. */
function press(n: number, customId: string): APIInteraction {
  const payload = JSON.parse(interactionBody(n)) as Record<string, unknown>;
  payload.type = 3;
  payload.data = { custom_id: customId, component_type: 2 };
  payload.message = { id: "1800000000000000001", channel_id: payload.channel_id, flags: 0 };
  return payload as unknown as APIInteraction;
}

export async function benchPageTurns(): Promise<string[]> {
  const logger = silentLogger();
  const services = await benchServices({}, { logger, memoryStores: false });
  const { running } = services;
  try {
    const commands = await loadCommands();
    const withoutHeld = new Map<string, CommandModule>(
      [...commands].map(([name, command]) => {
        const { buttonHeld: _held, ...steps } = command;
        return [name, steps as CommandModule];
      }),
    );
    const cores: Array<[string, InteractionCore]> = [
      ["held", createInteractionCore({ commands, services: running.services, logger })],
      ["steps", createInteractionCore({ commands: withoutHeld, services: running.services, logger })],
    ];
    const kinds = new Map<string, number>();
    let first = "";
    const responder = {
      respond: async (response: { type: number; data?: unknown }) => {
        if (!first) first = JSON.stringify(response);
        kinds.set(String(response.type), (kinds.get(String(response.type)) ?? 0) + 1);
        return null;
      },
      editOriginal: async () => {
        kinds.set("edit", (kinds.get("edit") ?? 0) + 1);
        return null;
      },
    } as unknown as Responder;
    // The answer whose Next button is pressed (fetched once, then read again from the cache).
    let n = 0;
    for (let ask = 0; ask < 2; ask++) {
      first = "";
      await cores[1]![1].handle(JSON.parse(interactionBody(n++)) as APIInteraction, responder);
    }
    const answer = JSON.parse(first) as {
      data: { components: Array<{ components: Array<{ custom_id?: string }> }> };
    };
    const next = answer.data.components
      .flatMap((row) => row.components)
      .map((button) => button.custom_id ?? "")
      .filter((id) => id.startsWith("blame:"))
      .at(-1);
    if (!next) throw new Error("the /blame answer has no Next button");
    // Warm both paths (the steps' press reads the page once from GitHub).
    for (const [, core] of cores)
      for (let i = 0; i < 2_000; i++) await core.handle(press(n++, next), responder);
    const figures = new Map<string, { cpu: number[]; wall: number[] }>(
      cores.map(([name]) => [name, { cpu: [], wall: [] }]),
    );
    for (let round = 0; round < 2 * ROUNDS; round++) {
      const [name, core] = cores[[0, 1, 1, 0][round % 4]!]!;
      kinds.clear();
      const payloads = Array.from({ length: PRESSES }, () => press(n++, next));
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (const payload of payloads) await core.handle(payload, responder);
      const wallUs = ((performance.now() - t0) * 1000) / PRESSES;
      const cpu = process.cpuUsage(cpu0);
      if (kinds.get("7") !== PRESSES) throw new Error(`${name}: not every press updated the message`);
      figures.get(name)!.cpu.push((cpu.user + cpu.system) / PRESSES);
      figures.get(name)!.wall.push(wallUs);
    }
    const median = (values: number[]): number => percentile(values, 50);
    const held = figures.get("held")!;
    const steps = figures.get("steps")!;
    const spread = (values: number[]): string =>
      `${Math.min(...values).toFixed(1)}/${median(values).toFixed(1)}/${Math.max(...values).toFixed(1)}`;
    return [
      `a /blame page turn (Next), ${PRESSES} presses a round, ${ROUNDS} rounds each in turns, SQLite stores, min/median/max µs per press:`,
      `  held in process: CPU ${spread(held.cpu)}  wall ${spread(held.wall)}`,
      `  through the steps: CPU ${spread(steps.cpu)}  wall ${spread(steps.wall)}`,
      `  held / steps, median CPU: ${(median(held.cpu) / median(steps.cpu)).toFixed(2)}×`,
    ];
  } finally {
    await services.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log((await benchPageTurns()).join("\n"));
}
