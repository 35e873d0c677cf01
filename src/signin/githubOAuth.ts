import { createDeviceCode, deleteToken, exchangeDeviceCode, refreshToken } from "@octokit/oauth-methods";
import { request as octokitRequest } from "@octokit/request";
import { z } from "zod";
import { RenewalRefusedError, type TokenRenewer } from "../tokens/userTokens.js";

/**
 * GitHub's OAuth endpoints for the registered app behind `/login` (GITHUB-FACTS.md "Sign-in"),
 * through `@octokit/oauth-methods`, GitHub's own client for them: the device code and its exchange
 * on the web host, the refresh grant, and the revocation on the API. What this module adds is what
 * RepoScout needs around it: a deadline on every call, the stop signal, answers checked with zod,
 * expiry measured on our own clock, and GitHub's `error` read whatever the HTTP status (GitHub
 * answers most OAuth errors with 200, the library turns them into a RequestError with status 400,
 * and one capture shows a real 400).
 *
 * Nothing here logs: a RequestError of the library carries the request body, which holds the client
 * secret and the refresh token, so callers log only {@link OAuthFailure}.
 */

/** What GitHub answered `POST {web}/login/device/code`. */
export interface DeviceCodeGrant {
  /** Secret: whoever holds it (with the client id) can collect the token. Never shown or logged. */
  deviceCode: string;
  /** What the person types on GitHub's device page. */
  userCode: string;
  verificationUri: string;
  expiresInSeconds: number;
  intervalSeconds: number;
}

/** A user token as GitHub issued or renewed it. */
export interface TokenGrant {
  token: string;
  /** A GitHub App's refresh token, when its user tokens expire. */
  refreshToken: string | null;
  /** ISO, measured from when the answer arrived on our clock; null when the token does not expire. */
  expiresAt: string | null;
  refreshTokenExpiresAt: string | null;
}

/** Why a call failed, without anything secret. */
export type OAuthFailure =
  /** GitHub answered with an OAuth `error` (`authorization_pending`, `bad_refresh_token`...). */
  | { kind: "oauth"; code: string; status: number; interval?: number }
  /** No usable answer: a network error, the deadline, a 5xx, or a body that was not expected. */
  | { kind: "unavailable"; status: number | null }
  /** The caller's signal ended it (the bot is stopping). */
  | { kind: "aborted" };

/** A failed OAuth call. Its message and fields never hold a token or the client secret. */
export class GitHubOAuthError extends Error {
  constructor(readonly failure: OAuthFailure) {
    super(
      failure.kind === "oauth"
        ? `GitHub answered ${failure.code} (HTTP ${failure.status})`
        : failure.kind === "aborted"
          ? "aborted"
          : `GitHub's OAuth endpoint did not answer usably (HTTP ${failure.status ?? "none"})`,
    );
    this.name = "GitHubOAuthError";
  }
}

/** The app's OAuth calls (see the module comment). */
export interface GitHubOAuth {
  readonly clientId: string;
  /** Whether the client secret is configured: tokens can be revoked. */
  readonly hasSecret: boolean;
  /** @throws GitHubOAuthError */
  requestDeviceCode(signal?: AbortSignal): Promise<DeviceCodeGrant>;
  /** One poll. @throws GitHubOAuthError (`authorization_pending`, `slow_down`... are OAuth failures) */
  exchangeDeviceCode(deviceCode: string, signal?: AbortSignal): Promise<TokenGrant>;
  /**
   * Renews an expiring token; the refresh token is used up. Without the client secret, with the
   * client id and the refresh token alone: GitHub renews a device-flow token so (a public client).
   * @throws GitHubOAuthError
   */
  refresh(refreshToken: string, signal?: AbortSignal): Promise<TokenGrant>;
  /** Revokes a token (204). @throws GitHubOAuthError, or Error without the secret */
  revoke(token: string, signal?: AbortSignal): Promise<void>;
}

export interface GitHubOAuthOptions {
  /** The web host (`https://github.com`, `https://HOST`): device code and token endpoints. */
  webUrl: string;
  /** The REST base (`https://api.github.com`, `https://HOST/api/v3`): revocation. */
  apiUrl: string;
  clientId: string;
  clientSecret: string | undefined;
  userAgent: string;
  fetch?: typeof fetch;
  /** Deadline of one call (default 10 s, as for every GitHub call). */
  timeoutMs?: number;
  now?: () => number;
}

/** Device flow scopes for an OAuth app: `repo` is the only scope that reads private code (a GitHub App ignores it). */
const OAUTH_APP_SCOPES = ["repo"];

const deviceCodeSchema = z.object({
  device_code: z.string().min(1),
  user_code: z.string().regex(/^[A-Za-z0-9-]{4,32}$/),
  verification_uri: z.url({ protocol: /^https?$/ }),
  expires_in: z.number().positive(),
  interval: z.number().nonnegative(),
});

const tokenSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_in: z.number().positive().optional(),
  refresh_token_expires_in: z.number().positive().optional(),
});

const requestErrorShape = z.object({
  name: z.string().optional(),
  status: z.number().optional(),
  response: z.object({ status: z.number(), data: z.unknown() }).optional(),
});

const oauthErrorBody = z.object({ error: z.string().min(1), interval: z.number().optional() });

