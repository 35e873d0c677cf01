import { GraphQLClient } from "graphql-request";
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

/** An exchange whose JSON body graphql-request already parsed (`json`), so it is parsed once. */
interface ParsedExchange extends HttpExchange {
  json?: unknown;
}

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
 * Creates the GraphQL transport. graphql-request builds and sends the request (POST, JSON body
 * `{query, variables, operationName}`); its `fetch` is wrapped so this module sees the answer as it
 * came over the wire (status, headers, body text) and interprets it by GitHub's rules, which
 * graphql-request's own error handling does not know (a 200 that is a rate limit, a 403 that is a
 * secondary limit, partial data). The body is read once and parsed once (issue 23): graphql-request
 * reads it through the wrapped Response and parses it through this module's serializer, which keeps
 * the result; the document is not parsed per call.
 */
export function createGraphQLTransport(options: GraphQLTransportOptions): GraphQLTransport {
  const headersOf = (token: string): Record<string, string> => ({
    Authorization: `bearer ${token}`,
    "User-Agent": options.userAgent,
    Accept: "application/json",
    "Content-Type": "application/json",
  });

  async function sendOnce(call: GraphQLCall<unknown>, signal: AbortSignal): Promise<ParsedExchange> {
    let answer: { status: number; headers: Headers; bodyText?: string; json?: unknown } | undefined;
    // The answer as it came over the wire: graphql-request reads the body once, through this text().
    const capturingFetch: typeof fetch = async (input, init) => {
      const response = await options.fetch(input, { ...init, signal });
      const seen: NonNullable<typeof answer> = { status: response.status, headers: response.headers };
      answer = seen;
      const read = response.text.bind(response);
      Object.defineProperty(response, "text", {
        value: async () => (seen.bodyText = await read()),
      });
      return response;
    };
    const client = new GraphQLClient(options.url, {
      fetch: capturingFetch,
      errorPolicy: "all",
      headers: headersOf(call.token),
      // graphql-request would parse the document on every call only to find its operation's name:
      // the name is known (every document is named after its key in DOCUMENTS,
      // test/github/documents.test.ts), so it is written into the body here instead.
      excludeOperationName: true,
      jsonSerializer: {
        stringify: (value: unknown) =>
          JSON.stringify(
            typeof value === "object" && value !== null && "query" in value
              ? { ...value, operationName: call.operation }
              : value,
          ),
        // The one parse of the answer: graphql-request's is kept for this module's reading of it.
        parse: (text: string) => {
          const json: unknown = JSON.parse(text);
          if (answer) answer.json = json;
          return json;
        },
      },
    });
    try {
      await client.rawRequest(DOCUMENTS[call.operation], call.variables);
    } catch (error) {
      // graphql-request throws on any non-2xx or non-JSON answer; the captured exchange is what
      // counts. Without one, the request never got an answer (network, deadline): rethrow.
      if (answer?.bodyText === undefined) throw error;
    }
    if (answer?.bodyText === undefined) throw new Error("graphql-request finished without reading an answer");
    return { status: answer.status, headers: answer.headers, bodyText: answer.bodyText, json: answer.json };
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
      const body = (exchange as ParsedExchange).json ?? parseJsonBody(exchange.bodyText);
      const envelope = graphqlEnvelopeSchema.safeParse(body);
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
