import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ComponentType,
  PermissionFlagsBits,
  TextInputStyle,
} from "discord-api-types/v10";
import { z } from "zod";
import type { CommandModule } from "../src/bot/commandModule.js";
import { parseWith, SERVER_ONLY } from "../src/bot/commonOptions.js";
import { InvalidOptionError } from "../src/errors.js";
import { VaultKeyMissingError } from "../src/tokens/tokenVault.js";
import { formatNotice, formatTokenStatus } from "../src/format/whoami.js";
import { escapeMarkdown } from "../src/format/escape.js";
import { withFields } from "../src/withFields.js";

/** The modal's custom id (SPEC: begins with `token-set`) and its one text input. */
export const TOKEN_MODAL_ID = "token-set";
export const TOKEN_INPUT_ID = "token";

/** GitHub tokens are long; anything this size or over is not one. */
const MAX_TOKEN_LENGTH = 255;

interface TokenArgs {
  subcommand: "set" | "clear" | "status";
}

const rawSchema = z.object({ subcommand: z.enum(["set", "clear", "status"]) });

/** `/token set|clear|status`: the server's own GitHub token, for admins (Manage Server). */
export const command: CommandModule<TokenArgs> = {
  data: {
    type: ApplicationCommandType.ChatInput,
    name: "token",
    description: "Manage this server's GitHub token (Manage Server only)",
    default_member_permissions: PermissionFlagsBits.ManageGuild.toString(),
    ...SERVER_ONLY,
    options: [
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: "set",
        description: "Set this server's GitHub token (opens a form)",
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: "clear",
        description: "Remove this server's GitHub token",
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: "status",
        description: "Show whose token this server uses, when it was set and its rate-limit budget",
      },
    ],
  },
  adminOnly: true,
  ephemeral: true,
  customIdPrefixes: [TOKEN_MODAL_ID],
  parse: (options) => parseWith(rawSchema, options),
  modal(args, _request, services) {
    // No form to fill in when the token could not be kept anyway: execute() says why.
    if (args.subcommand !== "set" || !services.tokenAdmin.canStore) return null;
    return {
      custom_id: TOKEN_MODAL_ID,
      title: "Set this server's GitHub token",
      components: [
        {
          type: ComponentType.ActionRow,
          components: [
            {
              type: ComponentType.TextInput,
              custom_id: TOKEN_INPUT_ID,
              label: "GitHub token (read-only is enough)",
              style: TextInputStyle.Short,
              placeholder: "github_pat_… or ghp_…",
              required: true,
              min_length: 4,
              max_length: MAX_TOKEN_LENGTH,
            },
          ],
        },
      ],
    };
  },
  async execute(args, request, services) {
    const guildId = request.guildId as string;
    if (args.subcommand === "clear") {
      const removed = await services.tokenAdmin.clear(guildId);
      return {
        message: formatNotice(
          removed
            ? "This server's GitHub token is removed. Commands now use the bot's default token, if it has one."
            : "This server had no GitHub token of its own; nothing changed.",
        ),
      };
    }
    if (args.subcommand === "status") {
      const status = await services.tokenAdmin.status(guildId);
      const rateLimit = status ? ((await services.scout.rateLimit(request)) ?? null) : null;
      const lostAt = status ? undefined : await services.tokenAdmin.lostAt(guildId);
      return {
        message: formatTokenStatus(status ? withFields(status, { rateLimit }) : null, {
          now: services.now(),
          ...(lostAt ? { lostAt } : {}),
        }),
      };
    }
    // `set` answers with the modal, unless the bot has no key to encrypt tokens with.
    throw new VaultKeyMissingError();
  },
  async modalSubmit(context, services) {
    const token = (context.fields[TOKEN_INPUT_ID] ?? "").trim();
    if (token.length < 4 || token.length > MAX_TOKEN_LENGTH || /\s/.test(token)) {
      throw new InvalidOptionError(
        "token",
        "must be a GitHub token with no spaces, like `github_pat_…` or `ghp_…`.",
      );
    }
    const guildId = context.request.guildId as string;
    const { login } = await services.tokenAdmin.verifyAndStore(guildId, token, context.request.userId);
    context.request.logger.info({ login }, "server token set");
    return {
      message: formatNotice(
        `✅ Authenticated as **${escapeMarkdown(login)}**. This server's commands now use this token.`,
      ),
    };
  },
};
