import { ApplicationCommandType } from "discord-api-types/v10";
import { isRecord } from "./json.js";
import { restErrors, type FormErrors } from "./restErrors.js";

/** Types of context menu commands (user and message), which take no options. */
const CONTEXT_MENU_TYPES: readonly number[] = [ApplicationCommandType.User, ApplicationCommandType.Message];

/**
 * Discord's rules for context menu commands beyond the common ones (names 1..32 with capitals and
 * spaces, no description, checked in validation.ts): no options.
 */
export function validateContextMenu(
  errors: FormErrors,
  definition: unknown,
  path: ReadonlyArray<string | number>,
): void {
  if (!isRecord(definition) || !CONTEXT_MENU_TYPES.includes(definition.type as number)) return;
  if (Array.isArray(definition.options) && definition.options.length > 0) {
    errors.add([...path, "options"], "BASE_TYPE_MAX_LENGTH", "Must be 0 or fewer in length.");
  }
}

/**
 * At most `limit` user and `limit` message commands per scope (DISCORD-FACTS: 5 each).
 * @throws DiscordRestError 400 30032 "Maximum number of application commands reached (5)".
 */
export function enforceContextMenuLimit(definitions: readonly { type?: number }[], limit: number): void {
  for (const type of CONTEXT_MENU_TYPES) {
    if (definitions.filter((definition) => definition.type === type).length > limit) {
      throw restErrors.tooManyCommands(limit);
    }
  }
}
