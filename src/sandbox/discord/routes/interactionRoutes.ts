import { acceptFirstResponse } from "../interactionResponse.js";
import { restErrors } from "../restErrors.js";
import type { RouteContext, RouteDefinition, RouteResult } from "../router.js";

/**
 * `POST /interactions/{id}/{token}/callback`: the first and only response to an interaction (see
 * `acceptFirstResponse`). Answers 204, or 200 with the callback response when `with_response=true`.
 */
function callback(context: RouteContext): RouteResult {
  const { state, params, query } = context;
  const interaction = state.interactions.get(params.interaction_id ?? "");
  if (!interaction || interaction.token !== params.interaction_token) throw restErrors.unknownInteraction();
  context.relate(interaction.id);
  return acceptFirstResponse(state, interaction, {
    body: context.body,
    uploads: context.uploads,
    withResponse: query.get("with_response") === "true",
    via: "callback",
  });
}

/** The interaction callback route (no bot token: the interaction token authorizes it). */
export const interactionRoutes: RouteDefinition[] = [
  {
    method: "POST",
    template: "/interactions/:interaction_id/:interaction_token/callback",
    auth: "none",
    // Each interaction has its own bucket; callbacks do not count against the bot's global limit.
    major: "interaction_id",
    handler: callback,
  },
];
