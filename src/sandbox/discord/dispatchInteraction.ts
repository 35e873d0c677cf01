import type { GatewayServer } from "./gateway.js";
import type { HttpInteractions } from "./httpInteractions.js";
import { buildInteraction, type InteractionRequest } from "./interactionPayloads.js";
import type { DiscordState, InteractionState } from "./state.js";

/**
 * Creates an interaction as Discord does when a user acts, and hands it to the bot: POSTed to an
 * interactions endpoint when one is set, else as INTERACTION_CREATE to the gateway session of the
 * guild's shard (DMs: shard 0), queued in a disconnected session that can still resume. Its
 * response deadline and token lifetime count from now, whatever the transport does.
 * @throws Error when a user could not send it, or when no bot can receive it.
 */
export function dispatchInteraction(
  state: DiscordState,
  transports: { gateway: GatewayServer; http: HttpInteractions },
  request: InteractionRequest,
): InteractionState {
  const built = buildInteraction(state, request);
  const now = Date.now();
  // The built state, completed in place: a copy with these added (a spread, or `merged`'s property
  // by property) would give each interaction a shape of its own, or its fields in a dictionary.
  const interaction = built.state as InteractionState;
  interaction.dispatchedAt = now;
  interaction.deadlineAt = now + (request.responseDeadlineMs ?? state.options.responseDeadlineMs);
  interaction.expiresAt = now + state.options.tokenLifetimeMs;
  interaction.lastActivityAt = now;
  state.addInteraction(interaction);
  if (transports.http.active) {
    transports.http.deliver(interaction);
    return interaction;
  }
  const delivery = transports.gateway.deliverInteraction(built.payload, interaction.guildId);
  if (!delivery) {
    state.forgetInteraction(interaction);
    throw new Error(
      transports.gateway.readySessionCount() === 0
        ? "no bot is connected to the stand-in's gateway (and no interactions endpoint is set)"
        : `no gateway session serves the shard of guild ${interaction.guildId ?? "(DM: shard 0)"}`,
    );
  }
  interaction.delivery = { transport: "gateway", ...delivery };
  return interaction;
}
