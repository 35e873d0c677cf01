import { performance } from "node:perf_hooks";
import type { Logger } from "../../logger.js";
import { UpstreamError, UpstreamTimeoutError, type GitHubRequestInfo } from "../errors.js";
import { isConnectionReset, isNetworkError } from "./networkErrors.js";

/** One HTTP answer, read in full: status, headers and the body as text. */
export interface HttpExchange {
  status: number;
  headers: Headers;
  bodyText: string;
}

/** How one attempt goes over the wire. It must honour `signal` for the request and the body. */
export type SendAttempt = (signal: AbortSignal) => Promise<HttpExchange>;

export interface ExchangeOptions {
  request: GitHubRequestInfo;
  send: SendAttempt;
  /** The deadline of the whole exchange, retries included. */
  timeoutMs: number;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  logger: Logger;
}

/** A read is tried at most this many times. */
export const MAX_ATTEMPTS = 2;
/** The jittered pause before the second attempt: 100 to 400 ms. */
export const RETRY_DELAY_MIN_MS = 100;
export const RETRY_DELAY_SPREAD_MS = 300;

const TIMEOUT_BODY = /Something went wrong while executing your query/i;

/**
 * True for GitHub's "Something went wrong while executing your query. This may be the result of a
 * timeout..." body: GitHub already spent its 10 seconds, so it is a timeout, never retried.
 */
export function isTimeoutBody(bodyText: string): boolean {
  return TIMEOUT_BODY.test(bodyText);
}

function retryableStatus(exchange: HttpExchange): boolean {
  return (exchange.status === 502 || exchange.status === 503) && !isTimeoutBody(exchange.bodyText);
}

/**
 * Sends a read with a deadline and at most one retry, and returns the answer GitHub gave,
 * whatever its status (the caller interprets it).
 *
 * - The deadline (`timeoutMs`) covers every attempt and the pauses between them; when it passes,
 *   the request is aborted and {@link UpstreamTimeoutError} is thrown.
 * - A reset connection, a 502 or a 503 is retried once after a jittered 100-400 ms pause, only if
 *   the pause and a new attempt still fit before the deadline. 4xx answers, 504 and GitHub's
 *   timeout body are returned as they are: retrying them would only waste time or budget.
 * - Another network failure (refused, DNS) becomes {@link UpstreamError} `unreachable`.
 */
export async function exchangeWithRetry(options: ExchangeOptions): Promise<HttpExchange> {
  const { request, send, timeoutMs, random, sleep, logger } = options;
  const startedAt = performance.now();
  const deadline = startedAt + timeoutMs;
  const signal = AbortSignal.timeout(timeoutMs);

  const pause = (): number => RETRY_DELAY_MIN_MS + Math.floor(random() * RETRY_DELAY_SPREAD_MS);

  for (let attempt = 1; ; attempt++) {
    const attemptStartedAt = performance.now();
    let retryReason: string;
    let giveUp: () => HttpExchange;
    try {
      if (signal.aborted) throw signal.reason;
      const exchange = await send(signal);
      logger.debug(
        {
          operation: request.operation,
          status: exchange.status,
          durationMs: Math.round(performance.now() - attemptStartedAt),
          attempt,
          rateLimitRemaining: exchange.headers.get("x-ratelimit-remaining") ?? undefined,
        },
        "github request",
      );
      if (!retryableStatus(exchange) || attempt >= MAX_ATTEMPTS) return exchange;
      retryReason = `HTTP ${exchange.status}`;
      giveUp = () => exchange;
    } catch (error) {
      if (signal.aborted) {
        logger.warn(
          {
            operation: request.operation,
            attempt,
            timeoutMs,
            durationMs: Math.round(performance.now() - startedAt),
          },
          "github request timed out",
        );
        throw new UpstreamTimeoutError({ request, cause: error });
      }
      if (!isNetworkError(error)) throw error;
      if (attempt >= MAX_ATTEMPTS || !isConnectionReset(error)) {
        logger.warn({ operation: request.operation, attempt, err: error }, "github could not be reached");
        throw new UpstreamError("unreachable", { request, cause: error });
      }
      retryReason = "connection reset";
      giveUp = () => {
        throw new UpstreamError("unreachable", { request, cause: error });
      };
    }

    const delay = pause();
    // A retry that cannot finish before the deadline would only turn this answer into a timeout.
    if (performance.now() + delay >= deadline) return giveUp();
    logger.warn(
      { operation: request.operation, attempt, delayMs: delay, reason: retryReason },
      "retrying github request",
    );
    await sleep(delay);
  }
}
