// Over 300 lines: Discord's field rules for every body the bot sends, as one table mirroring the OpenAPI description; split, the rules would be hard to check against it.
import { codePointLength, isRecord, type JsonObject } from "./json.js";
import type { FormErrors } from "./restErrors.js";

/** A path into a request body: field names and array indexes, outermost first. */
export type FieldPath = ReadonlyArray<string | number>;

/** Discord's limits on what a message, a modal, an autocomplete answer and a thread may hold. */
export const LIMITS = {
  content: 2000,
  embeds: 10,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footerText: 2048,
  authorName: 256,
  embedTotal: 6000,
  actionRows: 5,
  rowButtons: 5,
  customId: 100,
  buttonLabel: 80,
  /** A link button's URL; other URLs (embeds, authors, images) may be up to 2,048. */
  linkButtonUrl: 512,
  url: 2048,
  selectOptions: 25,
  selectPlaceholder: 150,
  attachments: 10,
  /** Per file, on a server without boosts. */
  fileBytes: 10 * 1024 * 1024,
  componentsV2Total: 40,
  textDisplayTotal: 4000,
  modalTitle: 45,
  modalRows: 5,
  textInputLabel: 45,
  textInputValue: 4000,
  textInputPlaceholder: 100,
  autocompleteChoices: 25,
  choiceName: 100,
  choiceValue: 100,
  threadName: 100,
  commandName: 32,
  commandDescription: 100,
  commandOptions: 25,
  commandChoices: 25,
  commandTotalChars: 8000,
  commandsPerScope: 100,
} as const;

/** The auto-archive durations (minutes) Discord accepts for a thread. */
export const AUTO_ARCHIVE_DURATIONS = [60, 1440, 4320, 10080] as const;

/** Message flag: IS_COMPONENTS_V2 (1 << 15). */
export const FLAG_COMPONENTS_V2 = 1 << 15;

const maxLength = (max: number) => `Must be ${max} or fewer in length.`;
const badLength = (min: number, max: number) => `Must be between ${min} and ${max} in length.`;
const REQUIRED = "This field is required";

function at(path: FieldPath, ...more: Array<string | number>): Array<string | number> {
  return [...path, ...more];
}

/** Checks a string field's type and length; returns the string when it is one. */
function checkString(
  errors: FormErrors,
  value: unknown,
  path: FieldPath,
  bounds: { min?: number; max: number; required?: boolean },
): string | undefined {
  if (value === undefined || value === null) {
    if (bounds.required) errors.add(path, "BASE_TYPE_REQUIRED", REQUIRED);
    return undefined;
  }
  if (typeof value !== "string") {
    errors.add(path, "BASE_TYPE_STRING", `Could not interpret "${String(value)}" as string.`);
    return undefined;
  }
  const length = codePointLength(value);
  const min = bounds.min ?? 0;
  if (length < min || length > bounds.max) {
    if (min > 0) errors.add(path, "BASE_TYPE_BAD_LENGTH", badLength(min, bounds.max));
    else errors.add(path, "BASE_TYPE_MAX_LENGTH", maxLength(bounds.max));
  }
  return value;
}

/** Checks that a field, when present, is an array; returns it. */
function checkArray(errors: FormErrors, value: unknown, path: FieldPath): unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    errors.add(path, "BASE_TYPE_ARRAY", "Only iterables may be used in a ListType");
    return undefined;
  }
  return value;
}

function checkInteger(
  errors: FormErrors,
  value: unknown,
  path: FieldPath,
  bounds: { min: number; max: number },
): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    errors.add(path, "NUMBER_TYPE_COERCE", `Value "${String(value)}" is not int.`);
    return undefined;
  }
  if (value < bounds.min)
    errors.add(path, "NUMBER_TYPE_MIN", `int value should be greater than or equal to ${bounds.min}.`);
  if (value > bounds.max)
    errors.add(path, "NUMBER_TYPE_MAX", `int value should be less than or equal to ${bounds.max}.`);
  return value;
}

/** Checks that a field, when present, is a boolean (Discord does not read "true" or 1 as one). */
function checkBoolean(errors: FormErrors, value: unknown, path: FieldPath): void {
  if (value === undefined || value === null || typeof value === "boolean") return;
  errors.add(path, "BASE_TYPE_BOOLEAN", "Must be either true or false.");
}

/** The largest snowflake: ids are unsigned 64-bit integers. */
const MAX_SNOWFLAKE = 2n ** 64n - 1n;

/**
 * Checks that a field, when present, is a snowflake: a string of decimal digits (Discord's OpenAPI
 * description types every id as such a string, `^(0|[1-9][0-9]*)$`), within 64 bits.
 */
function checkSnowflake(errors: FormErrors, value: unknown, path: FieldPath): void {
  if (value === undefined || value === null) return;
  if (typeof value === "string" && /^(0|[1-9][0-9]*)$/.test(value) && BigInt(value) <= MAX_SNOWFLAKE) return;
  errors.add(path, "NUMBER_TYPE_COERCE", `Value "${String(value)}" is not snowflake.`);
}

