import type { IncomingMessage, ServerResponse } from "node:http";
import { InteractionResponseType, InteractionType, type APIInteraction } from "discord-api-types/v10";
import type { Logger } from "../../logger.js";
import type { InteractionCore } from "../core/interactionCore.js";
import { restResponder, type DiscordRest } from "../core/responder.js";
import { httpFirstResponse } from "./httpResponder.js";
import { readCappedBody } from "./readBody.js";
import type { ReplayGuard } from "./replayGuard.js";
import type { SignatureVerifier } from "./signature.js";

/** Discord's interaction payloads are small; anything past this is not one. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** A signed request older (or further ahead) than this is refused as stale. */
export const MAX_AGE_SECONDS = 5 * 60;
/**
 * Requests in a row carrying Discord's signature headers whose signature does not verify, with none
 * verified in between, before a warning: Discord's own check of a new endpoint URL sends one or two
 * on purpose, a wrong DISCORD_PUBLIC_KEY makes every request one.
 */
export const REFUSED_SIGNATURES_BEFORE_WARNING = 5;

export interface InteractionsEndpointOptions {
  verify: SignatureVerifier;
  core: InteractionCore;
  rest: DiscordRest;
  replayGuard: ReplayGuard;
  logger: Logger;
  /** The clock, in Unix milliseconds (tests move it). */
  now?: () => number;
}

function answer(reply: ServerResponse, status: number, body: unknown, close = false): void {
  const text = JSON.stringify(body);
  reply.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(text)),
    ...(close ? { Connection: "close" } : {}),
  });
  reply.end(text);
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * `POST /interactions` (DISCORD-FACTS "Interactions over HTTP"). In order: the body is read up to
 * {@link MAX_BODY_BYTES} (413 past it); the Ed25519 signature over timestamp + body is verified
 * before anything looks at the body (401, as Discord's own probes with bad signatures expect); a
 * timestamp outside {@link MAX_AGE_SECONDS} and a request already taken (same signature or same
 * interaction id) are refused 401; a body that is not JSON is 400. A PING is answered PONG; any
 * other interaction goes to the core, whose first response is the HTTP reply.
 */
export function createInteractionsEndpoint(options: InteractionsEndpointOptions) {
  const { verify, core, rest, replayGuard, logger } = options;
  const now = options.now ?? Date.now;
  const refuse = (reply: ServerResponse, status: number, reason: string, close = false): void => {
    logger.debug({ status, reason }, "refused an interactions request");
    answer(reply, status, { error: reason }, close);
  };

  /** Signed-looking requests refused in a row since one last verified (see the constant). */
  let refusedInARow = 0;

  return async (request: IncomingMessage, reply: ServerResponse): Promise<void> => {
    const signature = header(request, "x-signature-ed25519");
    const timestamp = header(request, "x-signature-timestamp");
    const body = await readCappedBody(request, MAX_BODY_BYTES);
    if (body === "tooLarge") return refuse(reply, 413, "the body is too large", true);
    if (!signature || !timestamp || !verify(timestamp, body, signature)) {
      // Requests without the headers are not Discord's (a scanner): they say nothing of the key.
      if (signature && timestamp && ++refusedInARow === REFUSED_SIGNATURES_BEFORE_WARNING) {
        logger.warn(
          { refused: refusedInARow },
          "requests in a row were refused for their signature and none verified since: if Discord sent them, DISCORD_PUBLIC_KEY is not this application's public key (developer portal > General Information)",
        );
      }
      return refuse(reply, 401, "invalid request signature");
    }
    refusedInARow = 0;
    const signedAt = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : Number.NaN;
    if (!(Math.abs(now() / 1000 - signedAt) <= MAX_AGE_SECONDS)) {
      return refuse(reply, 401, "the request's timestamp is too old");
    }
    let interaction: APIInteraction;
    try {
      interaction = JSON.parse(body.toString("utf8")) as APIInteraction;
    } catch {
      return refuse(reply, 400, "the body is not JSON");
    }
    if (typeof interaction !== "object" || interaction === null || typeof interaction.id !== "string") {
      return refuse(reply, 400, "the body is not an interaction");
    }
    // Remembered a little past the window, so a replay is refused as long as its timestamp passes.
    const ttlMs = 2 * MAX_AGE_SECONDS * 1000;
    const fresh =
      (await replayGuard.claim(`signature:${signature.toLowerCase()}`, ttlMs)) &&
      (await replayGuard.claim(`interaction:${interaction.id}`, ttlMs));
    if (!fresh) return refuse(reply, 401, "the request was already received");
    if (interaction.type === InteractionType.Ping) {
      return answer(reply, 200, { type: InteractionResponseType.Pong });
    }
    const first = httpFirstResponse(reply, restResponder(rest, interaction));
    await core.handle(interaction, first.responder);
    // The core answers every interaction it handles; one it does not handle gets Discord's
    // "interaction failed" now rather than after 3 s.
    if (!first.answered && !reply.headersSent) refuse(reply, 500, "the interaction got no response");
  };
}
