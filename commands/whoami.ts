import { EVERYWHERE } from "../src/bot/commonOptions.js";
import { ApplicationCommandType } from "discord-api-types/v10";
import type { CommandModule } from "../src/bot/commandModule.js";
import { formatWhoami } from "../src/format/whoami.js";

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
    const fetched = await services.scout.viewer(request);
    return {
      message: formatWhoami(fetched.value, {
        origin: fetched.origin,
        now: services.now(),
        freshness: fetched.freshness,
      }),
    };
  },
};
