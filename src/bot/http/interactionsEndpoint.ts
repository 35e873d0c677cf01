import type { IncomingMessage, ServerResponse } from "node:http";
import { InteractionResponseType, InteractionType, type APIInteraction } from "discord-api-types/v10";
import type { Logger } from "../../logger.js";
import type { InteractionCore } from "../core/interactionCore.js";
import { interactionAgeMs, RESPONSE_DEADLINE_MS } from "../core/deferral.js";
import { createDiscordClock, type DiscordClock } from "../core/discordClock.js";
import { lateWarning } from "../core/lateWarning.js";
import { restResponder, type DiscordRest } from "../core/responder.js";
import type { BotMetrics } from "../../metrics/botMetrics.js";
import { httpFirstResponse } from "./httpResponder.js";
import { readCappedBody } from "./readBody.js";
import type { ReplayGuard } from "./replayGuard.js";
import type { SignatureVerifier } from "./signature.js";

/**
 * The largest body taken. Discord's biggest interaction is a message command on a message at every
 * limit (4,000 characters of content, 10 embeds, 10 attachments, a user object per mention, all
 * resolved in the payload): some 150 KiB at worst, most are a few KiB. Anything past this is not
 * one, and each request being read holds at most this much until it is verified.
 */
export const MAX_BODY_BYTES = 256 * 1024;
/**
 * How many bytes of bodies may be held at once before their signature is checked: 32 MiB, as 128
 * bodies at {@link MAX_BODY_BYTES}, however many clients send slowly. Each request being read holds
 * its declared `Content-Length` (or the whole cap when it declares none) until it is verified, so a
 * burst of Discord's small requests, queued while the event loop was busy, is read whole, and only
 * what would pass the budget is refused 503. (Counting requests instead refused Discord's own under
 * a 1,600/s burst: 678 of 16,000 unanswered, `npm run bench`, the knee's overload over HTTP.)
 */
export const MAX_UNVERIFIED_BYTES = 128 * MAX_BODY_BYTES;
/** A signed request further ahead than this is refused as stale (the replay guard's window too). */
export const MAX_AGE_SECONDS = 5 * 60;
/**
 * Requests in a row carrying Discord's signature headers whose signature does not verify, with none
 * verified in between, before a warning: Discord's own check of a new endpoint URL sends one or two
 * on purpose, a wrong DISCORD_PUBLIC_KEY makes every request one.
 */
export const REFUSED_SIGNATURES_BEFORE_WARNING = 5;
/** `X-Signature-Ed25519`: 64 bytes in hex. */
const SIGNATURE_HEADER = /^[0-9a-f]{128}$/i;
/** `X-Signature-Timestamp`: Unix seconds. */
const TIMESTAMP_HEADER = /^\d{1,12}$/;

export interface InteractionsEndpointOptions {
  verify: SignatureVerifier;
  core: InteractionCore;
  rest: DiscordRest;
  replayGuard: ReplayGuard;
  logger: Logger;
  /** Where a signed interaction refused as after Discord's deadline is counted (outcome `expired`). */
  metrics?: Pick<BotMetrics, "interactions">;
  /** The clock, in Unix milliseconds (tests move it). */
  now?: () => number;
  /**
   * Discord's time as the interactions show it, shared with the core (../core/discordClock.ts).
   * Default: one of the endpoint's own, on `now`.
   */
  clock?: DiscordClock;
}

/**
 * How long a late interaction that found the bot busy keeps later requests whose timestamps read
 * late refused unread: a burst past capacity brings thousands a second.
 */
const BEHIND_FOR_MS = 1_000;

