import { EVERYWHERE } from "../src/bot/commonOptions.js";
import { ApplicationCommandType } from "discord-api-types/v10";
import type { CommandModule } from "../src/bot/commandModule.js";
import { formatSignInOutcome, formatSignInPrompt } from "../src/format/signIn.js";

/**
 * `/login`: GitHub's device sign-in (SPEC sections 1 and 4). The ephemeral answer shows the code
 * and a button to GitHub's device page; a continuation polls GitHub as it asks and turns the same
 * message into "signed in as <login>", or says why not.
 */
export const command: CommandModule<Record<string, never>> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "login",
    description: "Sign in to GitHub with your own account, so commands read what you can read",
    ...EVERYWHERE,
  },
  ephemeral: true,
  parse: () => ({}),
  async execute(_args, request, services) {
    const pending = await services.signIn.start(request.userId);
    // The reply can be edited for 15 minutes only: polling stops then, even if the code lives on.
    const deadline = new Date(Math.min(pending.expiresAt.getTime(), request.editBy.getTime()));
    return {
      message: formatSignInPrompt({
        userCode: pending.userCode,
        verificationUri: pending.verificationUri,
        expiresAt: deadline,
      }),
      continuation: async ({ signal }) => formatSignInOutcome(await pending.complete({ signal, deadline })),
    };
  },
};
