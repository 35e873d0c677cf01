import { rateLimitFromHeaders } from "../rateLimits.js";
import { viewerDataSchema } from "../schemas.js";
import type { RateLimitSnapshot, Viewer } from "../types.js";
import type { Credentials, OperationDeps } from "./operationDeps.js";

/**
 * The login of the token and its GraphQL budget (`/whoami`, and `/token set` to check a token).
 * The `rateLimit` field fills the rate-limit book when the answer carried no `x-ratelimit-*`
 * headers (a proxy that strips them).
 */
export async function fetchViewer(deps: OperationDeps, credentials: Credentials): Promise<Viewer> {
  const { data, exchange } = await deps.graphql.execute({
    ...credentials,
    operation: "Viewer",
    variables: {},
    schema: viewerDataSchema,
  });
  const observedAt = deps.now();
  const fromField: RateLimitSnapshot | undefined = data.rateLimit
    ? {
        resource: "graphql",
        limit: data.rateLimit.limit,
        remaining: data.rateLimit.remaining,
        used: data.rateLimit.used,
        resetAt: isoOrSame(data.rateLimit.resetAt),
        observedAt: observedAt.toISOString(),
      }
    : undefined;
  const fromHeaders = rateLimitFromHeaders(exchange.headers, observedAt);
  if (fromField && !fromHeaders) deps.book.record(credentials.fingerprint, fromField);
  return { login: data.viewer.login, rateLimit: fromField ?? fromHeaders ?? null };
}

function isoOrSame(value: string): string {
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}
