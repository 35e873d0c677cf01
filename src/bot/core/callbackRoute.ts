import {
  DefaultRestOptions,
  DefaultUserAgent,
  DefaultUserAgentAppendix,
  DiscordAPIError,
  type DiscordErrorData,
  type OAuthErrorData,
  type REST,
} from "discord.js";
import { RESTJSONErrorCodes, Routes, type Snowflake } from "discord-api-types/v10";
import type { Dispatcher } from "undici";
import { interactionAgeMs, RESPONSE_DEADLINE_MS } from "./deferral.js";
import { createDiscordConnections, DISCORD_CONNECTIONS } from "./discordConnections.js";

/**
 * The first response of an interaction, sent on the callback route by undici itself rather than
 * through discord.js's REST (issue 23). The route is the interaction's own (its id and token), so
 * REST's rate-limit bucket, queue and handler for it serve one request each and are swept later;
 * it is also the one request whose time the asker waits through, under Discord's 3 seconds. Sent
 * here, the callback reached the wire 0.1-0.15 ms sooner on a cached answer (recv to request
 * headers written, p50, this machine), about a third of the bot's lead over a bare discord.js bot.
 *
 * What REST would do besides sending is kept: the same user agent; Discord's refusal (4xx) thrown
 * as REST throws it ({@link DiscordAPIError}, its code read by the core: 10062 and 40060 included);
 * and everything REST retries (a 429, a 5xx, a reset connection, no answer within its timeout) is
 * handed to REST as it stands, which sends it again and waits, retries or throws as before. As
 * with REST, a callback sent again after a reset may meet "already acknowledged" (40060).
 */
export interface CallbackRoute {
  /**
   * POSTs `body` (the interaction response's JSON) to the interaction's callback route.
   * @returns the parsed answer with `withResponse` (the created message), else undefined.
   * @throws DiscordAPIError when Discord refuses it; whatever REST throws for what it took over.
   */
  post(id: Snowflake, token: string, body: string | Buffer, withResponse: boolean): Promise<unknown>;
  /** Closes the connections kept open (see DiscordConnections.close in ./discordConnections.ts). */
  close(): Promise<void>;
}

/**
 * A first response not sent: its interaction's 3 s passed while it waited for a connection, and
 * Discord would refuse it. Carries Discord's code for that refusal (10062, Unknown interaction), so
 * that the core ends the interaction as it ends one Discord refused.
 */
export class LateResponseError extends Error {
  readonly code = RESTJSONErrorCodes.UnknownInteraction;
  constructor() {
    super("the interaction's 3 s passed while its first response waited for a connection: not sent");
    this.name = "LateResponseError";
  }
}

/**
 * Takes turns on the route's connections, in arrival order, so that a response is looked at again
 * when its turn comes rather than waiting inside undici's pool, where nothing can drop it.
 */
