import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ChannelType,
  InteractionContextType,
  InteractionType,
  type APIApplicationCommandInteractionDataBasicOption,
  type APIInteraction,
  type APIMessage,
} from "discord-api-types/v10";
import type { Fetched, Scout } from "../answers/scout.js";
import type { Logger } from "../logger.js";
import { createButtonStateStore, type TtlStore } from "./buttonState.js";
import type { CommandModule } from "./commandModule.js";
import { createInteractionCore } from "./core/interactionCore.js";
import type { OutgoingMessage, Responder } from "./core/responder.js";
import { createRenderedAnswers, type RenderedAnswers } from "./renderedAnswers.js";
import type { Services } from "./services.js";
import { sampleAnswers } from "./warmUpSamples.js";
import { withFields } from "../withFields.js";

/** Rounds of the sample questions: enough for V8 to optimize the answer path (see the bench). */
export const WARM_UP_ROUNDS = 150;

/**
 * Then, per round, the sample questions asked again this many times over answers already rendered:
 * the path a cached answer takes (its kept message sent again), which most interactions take and
 * the formatting rounds never reach. Without it the first second of a burst ran that path before
 * V8 had optimized it: from a cold start at 1,600 interactions a second over HTTP, the first 1.5 s
 * waited 30-42 ms on average, 132-196 of them over 100 ms; with 4 (600 repeated rounds, about 0.9 s
 * more CPU at start), 12-26 ms and 16-121 (`bench/load/knee.ts`, 5 runs each).
 */
export const REPEATS_PER_ROUND = 4;

/** How many rounds' answers the repeats cycle over (each kept once, its message then reused). */
const HELD_ROUNDS = 20;

/** Discord's epoch, for the samples' snowflakes (the core reads an interaction's age from its id). */
const DISCORD_EPOCH_MS = 1_420_070_400_000n;

type SampleOption = APIApplicationCommandInteractionDataBasicOption;

const text = (name: string, value: string): SampleOption => ({
  type: ApplicationCommandOptionType.String,
  name,
  value,
});

/** The sample questions of one round: the commands that format fetched answers. */
function sampleQuestions(round: number): Array<{ name: string; options: SampleOption[] }> {
  const repo = text("repo", `reposcout/sample-${round}`);
  return [
    {
      name: "blame",
      options: [repo, text("path", "src/sample.ts"), text("lines", `${1 + (round % 20)}-40`)],
    },
    { name: "blame", options: [repo, text("path", "src/sample.ts"), text("lines", "1-80")] },
    { name: "contents", options: [repo, text("path", "src/sample.ts"), text("lines", "3-30")] },
    {
      name: "issue",
      options: [repo, { type: ApplicationCommandOptionType.Integer, name: "number", value: round + 1 }],
    },
    { name: "commit", options: [repo] },
  ];
}

/** A slash command in the bot's DM, as Discord sends it: no server, so no server setting is read. */
function samplePayload(index: number, question: { name: string; options: SampleOption[] }): APIInteraction {
  const id = ((BigInt(Date.now()) - DISCORD_EPOCH_MS) << 22n) | BigInt(index % 4096);
  const user = { id: "1", username: "warm-up", discriminator: "0", global_name: null, avatar: null };
  return {
    id: String(id),
    application_id: "1",
    token: "warm-up",
    type: InteractionType.ApplicationCommand,
    version: 1,
    channel: { id: "2", type: ChannelType.DM },
    channel_id: "2",
    user,
    app_permissions: "0",
    locale: "en-US",
    context: InteractionContextType.BotDM,
    entitlements: [],
    authorizing_integration_owners: {},
    attachment_size_limit: 10_000_000,
    data: { id: "3", name: question.name, type: ApplicationCommandType.ChatInput, options: question.options },
  } as unknown as APIInteraction;
}

/** What the warm-up's responder saw: answers, and error lines (ephemeral: every error is). */
interface Seen {
  answers: number;
  errors: number;
  /** Answers of the repeats whose message was the one kept at their first time. */
  reused: number;
}

const isEphemeral = (flags: unknown): boolean => typeof flags === "number" && (flags & 64) !== 0;

/**
 * A responder that takes every message as Discord would (its body made JSON, as the REST client
 * makes it) and sends nothing; it counts answers and error lines.
 */
