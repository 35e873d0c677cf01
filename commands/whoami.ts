import { EVERYWHERE } from "../src/bot/commonOptions.js";
import { ApplicationCommandType } from "discord-api-types/v10";
import type { Fetched } from "../src/answers/scout.js";
import type { CommandAnswer, CommandModule } from "../src/bot/commandModule.js";
import type { Services } from "../src/bot/services.js";
import type { Viewer } from "../src/github/types.js";
import { freshnessText } from "../src/format/message.js";
import { formatWhoami } from "../src/format/whoami.js";

/** The answer for the token's identity as read. */
function answerOf(fetched: Fetched<Viewer>, services: Services): CommandAnswer {
  const now = services.now();
  const { rateLimit } = fetched.value;
  // Kept per answer (format once): what moves with the clock is the freshness text and whether
  // the budget's reset has passed ("resets" or "full again since").
  const resetPassed = rateLimit ? Date.parse(rateLimit.resetAt) <= now.getTime() : null;
  const variant = [fetched.origin, freshnessText(fetched.freshness, now), resetPassed];
  return {
    message: services.rendered.message([fetched.value], variant, () =>
      formatWhoami(fetched.value, { origin: fetched.origin, now, freshness: fetched.freshness }),
    ),
  };
}

/** `/whoami`: the login of the token in effect, where it comes from, and its rate-limit budget. */
export const command: CommandModule<Record<string, never>> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "whoami",
    ...EVERYWHERE,
    description: "Show which GitHub account the token in effect belongs to, and its rate-limit budget",
  },
  parse: () => ({}),
  async execute(_args, request, services) {
    return answerOf(await services.scout.viewer(request), services);
  },
  answerHeld(_args, request, services) {
    const fetched = services.scout.heldViewer?.(request);
    return fetched && answerOf(fetched, services);
  },
};
