import type { ServerResponse } from "node:http";
import type { APIInteractionResponse } from "discord-api-types/v10";
import type { RawFile } from "discord.js";
import { encodedResponse } from "../core/messagePayload.js";
import { withFirstResponse, type Responder } from "../core/responder.js";

/**
 * An interaction's first response as the HTTP reply: JSON, or multipart when it carries files. A
 * kept answer's JSON is bytes made once (../core/messagePayload.ts), written as they are; any other
 * stays a string, which Node writes with the headers without a copy here (a Buffer made for each
 * reply cost about 60 µs more, bench/load/httpSteps.ts).
 */
export async function encodeFirstResponse(
  response: APIInteractionResponse,
  files: readonly RawFile[],
): Promise<{ contentType: string; body: string | Buffer }> {
  if (files.length === 0) return { contentType: "application/json", body: encodedResponse(response) };
  // Discord's multipart form: `payload_json`, then `files[n]` for `attachments[n]`.
  const form = new FormData();
  form.append("payload_json", JSON.stringify(response));
  files.forEach((file, index) => {
    const data = typeof file.data === "string" ? file.data : new Uint8Array(file.data as Uint8Array);
    form.append(`files[${index}]`, new Blob([data], { type: file.contentType ?? "" }), file.name);
  });
  const encoded = new Response(form);
  return {
    contentType: encoded.headers.get("content-type") ?? "multipart/form-data",
    body: Buffer.from(await encoded.arrayBuffer()),
  };
}

/** A responder whose first response is the HTTP reply to Discord's POST. */
export interface HttpFirstResponse {
  responder: Responder;
  /** Whether the HTTP reply was written (or is being written). */
  readonly answered: boolean;
}

/** Writes the HTTP reply; resolves once it is handed to the connection. */
function send(
  reply: ServerResponse,
  status: number,
  contentType: string | null,
  body: string | Buffer,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onClose = (): void =>
      reject(new Error("the interactions request closed before its first response was sent"));
    reply.once("close", onClose);
    const length = String(typeof body === "string" ? Buffer.byteLength(body) : body.length);
    reply.writeHead(
      status,
      contentType ? { "Content-Type": contentType, "Content-Length": length } : { "Content-Length": length },
    );
    reply.end(body, () => {
      reply.off("close", onClose);
      resolve();
    });
  });
}

/**
 * Wraps an interaction's REST responder so that its first response goes into the HTTP reply, as
 * Discord expects of an interactions endpoint (within 3 s; the rest over the webhook routes).
 * When the message the first response makes is wanted at once (a thread starts from it), the
 * reply is a 202 without a body and the first response goes to the callback route, which returns
 * the message, as Discord allows: no read of `@original` after it. When the reply can no longer be
 * written (Discord or a proxy closed the request), the first response falls back to the callback
 * route too, which either still takes it or says why not (10062 when too late), as over the
 * gateway.
 */
export function httpFirstResponse(reply: ServerResponse, rest: Responder): HttpFirstResponse {
  const gone = (): boolean => reply.writableEnded || !reply.socket || reply.socket.destroyed;
  const responder = withFirstResponse(rest, async (response, files, options) => {
    if (first.answered || gone()) return rest.respond(response, files, options);
    if (options?.wantMessage) {
      first.answered = true;
      await send(reply, 202, null, "");
      return rest.respond(response, files, options);
    }
    const { contentType, body } = await encodeFirstResponse(response, files);
    if (first.answered || gone()) return rest.respond(response, files, options);
    first.answered = true;
    await send(reply, 200, contentType, body);
    // Discord makes the message once it reads the reply: the caller reads it back when it needs it.
    return null;
  });
  // `answered` is set by `respond` above (called only after this returns).
  // A plain field, not a getter in the returned literal: V8 gives each object literal with an
  // accessor a map of its own in old space, holding the getter (and through it this closure: the
  // reply, its socket and request, the interaction) out of reach of the young generation's
  // collections until a full one. Every request's objects then survived and were copied and
  // promoted: 0.9-1.1 MB a scavenge and 5-6 ms pauses where a bare handler has 30 KB and about 1 ms
  // (bench/load/httpSteps.ts, `npm run bench`'s overload over HTTP).
  const first = { responder, answered: false };
  return first;
}
