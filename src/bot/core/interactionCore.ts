// Over 300 lines: the core's dispatch and the admission bounds it enforces (per process, person and server) stand beside the one function that applies them; the handlers themselves live in their own files.
import {
  ApplicationCommandType,
  InteractionType,
  type APIApplicationCommandInteraction,
  type APIInteraction,
  type APIMessageApplicationCommandInteraction,
} from "discord-api-types/v10";
import {
  isChatInputApplicationCommandInteraction,
  isContextMenuApplicationCommandInteraction,
  isMessageComponentButtonInteraction,
} from "discord-api-types/utils/v10";
import { RESTARTING } from "../../format/delivery.js";
import { formatError } from "../../format/error.js";
import { lazyChild, type Logger } from "../../logger.js";
import type { BotMetrics } from "../../metrics/botMetrics.js";
import { settlesWithin } from "../../timeouts.js";
import type { CommandModule } from "../commandModule.js";
import type { Services } from "../services.js";
import { handleAutocomplete } from "./autocompleteHandler.js";
import { handleCommand } from "./commandHandler.js";
import { handleComponent } from "./componentHandler.js";
import { Continuations } from "./continuation.js";
import { commandsByPrefix, type CoreContext } from "./coreContext.js";
import { Admission, BusyError } from "./admission.js";
import { DEFER_AFTER_MS, interactionAgeMs, RESPONSE_DEADLINE_MS } from "./deferral.js";
import { lateWarning } from "./lateWarning.js";
import {
  discordCode,
  errorSituationOf,
  isGoneInteraction,
  noteExpired,
  replyPrivately,
  replyWithError,
} from "./errorReply.js";
import { InFlight } from "./inFlight.js";
import { InteractionReply } from "./reply.js";
import { factsOf, type PersonInteraction } from "./request.js";
import { withFirstResponse, type Responder } from "./responder.js";
import { createDiscordClock, type DiscordClock } from "./discordClock.js";

/** What a person reads when they ask while the bot is stopping. */

export interface InteractionCoreOptions {
  commands: ReadonlyMap<string, CommandModule>;
  services: Services;
  logger: Logger;
  /** How long an answer may take before the first response defers it (default 1.5 s). */
  deferAfterMs?: number;
  /** Where interactions are counted and timed (`GET /metrics`). */
  metrics?: BotMetrics;
  /** Interactions whose work runs at once (default {@link MAX_ACTIVE}). */
  maxActive?: number;
  /** Interactions waiting for a slot before new ones are told the bot is busy (default {@link MAX_QUEUED}). */
  maxQueued?: number;
  /** What one person may have running and waiting (default {@link MAX_PER_USER}). */
  maxPerUser?: number;
  /** What one server may have running and waiting (default {@link MAX_PER_SERVER}). */
  maxPerServer?: number;
  /**
   * Discord's time as the interactions show it (./discordClock.ts): shared with the HTTP endpoint,
   * which sees an interaction first. Default: one of the core's own.
   */
  clock?: DiscordClock;
}

/**
 * Work in flight at once. Each holds a few GitHub calls, a formatted answer and its payload: 128
 * keeps a burst's memory to tens of MB while GitHub's latency (not this process's CPU) bounds how
 * many answers a second they give.
 */
export const MAX_ACTIVE = 128;
/**
 * Interactions waiting their turn (already acknowledged): a few KB each. Past this, a burst's
 * newcomers read at once that the bot is busy, rather than wait minutes.
 */
export const MAX_QUEUED = 4_000;

/**
 * What one person may have running and waiting at once. A person reads one answer at a time; a
 * burst of commands and page turns on a slow GitHub fits, a script or a held-down key does not,
 * and the rest of the bot's slots (an eighth each) and queue stay for everyone else.
 */
export const MAX_PER_USER = 16;
/**
 * What one server may have running and waiting at once: a quarter of what the bot takes in all,
 * so three other servers' floods together still leave room for the rest.
 */
export const MAX_PER_SERVER = Math.floor((MAX_ACTIVE + MAX_QUEUED) / 4);

/** Follow-ups Discord takes per interaction served by a user install only (DISCORD-FACTS). */
export const USER_INSTALL_FOLLOW_UPS = 5;

/**
 * An interaction this old when the core first sees it is answered "busy" at once, without its work:
 * there is no time left to do it and still respond within Discord's 3 s.
 */
export const SHED_AFTER_MS = 2_500;

/**
 * The interaction core: takes raw interaction payloads, whichever transport brought them, and
 * answers through that transport's {@link Responder}. No discord.js object enters it.
 */
