import { isRecord, type JsonObject } from "../json.js";
import { FormErrors, restErrors } from "../restErrors.js";
import type { StoredMessage, UploadedFile } from "../state.js";
import { messageHasVisibleContent, validateMessageBody, type FieldPath } from "../validation.js";

/**
 * Checks a message body for a create or an edit: Discord's form validation (50035, fields nested
 * under `path`), then that the message would not end up empty (50006).
 * @param existing the message being edited (its fields count when the edit leaves them out).
 * @returns the body as an object (an absent body is an empty one).
 */
export function checkMessageBody(
  body: unknown,
  path: FieldPath,
  uploads: readonly UploadedFile[],
  existing: StoredMessage | null,
): JsonObject {
  const errors = new FormErrors();
  if (body !== undefined && body !== null && !isRecord(body)) {
    errors.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
    errors.throwIfAny();
  }
  const fields: JsonObject = isRecord(body) ? body : {};
  validateMessageBody(errors, fields, path, uploads.length);
  errors.throwIfAny();
  const after = {
    content: fields.content ?? existing?.api.content,
    embeds: fields.embeds ?? existing?.api.embeds,
    components: fields.components ?? existing?.api.components,
    attachments:
      uploads.length > 0
        ? [...uploads]
        : (fields.attachments ?? (existing ? existing.api.attachments : undefined)),
    sticker_ids: fields.sticker_ids,
    poll: fields.poll,
  };
  if (!messageHasVisibleContent(after)) throw restErrors.emptyMessage();
  return fields;
}
