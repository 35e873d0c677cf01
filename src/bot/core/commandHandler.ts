import type {
  APIChatInputApplicationCommandInteraction,
  APIMessageApplicationCommandInteraction,
} from "discord-api-types/v10";
import type { Logger } from "../../logger.js";
import {
  TARGET_MESSAGE_CONTENT,
  TARGET_MESSAGE_EMBED_LINKS,
  type CommandAnswer,
  type CommandModule,
  type RawOptions,
} from "../commandModule.js";
import type { CoreContext } from "./coreContext.js";
import { answerInTime } from "./deferral.js";
import { deliverAnswer, placementFor } from "./delivery.js";
import { errorSituationOf, replyWithError } from "./errorReply.js";
import { goesAlone, sentHeld } from "./heldAnswer.js";
import { rawOptionsOf } from "./options.js";
import type { InteractionReply } from "./reply.js";
import { assertAdmin, type InteractionFacts } from "./request.js";
import type { Placement } from "./threads.js";

/**
 * The raw options of a command: a slash command's own; a message command's, the text of the message
 * it was used on (the payload resolves it; an empty text when Discord sent none).
 */
export function commandOptionsOf(
  interaction: APIChatInputApplicationCommandInteraction | APIMessageApplicationCommandInteraction,
): RawOptions {
  if ("target_id" in interaction.data) {
    const target = interaction.data.resolved.messages[interaction.data.target_id];
    const embedLinks = (target?.embeds ?? []).flatMap((embed) => (embed.url ? [embed.url] : []));
    return {
      [TARGET_MESSAGE_CONTENT]: target?.content ?? "",
      [TARGET_MESSAGE_EMBED_LINKS]: embedLinks.join("\n"),
    };
  }
  return rawOptionsOf(interaction.data.options);
}

/**
 * The answer of a command that holds it (see `CommandModule.answerHeld`) when it goes in place as
 * the whole first response, for everyone: public, not ephemeral, no thread (none asked, and the
 * server's default held in process and off), nothing after it. The steps would send just that
 * message, at once, as the first response (an answer ready before the deferral's window ends is
 * never deferred); they are skipped: no work slot (the answer needs none: the admission's bounds
 * are on work in flight), no deferral timer, no placement or delivery read. Undefined otherwise.
 */
function heldAnswerInPlace(
  context: CoreContext,
  module: CommandModule,
  args: unknown,
  facts: InteractionFacts,
): CommandAnswer | undefined {
  if (!module.answerHeld || module.ephemeral === true) return undefined;
  if (module.threadAsked) {
    const { guildId } = facts.request;
    const wantsThread =
      module.threadAsked(args) ??
      (guildId !== null ? context.services.settings.heldThreads?.(guildId) : false);
    if (wantsThread !== false) return undefined;
  }
  const answer = module.answerHeld(args, facts.request, context.services);
  return answer && goesAlone(answer) ? answer : undefined;
}

/**
 * A slash command or a message command: options parsed (a bad one refused at once, asking GitHub nothing), admin rights
 * checked, then either the command's modal as the first response, or its answer, deferred when it
 * is not ready in time, delivered where it belongs, and its continuation run.
 */
export async function handleCommand(
  context: CoreContext,
  interaction: APIChatInputApplicationCommandInteraction | APIMessageApplicationCommandInteraction,
  reply: InteractionReply,
  facts: InteractionFacts,
  logger: Logger,
): Promise<void> {
  const { services } = context;
  const commandName = interaction.data.name;
  const situation = errorSituationOf(services.config, facts.request.guildId);
  const module = context.commands.get(commandName);
  if (!module) {
    await replyWithError(reply, new Error(`no module for /${commandName}`), logger, situation);
    return;
  }
  const { request } = facts;
  let args: unknown;
  try {
    if (module.adminOnly) assertAdmin(request);
    args = module.parse(commandOptionsOf(interaction), services);
  } catch (error) {
    await replyWithError(reply, error, logger, situation);
    return;
  }
  const modal = module.modal?.(args, request, services);
  if (modal) {
    await reply.showModal(modal);
    return;
  }
  // What the steps below would send as the first response, sent without them.
  if (
    await sentHeld(
      () => heldAnswerInPlace(context, module, args, facts),
      (held) => reply.reply(held.message, { ephemeral: false }),
      (error) => replyWithError(reply, error, logger, situation),
    )
  ) {
    return;
  }
  const ephemeral = module.ephemeral === true;
  const work = async (): Promise<{ answer: CommandAnswer; placement: Placement }> => {
    const placement: Placement =
      module.threadAsked && !ephemeral
        ? await placementFor(services, facts, module.threadAsked(args))
        : { mode: "inPlace" };
    const answer = await module.execute(args, request, services);
    return { answer, placement };
  };
  let delivered: { answer: CommandAnswer; placement: Placement };
  try {
    ({ value: delivered } = await answerInTime(
      {
        id: interaction.id,
        asking: facts.request,
        admission: context.admission,
        deferAfterMs: context.deferAfterMs,
        now: context.clock.now,
      },
      work,
      () => reply.deferReply({ ephemeral }),
    ));
    await deliverAnswer(
      { services, reply, facts, commandName, ephemeral, logger },
      delivered.answer,
      delivered.placement,
    );
  } catch (error) {
    await replyWithError(reply, error, logger, situation);
    return;
  }
  if (delivered.answer.continuation && delivered.placement.mode === "inPlace") {
    await context.continuations.run(reply, delivered.answer.continuation, logger, situation);
  }
}
