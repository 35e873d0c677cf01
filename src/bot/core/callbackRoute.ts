import {
  DefaultRestOptions,
  DefaultUserAgent,
  DefaultUserAgentAppendix,
  DiscordAPIError,
  type DiscordErrorData,
  type OAuthErrorData,
  type REST,
} from "discord.js";
import { Routes, type Snowflake } from "discord-api-types/v10";
import { request } from "undici";
import { createDiscordConnections } from "./discordConnections.js";

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
 * The callback route of the API at `apiUrl` (`https://discord.com/api`), REST being `fallback`,
 * over connections of its own (./discordConnections.ts).
 */
export function createCallbackRoute(options: {
  apiUrl: string;
  fallback: REST;
  closeGraceMs?: number;
}): CallbackRoute {
  const base = `${options.apiUrl}/v${DefaultRestOptions.version}`;
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

  return {
    async post(id, token, body, withResponse) {
      const url = `${base}${Routes.interactionCallback(id, token)}${withResponse ? "?with_response=true" : ""}`;
      let answer: Awaited<ReturnType<typeof request>>;
      try {
        answer = await request(url, {
          method: "POST",
          body,
          headers,
          dispatcher: connections.agent,
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
    close: () => connections.close(options.closeGraceMs),
  };
}
