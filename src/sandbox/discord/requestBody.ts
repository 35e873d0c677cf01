import type { IncomingMessage } from "node:http";
import { restErrors } from "./restErrors.js";
import type { UploadedFile } from "./state.js";

/** Reads a request body, refusing it past `limitBytes` with 413 (40005) as Discord does. */
export async function readBody(request: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > limitBytes) throw restErrors.requestTooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw restErrors.invalidJson();
  }
}

/**
 * Parses a JSON body, or a multipart body of `payload_json` plus `files[n]` parts (Discord's
 * upload form). Plain text fields of a multipart body without `payload_json` become JSON fields.
 * @throws DiscordRestError 50109 for malformed JSON.
 */
export async function parseBody(
  raw: Buffer,
  contentType: string | undefined,
): Promise<{ body: unknown; uploads: UploadedFile[] }> {
  if (raw.length === 0) return { body: undefined, uploads: [] };
  const type = (contentType ?? "").toLowerCase();
  if (!type.startsWith("multipart/form-data")) {
    return { body: parseJson(raw.toString("utf8")), uploads: [] };
  }
  let form: FormData;
  try {
    form = await new Request("http://stand-in.invalid/", {
      method: "POST",
      headers: { "content-type": contentType ?? "" },
      body: raw,
    }).formData();
  } catch {
    throw restErrors.invalidJson();
  }
  let body: unknown = undefined;
  const fields: Record<string, unknown> = {};
  const uploads: UploadedFile[] = [];
  let position = 0;
  for (const [field, value] of form.entries()) {
    if (typeof value === "string") {
      if (field === "payload_json") body = parseJson(value);
      else fields[field] = value;
      continue;
    }
    const indexed = /^files\[(\d+)\]$/.exec(field);
    const index = indexed ? Number(indexed[1]) : position;
    position++;
    uploads.push({
      index,
      field,
      filename: value.name || `file${index}`,
      contentType: value.type || "application/octet-stream",
      bytes: Buffer.from(await value.arrayBuffer()),
    });
  }
  if (body === undefined && Object.keys(fields).length > 0) body = fields;
  return { body, uploads };
}
