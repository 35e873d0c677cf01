import { ApplicationCommandOptionType, ComponentType } from "discord-api-types/v10";
import type { RawOptions } from "../commandModule.js";

/** The shape shared by every option of a command or autocomplete payload. */
export interface OptionPayload {
  type: ApplicationCommandOptionType;
  name: string;
  value?: unknown;
  focused?: boolean;
  options?: readonly OptionPayload[];
}

function isNesting(option: OptionPayload): boolean {
  return (
    option.type === ApplicationCommandOptionType.Subcommand ||
    option.type === ApplicationCommandOptionType.SubcommandGroup
  );
}

function flatten(
  options: readonly OptionPayload[],
  into: Record<string, string | number | boolean | undefined>,
): void {
  for (const option of options) {
    if (option.type === ApplicationCommandOptionType.Subcommand) into.subcommand = option.name;
    if (option.type === ApplicationCommandOptionType.SubcommandGroup) into.group = option.name;
    if (isNesting(option)) {
      flatten(option.options ?? [], into);
    } else if (
      typeof option.value === "string" ||
      typeof option.value === "number" ||
      typeof option.value === "boolean"
    ) {
      into[option.name] = option.value;
    }
  }
}

/** Flattens a payload's options: subcommand (and group) names plus every value by name. */
export function rawOptionsOf(options: readonly OptionPayload[] | undefined): RawOptions {
  const flat: Record<string, string | number | boolean | undefined> = {};
  flatten(options ?? [], flat);
  return flat;
}

/**
 * The option being typed in an autocomplete payload, with its raw text (Discord sends what is
 * typed as a string even for a number option), or null when none is marked focused.
 */
export function focusedOptionOf(
  options: readonly OptionPayload[] | undefined,
): { name: string; value: string } | null {
  for (const option of options ?? []) {
    if (isNesting(option)) {
      const inner = focusedOptionOf(option.options);
      if (inner) return inner;
    } else if (option.focused) {
      return { name: option.name, value: String(option.value ?? "") };
    }
  }
  return null;
}

/** A component of a modal submission, as far as reading typed values goes. */
interface SubmittedComponent {
  type: ComponentType;
  custom_id?: string;
  value?: unknown;
  component?: SubmittedComponent;
  components?: readonly SubmittedComponent[];
}

/**
 * The values typed into a modal's text inputs, by custom id: inputs arrive in action rows or, in
 * the newer layout, inside labels.
 */
export function modalFieldsOf(components: readonly SubmittedComponent[]): Record<string, string> {
  const fields: Record<string, string> = {};
  const visit = (component: SubmittedComponent): void => {
    if (
      component.type === ComponentType.TextInput &&
      component.custom_id !== undefined &&
      typeof component.value === "string"
    ) {
      fields[component.custom_id] = component.value;
    }
    if (component.component) visit(component.component);
    for (const child of component.components ?? []) visit(child);
  };
  for (const component of components) visit(component);
  return fields;
}