/** The labels of an interaction refused as late: refused before anything looks at what it asks. */
const LATE_LABELS = { kind: "unknown", command: "other", outcome: "expired" } as const;

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
 * `POST /interactions` (DISCORD-FACTS "Interactions over HTTP"). In order, so that a stranger gets
 * no memory and no time before the signature is checked: a missing or malformed signature or
 * timestamp header, a timestamp more than {@link MAX_AGE_SECONDS} ahead or behind, and one past
 * Discord's {@link RESPONSE_DEADLINE_MS} (in whole seconds) while the bot is behind, are refused
 * 401 before a byte of the body is read; a declared length past {@link MAX_BODY_BYTES} is
 * 413 at once; past {@link MAX_UNVERIFIED_BYTES} held by bodies being read, 503; then the body is
 * read up to the cap (413 past it) and the Ed25519 signature over timestamp + body is verified
 * before anything looks at the body (401, as Discord's own probes with bad signatures expect); a
 * body that is not JSON is 400; an interaction other than a PING created longer ago than Discord
 * waits is 401 (late), and so is one already taken (same interaction id, which a replay of the
 * signed bytes carries). A PING is answered PONG; any other interaction goes to the core, whose
 * first response is the HTTP reply. Every refusal closes its connection; only one that carried a
 * signed interaction stays open for the next. How long headers and body may take, and how long a
 * connection may idle, are the server's bounds (see `createBotHttpServer`).
 */
export function createInteractionsEndpoint(options: InteractionsEndpointOptions) {
  const { verify, core, rest, replayGuard, logger } = options;
  const now = options.now ?? Date.now;
  const clock = options.clock ?? createDiscordClock({ logger, now });
  // Every refusal closes its connection: a connection is kept alive (for long, see
  // KEEP_ALIVE_TIMEOUT_MS) only once it carried an interaction Discord signed.
  const refuse = (reply: ServerResponse, status: number, reason: string): void => {
    logger.debug({ status, reason }, "refused an interactions request");
    answer(reply, status, { error: reason }, true);
  };

  // A request the bot gets to after Discord's RESPONSE_DEADLINE_MS (its signed timestamp, or its
  // interaction's creation) is one Discord stopped waiting for: whatever the bot sends, nobody
  // reads it. It is refused without the work, and before its body is read and its signature checked
  // when the timestamp already says so and the bot is behind (`behindUntil`): on a bot behind (a
  // burst past what its cpu takes, or a cpu it shares), every late request that still cost a whole
  // answer put the next ones further behind. On a cpu shared with another busy process, 1,600/s
  // over HTTP is at the edge of what the bot takes, and runs minutes apart either hold or collapse
  // (thousands of requests wait on new connections, and the bot answered them after the burst, long
  // after Discord gave up): of 16,000, unanswered 0, 0, 236, 1,052, 4,158 and 10,458 in six runs
  // before, 0, 0, 0, 0, 90, 395, 603, 5,815 and 9,519 in nine with late requests refused (the
  // knee's overload on a shared cpu): fewer collapses, not none.
  const warnLate = lateWarning(logger, now);
  /** Refuses a signed interaction Discord no longer waits for: counted, and said now and then. */
  const refuseLate = (reply: ServerResponse, reason: string): void => {
    options.metrics?.interactions.inc(LATE_LABELS);
    warnLate();
    refuse(reply, 401, reason);
  };

  /** Signed-looking requests refused in a row since one last verified (see the constant). */
  let refusedInARow = 0;
  /**
   * Until when the bot is taken to be behind: a signed interaction past Discord's deadline found it
   * busy (work in hand, or an event loop that barely idles) within the last {@link BEHIND_FOR_MS}.
   */
  let behindUntil = Number.NEGATIVE_INFINITY;
  /** Bytes held by requests being read, not yet verified (see MAX_UNVERIFIED_BYTES). */
  let holding = 0;

  return async (request: IncomingMessage, reply: ServerResponse): Promise<void> => {
    const signature = header(request, "x-signature-ed25519");
    const timestamp = header(request, "x-signature-timestamp");
    // The body is left unread on every refusal below: the reply closes the connection.
    if (!signature || !timestamp || !SIGNATURE_HEADER.test(signature) || !TIMESTAMP_HEADER.test(timestamp)) {
      return refuse(reply, 401, "invalid request signature");
    }
    const signedAt = Number(timestamp);
    const sinceSigned = clock.now() / 1000 - signedAt;
    if (!(sinceSigned >= -MAX_AGE_SECONDS)) return refuse(reply, 401, "the request's timestamp is ahead");
    // Past the window the replay claims cover (they are kept twice as long): a replay, or worse.
    if (!(sinceSigned <= MAX_AGE_SECONDS)) return refuse(reply, 401, "the request's timestamp is stale");
    // Past Discord's deadline by its stamp (whole seconds: one more before it is surely late) while
    // the bot is behind: refused unread, to spare the time. Not counted nor warned about: nothing
    // yet says Discord sent it. A bot not behind reads and checks it: Discord's PINGs (its check of
    // the endpoint) are answered at any age, and a signed interaction late by this clock shows the
    // clock ahead (../core/discordClock.ts). Refused unread whatever the bot's state, a clock 4 s
    // ahead failed every request.
    if (!(sinceSigned <= RESPONSE_DEADLINE_MS / 1000 + 1) && now() < behindUntil) {
      return refuse(reply, 401, "the request's timestamp is past Discord's deadline");
    }
    const declared = Number(request.headers["content-length"] ?? Number.NaN);
    if (declared > MAX_BODY_BYTES) {
      return refuse(reply, 413, "the body is too large");
    }
    const held = Number.isInteger(declared) && declared >= 0 ? declared : MAX_BODY_BYTES;
    if (holding + held > MAX_UNVERIFIED_BYTES) {
      return refuse(reply, 503, "too many requests being read");
    }
    holding += held;
    let body: Buffer | "tooLarge" | "aborted";
    try {
      body = await readCappedBody(request, MAX_BODY_BYTES);
    } finally {
      holding -= held;
    }
    if (body === "aborted") {
      logger.debug("an interactions request ended before its body");
      return;
    }
    if (body === "tooLarge") return refuse(reply, 413, "the body is too large");
    if (!verify(timestamp, body, signature)) {
      // Only requests shaped as Discord's get here (a scanner's fail the header checks above).
      if (++refusedInARow === REFUSED_SIGNATURES_BEFORE_WARNING) {
        logger.warn(
          { refused: refusedInARow },
          "requests in a row were refused for their signature and none verified since: if Discord sent them, DISCORD_PUBLIC_KEY is not this application's public key (developer portal > General Information)",
        );
      }
      return refuse(reply, 401, "invalid request signature");
    }
    refusedInARow = 0;
    let interaction: APIInteraction;
    try {
      interaction = JSON.parse(body.toString("utf8")) as APIInteraction;
    } catch {
      return refuse(reply, 400, "the body is not JSON");
    }
    if (typeof interaction !== "object" || interaction === null || typeof interaction.id !== "string") {
      return refuse(reply, 400, "the body is not an interaction");
    }
    // Created longer ago than Discord waits (the header's whole seconds let some through). The core
    // never sees it, so its arrival is read here (the core reads the others'). A PING asks nothing
    // and is answered whatever its age: Discord's check of the endpoint must pass on any clock.
    if (
      interaction.type !== InteractionType.Ping &&
      interactionAgeMs(interaction.id, clock.now()) >= RESPONSE_DEADLINE_MS
    ) {
      const inHand = core.inFlight();
      if (clock.mayBeBehind(inHand)) behindUntil = now() + BEHIND_FOR_MS;
      clock.arrived(interaction.id, inHand);
      return refuseLate(reply, "the interaction came after Discord's deadline");
    }
    // Remembered a little past the window, so a replay is refused as long as its timestamp passes.
    // The interaction's id alone: a replay of the signed bytes carries the same id, and a signature
    // is only valid over those bytes (Ed25519 signs deterministically, and OpenSSL refuses the
    // non-canonical forms), so a second claim on the signature refused nothing more while holding
    // a 138-character key per interaction for 10 minutes (the heap soak's growth, issue 23).
    const ttlMs = 2 * MAX_AGE_SECONDS * 1000;
    if (!(await replayGuard.claim(`interaction:${interaction.id}`, ttlMs, signedAt * 1000))) {
      return refuse(reply, 401, "the request was already received");
    }
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
