/**
 * Issue 23 items 1 and 3, measured in process (CPU time, so a busy machine moves the figures less
 * than wall-clock times): a cached `/blame` answered by its command when formatted each time and
 * when its rendered message is kept; the warm-up's own cost at start.
 *
 *   npx tsx bench/format-once.ts
 */
import { pathToFileURL } from "node:url";
import type { Fetched } from "../src/answers/scout.js";
import { createButtonStateStore } from "../src/bot/buttonState.js";
import type { CommandRequest } from "../src/bot/commandModule.js";
import { loadCommands } from "../src/bot/loadCommands.js";
import { createRenderedAnswers, type RenderedAnswers } from "../src/bot/renderedAnswers.js";
import type { Services } from "../src/bot/services.js";
import { warmUp, WARM_UP_ROUNDS } from "../src/bot/warmUp.js";
import { sampleAnswers } from "../src/bot/warmUpSamples.js";
import type { BlameAnswer } from "../src/github/types.js";
import { createLogger } from "../src/logger.js";

const REPEATS = 5_000;

const cpuMs = (): number => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

/** The old way: every answer formatted again. */
const formatEachTime: RenderedAnswers = {
  message: (_answer, _variant, render) => render(),
  png: (svg, render) => render(svg),
  counts: () => ({ rendered: 0, reused: 0 }),
};

function servicesWith(rendered: RenderedAnswers, scout: Partial<Services["scout"]>): Services {
  return {
    config: { github: { oauth: {}, webUrl: "https://github.com" } },
    scout,
    buttons: createButtonStateStore(null),
    rendered,
    now: () => new Date(),
  } as unknown as Services;
}

export async function benchFormatOnce(): Promise<string[]> {
  const commands = await loadCommands();
  const blame = commands.get("blame")!;
  const fetched: Fetched<BlameAnswer> = {
    value: sampleAnswers(1).blame,
    freshness: { fetchedAt: new Date(Date.now() - 120_000).toISOString(), fromCache: true },
    origin: "default",
  };
  const request = { guildId: null, userId: "1" } as CommandRequest;
  const args = {
    repo: { owner: "reposcout", name: "sample-1" },
    path: "src/sample.ts",
    lines: { start: 10, end: 40 },
  };
  const lines: string[] = [];
  const perAnswer: number[] = [];
  for (const [name, rendered] of [
    ["formatted each time (before)", formatEachTime],
    ["rendered once, kept (now)", createRenderedAnswers()],
  ] as const) {
    const services = servicesWith(rendered, { blame: async () => fetched });
    for (let n = 0; n < 500; n += 1) await blame.execute(args, request, services);
    const started = cpuMs();
    for (let n = 0; n < REPEATS; n += 1) await blame.execute(args, request, services);
    const micros = ((cpuMs() - started) / REPEATS) * 1000;
    perAnswer.push(micros);
    lines.push(
      `cached /blame (31 lines) through its command, ${name}: ${micros.toFixed(1)} µs CPU per answer`,
    );
  }
  lines.push(`  kept / formatted: ${(perAnswer[1]! / perAnswer[0]!).toFixed(2)}×`);
  const logger = createLogger({ level: "silent", pretty: false });
  const started = cpuMs();
  const seen = await warmUp({
    commands,
    services: servicesWith(createRenderedAnswers(), {}),
    logger,
    rounds: WARM_UP_ROUNDS,
  });
  lines.push(
    `warm-up before ready: ${seen.answers} sample answers (${seen.errors} errors), ${(cpuMs() - started).toFixed(0)} ms CPU`,
  );
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const line of await benchFormatOnce()) console.log(line);
}
