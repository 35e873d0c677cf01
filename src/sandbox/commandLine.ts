import {
  ApplicationCommandOptionType,
  type APIApplicationCommandOption,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from "discord-api-types/v10";

/** A slash command as typed in the terminal chat, checked against the registered definitions. */
export interface TypedCommand {
  name: string;
  /** Subcommand (and group) names, outermost first. */
  path: string[];
  options: Record<string, string | number | boolean>;
}

/** Splits a line into words; double or single quotes keep spaces, a backslash escapes a quote. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let current = "";
  let quote: string | null = null;
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (char === "\\" && (line[i + 1] === '"' || line[i + 1] === "'")) {
      current += line[++i];
      inWord = true;
    } else if (quote) {
      if (char === quote) quote = null;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unclosed ${quote} quote`);
  if (inWord) words.push(current);
  return words;
}

function convert(option: APIApplicationCommandOption, raw: string): string | number | boolean {
  switch (option.type) {
    case ApplicationCommandOptionType.Boolean:
      if (/^(true|yes|1)$/i.test(raw)) return true;
      if (/^(false|no|0)$/i.test(raw)) return false;
      throw new Error(`option ${option.name} takes true or false`);
    case ApplicationCommandOptionType.Integer:
      if (!/^-?\d+$/.test(raw)) throw new Error(`option ${option.name} takes a whole number`);
      return Number(raw);
    case ApplicationCommandOptionType.Number:
      if (!Number.isFinite(Number(raw))) throw new Error(`option ${option.name} takes a number`);
      return Number(raw);
    default:
      return raw;
  }
}

/**
 * Parses `/name [subcommand] option:value ...` as Discord's client would: the command and
 * subcommands must exist, options must be known and of their type, required ones present.
 * @throws Error with a message for the person typing.
 */
export function parseCommandLine(
  line: string,
  definitions: ReadonlyArray<Pick<RESTPostAPIChatInputApplicationCommandsJSONBody, "name" | "options">>,
): TypedCommand {
  const words = splitWords(line.trim());
  const head = words.shift();
  if (!head?.startsWith("/")) throw new Error("a command starts with /, like /whoami");
  const name = head.slice(1).toLowerCase();
  const definition = definitions.find((candidate) => candidate.name === name);
  if (!definition) throw new Error(`unknown command /${name}; type /help for the list`);
  let options: readonly APIApplicationCommandOption[] = definition.options ?? [];
  const path: string[] = [];
  while (
    options.some(
      (o) =>
        o.type === ApplicationCommandOptionType.Subcommand ||
        o.type === ApplicationCommandOptionType.SubcommandGroup,
    )
  ) {
    const word = words.shift();
    const sub = options.find((o) => o.name === word?.toLowerCase());
    if (!word || !sub || !("options" in sub || sub.type === ApplicationCommandOptionType.Subcommand)) {
      throw new Error(`/${name} takes one of: ${options.map((o) => o.name).join(", ")}`);
    }
    path.push(sub.name);
    options = ("options" in sub ? sub.options : undefined) ?? [];
  }
  const values: Record<string, string | number | boolean> = {};
  for (const word of words) {
    const colon = word.indexOf(":");
    if (colon <= 0) throw new Error(`"${word}" is not option:value`);
    const key = word.slice(0, colon).toLowerCase();
    const option = options.find((o) => o.name === key);
    if (!option) {
      throw new Error(
        `/${[name, ...path].join(" ")} has no option ${key}; it takes: ${options.map((o) => o.name).join(", ") || "none"}`,
      );
    }
    values[key] = convert(option, word.slice(colon + 1));
  }
  for (const option of options) {
    if ("required" in option && option.required && !(option.name in values)) {
      throw new Error(`/${[name, ...path].join(" ")} needs ${option.name}:…`);
    }
  }
  return { name, path, options: values };
}
