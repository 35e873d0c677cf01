/**
 * What one call to GitHub cost the token that made it, reported as the answer comes in, so that a
 * caller can meter a shared token (SPEC section 4, fair use of the default token).
 */
export interface TokenSpend {
  /** GitHub's budget the call drew on: `graphql` or `core` (REST), as `x-ratelimit-resource` says. */
  resource: string;
  /**
   * Points spent: what GitHub reports where it does (GraphQL's `rateLimit { cost }`), 0 for a
   * conditional REST request answered 304 (free when authorized), else 1 (a plain query costs 1
   * point, and so does every REST call).
   */
  points: number;
}

/** A token whose calls are metered: the client calls `onSpend` once per answer GitHub gave. */
export interface MeteredToken {
  token: string;
  onSpend(spend: TokenSpend): void;
}

/** What the client's methods take: a token, or a token with a meter. */
export type TokenUse = string | MeteredToken;

/** The cost GitHub reports in a GraphQL answer that selected `rateLimit { cost }`, if any. */
export function reportedGraphQLCost(
  data: Readonly<Record<string, unknown>> | null | undefined,
): number | undefined {
  const rateLimit = data?.rateLimit;
  if (rateLimit === null || typeof rateLimit !== "object") return undefined;
  const cost = (rateLimit as { cost?: unknown }).cost;
  return typeof cost === "number" && Number.isInteger(cost) && cost >= 0 ? cost : undefined;
}