/** What a library error means, read from its response whatever the status (see the module comment). */
export function oauthFailureOf(error: unknown, signal: AbortSignal | undefined): OAuthFailure {
  if (signal?.aborted) return { kind: "aborted" };
  const parsed = requestErrorShape.safeParse(error);
  if (!parsed.success) return { kind: "unavailable", status: null };
  const body = oauthErrorBody.safeParse(parsed.data.response?.data);
  if (body.success && parsed.data.response) {
    return {
      kind: "oauth",
      code: body.data.error,
      status: parsed.data.response.status,
      ...(body.data.interval !== undefined ? { interval: body.data.interval } : {}),
    };
  }
  return { kind: "unavailable", status: parsed.data.response?.status ?? null };
}

/** Creates the OAuth calls of the app named by `clientId` (GITHUB_OAUTH_CLIENT_ID). */
export function createGitHubOAuth(options: GitHubOAuthOptions): GitHubOAuth {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? Date.now;
  const { clientId, clientSecret } = options;

  /** The library's `request`, on a base URL, with the deadline and the caller's signal. */
  function requestOn(baseUrl: string, signal: AbortSignal | undefined) {
    const deadline = AbortSignal.timeout(timeoutMs);
    return octokitRequest.defaults({
      baseUrl,
      headers: { "user-agent": options.userAgent },
      request: {
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      },
    });
  }

  async function call<T>(signal: AbortSignal | undefined, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      throw new GitHubOAuthError(oauthFailureOf(error, signal));
    }
  }

  function grantOf(data: unknown): TokenGrant {
    const parsed = tokenSchema.safeParse(data);
    if (!parsed.success) throw new GitHubOAuthError({ kind: "unavailable", status: 200 });
    const at = now();
    const inSeconds = (seconds: number | undefined): string | null =>
      seconds === undefined ? null : new Date(at + seconds * 1000).toISOString();
    return {
      token: parsed.data.access_token,
      refreshToken: parsed.data.refresh_token ?? null,
      expiresAt: inSeconds(parsed.data.expires_in),
      refreshTokenExpiresAt: parsed.data.refresh_token
        ? inSeconds(parsed.data.refresh_token_expires_in)
        : null,
    };
  }

  function secret(): string {
    if (!clientSecret) throw new Error("GITHUB_OAUTH_CLIENT_SECRET is not configured");
    return clientSecret;
  }

  return {
    clientId,
    hasSecret: clientSecret !== undefined,
    async requestDeviceCode(signal) {
      const response = await call(signal, () =>
        createDeviceCode({
          clientType: "oauth-app",
          clientId,
          scopes: OAUTH_APP_SCOPES,
          request: requestOn(options.webUrl, signal),
        }),
      );
      const parsed = deviceCodeSchema.safeParse(response.data);
      if (!parsed.success) throw new GitHubOAuthError({ kind: "unavailable", status: response.status });
      return {
        deviceCode: parsed.data.device_code,
        userCode: parsed.data.user_code,
        verificationUri: parsed.data.verification_uri,
        expiresInSeconds: parsed.data.expires_in,
        intervalSeconds: parsed.data.interval,
      };
    },
    async exchangeDeviceCode(deviceCode, signal) {
      // "github-app" makes the library keep the refresh token when there is one and never split a
      // missing `scope`; an OAuth app's answer reads the same through it.
      const response = await call(signal, () =>
        exchangeDeviceCode({
          clientType: "github-app",
          clientId,
          code: deviceCode,
          request: requestOn(options.webUrl, signal),
        }),
      );
      return grantOf(response.data);
    },
    async refresh(token, signal) {
      if (clientSecret !== undefined) {
        const response = await call(signal, () =>
          refreshToken({
            clientType: "github-app",
            clientId,
            clientSecret,
            refreshToken: token,
            request: requestOn(options.webUrl, signal),
          }),
        );
        return grantOf(response.data);
      }
      // The library's refresh takes a secret; a device-flow token needs none, so the same grant is
      // sent without it. GitHub answers its errors with 200 and an `error` field, read as above.
      const response = await call(signal, () =>
        requestOn(options.webUrl, signal)("POST /login/oauth/access_token", {
          headers: { accept: "application/json" },
          client_id: clientId,
          grant_type: "refresh_token",
          refresh_token: token,
        }),
      );
      const refused = oauthErrorBody.safeParse(response.data);
      if (refused.success) {
        throw new GitHubOAuthError({ kind: "oauth", code: refused.data.error, status: response.status });
      }
      return grantOf(response.data);
    },
    async revoke(token, signal) {
      const clientSecretValue = secret();
      await call(signal, () =>
        deleteToken({
          clientType: "oauth-app",
          clientId,
          clientSecret: clientSecretValue,
          token,
          request: requestOn(options.apiUrl, signal),
        }),
      );
    },
  };
}

/**
 * The user tokens' renewer over the app's refresh grant: GitHub's refusal becomes
 * {@link RenewalRefusedError} (the sign-in ends); anything else means GitHub could not be asked.
 */
export function renewerFor(oauth: GitHubOAuth): TokenRenewer {
  return async (refreshToken) => {
    try {
      return await oauth.refresh(refreshToken);
    } catch (error) {
      if (error instanceof GitHubOAuthError && error.failure.kind === "oauth") {
        throw new RenewalRefusedError(error.failure.code);
      }
      throw error;
    }
  };
}