function discardingResponder(seen: Seen): Responder {
  const message = { id: "4" } as APIMessage;
  const count = (flags: unknown, embeds: unknown): void => {
    if (isEphemeral(flags)) seen.errors += 1;
    else if (Array.isArray(embeds) && embeds.length > 0) seen.answers += 1;
  };
  const take = async (sent: OutgoingMessage): Promise<APIMessage> => {
    JSON.stringify(sent.body);
    count(sent.body.flags, sent.body.embeds);
    return message;
  };
  return {
    respond: async (response) => {
      JSON.stringify(response);
      const data =
        "data" in response ? (response.data as { flags?: unknown; embeds?: unknown } | undefined) : undefined;
      count(data?.flags, data?.embeds);
      return null;
    },
    editOriginal: take,
    deleteOriginal: async () => undefined,
    original: async () => message,
    followUp: take,
    startThread: async (_channel, messageId, name) => ({ id: messageId, name }) as never,
    sendToChannel: async (_channel, sent) => take(sent),
  };
}

type SampleAnswers = ReturnType<typeof sampleAnswers>;

/** The Scout of the warm-up: the sample answers `answers` gives, fetched from nowhere. */
function sampleScout(answers: () => SampleAnswers): Scout {
  const answer = <T>(value: T): Fetched<T> => ({
    value,
    freshness: { fetchedAt: new Date(Date.now() - 90_000).toISOString(), fromCache: true },
    origin: "default",
  });
  const none = async (): Promise<never> => {
    throw new Error("the warm-up asks no such question");
  };
  return {
    blame: async () => answer(answers().blame),
    contents: async () => answer(answers().contents),
    // Held in process, as a repeat of a cached answer is: the path most interactions take.
    heldBlame: () => answer(answers().blame),
    heldContents: () => answer(answers().contents),
    issue: async () => answer(answers().issue),
    commit: async () => answer(answers().commit),
    viewer: none,
    repositories: none,
    contributors: none,
    history: none,
    owners: none,
    recentRepositories: async () => [],
    tokenOrigin: async () => undefined,
    rateLimit: async () => undefined,
  };
}

/** Button states written to nowhere: the warm-up's buttons are never pressed. */
const discardingStore: TtlStore = {
  get: async () => undefined,
  set: async () => undefined,
};

/** Renders every time: the warm-up is there to run the formatters. */
const renderEveryTime: RenderedAnswers = {
  message: (_answer, _variant, render) => render(),
  png: (svg, render) => render(svg),
  counts: () => ({ rendered: 0, reused: 0 }),
};

/**
 * Runs the answer path (the interaction core, the commands, formatting and escaping, the message
 * as Discord takes it) on built-in sample answers, before the bot says it is ready: the first burst
 * of real interactions then meets optimized code instead of paying for compilation in its tail
 * (issue 23). Nothing reaches GitHub, Discord, the caches or the real button store; the logger is
 * silenced. The formatting rounds come first, then the repeats ({@link REPEATS_PER_ROUND}). Resolves
 * with how many sample answers were given, how many of them were kept messages sent again, and how
 * many questions met an error line instead (none, unless a command no longer answers its sample:
 * the caller logs it).
 */
export async function warmUp(options: {
  commands: ReadonlyMap<string, CommandModule>;
  services: Services;
  logger: Logger;
  rounds?: number;
}): Promise<Seen> {
  const rounds = options.rounds ?? WARM_UP_ROUNDS;
  const seen: Seen = { answers: 0, errors: 0, reused: 0 };
  let asked = 0;
  /**
   * `count` rounds through a core of their own: round `n` asks the sample questions of round
   * `roundOf(n)`, and the Scout answers them with `answersOf` that round.
   */
  const ask = async (
    count: number,
    rendered: RenderedAnswers,
    roundOf: (n: number) => number,
    answersOf: (round: number) => SampleAnswers,
  ): Promise<void> => {
    let round = 0;
    const core = createInteractionCore({
      commands: options.commands,
      services: withFields(options.services, {
        scout: sampleScout(() => answersOf(round)),
        // A store that keeps nothing, so that the states count as stored (as a repeat's are).
        buttons: createButtonStateStore(discardingStore),
        rendered,
      }),
      logger: options.logger.child({ warmUp: true }, { level: "silent" }),
    });
    for (let n = 0; n < count; n += 1) {
      round = roundOf(n);
      const questions = sampleQuestions(round).filter((question) => options.commands.has(question.name));
      for (const question of questions) {
        await core.handle(samplePayload(asked, question), discardingResponder(seen));
        asked += 1;
      }
    }
    await core.drain(1_000);
  };
  // New answers every round: the formatters.
  await ask(rounds, renderEveryTime, (n) => n, sampleAnswers);
  // The answers of the first rounds again, with their questions: their messages, kept at the first
  // time, sent again.
  const heldRounds = Math.min(rounds, HELD_ROUNDS);
  const held = Array.from({ length: heldRounds }, (_, round) => sampleAnswers(round));
  const kept = createRenderedAnswers();
  await ask(
    rounds * REPEATS_PER_ROUND,
    kept,
    (n) => n % heldRounds,
    (round) => held[round]!,
  );
  seen.reused = kept.counts().reused;
  return seen;
}