function turns(size: number): { take(): Promise<void> | undefined; give(): void } {
  let taken = 0;
  const waiting: Array<() => void> = [];
  return {
    /** Undefined when a turn is free now (no promise to wait on, the usual case), else the wait for one. */
    take() {
      if (taken < size) {
        taken++;
        return undefined;
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    give() {
      const next = waiting.shift();
      if (next) next();
      else taken--;
    },
  };
}

/** What a send gives for a response REST is to send again (see {@link CallbackRoute}). */
const THROUGH_REST = Symbol("through REST");

/** REST's own bound of a request (`timeout`, 15 s), for the headers and for the body. */
const TIMEOUT_MS = DefaultRestOptions.timeout;

/** Codes of a connection that failed under the request, which REST sends again (ECONNRESET, a timeout). */
const RETRIED_CODES = new Set([
  "ECONNRESET",
  "UND_ERR_SOCKET",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function retried(error: unknown): boolean {
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  return typeof code === "string" && RETRIED_CODES.has(code);
}

/** A response's status and body, read whole. */
interface Answer {
  statusCode: number;
  text: string;
}

/**
 * POSTs through undici's dispatcher with a handler of its own: the status and the body's bytes,
 * nothing more. undici's `request` wraps each response in an async resource, a header object and a
 * readable stream, read back as text: for a 204 of a few hundred bytes, that was most of what the
 * POST cost the bot. In a cold 1,600/s run undici and the Node streams under it took 390 ms of the
 * bot's first 1.25 s (steady: about 80 ms), much of it compiling `request`'s response path; with
 * this handler, 204 ms (`--cpu-prof`). Failures are undici's own errors, as `request` throws them.
 */
function post(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let statusCode = 0;
    const chunks: Buffer[] = [];
    dispatcher.dispatch(options, {
      onConnect() {},
      onError: reject,
      onHeaders(status) {
        // An informational answer (1xx) comes before the response itself: not the status.
        if (status >= 200) statusCode = status;
        return true;
      },
      onData(chunk) {
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        resolve({
          statusCode,
          text: chunks.length === 0 ? "" : Buffer.concat(chunks).toString("utf8"),
        });
      },
    });
  });
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { message: text };
  }
}

/**
 * The callback route of the API at `apiUrl` (`https://discord.com/api`), REST being `fallback`,
 * over connections of its own (./discordConnections.ts).
 */
export function createCallbackRoute(options: {
  apiUrl: string;
  fallback: REST;
  closeGraceMs?: number;
  /** Discord's time, by which an interaction's age is read (./discordClock.ts; default this machine's clock). */
  now?: () => number;
}): CallbackRoute {
  const now = options.now ?? Date.now;
  const base = `${options.apiUrl}/v${DefaultRestOptions.version}`;
  const { origin, pathname } = new URL(base);
  const connections = createDiscordConnections();
  const headers = {
    "content-type": "application/json",
    "user-agent": `${DefaultUserAgent} ${DefaultUserAgentAppendix}`.trimEnd(),
  };

  const throughRest = async (id: Snowflake, token: string, body: string | Buffer, withResponse: boolean) => {
    const answer = await options.fallback.post(Routes.interactionCallback(id, token), {
      auth: false,
      body,
      passThroughBody: true,
      headers: { "Content-Type": "application/json" },
      ...(withResponse ? { query: new URLSearchParams({ with_response: "true" }) } : {}),
    });
    // REST gives an empty body of a 204 as an empty ArrayBuffer.
    return withResponse ? answer : undefined;
  };

  // As many turns as connections: a response waits here, not in the pool, and one whose interaction
  // is past Discord's 3 s when its turn comes is not sent. Under a burst past capacity every such
  // response took a connection for a refusal (10062), which made the next ones later still.
  const line = turns(DISCORD_CONNECTIONS);

  /** Sends on the route's connections; {@link THROUGH_REST} for what REST sends again instead. */
  const send = async (
    id: Snowflake,
    token: string,
    body: string | Buffer,
    withResponse: boolean,
  ): Promise<unknown> => {
    const path = `${pathname}${Routes.interactionCallback(id, token)}${withResponse ? "?with_response=true" : ""}`;
    let answer: Answer;
    try {
      answer = await post(connections.agent, {
        origin,
        path,
        method: "POST",
        body,
        headers,
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
    } catch (error) {
      if (retried(error)) return THROUGH_REST;
      throw error;
    }
    const { statusCode, text } = answer;
    if (statusCode === 429 || statusCode >= 500) return THROUGH_REST;
    if (statusCode >= 400) {
      const url = `${origin}${path}`;
      const data = parsed(text) as DiscordErrorData | OAuthErrorData;
      throw new DiscordAPIError(data, "code" in data ? data.code : data.error, statusCode, "POST", url, {
        body,
      });
    }
    return withResponse && text !== "" ? parsed(text) : undefined;
  };

  return {
    async post(id, token, body, withResponse) {
      const turn = line.take();
      if (turn) await turn;
      let sent: unknown;
      try {
        if (interactionAgeMs(id, now()) >= RESPONSE_DEADLINE_MS) throw new LateResponseError();
        sent = await send(id, token, body, withResponse);
      } finally {
        line.give();
      }
      // REST's retries wait on its own connections, not on a turn here.
      return sent === THROUGH_REST ? throughRest(id, token, body, withResponse) : sent;
    },
    close: () => connections.close(options.closeGraceMs),
  };
}