export interface InteractionCore {
  /** Handles one interaction; never throws. */
  handle(interaction: APIInteraction, responder: Responder): Promise<void>;
  /** Stops taking interactions: new ones get a short "restarting" line; continuations are aborted. */
  stop(): void;
  /** Waits for the interactions in flight, up to `timeoutMs`; true when all finished. */
  drain(timeoutMs: number): Promise<boolean>;
  /** How many interactions are being handled now. */
  inFlight(): number;
  /**
   * For a stop whose drain ran out of time: tells each interaction still being handled that the
   * bot is restarting (its deferred "thinking…" edited, or its first response), so that nobody is
   * left with a reply that never comes. Resolves when Discord took them, or after `timeoutMs`.
   */
  abandonInFlight(timeoutMs: number): Promise<number>;
  /**
   * Resolves once the interaction `id` is handled to its end (its answer, thread and follow-ups
   * sent; a continuation, such as a sign-in waiting for its approval, included), or at once when
   * it is not being handled here.
   */
  settled(id: string): Promise<void>;
}

/** One interaction being handled: its task, and its reply while it is being answered. */
interface Handling {
  readonly id: string;
  task: Promise<void> | undefined;
  answering: { reply: InteractionReply; logger: Logger } | null;
}

/** A message command (a message menu): a context menu command of type MESSAGE. */
function isMessageCommand(
  interaction: APIApplicationCommandInteraction,
): interaction is APIMessageApplicationCommandInteraction {
  return (
    isContextMenuApplicationCommandInteraction(interaction) &&
    interaction.data.type === ApplicationCommandType.Message
  );
}

/** The kind of an interaction, as a metrics label. */
function kindOf(interaction: PersonInteraction): "command" | "autocomplete" | "component" | "modal" {
  switch (interaction.type) {
    case InteractionType.ApplicationCommandAutocomplete:
      return "autocomplete";
    case InteractionType.MessageComponent:
      return "component";
    case InteractionType.ModalSubmit:
      return "modal";
    default:
      return "command";
  }
}

/**
 * The command an interaction belongs to, as a metrics label: a registered command's name, or the
 * command owning a component's custom id prefix; anything else (a name nobody registered, which a
 * forged request could fill with anything) is `other`, so no label carries what a caller sent.
 */
function commandLabel(context: CoreContext, interaction: PersonInteraction): string {
  const data = interaction.data as { name?: string; custom_id?: string } | undefined;
  if (data?.name !== undefined) return context.commands.has(data.name) ? data.name : "other";
  const owner = context.byPrefix.get(data?.custom_id?.split(":")[0] ?? "");
  return owner?.data.name ?? "other";
}

/** The interaction's logger: its bindings are only written with a line (most interactions write none). */
function loggerFor(root: Logger, interaction: PersonInteraction): Logger {
  const data = interaction.data as { name?: string; custom_id?: string } | undefined;
  return lazyChild(root, () => ({
    interactionId: interaction.id,
    kind: interaction.type,
    command: data?.name,
    customId: data?.custom_id,
    guildId: interaction.guild_id ?? null,
    channelId: interaction.channel?.id ?? interaction.channel_id ?? null,
    userId: (interaction.member?.user ?? interaction.user)?.id,
  }));
}

/**
 * Creates the core. It owns every Discord concern so that commands stay plain functions: it
 * parses options, checks admin permissions, defers when an answer is not ready in time, places the
 * answer (in place, to the asker alone, or in a thread), and is the one place that turns an error
 * into an ephemeral reply.
 */
