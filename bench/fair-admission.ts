/**
 * How long a second person waits for an answer while one person floods the bot (a script sending
 * 2,000 commands at once), through the interaction core with its default bounds, each command's
 * work held 200 ms (GitHub's latency). The figure is the time from the second person's interaction
 * to their answer; beside it, what became of the flood. The core only: no Discord, no GitHub, so
 * the number is the admission's doing.
 *
 *   npx tsx bench/fair-admission.ts
 */
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import type { APIInteraction, APIMessage } from "discord-api-types/v10";
import type { CommandAnswer, CommandModule } from "../src/bot/commandModule.js";
import { createInteractionCore } from "../src/bot/core/interactionCore.js";
import type { Responder } from "../src/bot/core/responder.js";
import type { Services } from "../src/bot/services.js";
import { silentLogger } from "../src/logger.js";
import { slashPayload } from "../test/bot/core/recordingResponder.js";

const FLOOD = 2_000;
const WORK_MS = 200;
let sequence = 0;

function payload(userId: string): APIInteraction {
  sequence += 1;
  return slashPayload("echo", { userId, sequence });
}

const command: CommandModule = {
  data: { name: "echo", description: "Answers" },
  parse: (raw) => raw,
  async execute(): Promise<CommandAnswer> {
    await new Promise((resolve) => setTimeout(resolve, WORK_MS));
    return {
      message: {
        content: "the answer",
        embeds: [],
        components: [],
        files: [],
        allowedMentions: { parse: [] },
      },
    };
  },
};

/** A responder that notes when the answer (not the deferral) went out, and whether it was "busy". */
function timingResponder(): {
  responder: Responder;
  answeredAt: () => number | undefined;
  busy: () => boolean;
} {
  let answeredAt: number | undefined;
  let busy = false;
  const saw = (text: string) => {
    if (text.includes("the answer")) answeredAt = performance.now();
    if (text.includes("not started")) busy = true;
  };
  const message = { id: "1" } as APIMessage;
  const responder: Responder = {
    respond: async (response) => (saw(JSON.stringify(response)), null),
    editOriginal: async (sent) => (saw(JSON.stringify(sent)), message),
    deleteOriginal: async () => undefined,
    original: async () => message,
    followUp: async (sent) => (saw(JSON.stringify(sent)), message),
    startThread: async () => ({}) as never,
    sendToChannel: async () => message,
  };
  return { responder, answeredAt: () => answeredAt, busy: () => busy };
}

const services = {
  config: { github: { oauth: {}, webUrl: "https://github.com" } },
  settings: { getThreads: async () => false, getPrivateAnswersInChannel: async () => false },
} as unknown as Services;

/** The figure lines. */
export async function benchFairAdmission(): Promise<string[]> {
  const core = createInteractionCore({
    commands: new Map([["echo", command]]),
    services,
    logger: silentLogger(),
  });
  const flood = Array.from({ length: FLOOD }, () => {
    const timing = timingResponder();
    return { timing, done: core.handle(payload("100000000000000001"), timing.responder) };
  });
  const other = timingResponder();
  const sentAt = performance.now();
  const otherDone = core.handle(payload("100000000000000002"), other.responder);
  await Promise.all([otherDone, ...flood.map((one) => one.done)]);
  const floodEnded = performance.now();
  const answeredAt = other.answeredAt();
  const second =
    answeredAt === undefined
      ? "is told the bot is busy"
      : `is answered after ${(answeredAt - sentAt).toFixed(0)} ms`;
  const refused = flood.filter((one) => one.timing.busy()).length;
  return [
    `one person floods ${FLOOD} commands (${WORK_MS} ms of work each), a second sends one right after: the second ${second}; of the flood, ${FLOOD - refused} answered and ${refused} refused at once; the flood ended after ${(floodEnded - sentAt).toFixed(0)} ms`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const text of await benchFairAdmission()) console.log(text);
  process.exit(0);
}
