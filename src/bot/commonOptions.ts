import {
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  InteractionContextType,
  type APIApplicationCommandBasicOption,
} from "discord-api-types/v10";
import type { z } from "zod";
import { InvalidOptionError } from "../errors.js";

/**
 * Where an answer command works (SPEC section 1): installed to a server or to a person, in servers,
 * in the DM with the bot and in other private channels.
 */
export const EVERYWHERE = {
  integration_types: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
  contexts: [
    InteractionContextType.Guild,
    InteractionContextType.BotDM,
    InteractionContextType.PrivateChannel,
  ],
};

/** Where an admin command works: in a server that installed the app (`/token`, `/settings`). */
export const SERVER_ONLY = {
  integration_types: [ApplicationIntegrationType.GuildInstall],
  contexts: [InteractionContextType.Guild],
};

/** The `repo` option every repository command takes (SPEC section 1). */
export const repoOption: APIApplicationCommandBasicOption = {
  type: ApplicationCommandOptionType.String,
  name: "repo",
  description: "owner/name, or a GitHub URL of the repository, a file or a folder",
  required: true,
  autocomplete: true,
  max_length: 2048,
};

/** The `thread` option every answer command takes (SPEC section 3). */
export const threadOption: APIApplicationCommandBasicOption = {
  type: ApplicationCommandOptionType.Boolean,
  name: "thread",
  description: "Answer in a new thread (default: the server's setting)",
  required: false,
};

/** The `ref` option: a branch, tag or commit. */
export const refOption: APIApplicationCommandBasicOption = {
  type: ApplicationCommandOptionType.String,
  name: "ref",
  description: "Branch, tag or commit (default: the default branch)",
  required: false,
  max_length: 255,
};

/** The `lines` option: `12` or `12-40`. */
export const linesOption: APIApplicationCommandBasicOption = {
  type: ApplicationCommandOptionType.String,
  name: "lines",
  description: 'A line or a span, like "12" or "12-40" (default: the first lines)',
  required: false,
  max_length: 30,
};

/**
 * Parses raw options with a zod schema whose failures name the option: the first issue becomes an
 * {@link InvalidOptionError} (Discord already enforces types, so this is the last line of defence).
 */
export function parseWith<T>(schema: z.ZodType<T>, raw: unknown): T {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const option = String(issue?.path[0] ?? "options");
  throw new InvalidOptionError(
    option,
    `is not valid (${issue?.message ?? "unexpected value"}). Run the command again and fill it in as Discord's form asks.`,
  );
}
