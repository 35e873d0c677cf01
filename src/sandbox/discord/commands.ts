import {
  ApplicationCommandType,
  InteractionContextType,
  type APIApplicationCommand,
} from "discord-api-types/v10";
import {
  enforceContextMenuLimit,
  validateContextMenu,
  validateIntegrationTypes,
} from "./contextMenuRules.js";
import { cloneJson, isRecord, merged, type JsonObject } from "./json.js";
import { FormErrors, restErrors } from "./restErrors.js";
import type { DiscordState } from "./state.js";
import { validateCommand, validateCommandList } from "./validation.js";

/** Discord drops `required: false` and empty option lists from what it stores. */
function cleanOptions(options: unknown): unknown {
  if (!Array.isArray(options)) return undefined;
  return options.filter(isRecord).map((option) => {
    const copy: JsonObject = { ...option };
    if (copy.required === false) delete copy.required;
    if (copy.autocomplete === false) delete copy.autocomplete;
    if (Array.isArray(copy.options)) copy.options = cleanOptions(copy.options);
    return copy;
  });
}

/** The stored form of a definition: ids kept for a (type, name) already registered. */
function toStored(
  state: DiscordState,
  definition: JsonObject,
  existing: APIApplicationCommand | undefined,
  guildId: string | null,
): APIApplicationCommand {
  const type = (
    typeof definition.type === "number" ? definition.type : ApplicationCommandType.ChatInput
  ) as ApplicationCommandType;
  const permissions = definition.default_member_permissions;
  const stored = {
    id: existing?.id ?? state.nextId(),
    application_id: state.applicationId,
    version: state.nextId(),
    default_member_permissions: typeof permissions === "string" ? permissions : null,
    type,
    name: String(definition.name),
    name_localizations: isRecord(definition.name_localizations) ? definition.name_localizations : null,
    description: typeof definition.description === "string" ? definition.description : "",
    description_localizations: isRecord(definition.description_localizations)
      ? definition.description_localizations
      : null,
    nsfw: definition.nsfw === true,
    ...(guildId
      ? { guild_id: guildId }
      : {
          dm_permission: definition.dm_permission !== false,
          contexts: Array.isArray(definition.contexts)
            ? definition.contexts
            : [
                InteractionContextType.Guild,
                InteractionContextType.BotDM,
                InteractionContextType.PrivateChannel,
              ],
          // Discord: "Defaults to your app's configured contexts".
          integration_types: Array.isArray(definition.integration_types)
            ? definition.integration_types
            : [...state.appIntegrationTypes],
        }),
    ...(Array.isArray(definition.options) && definition.options.length > 0
      ? { options: cleanOptions(definition.options) }
      : {}),
  };
  return cloneJson(stored) as unknown as APIApplicationCommand;
}

/**
 * Replaces every command of a scope (global when `guildId` is null), as
 * `PUT /applications/{id}/commands` does: commands whose (type, name) already existed keep their
 * ids, the others get new ones, and those left out are deleted.
 * @throws DiscordRestError 50035 when a definition breaks Discord's rules.
 */
export function overwriteCommands(
  state: DiscordState,
  guildId: string | null,
  body: unknown,
): APIApplicationCommand[] {
  const errors = new FormErrors();
  validateCommandList(errors, body);
  if (Array.isArray(body))
    body.forEach((definition, index) => {
      validateContextMenu(errors, definition, [index]);
      validateIntegrationTypes(errors, definition, [index], state.appIntegrationTypes);
    });
  errors.throwIfAny();
  const list = state.commandsFor(guildId);
  const definitions = (body as unknown[]).filter(isRecord);
  enforceContextMenuLimit(definitions, state.contextMenuLimit);
  const next = definitions.map((definition) => {
    const type = typeof definition.type === "number" ? definition.type : 1;
    const existing = list.find((command) => command.name === definition.name && (command.type ?? 1) === type);
    return toStored(state, definition, existing, guildId);
  });
  list.splice(0, list.length, ...next);
  return cloneJson(next);
}

/**
 * Creates or replaces one command (`POST /applications/{id}/commands`): same (type, name) is an
 * update keeping the id.
 * @returns the stored command and whether it was new (201) or an update (200).
 */
export function upsertCommand(
  state: DiscordState,
  guildId: string | null,
  body: unknown,
): { command: APIApplicationCommand; created: boolean } {
  const errors = new FormErrors();
  validateCommand(errors, body, []);
  validateContextMenu(errors, body, []);
  validateIntegrationTypes(errors, body, [], state.appIntegrationTypes);
  errors.throwIfAny();
  const definition = body as JsonObject;
  const list = state.commandsFor(guildId);
  const type = typeof definition.type === "number" ? definition.type : 1;
  const index = list.findIndex((command) => command.name === definition.name && (command.type ?? 1) === type);
  if (index < 0) enforceContextMenuLimit([...list, { type }], state.contextMenuLimit);
  const command = toStored(state, definition, index >= 0 ? list[index] : undefined, guildId);
  if (index >= 0) list[index] = command;
  else list.push(command);
  return { command: cloneJson(command), created: index < 0 };
}

/**
 * Applies a partial edit to one command (`PATCH .../commands/{id}`); the id stays.
 * @throws DiscordRestError 10063 for an unknown id, 50035 when the result breaks the rules.
 */
export function editCommand(
  state: DiscordState,
  guildId: string | null,
  commandId: string,
  patch: unknown,
): APIApplicationCommand {
  const list = state.commandsFor(guildId);
  const index = list.findIndex((command) => command.id === commandId);
  if (index < 0) throw restErrors.unknownApplicationCommand();
  const edited: JsonObject = merged(
    cloneJson(list[index]) as unknown as JsonObject,
    isRecord(patch) ? patch : {},
  );
  const errors = new FormErrors();
  validateCommand(errors, edited, []);
  validateContextMenu(errors, edited, []);
  validateIntegrationTypes(errors, edited, [], state.appIntegrationTypes);
  errors.throwIfAny();
  const command = toStored(state, edited, list[index], guildId);
  list[index] = command;
  return cloneJson(command);
}
