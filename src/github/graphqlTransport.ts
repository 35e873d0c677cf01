import type { z } from "zod";
import { DOCUMENTS, type OperationName } from "./documents.js";
import { GitHubUnauthorizedError, UpstreamError, type GitHubErrorContext } from "./errors.js";
import { requestLevelError } from "./graphqlErrors.js";
import { graphqlEnvelopeSchema, type GraphQLErrorItem } from "./schemas.js";
import { exchangeWithRetry, type HttpExchange } from "./transport/exchangeWithRetry.js";
import {
  contextOf,
  isSendableToken,
  preflightError,
  recordRateLimitHeaders,
  type FailureContext,
} from "./transport/failureContext.js";
import { httpFailure, parseJsonBody } from "./transport/httpFailure.js";
import type { RestTransportOptions } from "./restTransport.js";
import { reportedGraphQLCost, type TokenSpend } from "./tokenSpend.js";

/** What every transport needs (see RestTransportOptions), plus the GraphQL endpoint. */
export interface GraphQLTransportOptions extends RestTransportOptions {
  url: string;
}

/** One GraphQL call: the operation (its document comes from documents.ts) and its variables. */
export interface GraphQLCall<T> {
  token: string;
  fingerprint: string;
  /** Told what the answer cost (the reported `rateLimit { cost }`, else 1). */
  onSpend?: ((spend: TokenSpend) => void) | undefined;
  operation: OperationName;
  variables: Record<string, unknown>;
  /** The shape of `data` for this document. */
  schema: z.ZodType<T>;
}

/** `data` as its schema says, the field errors left to explain, and the exchange for errors. */
export interface GraphQLResult<T> {
  data: T;
  errors: GraphQLErrorItem[];
  /** The request and response, for an error raised while reading `data`. */
  context: GitHubErrorContext;
  exchange: HttpExchange;
}

export interface GraphQLTransport {
  /**
   * Sends one document and returns its data once the answer is known to be usable: HTTP failures,
   * rate limits, timeouts and query errors are thrown as the client's error classes.
   */
  execute<T>(call: GraphQLCall<T>): Promise<GraphQLResult<T>>;
}

/**
 * Creates the GraphQL transport. A GraphQL call over HTTP is one POST of `{query, variables,
 * operationName}` as JSON; the answer is read once, as it came over the wire (status, headers,
 * body text), and interpreted by GitHub's rules (a 200 that is a rate limit, a 403 that is a
 * secondary limit, partial data). graphql-request did the POST before (issue 23): it parsed each
 * document again on every call and read and parsed the body a second time, only for this module
 * to discard what it made of it.
 */
export function createGraphQLTransport(options: GraphQLTransportOptions): GraphQLTransport {
  async function sendOnce(call: GraphQLCall<unknown>, signal: AbortSignal): Promise<HttpExchange> {
    const response = await options.fetch(options.url, {
      method: "POST",
      headers: {
        Authorization: `bearer ${call.token}`,
        "User-Agent": options.userAgent,
        Accept: "application/json",
        "Content-Type": "application/json",
      },
      // Every document is named after its key in DOCUMENTS (test/github/documents.test.ts).
      body: JSON.stringify({
        query: DOCUMENTS[call.operation],
        variables: call.variables,
        operationName: call.operation,
      }),
      signal,
    });
    return { status: response.status, headers: response.headers, bodyText: await response.text() };
  }

  return {
    async execute<T>(call: GraphQLCall<T>): Promise<GraphQLResult<T>> {
      const ctx: FailureContext = {
        request: { operation: call.operation, method: "POST", url: options.url, variables: call.variables },
        fingerprint: call.fingerprint,
        book: options.book,
        now: options.now(),
      };
      if (!isSendableToken(call.token)) throw new GitHubUnauthorizedError({ request: ctx.request });
      if (options.holdWhileLimited) await options.adoptSharedHolds?.(call.fingerprint, ctx.now);
      const blocked = options.holdWhileLimited ? preflightError(ctx) : undefined;
      if (blocked) throw blocked;

      const exchange = await exchangeWithRetry({
        request: ctx.request,
        send: (signal) => sendOnce(call as GraphQLCall<unknown>, signal),
        timeoutMs: options.timeoutMs,
        random: options.random,
        sleep: options.sleep,
        logger: options.logger,
      });
      ctx.now = options.now();
      recordRateLimitHeaders(ctx, exchange);
      const spent = (points: number): void =>
        call.onSpend?.({ resource: exchange.headers.get("x-ratelimit-resource") ?? "graphql", points });

      if (exchange.status < 200 || exchange.status > 299) {
        spent(1);
        throw httpFailure(exchange, ctx, { api: "graphql" });
      }
      const envelope = graphqlEnvelopeSchema.safeParse(parseJsonBody(exchange.bodyText));
      spent((envelope.success ? reportedGraphQLCost(envelope.data.data) : undefined) ?? 1);
      if (!envelope.success) {
        throw new UpstreamError("unreadable", contextOf(ctx, exchange, envelope.error));
      }
      const failure = requestLevelError(envelope.data, exchange, ctx);
      if (failure) throw failure;
      const data = call.schema.safeParse(envelope.data.data);
      if (!data.success) throw new UpstreamError("unreadable", contextOf(ctx, exchange, data.error));
      options.book.noteSuccess(call.fingerprint);
      return {
        data: data.data,
        errors: envelope.data.errors ?? [],
        context: contextOf(ctx, exchange),
        exchange,
      };
    },
  };
}
