import type {
  APIApplicationCommandAutocompleteInteraction,
  APIApplicationCommandOptionChoice,
} from "discord-api-types/v10";
import { errorFacts } from "../../errorFacts.js";
import { isUserFacingError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { settleWithin } from "../../timeouts.js";
import type { CoreContext } from "./coreContext.js";
import { interactionAgeMs } from "./deferral.js";
import { focusedOptionOf, rawOptionsOf } from "./options.js";
import type { InteractionReply } from "./reply.js";
import type { InteractionFacts } from "./request.js";

/** Autocomplete cannot be deferred: past this age of the interaction, answer with no choices. */
const AUTOCOMPLETE_BUDGET_MS = 2_500;
/** Below this much time left, suggestions are not even looked for. */
const MIN_BUDGET_MS = 100;
/** Discord shows at most 25 choices. */
const MAX_CHOICES = 25;

/**
 * Autocomplete: the command's suggestions for the option being typed, within Discord's 3 seconds.
 * An error never surfaces here: the list is just empty (a user's typo is one info line; anything
 * else is a bug to look at).
 */
export async function handleAutocomplete(
  context: CoreContext,
  interaction: APIApplicationCommandAutocompleteInteraction,
  reply: InteractionReply,
  facts: InteractionFacts,
  logger: Logger,
): Promise<void> {
  const module = context.commands.get(interaction.data.name);
  const focused = focusedOptionOf(interaction.data.options);
  let choices: APIApplicationCommandOptionChoice[] = [];
  // The budget counts from the interaction's creation: one that arrives late has less of it.
  const budgetMs = AUTOCOMPLETE_BUDGET_MS - interactionAgeMs(interaction.id, context.clock.now());
  if (module?.autocomplete && focused && budgetMs >= MIN_BUDGET_MS) {
    try {
      const suggested = await settleWithin(
        module.autocomplete(focused, rawOptionsOf(interaction.data.options), facts.request, context.services),
        budgetMs,
      );
      if (!suggested.timedOut) choices = suggested.value;
      else logger.info("autocomplete ran out of time; answering with no choices");
    } catch (error) {
      if (isUserFacingError(error))
        logger.info(errorFacts(error), "autocomplete failed; answering with no choices");
      else logger.warn({ err: error }, "autocomplete failed; answering with no choices");
    }
  }
  await reply.autocomplete(choices.slice(0, MAX_CHOICES));
}
