import { randomBytes } from "node:crypto";
import {
  MessageFlags,
  PermissionFlagsBits,
  type APIApplicationCommandOptionChoice,
  type APIModalInteractionResponseCallbackData,
} from "discord-api-types/v10";
import type {
  AutocompleteInteraction,
  ButtonInteraction,
  ChatInputCommandInteraction,
  CommandInteractionOption,
  Interaction,
  ModalSubmitInteraction,
  REST,
} from "discord.js";
import { errorFacts } from "../errorFacts.js";
import { AdminOnlyError, ExpiredComponentError, isUserFacingError } from "../errors.js";
import { formatError } from "../format/error.js";
import { errorSentence, genericErrorSentence, type ErrorSituation } from "../format/errorSentence.js";
import type { FormattedMessage } from "../format/message.js";
import type { Logger } from "../logger.js";
import type {
  CommandAnswer,
  CommandModule,
  CommandRequest,
  Continuation,
  RawOptions,
} from "./commandModule.js";
import { toMessageOptions, withNote } from "./messagePayload.js";
import {
  answerPlaceOf,
  decideDelivery,
  decidePageDelivery,
  sendToAskerOnly,
  type DeliveryDecision,
} from "./privateDelivery.js";
import type { Services } from "./services.js";
import { answerInThread, decidePlacement, threadFailureNote, type Placement } from "./threads.js";

/** Discord refuses a first response after 3 s; answers not ready by this point are deferred. */
const DEFER_AFTER_MS = 1_500;
/** Autocomplete cannot be deferred: past this, answer with no choices. */
const AUTOCOMPLETE_BUDGET_MS = 2_500;
/** Discord's code when an interaction's token has expired or was never acknowledged in time. */
const UNKNOWN_INTERACTION = 10062;
/** An interaction's token edits its reply for 15 minutes; continuations stop this much earlier. */
const EDIT_WINDOW_MS = 15 * 60_000 - 30_000;

export interface RouterOptions {
  commands: ReadonlyMap<string, CommandModule>;
  services: Services;
  rest: REST;
  logger: Logger;
  deferAfterMs?: number;
}

export interface Router {
  /** Routes one interaction; never throws. */
  handle(interaction: Interaction): Promise<void>;
  /** Stops taking interactions: new ones get a short "restarting" line. */
  stop(): void;
  /** Waits for the interactions in flight, up to `timeoutMs`; true when all finished. */
  drain(timeoutMs: number): Promise<boolean>;
  /** How many interactions are being handled now. */
  inFlight(): number;
}

/** A short random id that ties a generic error line to its log entry. */
export function newErrorId(): string {
  return randomBytes(4).toString("hex");
}

function flattenOptions(
  options: readonly CommandInteractionOption[],
  into: Record<string, string | number | boolean | undefined>,
): void {
  for (const option of options) {
    if (option.type === 1) {
      into.subcommand = option.name;
      flattenOptions(option.options ?? [], into);
    } else if (option.type === 2) {
      into.group = option.name;
      flattenOptions(option.options ?? [], into);
    } else if (
      typeof option.value === "string" ||
      typeof option.value === "number" ||
      typeof option.value === "boolean"
    ) {
      into[option.name] = option.value;
    }
  }
}

/** Flattens an interaction's options: subcommand (and group) names plus every value by name. */
export function rawOptionsOf(options: readonly CommandInteractionOption[]): RawOptions {
  const flat: Record<string, string | number | boolean | undefined> = {};
  flattenOptions(options, flat);
  return flat;
}

function isManager(permissions: bigint | null): boolean {
  if (permissions === null) return false;
  return (
    (permissions & PermissionFlagsBits.ManageGuild) !== 0n ||
    (permissions & PermissionFlagsBits.Administrator) !== 0n
  );
}

