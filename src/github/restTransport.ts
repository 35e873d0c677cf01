import type { Logger } from "../logger.js";
import { GitHubUnauthorizedError } from "./errors.js";
import type { RateLimitBook } from "./rateLimits.js";
import type { TokenSpend } from "./tokenSpend.js";
import { exchangeWithRetry, type HttpExchange } from "./transport/exchangeWithRetry.js";
import {
  isSendableToken,
  preflightError,
  recordRateLimitHeaders,
  type FailureContext,
} from "./transport/failureContext.js";

export interface RestTransportOptions {
  userAgent: string;
  fetch: typeof fetch;
  timeoutMs: number;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  now: () => Date;
  logger: Logger;
  book: RateLimitBook;
  /** Fail at once, without a request, while the token is under a secondary limit or a lockout. */
  holdWhileLimited: boolean;
  /** Takes in the holds other processes noted on the token, before the preflight check. */
  adoptSharedHolds?: (fingerprint: string, now: Date) => Promise<void>;
}

/** One REST read. `variables` are the caller's arguments, kept for the log. */
export interface RestCall {
  token: string;
  fingerprint: string;
  /** Told what the answer cost: 0 for a 304 (free when authorized), else 1. */
  onSpend?: ((spend: TokenSpend) => void) | undefined;
  operation: string;
  url: string;
  variables: Record<string, unknown>;
  /** A stored ETag: the request becomes conditional and may be answered 304. */
  ifNoneMatch?: string;
}

export interface RestTransport {
  /**
   * Sends a GET with the deadline and retry rules and returns the answer whatever its status, with
   * the context its interpretation needs. Rate-limit headers are already recorded.
   */
  get(call: RestCall): Promise<{ exchange: HttpExchange; ctx: FailureContext }>;
}

/** Creates the REST v3 transport (plain `fetch`; GitHub's JSON media type). */
export function createRestTransport(options: RestTransportOptions): RestTransport {
  return {
    async get(call) {
      const ctx: FailureContext = {
        request: { operation: call.operation, method: "GET", url: call.url, variables: call.variables },
        fingerprint: call.fingerprint,
        book: options.book,
        now: options.now(),
      };
      if (!isSendableToken(call.token)) throw new GitHubUnauthorizedError({ request: ctx.request });
      if (options.holdWhileLimited) await options.adoptSharedHolds?.(call.fingerprint, ctx.now);
      const blocked = options.holdWhileLimited ? preflightError(ctx) : undefined;
      if (blocked) throw blocked;

      const headers: Record<string, string> = {
        Authorization: `bearer ${call.token}`,
        "User-Agent": options.userAgent,
        Accept: "application/vnd.github+json",
      };
      if (call.ifNoneMatch !== undefined) headers["If-None-Match"] = call.ifNoneMatch;

      const exchange = await exchangeWithRetry({
        request: ctx.request,
        send: async (signal) => {
          const response = await options.fetch(call.url, { method: "GET", headers, signal });
          return { status: response.status, headers: response.headers, bodyText: await response.text() };
        },
        timeoutMs: options.timeoutMs,
        random: options.random,
        sleep: options.sleep,
        logger: options.logger,
      });
      ctx.now = options.now();
      recordRateLimitHeaders(ctx, exchange);
      call.onSpend?.({
        resource: exchange.headers.get("x-ratelimit-resource") ?? "core",
        points: exchange.status === 304 ? 0 : 1,
      });
      return { exchange, ctx };
    },
  };
}
