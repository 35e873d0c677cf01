import {
  AuthLockoutError,
  PrimaryRateLimitError,
  SecondaryRateLimitError,
  responseInfo,
  type GitHubErrorContext,
  type GitHubRequestInfo,
} from "../errors.js";
import {
  SECONDARY_MINIMUM_WAIT_MS,
  rateLimitFromHeaders,
  resetFromHeaders,
  retryAfterFromHeaders,
  type RateLimitBook,
} from "../rateLimits.js";
import type { HttpExchange } from "./exchangeWithRetry.js";

/** What the interpretation of one answer needs to know besides the answer. */
export interface FailureContext {
  request: GitHubRequestInfo;
  fingerprint: string;
  book: RateLimitBook;
  now: Date;
}

/** An authentication lockout is waited out for this long when GitHub gives no `retry-after`. */
export const LOCKOUT_WAIT_MS = 5 * 60_000;

const SECONDARY_MESSAGE = /secondary rate limit|abuse detection/i;
const LOCKOUT_MESSAGE = /login attempts|bad attempts|failed attempts/i;
const PRIMARY_MESSAGE = /API rate limit (already )?exceeded/i;

/** GitHub's "You have exceeded a secondary rate limit" (older: "abuse detection mechanism"). */
export function isSecondaryLimitMessage(message: string): boolean {
  return SECONDARY_MESSAGE.test(message);
}

/** 403 after many bad sign-in attempts ("Maximum number of login attempts exceeded"). */
export function isLockoutMessage(message: string): boolean {
  return LOCKOUT_MESSAGE.test(message);
}

/** "API rate limit exceeded for user ID N." */
export function isPrimaryLimitMessage(message: string): boolean {
  return PRIMARY_MESSAGE.test(message);
}

/** The error context of an answer: the request and the response as received. */
export function contextOf(ctx: FailureContext, exchange: HttpExchange, cause?: unknown): GitHubErrorContext {
  return {
    request: ctx.request,
    response: responseInfo(exchange.status, exchange.headers, exchange.bodyText),
    ...(cause === undefined ? {} : { cause }),
  };
}

/**
 * A secondary limit: never retried; the token waits for `retry-after`, else at least a minute,
 * doubled for each secondary limit in a row.
 */
export function secondaryLimitError(ctx: FailureContext, exchange: HttpExchange): SecondaryRateLimitError {
  const retryAt = ctx.book.noteSecondaryLimit(
    ctx.fingerprint,
    ctx.now,
    retryAfterFromHeaders(exchange.headers, ctx.now),
  );
  return new SecondaryRateLimitError(retryAt, contextOf(ctx, exchange));
}

/**
 * The primary budget is spent: wait for `retry-after`, else `x-ratelimit-reset`, else the reset
 * time last seen for the token, else a minute.
 */
export function primaryLimitError(ctx: FailureContext, exchange: HttpExchange): PrimaryRateLimitError {
  const known = ctx.book.latest(ctx.fingerprint, exchange.headers.get("x-ratelimit-resource") ?? undefined);
  const knownReset = known && known.remaining === 0 ? new Date(known.resetAt) : undefined;
  const retryAt =
    retryAfterFromHeaders(exchange.headers, ctx.now) ??
    resetFromHeaders(exchange.headers, ctx.now) ??
    (knownReset && knownReset.getTime() > ctx.now.getTime() ? knownReset : undefined) ??
    new Date(ctx.now.getTime() + SECONDARY_MINIMUM_WAIT_MS);
  return new PrimaryRateLimitError(retryAt, contextOf(ctx, exchange));
}

/** Too many bad sign-ins: the token is blocked for `retry-after`, else five minutes. */
export function lockoutError(ctx: FailureContext, exchange: HttpExchange): AuthLockoutError {
  const retryAt =
    retryAfterFromHeaders(exchange.headers, ctx.now) ?? new Date(ctx.now.getTime() + LOCKOUT_WAIT_MS);
  ctx.book.block(ctx.fingerprint, retryAt, "lockout");
  return new AuthLockoutError(retryAt, contextOf(ctx, exchange));
}

/**
 * GitHub asks clients to send nothing while a secondary limit or a lockout lasts (continuing can
 * get an integration banned), so a blocked token fails at once, without a request.
 */
export function preflightError(ctx: FailureContext): Error | undefined {
  const block = ctx.book.blocked(ctx.fingerprint, ctx.now);
  if (!block) return undefined;
  return block.reason === "lockout"
    ? new AuthLockoutError(block.until, { request: ctx.request })
    : new SecondaryRateLimitError(block.until, { request: ctx.request });
}

/** Keeps the answer's `x-ratelimit-*` figures for the token, when it carries them. */
export function recordRateLimitHeaders(ctx: FailureContext, exchange: HttpExchange): void {
  const snapshot = rateLimitFromHeaders(exchange.headers, ctx.now);
  if (snapshot) ctx.book.record(ctx.fingerprint, snapshot);
}

/** A token GitHub would refuse anyway (empty, spaces, control characters) is never sent. */
export function isSendableToken(token: string): boolean {
  return /^[\x21-\x7e]+$/.test(token);
}