function delay(ms: number): { promise: Promise<"timeout">; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

function discordCode(error: unknown): unknown {
  return typeof error === "object" && error !== null && "code" in error
    ? (error as { code: unknown }).code
    : undefined;
}

/**
 * Creates the interaction router: slash commands, autocomplete, buttons and modal submits. It owns
 * every Discord concern so that commands stay plain functions: it parses options, checks admin
 * permissions, defers when an answer is not ready in time, places the answer (in place or in a
 * thread), and is the one place that turns an error into an ephemeral reply.
 */
export function createRouter(options: RouterOptions): Router {
  const { commands, services, rest } = options;
  const deferAfterMs = options.deferAfterMs ?? DEFER_AFTER_MS;
  const byPrefix = new Map<string, CommandModule>();
  for (const module of commands.values()) {
    for (const prefix of module.customIdPrefixes ?? []) byPrefix.set(prefix, module);
  }
  const inFlight = new Set<Promise<void>>();
  /** One per running continuation: aborted when the bot stops. */
  const continuing = new Set<AbortController>();
  let stopped = false;

  function requestOf(interaction: Interaction, logger: Logger): CommandRequest {
    return {
      interactionId: interaction.id,
      guildId: interaction.guildId,
      channelId: interaction.channelId,
      userId: interaction.user.id,
      memberPermissions: interaction.memberPermissions?.bitfield ?? null,
      locale: interaction.locale,
      logger,
      editBy: new Date(interaction.createdTimestamp + EDIT_WINDOW_MS),
    };
  }

  /** What an error's next step may depend on: whether `/login` works here, a server or a DM. */
  function situationOf(interaction: Interaction): ErrorSituation {
    return {
      signIn: services.config.github.oauth.clientId !== undefined,
      inServer: interaction.guildId !== null,
      webUrl: services.config.github.webUrl,
    };
  }

  /** Logs an error and returns the sentence the user reads. */
  function sentenceFor(error: unknown, logger: Logger, situation: ErrorSituation): string {
    if (isUserFacingError(error)) {
      logger.info(errorFacts(error), "answered with a user-facing error");
      return errorSentence(error, situation);
    }
    const errorId = newErrorId();
    logger.error({ err: error, errorId }, "command failed");
    return genericErrorSentence(errorId);
  }

  type Repliable = ChatInputCommandInteraction | ButtonInteraction | ModalSubmitInteraction;

  /** Sends an error as an ephemeral message, whatever state the interaction is in. */
  async function replyWithError(
    interaction: Repliable,
    error: unknown,
    logger: Logger,
    deferredPublic: boolean,
  ): Promise<void> {
    const body = toMessageOptions(formatError(sentenceFor(error, logger, situationOf(interaction))));
    const message = { ...body, flags: MessageFlags.Ephemeral as const };
    try {
      if (!interaction.deferred && !interaction.replied) {
        await interaction.reply(message);
      } else if (deferredPublic) {
        // A deferred public reply cannot become ephemeral: remove it, then follow up privately, so
        // no public message is left holding an error.
        await interaction
          .deleteReply()
          .catch((deleteError: unknown) =>
            logger.warn({ err: deleteError }, "could not delete the deferred reply"),
          );
        await interaction.followUp(message);
      } else if (interaction.isButton()) {
        await interaction.followUp(message);
      } else {
        // Deferred ephemerally (a modal submit, an admin command): the reply is already private.
        await interaction.editReply(body);
      }
    } catch (replyError) {
      logger.warn(
        { err: replyError, discordCode: discordCode(replyError) },
        "could not deliver the error reply",
      );
    }
  }

  /**
   * Runs `work`; when it is not done within the defer budget, defers first (so Discord's 3 s
   * deadline holds whatever the network does), then waits for it.
   */
  async function withDeferral<T>(
    work: Promise<T>,
    defer: () => Promise<unknown>,
  ): Promise<{ value: T; deferred: boolean }> {
    const timer = delay(deferAfterMs);
    const first = await Promise.race([
      work.then(
        () => "done" as const,
        () => "done" as const,
      ),
      timer.promise,
    ]);
    timer.cancel();
    if (first === "timeout") {
      await defer();
      return { value: await work, deferred: true };
    }
    return { value: await work, deferred: false };
  }

  async function handleCommand(interaction: ChatInputCommandInteraction, logger: Logger): Promise<void> {
    const module = commands.get(interaction.commandName);
    if (!module) {
      await replyWithError(
        interaction,
        new Error(`no module for /${interaction.commandName}`),
        logger,
        false,
      );
      return;
    }
    const request = requestOf(interaction, logger);
    let args: unknown;
    try {
      if (module.adminOnly) assertAdmin(request);
      args = module.parse(rawOptionsOf(interaction.options.data), services);
    } catch (error) {
      await replyWithError(interaction, error, logger, false);
      return;
    }
    const modal: APIModalInteractionResponseCallbackData | null | undefined = module.modal?.(
      args,
      request,
      services,
    );
    if (modal) {
      await interaction.showModal(modal);
      return;
    }
    const ephemeral = module.ephemeral === true;
    const work = (async (): Promise<{ answer: CommandAnswer; placement: Placement }> => {
      const placement =
        module.threadable && !ephemeral
          ? await placementFor(interaction, args)
          : ({ mode: "inPlace" } as Placement);
      const answer = await module.execute(args, request, services);
      return { answer, placement };
    })();
    let deferred = false;
    let delivered: { answer: CommandAnswer; placement: Placement };
    try {
      const result = await withDeferral(work, () =>
        interaction.deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {}),
      );
      deferred = result.deferred;
      delivered = result.value;
      await deliver(interaction, delivered.answer, delivered.placement, ephemeral, logger);
    } catch (error) {
      await replyWithError(interaction, error, logger, (deferred || interaction.deferred) && !ephemeral);
      return;
    }
    if (delivered.answer.continuation && delivered.placement.mode === "inPlace") {
      await runContinuation(interaction, delivered.answer.continuation, logger);
    }
  }

  /** Runs a continuation and edits the reply with its result (or its error line). */
  async function runContinuation(
    interaction: ChatInputCommandInteraction,
    continuation: Continuation,
    logger: Logger,
  ): Promise<void> {
    const controller = new AbortController();
    continuing.add(controller);
    if (stopped) controller.abort();
    let message: FormattedMessage;
    try {
      message = await continuation({ signal: controller.signal });
    } catch (error) {
      message = formatError(sentenceFor(error, logger, situationOf(interaction)));
    } finally {
      continuing.delete(controller);
    }
    try {
      await interaction.editReply(toMessageOptions(message));
    } catch (error) {
      logger.warn(
        { err: error, discordCode: discordCode(error) },
        "could not edit the reply after the continuation",
      );
    }
  }

  function assertAdmin(request: CommandRequest): void {
    if (request.guildId === null) {
      throw new AdminOnlyError("notInServer");
    }
    if (!isManager(request.memberPermissions)) {
      throw new AdminOnlyError("notManager");
    }
  }

  async function placementFor(interaction: ChatInputCommandInteraction, args: unknown): Promise<Placement> {
    const given =
      typeof args === "object" && args !== null && "thread" in args
        ? (args as { thread?: boolean }).thread
        : undefined;
    let wantsThread = given ?? false;
    if (given === undefined && interaction.guildId) {
      wantsThread = await services.settings.getThreads(interaction.guildId);
    }
    return decidePlacement({
      wantsThread,
      inGuild: interaction.inGuild(),
      channelType: interaction.channel?.type ?? null,
      appPermissions: interaction.appPermissions.bitfield,
    });
  }

  /**
   * Whether the server allows private answers in its channels (SPEC section 4), read only when an
   * answer is private and the interaction is in a server.
   */
  async function inChannelAllowed(
    interaction: ChatInputCommandInteraction | ButtonInteraction,
    privacy: CommandAnswer["privacy"],
  ): Promise<boolean> {
    return privacy !== undefined && answerPlaceOf(interaction) === "guild" && interaction.guildId !== null
      ? services.settings.getPrivateAnswersInChannel(interaction.guildId)
      : false;
  }

  /** How an answer may be shown: a private one is kept to the asker unless the place allows it. */
  async function deliveryFor(
    interaction: ChatInputCommandInteraction,
    privacy: CommandAnswer["privacy"],
    wantsThread: boolean,
  ): Promise<DeliveryDecision> {
    return decideDelivery({
      privacy,
      place: answerPlaceOf(interaction),
      inChannelAllowed: await inChannelAllowed(interaction, privacy),
      wantsThread,
    });
  }

  async function deliver(
    interaction: ChatInputCommandInteraction,
    answer: CommandAnswer,
    placement: Placement,
    ephemeral: boolean,
    logger: Logger,
  ): Promise<void> {
    const wantsThread = placement.mode === "thread" || placement.note !== undefined;
    const decision = await deliveryFor(interaction, answer.privacy, wantsThread);
    if (decision.ephemeral && !ephemeral) {
      logger.info({ private: answer.privacy?.kind }, "private answer sent to the asker only");
      await sendToAskerOnly(interaction, withNote(answer.message, decision.note), logger);
      return;
    }
    if (decision.note) answer = { ...answer, message: withNote(answer.message, decision.note) };
    const flags = ephemeral ? { flags: MessageFlags.Ephemeral as const } : {};
    if (placement.mode === "inPlace") {
      const message = toMessageOptions(withNote(answer.message, placement.note));
      if (interaction.deferred) await interaction.editReply(message);
      else await interaction.reply({ ...message, ...flags });
      return;
    }
    const summary: FormattedMessage = {
      content: answer.summary ?? "🧵 The answer is in the thread.",
      embeds: [],
      components: [],
      files: [],
      allowedMentions: { parse: [] },
    };
    const starter = interaction.deferred
      ? await interaction.editReply(toMessageOptions(summary))
      : (await interaction.reply({ ...toMessageOptions(summary), withResponse: true })).resource?.message;
    const channelId = interaction.channelId;
    if (!starter || !channelId) throw new Error("the summary reply has no message to start a thread from");
    try {
      const threadId = await answerInThread(rest, {
        channelId,
        messageId: starter.id,
        name: answer.threadName ?? interaction.commandName,
        message: answer.message,
      });
      logger.info({ threadId }, "answered in a thread");
    } catch (error) {
      logger.warn(
        { err: error, discordCode: discordCode(error) },
        "could not answer in a thread; answering in place",
      );
      await interaction.editReply(toMessageOptions(withNote(answer.message, threadFailureNote(error))));
    }
  }

  async function handleAutocomplete(interaction: AutocompleteInteraction, logger: Logger): Promise<void> {
    const module = commands.get(interaction.commandName);
    let choices: APIApplicationCommandOptionChoice[] = [];
    if (module?.autocomplete) {
      const focused = interaction.options.getFocused(true);
      const timer = delay(AUTOCOMPLETE_BUDGET_MS);
      try {
        const result = await Promise.race([
          module.autocomplete(
            { name: focused.name, value: String(focused.value) },
            rawOptionsOf(interaction.options.data),
            requestOf(interaction, logger),
            services,
          ),
          timer.promise,
        ]);
        if (result !== "timeout") choices = result;
        else logger.info("autocomplete ran out of time; answering with no choices");
      } catch (error) {
        // An error never surfaces in autocomplete: the list is just empty. A user's typo is one
        // info line; anything else is a bug to look at.
        if (isUserFacingError(error))
          logger.info(errorFacts(error), "autocomplete failed; answering with no choices");
        else logger.warn({ err: error }, "autocomplete failed; answering with no choices");
      } finally {
        timer.cancel();
      }
    }
    await interaction.respond(choices.slice(0, 25));
  }

  async function handleButton(interaction: ButtonInteraction, logger: Logger): Promise<void> {
    const module = byPrefix.get(interaction.customId.split(":")[0] ?? "");
    if (!module?.button) {
      await replyWithError(interaction, new ExpiredComponentError(), logger, false);
      return;
    }
    const request = requestOf(interaction, logger);
    try {
      const work = module.button({ request, customId: interaction.customId }, services);
      const { value } = await withDeferral(work, () => interaction.deferUpdate());
      const page = decidePageDelivery({
        privacy: value.privacy,
        place: answerPlaceOf(interaction),
        inChannelAllowed: await inChannelAllowed(interaction, value.privacy),
        onEphemeralMessage: interaction.message.flags.has(MessageFlags.Ephemeral),
      });
      if (page.mode === "toPresserOnly") {
        // A private page must not replace a message everyone sees: it goes to the presser alone.
        const options = {
          ...toMessageOptions(withNote(value.message, page.note)),
          flags: MessageFlags.Ephemeral as const,
        };
        if (interaction.deferred) await interaction.followUp(options);
        else await interaction.reply(options);
        return;
      }
      const message = toMessageOptions(withNote(value.message, page.note));
      if (interaction.deferred) await interaction.editReply(message);
      else await interaction.update(message);
    } catch (error) {
      await replyWithError(interaction, error, logger, false);
    }
  }

  async function handleModal(interaction: ModalSubmitInteraction, logger: Logger): Promise<void> {
    const module = byPrefix.get(interaction.customId.split(":")[0] ?? "");
    if (!module?.modalSubmit) {
      await replyWithError(interaction, new ExpiredComponentError(), logger, false);
      return;
    }
    const request = requestOf(interaction, logger);
    try {
      if (module.adminOnly) assertAdmin(request);
      const fields: Record<string, string> = {};
      for (const [id, field] of interaction.fields.fields) {
        if ("value" in field && typeof field.value === "string") fields[id] = field.value;
      }
      const work = module.modalSubmit({ request, customId: interaction.customId, fields }, services);
      const { value } = await withDeferral(work, () =>
        interaction.deferReply({ flags: MessageFlags.Ephemeral }),
      );
      const message = toMessageOptions(value.message);
      if (interaction.deferred) await interaction.editReply(message);
      else await interaction.reply({ ...message, flags: MessageFlags.Ephemeral });
    } catch (error) {
      await replyWithError(interaction, error, logger, false);
    }
  }

  async function route(interaction: Interaction): Promise<void> {
    const logger = options.logger.child({
      interactionId: interaction.id,
      kind: interaction.type,
      command: "commandName" in interaction ? interaction.commandName : undefined,
      customId: "customId" in interaction ? interaction.customId : undefined,
      guildId: interaction.guildId,
      channelId: interaction.channelId,
      userId: interaction.user.id,
    });
    const started = performance.now();
    try {
      if (stopped) {
        if (interaction.isRepliable()) {
          await interaction.reply({
            ...toMessageOptions(formatError("RepoScout is restarting. Try again in a moment.")),
            flags: MessageFlags.Ephemeral,
          });
        }
        return;
      }
      if (interaction.isChatInputCommand()) await handleCommand(interaction, logger);
      else if (interaction.isAutocomplete()) await handleAutocomplete(interaction, logger);
      else if (interaction.isButton()) await handleButton(interaction, logger);
      else if (interaction.isModalSubmit()) await handleModal(interaction, logger);
    } catch (error) {
      const level = discordCode(error) === UNKNOWN_INTERACTION ? "warn" : "error";
      logger[level]({ err: error, discordCode: discordCode(error) }, "interaction failed");
    } finally {
      logger.debug({ ms: Math.round(performance.now() - started) }, "interaction handled");
    }
  }

  return {
    handle(interaction) {
      const task = route(interaction);
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
      return task;
    },
    stop() {
      stopped = true;
      for (const controller of continuing) controller.abort();
    },
    async drain(timeoutMs) {
      const timer = delay(timeoutMs);
      const result = await Promise.race([
        Promise.allSettled([...inFlight]).then(() => "done" as const),
        timer.promise,
      ]);
      timer.cancel();
      return result === "done";
    },
    inFlight: () => inFlight.size,
  };
}