function checkUrl(
  errors: FormErrors,
  value: unknown,
  path: FieldPath,
  required = false,
  max: number = LIMITS.url,
): void {
  const text = checkString(errors, value, path, { max, required });
  if (text === undefined) return;
  let ok = false;
  try {
    const url = new URL(text);
    ok = ["http:", "https:", "attachment:", "discord:"].includes(url.protocol);
  } catch {
    ok = false;
  }
  if (!ok) errors.add(path, "URL_TYPE_INVALID_URL", "Not a well formed URL.");
}

/** The characters an embed contributes to the 6,000-character budget of a message. */
export function embedTextLength(embed: JsonObject): number {
  const text = (value: unknown) => (typeof value === "string" ? codePointLength(value) : 0);
  let total = text(embed.title) + text(embed.description);
  if (isRecord(embed.footer)) total += text(embed.footer.text);
  if (isRecord(embed.author)) total += text(embed.author.name);
  if (Array.isArray(embed.fields)) {
    for (const field of embed.fields) if (isRecord(field)) total += text(field.name) + text(field.value);
  }
  return total;
}

/** Checks `embeds` of a message body against Discord's per-embed and per-message limits. */
export function validateEmbeds(errors: FormErrors, value: unknown, path: FieldPath): void {
  const embeds = checkArray(errors, value, path);
  if (!embeds) return;
  if (embeds.length > LIMITS.embeds) errors.add(path, "BASE_TYPE_MAX_LENGTH", maxLength(LIMITS.embeds));
  let total = 0;
  embeds.forEach((embed, index) => {
    const embedPath = at(path, index);
    if (!isRecord(embed)) {
      errors.add(embedPath, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
      return;
    }
    total += embedTextLength(embed);
    checkString(errors, embed.title, at(embedPath, "title"), { max: LIMITS.embedTitle });
    checkString(errors, embed.description, at(embedPath, "description"), { max: LIMITS.embedDescription });
    if (embed.url !== undefined && embed.url !== null) checkUrl(errors, embed.url, at(embedPath, "url"));
    checkInteger(errors, embed.color, at(embedPath, "color"), { min: 0, max: 0xffffff });
    if (embed.timestamp !== undefined && embed.timestamp !== null) {
      if (typeof embed.timestamp !== "string" || Number.isNaN(Date.parse(embed.timestamp))) {
        errors.add(
          at(embedPath, "timestamp"),
          "DATE_TYPE_PARSE",
          `Could not parse ${String(embed.timestamp)}. Should be ISO8601.`,
        );
      }
    }
    if (embed.footer !== undefined && embed.footer !== null) {
      if (!isRecord(embed.footer))
        errors.add(
          at(embedPath, "footer"),
          "MODEL_TYPE_CONVERT",
          "Only dictionaries may be used in a ModelType",
        );
      else {
        checkString(errors, embed.footer.text, at(embedPath, "footer", "text"), {
          max: LIMITS.footerText,
          required: true,
        });
        if (embed.footer.icon_url !== undefined)
          checkUrl(errors, embed.footer.icon_url, at(embedPath, "footer", "icon_url"));
      }
    }
    if (embed.author !== undefined && embed.author !== null) {
      if (!isRecord(embed.author))
        errors.add(
          at(embedPath, "author"),
          "MODEL_TYPE_CONVERT",
          "Only dictionaries may be used in a ModelType",
        );
      else {
        checkString(errors, embed.author.name, at(embedPath, "author", "name"), {
          max: LIMITS.authorName,
          required: true,
        });
        if (embed.author.url !== undefined)
          checkUrl(errors, embed.author.url, at(embedPath, "author", "url"));
        if (embed.author.icon_url !== undefined)
          checkUrl(errors, embed.author.icon_url, at(embedPath, "author", "icon_url"));
      }
    }
    for (const media of ["image", "thumbnail"] as const) {
      const item = embed[media];
      if (item === undefined || item === null) continue;
      if (!isRecord(item))
        errors.add(
          at(embedPath, media),
          "MODEL_TYPE_CONVERT",
          "Only dictionaries may be used in a ModelType",
        );
      else checkUrl(errors, item.url, at(embedPath, media, "url"), true);
    }
    const fields = checkArray(errors, embed.fields, at(embedPath, "fields"));
    if (fields) {
      if (fields.length > LIMITS.embedFields)
        errors.add(at(embedPath, "fields"), "BASE_TYPE_MAX_LENGTH", maxLength(LIMITS.embedFields));
      fields.forEach((field, fieldIndex) => {
        const fieldPath = at(embedPath, "fields", fieldIndex);
        if (!isRecord(field)) {
          errors.add(fieldPath, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
          return;
        }
        checkString(errors, field.name, at(fieldPath, "name"), {
          min: 1,
          max: LIMITS.fieldName,
          required: true,
        });
        checkString(errors, field.value, at(fieldPath, "value"), {
          min: 1,
          max: LIMITS.fieldValue,
          required: true,
        });
        checkBoolean(errors, field.inline, at(fieldPath, "inline"));
      });
    }
  });
  if (total > LIMITS.embedTotal) {
    errors.add(path, "MAX_EMBED_SIZE_EXCEEDED", `Embed size exceeds maximum size of ${LIMITS.embedTotal}`);
  }
}

const SELECT_TYPES = new Set([3, 5, 6, 7, 8]);

/** Checks one interactive component (button or select) found in a message. */
function validateInteractive(
  errors: FormErrors,
  component: JsonObject,
  path: FieldPath,
  customIds: Map<string, FieldPath>,
): void {
  const noteCustomId = (value: unknown) => {
    if (typeof value !== "string") return;
    if (customIds.has(value)) {
      errors.add(
        at(path, "custom_id"),
        "COMPONENT_CUSTOM_ID_DUPLICATED",
        "Component custom id cannot be duplicated",
      );
    } else customIds.set(value, path);
  };
  if (component.type === 2) {
    const style = component.style;
    if (typeof style !== "number" || ![1, 2, 3, 4, 5, 6].includes(style)) {
      errors.add(at(path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.");
      return;
    }
    checkString(errors, component.label, at(path, "label"), { max: LIMITS.buttonLabel });
    checkBoolean(errors, component.disabled, at(path, "disabled"));
    if (style === 5) {
      checkUrl(errors, component.url, at(path, "url"), true, LIMITS.linkButtonUrl);
      if (component.custom_id !== undefined && component.custom_id !== null) {
        errors.add(
          at(path, "custom_id"),
          "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
          "A link button cannot have a custom id.",
        );
      }
    } else if (style === 6) {
      checkString(errors, component.sku_id, at(path, "sku_id"), { min: 1, max: 20, required: true });
    } else {
      checkString(errors, component.custom_id, at(path, "custom_id"), {
        min: 1,
        max: LIMITS.customId,
        required: true,
      });
      if (component.url !== undefined && component.url !== null) {
        errors.add(at(path, "url"), "BUTTON_COMPONENT_URL_NOT_ALLOWED", "Only link buttons can have a url.");
      }
      noteCustomId(component.custom_id);
    }
    if (style !== 6 && component.label === undefined && component.emoji === undefined) {
      errors.add(path, "BUTTON_COMPONENT_INVALID_LABEL", "A button must have a label or an emoji.");
    }
    return;
  }
  if (typeof component.type === "number" && SELECT_TYPES.has(component.type)) {
    checkString(errors, component.custom_id, at(path, "custom_id"), {
      min: 1,
      max: LIMITS.customId,
      required: true,
    });
    noteCustomId(component.custom_id);
    checkBoolean(errors, component.disabled, at(path, "disabled"));
    checkString(errors, component.placeholder, at(path, "placeholder"), { max: LIMITS.selectPlaceholder });
    checkInteger(errors, component.min_values, at(path, "min_values"), { min: 0, max: 25 });
    checkInteger(errors, component.max_values, at(path, "max_values"), { min: 1, max: 25 });
    if (component.type === 3) {
      const options = checkArray(errors, component.options, at(path, "options"));
      if (!options) errors.add(at(path, "options"), "BASE_TYPE_REQUIRED", REQUIRED);
      else {
        if (options.length < 1 || options.length > LIMITS.selectOptions) {
          errors.add(at(path, "options"), "BASE_TYPE_BAD_LENGTH", badLength(1, LIMITS.selectOptions));
        }
        options.forEach((option, index) => {
          if (!isRecord(option)) return;
          checkString(errors, option.label, at(path, "options", index, "label"), {
            min: 1,
            max: 100,
            required: true,
          });
          checkString(errors, option.value, at(path, "options", index, "value"), {
            min: 1,
            max: 100,
            required: true,
          });
          checkString(errors, option.description, at(path, "options", index, "description"), { max: 100 });
        });
      }
    }
    return;
  }
  errors.add(
    at(path, "type"),
    "UNION_TYPE_CHOICES",
    'Value of field "type" must be one of (2, 3, 5, 6, 7, 8).',
  );
}

/** Checks an action row of a message: 1..5 buttons, or one select menu alone. */
function validateActionRow(
  errors: FormErrors,
  row: JsonObject,
  path: FieldPath,
  customIds: Map<string, FieldPath>,
): number {
  const children = checkArray(errors, row.components, at(path, "components"));
  if (!children) {
    errors.add(at(path, "components"), "BASE_TYPE_REQUIRED", REQUIRED);
    return 1;
  }
  if (children.length < 1 || children.length > LIMITS.rowButtons) {
    errors.add(at(path, "components"), "BASE_TYPE_BAD_LENGTH", badLength(1, LIMITS.rowButtons));
  }
  let width = 0;
  children.forEach((child, index) => {
    const childPath = at(path, "components", index);
    if (!isRecord(child)) {
      errors.add(childPath, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
      return;
    }
    width += typeof child.type === "number" && SELECT_TYPES.has(child.type) ? 5 : 1;
    validateInteractive(errors, child, childPath, customIds);
  });
  if (width > 5 && children.length <= LIMITS.rowButtons) {
    errors.add(
      at(path, "components"),
      "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
      "The specified component exceeds the maximum width",
    );
  }
  return 1 + children.length;
}

/** Components V2 (flag 1 << 15): layout components nest; at most 40 components in all. */
function validateComponentV2(
  errors: FormErrors,
  component: JsonObject,
  path: FieldPath,
  customIds: Map<string, FieldPath>,
  budget: { components: number; text: number },
): void {
  budget.components++;
  switch (component.type) {
    case 1:
      budget.components += validateActionRow(errors, component, path, customIds) - 1;
      return;
    case 10: {
      const text = checkString(errors, component.content, at(path, "content"), {
        min: 1,
        max: LIMITS.textDisplayTotal,
        required: true,
      });
      if (text) budget.text += codePointLength(text);
      return;
    }
    case 9: {
      const children = checkArray(errors, component.components, at(path, "components")) ?? [];
      if (children.length < 1 || children.length > 3)
        errors.add(at(path, "components"), "BASE_TYPE_BAD_LENGTH", badLength(1, 3));
      children.forEach((child, index) => {
        if (isRecord(child))
          validateComponentV2(errors, child, at(path, "components", index), customIds, budget);
      });
      if (isRecord(component.accessory)) {
        budget.components++;
        if (component.accessory.type === 2)
          validateInteractive(errors, component.accessory, at(path, "accessory"), customIds);
      } else errors.add(at(path, "accessory"), "BASE_TYPE_REQUIRED", REQUIRED);
      return;
    }
    case 17: {
      const children = checkArray(errors, component.components, at(path, "components")) ?? [];
      children.forEach((child, index) => {
        if (isRecord(child))
          validateComponentV2(errors, child, at(path, "components", index), customIds, budget);
      });
      return;
    }
    case 11:
    case 12:
    case 13:
    case 14:
      return;
    default:
      errors.add(
        at(path, "type"),
        "UNION_TYPE_CHOICES",
        'Value of field "type" must be one of (1, 9, 10, 11, 12, 13, 14, 17).',
      );
  }
}

/** Checks `components` of a message body (legacy action rows, or Components V2 when flagged). */
export function validateMessageComponents(
  errors: FormErrors,
  value: unknown,
  path: FieldPath,
  componentsV2: boolean,
): void {
  const components = checkArray(errors, value, path);
  if (!components) return;
  const customIds = new Map<string, FieldPath>();
  if (componentsV2) {
    const budget = { components: 0, text: 0 };
    components.forEach((component, index) => {
      if (isRecord(component)) validateComponentV2(errors, component, at(path, index), customIds, budget);
    });
    if (budget.components > LIMITS.componentsV2Total) {
      errors.add(path, "BASE_TYPE_MAX_LENGTH", maxLength(LIMITS.componentsV2Total));
    }
    if (budget.text > LIMITS.textDisplayTotal) {
      errors.add(
        path,
        "COMPONENT_TEXT_DISPLAY_TOTAL_EXCEEDED",
        `Total text display content exceeds ${LIMITS.textDisplayTotal} characters`,
      );
    }
    return;
  }
  if (components.length > LIMITS.actionRows)
    errors.add(path, "BASE_TYPE_MAX_LENGTH", maxLength(LIMITS.actionRows));
  components.forEach((row, index) => {
    const rowPath = at(path, index);
    if (!isRecord(row)) {
      errors.add(rowPath, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
      return;
    }
    if (row.type !== 1) {
      errors.add(at(rowPath, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).');
      return;
    }
    validateActionRow(errors, row, rowPath, customIds);
  });
}

/** Checks `allowed_mentions` of a message body. */
function validateAllowedMentions(errors: FormErrors, value: unknown, path: FieldPath): void {
  if (value === undefined || value === null) return;
  if (!isRecord(value)) {
    errors.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
    return;
  }
  const parse = checkArray(errors, value.parse, at(path, "parse")) ?? [];
  parse.forEach((entry, index) => {
    if (entry !== "users" && entry !== "roles" && entry !== "everyone") {
      errors.add(
        at(path, "parse", index),
        "BASE_TYPE_CHOICES",
        "Value must be one of ('everyone', 'roles', 'users').",
      );
    }
  });
  for (const kind of ["users", "roles"] as const) {
    const ids = checkArray(errors, value[kind], at(path, kind));
    if (!ids) continue;
    if (ids.length > 100) errors.add(at(path, kind), "BASE_TYPE_MAX_LENGTH", maxLength(100));
    ids.forEach((id, index) => checkSnowflake(errors, id, at(path, kind, index)));
    if (parse.includes(kind)) {
      errors.add(
        path,
        "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
        `parse:["${kind}"] and ${kind}: [ids] are mutually exclusive.`,
      );
    }
  }
  checkBoolean(errors, value.replied_user, at(path, "replied_user"));
}

/**
 * Checks a message body (create, edit, interaction response data, follow-up) against Discord's
 * limits: content, embeds, components, allowed mentions, attachments. Errors go into `errors`
 * under `path` (`[]` for a channel message, `["data"]` inside an interaction callback).
 * @param uploadCount how many files the request carries (each becomes an attachment).
 */
export function validateMessageBody(
  errors: FormErrors,
  body: JsonObject,
  path: FieldPath,
  uploadCount: number,
): void {
  const flags = typeof body.flags === "number" ? body.flags : 0;
  const componentsV2 = (flags & FLAG_COMPONENTS_V2) !== 0;
  checkString(errors, body.content, at(path, "content"), { max: LIMITS.content });
  if (componentsV2) {
    const legacy =
      (body.content !== undefined && body.content !== null && body.content !== "") ||
      (Array.isArray(body.embeds) && body.embeds.length > 0);
    if (legacy) {
      errors.add(
        path,
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2",
      );
    }
  }
  validateEmbeds(errors, body.embeds, at(path, "embeds"));
  validateMessageComponents(errors, body.components, at(path, "components"), componentsV2);
  validateAllowedMentions(errors, body.allowed_mentions, at(path, "allowed_mentions"));
  validateMessageReference(errors, body.message_reference, at(path, "message_reference"));
  if (body.flags !== undefined && body.flags !== null)
    checkInteger(errors, body.flags, at(path, "flags"), { min: 0, max: 2 ** 31 });
  const attachments = checkArray(errors, body.attachments, at(path, "attachments"));
  if (attachments) {
    attachments.forEach((attachment, index) => {
      if (!isRecord(attachment)) {
        errors.add(
          at(path, "attachments", index),
          "MODEL_TYPE_CONVERT",
          "Only dictionaries may be used in a ModelType",
        );
        return;
      }
      // The id is a snowflake string: an existing attachment's id, or "n" for the upload files[n].
      if (attachment.id === undefined || attachment.id === null) {
        errors.add(at(path, "attachments", index, "id"), "BASE_TYPE_REQUIRED", REQUIRED);
      } else checkSnowflake(errors, attachment.id, at(path, "attachments", index, "id"));
      checkString(errors, attachment.description, at(path, "attachments", index, "description"), {
        max: 1024,
      });
      checkString(errors, attachment.filename, at(path, "attachments", index, "filename"), { max: 1024 });
    });
  }
  const attachmentCount = Math.max(attachments?.length ?? 0, uploadCount);
  if (attachmentCount > LIMITS.attachments) {
    errors.add(at(path, "attachments"), "BASE_TYPE_MAX_LENGTH", maxLength(LIMITS.attachments));
  }
}

/** `message_reference` of a reply: an object of snowflakes and the `fail_if_not_exists` boolean. */
function validateMessageReference(errors: FormErrors, value: unknown, path: FieldPath): void {
  if (value === undefined || value === null) return;
  if (!isRecord(value)) {
    errors.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
    return;
  }
  for (const key of ["message_id", "channel_id", "guild_id"])
    checkSnowflake(errors, value[key], at(path, key));
  checkBoolean(errors, value.fail_if_not_exists, at(path, "fail_if_not_exists"));
}

/** True when a message body would show something: Discord refuses an empty message (50006). */
export function messageHasVisibleContent(message: {
  content?: unknown;
  embeds?: unknown;
  components?: unknown;
  attachments?: unknown;
  sticker_ids?: unknown;
  poll?: unknown;
}): boolean {
  const nonEmpty = (value: unknown) => Array.isArray(value) && value.length > 0;
  return (
    (typeof message.content === "string" && message.content.trim().length > 0) ||
    nonEmpty(message.embeds) ||
    nonEmpty(message.components) ||
    nonEmpty(message.attachments) ||
    nonEmpty(message.sticker_ids) ||
    isRecord(message.poll)
  );
}

/** Checks one text input of a modal (inside an action row or a label). */
function validateTextInput(errors: FormErrors, input: JsonObject, path: FieldPath, inRow: boolean): void {
  checkString(errors, input.custom_id, at(path, "custom_id"), {
    min: 1,
    max: LIMITS.customId,
    required: true,
  });
  if (input.style !== 1 && input.style !== 2)
    errors.add(at(path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.");
  if (inRow)
    checkString(errors, input.label, at(path, "label"), {
      min: 1,
      max: LIMITS.textInputLabel,
      required: true,
    });
  else if (input.label !== undefined) {
    errors.add(
      at(path, "label"),
      "TEXT_INPUT_LABEL_NOT_ALLOWED",
      "A text input inside a label component cannot have a label.",
    );
  }
  checkInteger(errors, input.min_length, at(path, "min_length"), { min: 0, max: LIMITS.textInputValue });
  checkInteger(errors, input.max_length, at(path, "max_length"), { min: 1, max: LIMITS.textInputValue });
  checkString(errors, input.value, at(path, "value"), { max: LIMITS.textInputValue });
  checkString(errors, input.placeholder, at(path, "placeholder"), { max: LIMITS.textInputPlaceholder });
}

/** Checks the data of a modal response (callback type 9). */
export function validateModal(errors: FormErrors, data: unknown, path: FieldPath): void {
  if (!isRecord(data)) {
    errors.add(path, "BASE_TYPE_REQUIRED", REQUIRED);
    return;
  }
  checkString(errors, data.custom_id, at(path, "custom_id"), {
    min: 1,
    max: LIMITS.customId,
    required: true,
  });
  checkString(errors, data.title, at(path, "title"), { min: 1, max: LIMITS.modalTitle, required: true });
  const components = checkArray(errors, data.components, at(path, "components"));
  if (!components) {
    errors.add(at(path, "components"), "BASE_TYPE_REQUIRED", REQUIRED);
    return;
  }
  if (components.length < 1 || components.length > LIMITS.modalRows) {
    errors.add(at(path, "components"), "BASE_TYPE_BAD_LENGTH", badLength(1, LIMITS.modalRows));
  }
  const customIds = new Set<string>();
  components.forEach((component, index) => {
    const componentPath = at(path, "components", index);
    if (!isRecord(component)) {
      errors.add(componentPath, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
      return;
    }
    const noteId = (input: JsonObject, inputPath: FieldPath) => {
      if (typeof input.custom_id !== "string") return;
      if (customIds.has(input.custom_id)) {
        errors.add(
          at(inputPath, "custom_id"),
          "COMPONENT_CUSTOM_ID_DUPLICATED",
          "Component custom id cannot be duplicated",
        );
      }
      customIds.add(input.custom_id);
    };
    if (component.type === 1) {
      const children = checkArray(errors, component.components, at(componentPath, "components")) ?? [];
      if (children.length !== 1)
        errors.add(at(componentPath, "components"), "BASE_TYPE_BAD_LENGTH", badLength(1, 1));
      children.forEach((child, childIndex) => {
        const childPath = at(componentPath, "components", childIndex);
        if (!isRecord(child) || child.type !== 4) {
          errors.add(
            at(childPath, "type"),
            "UNION_TYPE_CHOICES",
            'Value of field "type" must be one of (4,).',
          );
          return;
        }
        validateTextInput(errors, child, childPath, true);
        noteId(child, childPath);
      });
    } else if (component.type === 18) {
      checkString(errors, component.label, at(componentPath, "label"), {
        min: 1,
        max: LIMITS.textInputLabel,
        required: true,
      });
      checkString(errors, component.description, at(componentPath, "description"), { max: 100 });
      const inner = component.component;
      const innerPath = at(componentPath, "component");
      if (!isRecord(inner)) errors.add(innerPath, "BASE_TYPE_REQUIRED", REQUIRED);
      else if (inner.type === 4) {
        validateTextInput(errors, inner, innerPath, false);
        noteId(inner, innerPath);
      } else if (typeof inner.type === "number" && [3, 5, 6, 7, 8, 19, 21, 22, 23].includes(inner.type)) {
        checkString(errors, inner.custom_id, at(innerPath, "custom_id"), {
          min: 1,
          max: LIMITS.customId,
          required: true,
        });
        noteId(inner, innerPath);
      } else
        errors.add(
          at(innerPath, "type"),
          "UNION_TYPE_CHOICES",
          'Value of field "type" must be one of (3, 4, 5, 6, 7, 8, 19, 21, 22, 23).',
        );
    } else if (component.type === 10) {
      checkString(errors, component.content, at(componentPath, "content"), {
        min: 1,
        max: LIMITS.textDisplayTotal,
        required: true,
      });
    } else {
      errors.add(
        at(componentPath, "type"),
        "UNION_TYPE_CHOICES",
        'Value of field "type" must be one of (1, 10, 18).',
      );
    }
  });
}

/** Checks the data of an autocomplete result (callback type 8). */
export function validateAutocompleteResult(errors: FormErrors, data: unknown, path: FieldPath): void {
  if (!isRecord(data)) {
    errors.add(path, "BASE_TYPE_REQUIRED", REQUIRED);
    return;
  }
  const choices = checkArray(errors, data.choices, at(path, "choices"));
  if (!choices) return;
  if (choices.length > LIMITS.autocompleteChoices) {
    errors.add(at(path, "choices"), "BASE_TYPE_MAX_LENGTH", maxLength(LIMITS.autocompleteChoices));
  }
  choices.forEach((choice, index) => {
    const choicePath = at(path, "choices", index);
    if (!isRecord(choice)) {
      errors.add(choicePath, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
      return;
    }
    checkString(errors, choice.name, at(choicePath, "name"), {
      min: 1,
      max: LIMITS.choiceName,
      required: true,
    });
    if (typeof choice.value === "string") {
      checkString(errors, choice.value, at(choicePath, "value"), { max: LIMITS.choiceValue });
    } else if (typeof choice.value !== "number" || !Number.isFinite(choice.value)) {
      errors.add(at(choicePath, "value"), "BASE_TYPE_REQUIRED", REQUIRED);
    }
  });
}

/** Checks the body of a thread creation (from a message, or standalone when `standalone`). */
export function validateThreadBody(errors: FormErrors, body: JsonObject, standalone: boolean): void {
  checkString(errors, body.name, ["name"], { min: 1, max: LIMITS.threadName, required: true });
  const duration = body.auto_archive_duration;
  if (duration !== undefined && duration !== null) {
    if (typeof duration !== "number" || !(AUTO_ARCHIVE_DURATIONS as readonly number[]).includes(duration)) {
      errors.add(
        ["auto_archive_duration"],
        "BASE_TYPE_CHOICES",
        `Value must be one of {${AUTO_ARCHIVE_DURATIONS.join(", ")}}.`,
      );
    }
  }
  checkInteger(errors, body.rate_limit_per_user, ["rate_limit_per_user"], { min: 0, max: 21600 });
  if (standalone && body.type !== undefined && body.type !== null) {
    if (body.type !== 10 && body.type !== 11 && body.type !== 12) {
      errors.add(["type"], "BASE_TYPE_CHOICES", "Value must be one of {10, 11, 12}.");
    }
  }
}

const COMMAND_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** True when a chat-input name has no uppercase letter that has a lowercase form. */
function isLowercaseName(name: string): boolean {
  return name === name.toLowerCase();
}

function checkName(
  errors: FormErrors,
  value: unknown,
  path: FieldPath,
  chatInput: boolean,
  invalidCode: string,
): void {
  const name = checkString(errors, value, path, { min: 1, max: LIMITS.commandName, required: true });
  if (name === undefined || codePointLength(name) > LIMITS.commandName || name.length === 0) return;
  if (chatInput && (!COMMAND_NAME.test(name) || !isLowercaseName(name))) {
    errors.add(
      path,
      invalidCode,
      invalidCode === "APPLICATION_COMMAND_INVALID_NAME"
        ? "Command name is invalid"
        : "Option name is invalid",
    );
  }
}

const OPTION_TYPES = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);

/** Counts the characters a command definition spends of its 8,000 budget. */
function commandChars(definition: JsonObject): number {
  const text = (value: unknown) => (typeof value === "string" ? codePointLength(value) : 0);
  let total = text(definition.name) + text(definition.description);
  const visit = (options: unknown) => {
    if (!Array.isArray(options)) return;
    for (const option of options) {
      if (!isRecord(option)) continue;
      total += text(option.name) + text(option.description);
      if (Array.isArray(option.choices)) {
        for (const choice of option.choices) {
          if (isRecord(choice))
            total += text(choice.name) + (typeof choice.value === "string" ? text(choice.value) : 0);
        }
      }
      visit(option.options);
    }
  };
  visit(definition.options);
  return total;
}

/** Checks the options of a command or subcommand (`depth` 0 at the command). */
function validateOptions(errors: FormErrors, value: unknown, path: FieldPath, depth: number): void {
  const options = checkArray(errors, value, path);
  if (!options) return;
  if (options.length > LIMITS.commandOptions)
    errors.add(path, "BASE_TYPE_MAX_LENGTH", maxLength(LIMITS.commandOptions));
  const names = new Set<string>();
  let seenOptional = false;
  const kinds = { sub: 0, plain: 0 };
  options.forEach((option, index) => {
    const optionPath = at(path, index);
    if (!isRecord(option)) {
      errors.add(optionPath, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
      return;
    }
    const type = option.type;
    if (typeof type !== "number" || !OPTION_TYPES.has(type)) {
      errors.add(
        at(optionPath, "type"),
        "BASE_TYPE_CHOICES",
        "Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.",
      );
      return;
    }
    checkName(errors, option.name, at(optionPath, "name"), true, "APPLICATION_COMMAND_OPTION_INVALID_NAME");
    checkString(errors, option.description, at(optionPath, "description"), {
      min: 1,
      max: LIMITS.commandDescription,
      required: true,
    });
    if (typeof option.name === "string") {
      if (names.has(option.name)) {
        errors.add(
          at(optionPath, "name"),
          "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
          `Option name ${option.name} is already used in these options`,
        );
      }
      names.add(option.name);
    }
    const isSub = type === 1 || type === 2;
    if (isSub) kinds.sub++;
    else kinds.plain++;
    if (isSub) {
      // A group (2) holds subcommands only, a subcommand (1) holds plain options only, and
      // nesting stops at command > group > subcommand.
      if (depth >= 2 || (type === 2 && depth >= 1)) {
        errors.add(
          at(optionPath, "type"),
          "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
          "Subcommands cannot be nested this deep.",
        );
      }
      if (option.required === true) {
        errors.add(
          at(optionPath, "required"),
          "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
          "Subcommands and groups cannot be required.",
        );
      }
      if (type === 2) {
        const children = checkArray(errors, option.options, at(optionPath, "options")) ?? [];
        children.forEach((child, childIndex) => {
          if (isRecord(child) && child.type !== 1) {
            errors.add(
              at(optionPath, "options", childIndex, "type"),
              "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
              "A subcommand group may only contain subcommands.",
            );
          }
        });
      }
      validateOptions(errors, option.options, at(optionPath, "options"), depth + (type === 2 ? 1 : 2));
      return;
    }
    if (option.options !== undefined) {
      errors.add(
        at(optionPath, "options"),
        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
        "Only subcommands and groups can have options.",
      );
    }
    if (option.required === true) {
      if (seenOptional) {
        errors.add(
          at(optionPath, "required"),
          "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
          "Required options must be placed before non-required options",
        );
      }
    } else seenOptional = true;
    const choices = checkArray(errors, option.choices, at(optionPath, "choices"));
    if (choices) {
      if (![3, 4, 10].includes(type)) {
        errors.add(
          at(optionPath, "choices"),
          "APPLICATION_COMMAND_OPTION_CHOICES_NOT_ALLOWED",
          "Choices are only allowed for string, integer and number options.",
        );
      }
      if (choices.length > LIMITS.commandChoices) {
        errors.add(at(optionPath, "choices"), "BASE_TYPE_MAX_LENGTH", maxLength(LIMITS.commandChoices));
      }
      if (option.autocomplete === true && choices.length > 0) {
        errors.add(
          at(optionPath, "autocomplete"),
          "AUTOCOMPLETE_CHOICES_INVALID",
          "Autocomplete cannot be set if there are choices present.",
        );
      }
      choices.forEach((choice, choiceIndex) => {
        const choicePath = at(optionPath, "choices", choiceIndex);
        if (!isRecord(choice)) return;
        checkString(errors, choice.name, at(choicePath, "name"), {
          min: 1,
          max: LIMITS.choiceName,
          required: true,
        });
        if (type === 3)
          checkString(errors, choice.value, at(choicePath, "value"), {
            min: 1,
            max: LIMITS.choiceValue,
            required: true,
          });
        else if (typeof choice.value !== "number")
          errors.add(at(choicePath, "value"), "BASE_TYPE_REQUIRED", REQUIRED);
      });
    }
    if (option.autocomplete === true && ![3, 4, 10].includes(type)) {
      errors.add(
        at(optionPath, "autocomplete"),
        "AUTOCOMPLETE_INVALID_OPTION_TYPE",
        "Autocomplete is only allowed for string, integer and number options.",
      );
    }
    if (type === 3) {
      checkInteger(errors, option.min_length, at(optionPath, "min_length"), { min: 0, max: 6000 });
      checkInteger(errors, option.max_length, at(optionPath, "max_length"), { min: 1, max: 6000 });
    }
  });
  if (kinds.sub > 0 && kinds.plain > 0) {
    errors.add(
      path,
      "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
      "Subcommands cannot be mixed with other options.",
    );
  }
}

/** Checks one application command definition (as sent to the registration routes). */
export function validateCommand(errors: FormErrors, definition: unknown, path: FieldPath): void {
  if (!isRecord(definition)) {
    errors.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
    return;
  }
  const type = definition.type ?? 1;
  if (typeof type !== "number" || ![1, 2, 3, 4].includes(type)) {
    errors.add(at(path, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.");
    return;
  }
  const chatInput = type === 1;
  checkName(errors, definition.name, at(path, "name"), chatInput, "APPLICATION_COMMAND_INVALID_NAME");
  if (chatInput) {
    checkString(errors, definition.description, at(path, "description"), {
      min: 1,
      max: LIMITS.commandDescription,
      required: true,
    });
    validateOptions(errors, definition.options, at(path, "options"), 0);
  } else if (typeof definition.description === "string" && definition.description !== "") {
    // Discord's own code and words for it (an empty string is taken, as documented).
    errors.add(
      at(path, "description"),
      "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION_INVALID",
      "Context menu commands cannot have description",
    );
  }
  const permissions = definition.default_member_permissions;
  if (
    permissions !== undefined &&
    permissions !== null &&
    (typeof permissions !== "string" || !/^\d+$/.test(permissions))
  ) {
    errors.add(
      at(path, "default_member_permissions"),
      "BASE_TYPE_STRING",
      "Must be a permission bitfield as a string of digits.",
    );
  }
  for (const [field, allowed] of [
    ["contexts", [0, 1, 2]],
    ["integration_types", [0, 1]],
  ] as const) {
    const list = checkArray(errors, definition[field], at(path, field));
    // Discord's description of both: an array of at least one item, each at most once (a set).
    if (list?.length === 0)
      errors.add(at(path, field), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.");
    list?.forEach((entry, index) => {
      if (typeof entry !== "number" || !(allowed as readonly number[]).includes(entry)) {
        errors.add(
          at(path, field, index),
          "BASE_TYPE_CHOICES",
          `Value must be one of {${allowed.join(", ")}}.`,
        );
      } else if (list.indexOf(entry) < index) {
        errors.add(
          at(path, field, index),
          "SET_TYPE_ALREADY_CONTAINS_VALUE",
          "The set already contains this value.",
        );
      }
    });
  }
  if (commandChars(definition) > LIMITS.commandTotalChars) {
    errors.add(
      path,
      "APPLICATION_COMMAND_TOO_LARGE",
      `Command exceeds maximum size (${LIMITS.commandTotalChars})`,
    );
  }
}

/** Checks a bulk overwrite body: an array of definitions with unique (type, name) pairs. */
export function validateCommandList(errors: FormErrors, body: unknown): void {
  if (!Array.isArray(body)) {
    errors.add([], "BASE_TYPE_ARRAY", "Only iterables may be used in a ListType");
    return;
  }
  if (body.length > LIMITS.commandsPerScope)
    errors.add([], "BASE_TYPE_MAX_LENGTH", maxLength(LIMITS.commandsPerScope));
  const seen = new Set<string>();
  body.forEach((definition, index) => {
    validateCommand(errors, definition, [index]);
    if (isRecord(definition) && typeof definition.name === "string") {
      const key = `${typeof definition.type === "number" ? definition.type : 1}:${definition.name}`;
      if (seen.has(key)) {
        errors.add(
          [index, "name"],
          "APPLICATION_COMMANDS_DUPLICATE_NAME",
          "Application command names must be unique",
        );
      }
      seen.add(key);
    }
  });
}
