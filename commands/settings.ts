import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  PermissionFlagsBits,
} from "discord-api-types/v10";
import { z } from "zod";
import type { CommandModule } from "../src/bot/commandModule.js";
import { parseWith } from "../src/bot/commonOptions.js";
import { formatNotice } from "../src/format/whoami.js";

interface SettingsArgs {
  subcommand: "threads";
  enabled: boolean;
}

const rawSchema = z.object({ subcommand: z.literal("threads"), enabled: z.boolean() });

/** `/settings threads enabled:<bool>`: whether answers go into threads by default. */
export const command: CommandModule<SettingsArgs> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "settings",
    description: "Change how RepoScout answers in this server (Manage Server only)",
    default_member_permissions: PermissionFlagsBits.ManageGuild.toString(),
    contexts: [0],
    options: [
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: "threads",
        description: "Answer in a new thread by default",
        options: [
          {
            type: ApplicationCommandOptionType.Boolean,
            name: "enabled",
            description: "true: answers go into threads unless a command says thread:false",
            required: true,
          },
        ],
      },
    ],
  },
  adminOnly: true,
  ephemeral: true,
  parse: (options) => parseWith(rawSchema, options),
  async execute(args, request, services) {
    await services.settings.setThreads(request.guildId as string, args.enabled);
    return {
      message: formatNotice(
        args.enabled
          ? "Answers in this server now go into a new thread, unless a command is given `thread:false`."
          : "Answers in this server now come in place, unless a command is given `thread:true`.",
      ),
    };
  },
};
