import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  PermissionFlagsBits,
} from "discord-api-types/v10";
import { z } from "zod";
import type { CommandModule } from "../src/bot/commandModule.js";
import { parseWith, SERVER_ONLY } from "../src/bot/commonOptions.js";
import { DismissRefusedError } from "../src/errors.js";
import { DISMISS_PREFIX } from "../src/format/linkPreview.js";
import { emptyMessage } from "../src/format/message.js";
import { formatLinkPreviewsChanged, formatSettings, type PreviewReach } from "../src/format/settings.js";
import type { Config } from "../src/config.js";
import { inlineCode } from "../src/format/escape.js";
import { parseRepoArgument, webHostsOf } from "../src/input/repoArgument.js";
import { formatNotice } from "../src/format/whoami.js";
import { withFields } from "../src/withFields.js";

type SettingsArgs =
  | { subcommand: "threads"; enabled: boolean }
  | { subcommand: "private-answers"; "in-channel": boolean }
  | { subcommand: "link-previews"; enabled: boolean }
  | { subcommand: "repo"; repo?: string }
  | { subcommand: "show" };

const rawSchema = z.discriminatedUnion("subcommand", [
  z.object({ subcommand: z.literal("threads"), enabled: z.boolean() }),
  z.object({ subcommand: z.literal("private-answers"), "in-channel": z.boolean() }),
  z.object({ subcommand: z.literal("link-previews"), enabled: z.boolean() }),
  z.object({ subcommand: z.literal("repo"), repo: z.string().optional() }),
  z.object({ subcommand: z.literal("show") }),
]);

/** Whether this bot hears messages, which automatic previews need (SPEC section 7). */
function previewReachOf(config: Config): PreviewReach {
  if (config.discord.publicKey) return "http";
  return config.discord.messageContent ? "messages" : "noIntent";
}

/**
 * `/settings threads enabled:<bool>`: whether answers go into threads by default;
 * `/settings private-answers in-channel:<bool>`: whether answers from private repositories are
 * posted in the channels (marked as private) or shown to the asker only (SPEC section 4);
 * `/settings link-previews enabled:<bool>`: automatic previews of GitHub links in messages (SPEC
 * section 7; says why none can appear when the bot hears no messages);
 * `/settings repo [repo]`: the repository a bare `#123` in a message refers to (cleared without `repo`);
 * `/settings show`: every setting of the server and the token origin in effect.
 */
export const command: CommandModule<SettingsArgs> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "settings",
    description: "Change how RepoScout answers in this server (Manage Server only)",
    default_member_permissions: PermissionFlagsBits.ManageGuild.toString(),
    ...SERVER_ONLY,
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
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: "private-answers",
        description: "Where answers from private repositories are shown",
        options: [
          {
            type: ApplicationCommandOptionType.Boolean,
            name: "in-channel",
            description: "true: posted in the channel, marked private; false: to the asker only",
            required: true,
          },
        ],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: "link-previews",
        description: "Preview GitHub links in messages automatically",
        options: [
          {
            type: ApplicationCommandOptionType.Boolean,
            name: "enabled",
            description:
              "true: a message with issue, pull request, commit or file links gets a compact reply",
            required: true,
          },
        ],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: "repo",
        description: "The repository a bare #123 in a message refers to",
        options: [
          {
            type: ApplicationCommandOptionType.String,
            name: "repo",
            description: "owner/name or its URL (leave out to clear the default)",
            required: false,
            max_length: 2048,
          },
        ],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: "show",
        description: "Show every setting of this server and the token in effect",
      },
    ],
  },
  adminOnly: true,
  ephemeral: true,
  // The Dismiss button of the automatic previews this command turns on (SPEC section 7).
  customIdPrefixes: [DISMISS_PREFIX],
  parse(options, services) {
    const args = parseWith(rawSchema, options);
    if (args.subcommand !== "repo" || args.repo === undefined) return args;
    // Checked now, stored as `owner/name`: a URL or a stray space never reaches the setting.
    const { repo } = parseRepoArgument(args.repo, webHostsOf(services.config.github.webUrl));
    return { subcommand: "repo", repo: `${repo.owner}/${repo.name}` };
  },
  async execute(args, request, services) {
    const guildId = request.guildId as string;
    switch (args.subcommand) {
      case "threads":
        await services.settings.setThreads(guildId, args.enabled);
        return {
          message: formatNotice(
            args.enabled
              ? "Answers in this server now go into a new thread, unless a command is given `thread:false`."
              : "Answers in this server now come in place, unless a command is given `thread:true`.",
          ),
        };
      case "private-answers":
        await services.settings.setPrivateAnswersInChannel(guildId, args["in-channel"]);
        request.logger.info({ inChannel: args["in-channel"] }, "private answers setting changed");
        return {
          message: formatNotice(
            args["in-channel"]
              ? "🔒 Answers from private or internal repositories are now posted in this server's channels, marked as private, and may go into threads. Anyone who can read the channel reads them."
              : "🔒 Answers from private or internal repositories are now shown only to the person who asked, never in a channel or a thread.",
          ),
        };
      case "link-previews":
        await services.settings.setLinkPreviews(guildId, args.enabled);
        request.logger.info({ enabled: args.enabled }, "link previews setting changed");
        return { message: formatLinkPreviewsChanged(args.enabled, previewReachOf(services.config)) };
      case "repo":
        await services.settings.setDefaultRepo(guildId, args.repo);
        return {
          message: formatNotice(
            args.repo === undefined
              ? "This server has no default repository now: a bare `#123` in a message is not a link."
              : `A bare \`#123\` in a message now refers to ${inlineCode(args.repo)} (\`Preview links\`). Clear it with \`/settings repo\` and no repository.`,
          ),
        };
      case "show": {
        const [settings, origin, serverToken] = await Promise.all([
          services.settings.read(guildId),
          services.scout.tokenOrigin(request),
          services.tokenAdmin.status(guildId).catch(() => null),
        ]);
        return {
          message: formatSettings(
            withFields(settings, {
              origin,
              serverTokenLogin: origin === "server" ? serverToken?.login : undefined,
              defaultTokenAllowPrivate: services.config.github.defaultTokenAllowPrivate,
              previewReach: previewReachOf(services.config),
            }),
          ),
        };
      }
    }
  },
  /**
   * An automatic preview's `Dismiss`: the author of the message it answers (named in the custom id)
   * or a member with Manage Messages removes it; anyone else reads why not, ephemerally.
   */
  async button(context) {
    const authorId = context.customId.slice(DISMISS_PREFIX.length + 1);
    const { userId, memberPermissions } = context.request;
    const moderator =
      memberPermissions !== null && (memberPermissions & PermissionFlagsBits.ManageMessages) !== 0n;
    if (userId !== authorId && !moderator) throw new DismissRefusedError();
    return { message: emptyMessage(), removeMessage: true };
  },
};