export function createInteractionCore(options: InteractionCoreOptions): InteractionCore {
  const context: CoreContext = {
    commands: options.commands,
    byPrefix: commandsByPrefix(options.commands),
    services: options.services,
    deferAfterMs: options.deferAfterMs ?? DEFER_AFTER_MS,
    clock: options.clock ?? createDiscordClock({ logger: options.logger }),
    continuations: new Continuations(),
    admission: new Admission({
      maxActive: options.maxActive ?? MAX_ACTIVE,
      maxQueued: options.maxQueued ?? MAX_QUEUED,
      maxPerUser: options.maxPerUser ?? MAX_PER_USER,
      maxPerServer: options.maxPerServer ?? MAX_PER_SERVER,
    }),
  };
  /**
   * Each interaction being handled: its task (for drain and settled), and while it is answered its
   * reply (for {@link InteractionCore.abandonInFlight}). A list, not maps: see ./inFlight.ts.
   */
  const inFlight = new InFlight<Handling>();
  let stopped = false;
  const warnLate = lateWarning(options.logger);

  async function dispatch(
    interaction: PersonInteraction,
    reply: InteractionReply,
    logger: Logger,
  ): Promise<void> {
    if (stopped) {
      if (interaction.type === InteractionType.ApplicationCommandAutocomplete) await reply.autocomplete([]);
      else await reply.reply(formatError(RESTARTING), { ephemeral: true });
      return;
    }
    // Past Discord's 3 seconds (a bot far behind, or a clock ahead of Discord's): Discord refuses any
    // response now (10062), so nothing is sent and nothing done. Answering "busy" to each (a request
    // to Discord per interaction, refused) kept a process that fell that far behind from catching up.
    const ageMs = interactionAgeMs(interaction.id, context.clock.now());
    if (ageMs >= RESPONSE_DEADLINE_MS) {
      reply.outcome = "expired";
      warnLate();
      return;
    }
    // Behind by nearly Discord's 3 seconds (a burst beyond what this process can take): whatever
    // the answer, it would come too late. Said at once, in one request, so the person reads that
    // the bot is busy rather than "The application did not respond", and the bot catches up.
    if (ageMs >= SHED_AFTER_MS) {
      reply.outcome = "busy";
      logger.info({ ageMs }, "interaction arrived too late to answer: told the bot is busy");
      if (interaction.type === InteractionType.ApplicationCommandAutocomplete) await reply.autocomplete([]);
      else
        await replyWithError(
          reply,
          new BusyError("full"),
          logger,
          errorSituationOf(options.services.config, interaction.guild_id ?? null),
          interaction.type === InteractionType.MessageComponent,
        );
      return;
    }
    const facts = factsOf(interaction, logger);
    if (facts.userInstallOnly) reply.followUpLimit = USER_INSTALL_FOLLOW_UPS;
    switch (interaction.type) {
      case InteractionType.ApplicationCommand:
        // Slash commands and message commands (message menus); no user commands are registered.
        if (isChatInputApplicationCommandInteraction(interaction) || isMessageCommand(interaction))
          await handleCommand(context, interaction, reply, facts, logger);
        return;
      case InteractionType.ApplicationCommandAutocomplete:
        await handleAutocomplete(context, interaction, reply, facts, logger);
        return;
      case InteractionType.MessageComponent:
        // Buttons only: the bot sends no select menus.
        if (isMessageComponentButtonInteraction(interaction))
          await handleComponent(context, interaction, reply, facts, logger);
        return;
      case InteractionType.ModalSubmit:
        await handleComponent(context, interaction, reply, facts, logger);
        return;
    }
  }

  async function route(interaction: PersonInteraction, given: Responder, handling: Handling): Promise<void> {
    const logger = loggerFor(options.logger, interaction);
    const started = performance.now();
    const { metrics } = options;
    const kind = kindOf(interaction);
    const responder: Responder = metrics
      ? withFirstResponse(given, async (...args) => {
          const result = await given.respond(...args);
          metrics.firstResponse.observe(
            { kind },
            interactionAgeMs(interaction.id, context.clock.now()) / 1000,
          );
          return result;
        })
      : given;
    const reply = new InteractionReply(responder);
    if (interaction.type !== InteractionType.ApplicationCommandAutocomplete)
      handling.answering = { reply, logger };
    try {
      await dispatch(interaction, reply, logger);
    } catch (error) {
      if (isGoneInteraction(error)) noteExpired(reply, error, logger);
      else {
        reply.outcome = "error";
        logger.error({ err: error, discordCode: discordCode(error) }, "interaction failed");
      }
    } finally {
      handling.answering = null;
      if (metrics) {
        const command = commandLabel(context, interaction);
        metrics.interactions.inc({ kind, command, outcome: reply.outcome ?? "answered" });
        if (kind !== "autocomplete")
          metrics.finalAnswer.observe(
            { command },
            interactionAgeMs(interaction.id, context.clock.now()) / 1000,
          );
      }
      logger.debug({ ms: Math.round(performance.now() - started) }, "interaction handled");
    }
  }

  return {
    handle(interaction, responder) {
      if (interaction.type === InteractionType.Ping) return Promise.resolve();
      const handling: Handling = { id: interaction.id, task: undefined, answering: null };
      // Read before this one is counted in hand.
      context.clock.arrived(interaction.id, inFlight.size);
      const node = inFlight.add(handling);
      const task = route(interaction, responder, handling);
      handling.task = task;
      void task.finally(() => inFlight.remove(node));
      return task;
    },
    stop() {
      stopped = true;
      context.continuations.stop();
    },
    drain: (timeoutMs) =>
      settlesWithin(Promise.allSettled(inFlight.values().map((handling) => handling.task)), timeoutMs),
    inFlight: () => inFlight.size,
    async abandonInFlight(timeoutMs) {
      const left = inFlight.values().flatMap(({ answering }) => (answering ? [answering] : []));
      const message = formatError(RESTARTING);
      const told = left.map(async ({ reply, logger }) => {
        try {
          // Only an interaction still waiting for its answer is told; a public "thinking…" is
          // removed and the notice goes to the asker alone, as an error's would.
          if (reply.acknowledged && !reply.deferred) return;
          await replyPrivately(reply, message, logger, reply.deferral === "update");
          logger.info("told the asker the bot is restarting: the answer did not finish before the stop");
        } catch (error) {
          logger.info({ discordCode: discordCode(error) }, "could not tell the asker the bot is restarting");
        }
      });
      await settlesWithin(Promise.allSettled(told), timeoutMs);
      return left.length;
    },
    settled: (id) => inFlight.findLast((handling) => handling.id === id)?.task ?? Promise.resolve(),
  };
}
