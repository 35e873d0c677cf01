import {
  DefaultRestOptions,
  DefaultUserAgent,
  DefaultUserAgentAppendix,
  DiscordAPIError,
  type DiscordErrorData,
  type OAuthErrorData,
  REST,
} from "discord.js";
import { Routes, type Snowflake } from "discord-api-types/v10";
import { Agent, Pool, request } from "undici";
import { settleWithin } from "../../timeouts.js";

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
  /** Closes the connections kept open (see {@link closeDiscordAgent}). */
  close(): Promise<void>;
}

/**
 * Connections kept to Discord for interactions' requests, at most: by the callback route (first
 * responses), again by the REST that edits and follows them up, and again by the bot's own REST
 * (threads, messages). Requests beyond these wait in
 * undici's queue, which costs nothing while they wait.
 *
 * Unbounded (undici's default, and discord.js REST's), a burst past what the process keeps up with
 * opened a connection for every request waiting, each a handshake (a TLS one at discord.com) for
 * the bot and for Discord, which slowed every answer further. At 1,600 interactions a second on a
 * cpu shared with another busy process, three runs opened 7,000-12,800 connections for 16,000
 * interactions and left 238, 3,347 and 9,489 of them late. Bounded (64, 128 or 256), 9 runs out of
 * 10 had none late, with 200-1,750 connections in all.
 *
 * Discord answers a callback in tens to a few hundred ms, so 128 connections carry 600 or more first
 * responses a second even at the slowest, more than one process can answer (the bench's knee).
 */
export const INTERACTION_CONNECTIONS = 128;

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

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { message: text };
  }
}

/**
 * An undici agent for Discord's API keeping at most {@link INTERACTION_CONNECTIONS} connections to
 * it; a connection not made within 30 s fails (and is sent again). The bot's own REST (threads,
 * messages, its user, the gateway's address) takes one too, rather than undici's global dispatcher
 * that discord.js REST uses by default: bounded alike, and closed when the bot stops (the global
 * one kept its connections to Discord open past the stop, and shared them with every other user of
 * `fetch` in the process).
 */
export function createDiscordAgent(): Agent {
  const pools = new Set<Pool>();
  const agent = new Agent({
    connect: { timeout: 30_000 },
    connections: INTERACTION_CONNECTIONS,
    // The agent's pools, kept so that a close can cut them (see closeDiscordAgent).
    factory: (origin, options) => {
      for (const pool of pools) if (pool.closed || pool.destroyed) pools.delete(pool);
      const pool = new Pool(origin, options);
      pools.add(pool);
      return pool;
    },
  });
  poolsOf.set(agent, pools);
  return agent;
}

/**
 * How long closing an agent for Discord waits for the requests still in flight before it cuts their
 * connections: a stop comes after the core drained, so what is left is a request Discord is slow to
 * answer (or never answers), which would otherwise hold the stop for REST's 15 s timeout, past the
 * process's own stop deadline (10 s).
 */
export const CLOSE_GRACE_MS = 1_000;

/** The pools of each agent made by createDiscordAgent. */
const poolsOf = new WeakMap<Agent, Set<Pool>>();

/**
 * Closes an agent for Discord: its requests in flight get {@link CLOSE_GRACE_MS} to finish, then its
 * connections are cut (those requests fail with undici's `UND_ERR_DESTROYED`).
 */
export async function closeDiscordAgent(agent: Agent, graceMs = CLOSE_GRACE_MS): Promise<void> {
  if (!(await settleWithin(agent.close(), graceMs)).timedOut) return;
  // Not `agent.destroy()`: undici's agent lets go of its pools as it starts closing, and a destroy
  // after a close reaches none of them (the request then waits out its own timeout).
  await Promise.all([...(poolsOf.get(agent) ?? [])].map((pool) => pool.destroy()));
}

/**
 * The REST that edits and follows up interactions (their webhook routes), on an agent of its own
 * (see {@link INTERACTION_CONNECTIONS}): a burst of deferred answers' edits must not open a
 * connection each. Webhook routes are not under the global rate limit. `close()` closes its
 * connections (see {@link closeDiscordAgent}).
 */
export function createInteractionsRest(options: { apiUrl: string; closeGraceMs?: number }): {
  rest: REST;
  close(): Promise<void>;
} {
  const agent = createDiscordAgent();
  const rest = new REST({ api: options.apiUrl, globalRequestsPerSecond: Number.POSITIVE_INFINITY, agent });
  return { rest, close: () => closeDiscordAgent(agent, options.closeGraceMs) };
}

/**
 * The callback route of the API at `apiUrl` (`https://discord.com/api`), REST being `fallback`,
 * over at most {@link INTERACTION_CONNECTIONS} connections.
 */
export function createCallbackRoute(options: {
  apiUrl: string;
  fallback: REST;
  closeGraceMs?: number;
}): CallbackRoute {
  const base = `${options.apiUrl}/v${DefaultRestOptions.version}`;
  const agent = createDiscordAgent();
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

  return {
    async post(id, token, body, withResponse) {
      const url = `${base}${Routes.interactionCallback(id, token)}${withResponse ? "?with_response=true" : ""}`;
      let answer: Awaited<ReturnType<typeof request>>;
      try {
        answer = await request(url, {
          method: "POST",
          body,
          headers,
          dispatcher: agent,
          headersTimeout: TIMEOUT_MS,
          bodyTimeout: TIMEOUT_MS,
        });
      } catch (error) {
        if (retried(error)) return throughRest(id, token, body, withResponse);
        throw error;
      }
      const { statusCode } = answer;
      if (statusCode === 429 || statusCode >= 500) {
        await answer.body.dump();
        return throughRest(id, token, body, withResponse);
      }
      const text = await answer.body.text();
      if (statusCode >= 400) {
        const data = parsed(text) as DiscordErrorData | OAuthErrorData;
        throw new DiscordAPIError(data, "code" in data ? data.code : data.error, statusCode, "POST", url, {
          body,
        });
      }
      return withResponse && text !== "" ? parsed(text) : undefined;
    },
    close: () => closeDiscordAgent(agent, options.closeGraceMs),
  };
}
