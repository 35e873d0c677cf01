import { ApplicationCommandType } from "discord-api-types/v10";
import { isRecord } from "./json.js";
import { restErrors, type FormErrors } from "./restErrors.js";

/** Types of context menu commands (user and message), which take no options. */
const CONTEXT_MENU_TYPES: readonly number[] = [ApplicationCommandType.User, ApplicationCommandType.Message];

/**
 * Discord's rules for context menu commands beyond the common ones (names 1..32 with capitals and
 * spaces, no description, checked in validation.ts): no options, refused with Discord's own code.
 */
export function validateContextMenu(
  errors: FormErrors,
  definition: unknown,
  path: ReadonlyArray<string | number>,
): void {
  if (!isRecord(definition) || !CONTEXT_MENU_TYPES.includes(definition.type as number)) return;
  if (Array.isArray(definition.options) && definition.options.length > 0) {
    errors.add(
      [...path, "options"],
      "APPLICATION_COMMAND_CONTEXT_MENU_OPTIONS_INVALID",
      "Context menu commands cannot have options",
    );
  }
}

/**
 * At most `limit` user and `limit` message commands per scope (DISCORD-FACTS: 15 each since
 * 2026-03-03).
 * @throws DiscordRestError 400 30032 "Maximum number of application commands reached (15)".
 */
export function enforceContextMenuLimit(definitions: readonly { type?: number }[], limit: number): void {
  for (const type of CONTEXT_MENU_TYPES) {
    if (definitions.filter((definition) => definition.type === type).length > limit) {
      throw restErrors.tooManyCommands(limit);
    }
  }
}

/**
 * A command may only name installation contexts the application has enabled (`integration_types`
 * 1 needs the portal's User Install): Discord refuses the whole registration otherwise, whatever the
 * other commands hold. The form error's code is not documented; the generic choice error stands in.
 */
export function validateIntegrationTypes(
  errors: FormErrors,
  definition: unknown,
  path: ReadonlyArray<string | number>,
  enabled: readonly number[],
): void {
  if (!isRecord(definition) || !Array.isArray(definition.integration_types)) return;
  definition.integration_types.forEach((type, index) => {
    if (typeof type === "number" && [0, 1].includes(type) && !enabled.includes(type)) {
      errors.add(
        [...path, "integration_types", index],
        "BASE_TYPE_CHOICES",
        `Value must be one of {${enabled.join(", ")}}.`,
      );
    }
  });
}
