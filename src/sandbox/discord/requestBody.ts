import type { IncomingMessage } from "node:http";
import { restErrors } from "./restErrors.js";
import type { UploadedFile } from "./state.js";

/** Reads a request body, refusing it past `limitBytes` with 413 (40005) as Discord does. */
export function readBody(request: IncomingMessage, limitBytes: number): Promise<Buffer> {
  // Listeners, not `for await`: leaving that loop early destroys the stream and its socket, so a
  // body past the cap got a dropped connection where Discord answers 413 (40005). A chunk is a
  // buffer of its own: a body of one chunk is used as it is.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
      request.off("close", onClose);
    };
    const onData = (chunk: Buffer | string): void => {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size <= limitBytes) {
        chunks.push(buffer);
        return;
      }
      stop();
      chunks.length = 0;
      // The rest is read and dropped, so that the connection can carry the answer and the next request.
      request.resume();
      reject(restErrors.requestTooLarge());
    };
    const onEnd = (): void => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    const onClose = (): void => {
      stop();
      reject(new Error("the request closed before its body ended"));
    };
    request.on("data", onData);
    request.once("end", onEnd);
    request.once("error", onError);
    request.once("close", onClose);
  });
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
