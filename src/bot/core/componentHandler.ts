import {
  InteractionType,
  MessageFlags,
  type APIMessageComponentButtonInteraction,
  type APIModalSubmitInteraction,
} from "discord-api-types/v10";
import { ExpiredComponentError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { CommandAnswer, CommandModule, ComponentContext } from "../commandModule.js";
import type { CoreContext } from "./coreContext.js";
import { answerInTime } from "./deferral.js";
import { inChannelAllowed } from "./delivery.js";
import { errorSituationOf, replyWithError } from "./errorReply.js";
import { goesAlone, sentHeld } from "./heldAnswer.js";
import { withNote } from "./messagePayload.js";
import { modalFieldsOf } from "./options.js";
import { decidePageDelivery } from "./privateDelivery.js";
import type { InteractionReply } from "./reply.js";
import { assertAdmin, type InteractionFacts } from "./request.js";
import { withFields } from "../../withFields.js";

/** A button press or a modal submit: what the core routes by custom id. */
export type ComponentInteraction = APIMessageComponentButtonInteraction | APIModalSubmitInteraction;

/**
 * Buttons and modal submits, on one path: the command owning the custom id's prefix answers (a
 * prefix no command owns reads as an expired component); a modal of an admin command checks the
 * rights again; the answer is deferred when not ready in time. A modal's answer is ephemeral; a
 * button's is the new page of the message it is on, or, when private, the presser's alone.
 */
export async function handleComponent(
  context: CoreContext,
  interaction: ComponentInteraction,
  reply: InteractionReply,
  facts: InteractionFacts,
  logger: Logger,
): Promise<void> {
  const { services } = context;
  const customId = interaction.data.custom_id;
  const situation = errorSituationOf(services.config, facts.request.guildId);
  const module = context.byPrefix.get(customId.split(":")[0] ?? "");
  const isModal = interaction.type === InteractionType.ModalSubmit;
  const component: ComponentContext = { request: facts.request, customId };
  const answer: (() => Promise<CommandAnswer>) | undefined = isModal
    ? module?.modalSubmit &&
      (() =>
        module.modalSubmit!(
          withFields(component, { fields: modalFieldsOf(interaction.data.components) }),
          services,
        ))
    : module?.button && (() => module.button!(component, services));
  if (!module || !answer) {
    await replyWithError(reply, new ExpiredComponentError(), logger, situation, !isModal);
    return;
  }
  // A page held in process goes in place of the message at once, as a held command answer does
  // (./commandHandler.ts): what the steps below would send as the first response, without them.
  if (
    !isModal &&
    (await sentHeld(
      () => heldPageInPlace(module, component, context),
      (held) => reply.update(held.message),
      (error) => replyWithError(reply, error, logger, situation, true),
    ))
  ) {
    return;
  }
  try {
    if (isModal && module.adminOnly) assertAdmin(facts.request);
    const { value } = await answerInTime(
      {
        id: interaction.id,
        asking: facts.request,
        admission: context.admission,
        deferAfterMs: context.deferAfterMs,
        now: context.clock.now,
      },
      answer,
      () => (isModal ? reply.deferReply({ ephemeral: true }) : reply.deferUpdate()),
    );
    if (isModal) {
      if (reply.deferred) await reply.editReply(value.message);
      else await reply.reply(value.message, { ephemeral: true });
      return;
    }
    await deliverPage(context, interaction, reply, facts, value);
  } catch (error) {
    await replyWithError(reply, error, logger, situation, !isModal);
  }
}

/**
 * The page a button's command holds (see `CommandModule.buttonHeld`) when it goes in place of the
 * message the button is on: public (a public page replaces the message, on an ephemeral one too,
 * with no note), nothing after it, no message removed. Undefined otherwise: the steps run.
 */
function heldPageInPlace(
  module: CommandModule,
  component: ComponentContext,
  context: CoreContext,
): CommandAnswer | undefined {
  const answer = module.buttonHeld?.(component, context.services);
  return answer && goesAlone(answer) && !answer.removeMessage ? answer : undefined;
}

/** A button's new page: in place of the message it is on, or to the presser alone when private. */
async function deliverPage(
  context: CoreContext,
  interaction: APIMessageComponentButtonInteraction,
  reply: InteractionReply,
  facts: InteractionFacts,
  answer: CommandAnswer,
): Promise<void> {
  if (answer.removeMessage) {
    // `@original` of a component interaction is the message the button is on.
    if (!reply.acknowledged) await reply.deferUpdate();
    await reply.deleteReply();
    return;
  }
  const page = decidePageDelivery({
    privacy: answer.privacy,
    place: facts.place,
    inChannelAllowed: await inChannelAllowed(context.services, facts, answer.privacy),
    onEphemeralMessage: ((interaction.message.flags ?? 0) & MessageFlags.Ephemeral) !== 0,
  });
  const message = withNote(answer.message, page.note);
  if (page.mode === "toPresserOnly") {
    // A private page must not replace a message everyone sees: it goes to the presser alone.
    if (reply.deferred) await reply.followUp(message, { ephemeral: true });
    else await reply.reply(message, { ephemeral: true });
    return;
  }
  if (reply.deferred) await reply.editReply(message);
  else await reply.update(message);
}
