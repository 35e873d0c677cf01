import { setTimeout as sleep } from "node:timers/promises";
import { UserFacingError } from "../errors.js";
import type { GitHubClient } from "../github/client.js";
import { UpstreamTimeoutError } from "../github/errors.js";
import type { Logger } from "../logger.js";
import type { UserTokens } from "../tokens/userTokens.js";
import { GitHubOAuthError, type GitHubOAuth } from "./githubOAuth.js";
import { pollDeviceCode } from "./pollDeviceCode.js";

/** `/login` cannot start (or go on); src/format/errorSentence.ts says why and who can fix it. */
export class SignInUnavailableError extends UserFacingError {
  readonly code = "sign_in_unavailable";
  constructor(
    readonly reason: "notConfigured" | "noKey" | "deviceFlowDisabled" | "appUnknown",
    options?: { cause?: unknown },
  ) {
    super(options);
  }
}

/** How a sign-in ended (see src/format/signIn.ts for what the person reads). */
export type SignInOutcome =
  | { kind: "signedIn"; login: string }
  | { kind: "denied" }
  | { kind: "expired" }
  | { kind: "stopped" }
  /** GitHub refused the flow itself, with this error code (`device_flow_disabled`...). */
  | { kind: "failed"; code: string };

/** A device code shown to the person, waiting for them to answer on GitHub. */
export interface PendingSignIn {
  userCode: string;
  verificationUri: string;
  /** When the code expires (GitHub's `expires_in`). */
  expiresAt: Date;
  /**
   * Polls until the person answers, the code expires or `deadline` passes (the earlier), or `signal`
   * stops it; on approval reads the login with the token and stores the sign-in.
   * @throws only what storing or reading the login throws (a store outage, GitHub not answering).
   */
  complete(options: { signal: AbortSignal; deadline: Date }): Promise<SignInOutcome>;
}

/** What `/logout` did. */
export type SignOutResult =
  | { signedIn: false }
  | { signedIn: true; login: string; revoked: "yes" | "noSecret" | "failed"; settingsUrl: string };

/** `/login` and `/logout` (SPEC sections 1 and 4). */
export interface SignInService {
  /**
   * Asks GitHub for a device code for this person.
   * @throws SignInUnavailableError (not configured, no key, device flow disabled, unknown app) or
   *   UpstreamTimeoutError (GitHub did not answer).
   */
  start(userId: string): Promise<PendingSignIn>;
  /** Forgets the person's token and, with the client secret, revokes it at GitHub. */
  signOut(userId: string): Promise<SignOutResult>;
}

/** Where a person revokes an app's access on GitHub: OAuth apps by client id; GitHub Apps (`Iv...`) on one page. */
function settingsUrlFor(webUrl: string, clientId: string): string {
  return /^Iv/.test(clientId)
    ? `${webUrl}/settings/apps/authorizations`
    : `${webUrl}/settings/connections/applications/${encodeURIComponent(clientId)}`;
}

/**
 * Creates the sign-in service. Without `oauth` (no GITHUB_OAUTH_CLIENT_ID) `/login` says sign-in is
 * not set up, and `/logout` still forgets a token stored earlier. Logs name the Discord user and
 * the GitHub login, never a token, a device code or a user code.
 */
export function createSignInService(options: {
  oauth: GitHubOAuth | undefined;
  userTokens: UserTokens;
  github: Pick<GitHubClient, "viewer">;
  webUrl: string;
  logger: Logger;
  now?: () => number;
  /** For tests; default a timer that an abort ends. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}): SignInService {
  const { oauth, userTokens, github, logger } = options;
  const now = options.now ?? Date.now;
  const wait = options.sleep ?? ((ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal }));

  return {
    async start(userId) {
      if (!oauth) throw new SignInUnavailableError("notConfigured");
      if (!userTokens.canStore) throw new SignInUnavailableError("noKey");
      const grant = await oauth.requestDeviceCode().catch((error: unknown) => {
        const failure = error instanceof GitHubOAuthError ? error.failure : null;
        logger.warn({ userId, failure }, "sign-in: GitHub did not give a device code");
        if (failure?.kind === "oauth") {
          if (failure.code === "device_flow_disabled")
            throw new SignInUnavailableError("deviceFlowDisabled", { cause: error });
          if (failure.code === "Not Found" || failure.code === "incorrect_client_credentials")
            throw new SignInUnavailableError("appUnknown", { cause: error });
        }
        throw new UpstreamTimeoutError({ cause: error });
      });
      const expiresAt = new Date(now() + grant.expiresInSeconds * 1000);
      logger.info({ userId, expiresAt: expiresAt.toISOString() }, "sign-in started");
      return {
        userCode: grant.userCode,
        verificationUri: grant.verificationUri,
        expiresAt,
        async complete({ signal, deadline }) {
          const result = await pollDeviceCode({
            exchange: (pollSignal) => oauth.exchangeDeviceCode(grant.deviceCode, pollSignal),
            intervalSeconds: grant.intervalSeconds,
            deadline: Math.min(expiresAt.getTime(), deadline.getTime()),
            signal,
            now,
            sleep: wait,
            onUnanswered: (failure) => logger.warn({ userId, failure }, "sign-in: a poll got no answer"),
          });
          if (result.kind !== "token") {
            logger.info(
              { userId, outcome: result.kind, ...(result.kind === "failed" ? { code: result.code } : {}) },
              "sign-in ended",
            );
            return result.kind === "failed" ? { kind: "failed", code: result.code } : result;
          }
          const viewer = await github.viewer(result.grant.token);
          await userTokens.store(userId, {
            ...result.grant,
            login: viewer.login,
            signedInAt: new Date(now()).toISOString(),
            clientId: oauth.clientId,
          });
          return { kind: "signedIn", login: viewer.login };
        },
      };
    },
    async signOut(userId) {
      const session = await userTokens.forget(userId);
      if (!session) return { signedIn: false };
      const settingsUrl = settingsUrlFor(options.webUrl, session.clientId);
      logger.info({ userId, login: session.login }, "user signed out");
      if (!oauth?.hasSecret || oauth.clientId !== session.clientId) {
        return { signedIn: true, login: session.login, revoked: "noSecret", settingsUrl };
      }
      try {
        await oauth.revoke(session.token);
        return { signedIn: true, login: session.login, revoked: "yes", settingsUrl };
      } catch (error) {
        const failure = error instanceof GitHubOAuthError ? error.failure : null;
        logger.warn({ userId, failure }, "sign-out: GitHub did not revoke the token");
        return { signedIn: true, login: session.login, revoked: "failed", settingsUrl };
      }
    },
  };
}
