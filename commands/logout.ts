import { EVERYWHERE } from "../src/bot/commonOptions.js";
import { ApplicationCommandType } from "discord-api-types/v10";
import type { CommandModule } from "../src/bot/commandModule.js";
import { formatSignOut } from "../src/format/signIn.js";

/** `/logout`: forgets the person's GitHub token and, with the client secret, revokes it at GitHub. */
export const command: CommandModule<Record<string, never>> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "logout",
    description: "Sign out of GitHub: RepoScout forgets (and revokes) your own token",
    ...EVERYWHERE,
  },
  ephemeral: true,
  parse: () => ({}),
  async execute(_args, request, services) {
    const result = await services.signIn.signOut(request.userId);
    return {
      message: formatSignOut(
        result.signedIn
          ? {
              kind: "signedOut",
              login: result.login,
              revoked: result.revoked,
              settingsUrl: result.settingsUrl,
            }
          : { kind: "notSignedIn" },
      ),
    };
  },
};
