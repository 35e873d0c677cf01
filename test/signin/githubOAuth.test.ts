import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitHubOAuthError, createGitHubOAuth, type OAuthFailure } from "../../src/signin/githubOAuth.js";
import {
  DEMO_APPS,
  DEMO_LOGIN,
  startGitHubStandIn,
  type GitHubStandIn,
} from "../../src/sandbox/github/index.js";

/**
 * The bot's OAuth calls (through @octokit/oauth-methods) against the stand-in: GitHub's `error` is
 * read whether it comes with 200 (most captures) or 400 (one capture), and failures say nothing secret.
 */

async function failureOf(promise: Promise<unknown>): Promise<OAuthFailure> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof GitHubOAuthError))
    throw new Error(`expected a GitHubOAuthError, got ${String(error)}`);
  return error.failure;
}

for (const errorStatus of [200, 400] as const) {
  describe(`OAuth calls when GitHub reports errors with HTTP ${errorStatus}`, () => {
    let github: GitHubStandIn;
    beforeAll(async () => {
      github = await startGitHubStandIn({
        deviceFlow: { intervalSeconds: 0.02, slowDownSeconds: 0.02, errorStatus },
      });
    });
    afterAll(async () => {
      await github?.close();
    });
    const client = (clientId: string = DEMO_APPS.oauthApp.clientId) =>
      createGitHubOAuth({
        webUrl: github.webUrl,
        apiUrl: github.restUrl,
        clientId,
        clientSecret: DEMO_APPS.oauthApp.clientSecret,
        userAgent: "RepoScout/test",
      });

    it("reads pending, slow_down with its interval, the token once approved, and revokes it", async () => {
      const oauth = client();
      const code = await oauth.requestDeviceCode();
      expect(code).toMatchObject({ verificationUri: `${github.webUrl}/login/device`, intervalSeconds: 0.02 });
      github.oauth.injectSlowDown(1);
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(await failureOf(oauth.exchangeDeviceCode(code.deviceCode))).toEqual({
        kind: "oauth",
        code: "slow_down",
        status: errorStatus,
        interval: 0.04,
      });
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(await failureOf(oauth.exchangeDeviceCode(code.deviceCode))).toMatchObject({
        code: "authorization_pending",
        status: errorStatus,
      });
      github.oauth.approve(code.userCode, DEMO_LOGIN);
      await new Promise((resolve) => setTimeout(resolve, 60));
      const grant = await oauth.exchangeDeviceCode(code.deviceCode);
      expect(grant).toMatchObject({ refreshToken: null, expiresAt: null });
      expect(grant.token).toMatch(/^gho_/);
      await oauth.revoke(grant.token);
      expect(github.oauth.isActive(grant.token)).toBe(false);
      expect(await failureOf(oauth.revoke(grant.token))).toEqual({ kind: "unavailable", status: 404 });
    });

    it("renews a GitHub App's token without the client secret, and reads bad_refresh_token for a used one", async () => {
      const app = DEMO_APPS.githubApp;
      const oauth = createGitHubOAuth({
        webUrl: github.webUrl,
        apiUrl: github.restUrl,
        clientId: app.clientId,
        clientSecret: undefined,
        userAgent: "RepoScout/test",
      });
      const code = await oauth.requestDeviceCode();
      github.oauth.approve(code.userCode, DEMO_LOGIN);
      await new Promise((resolve) => setTimeout(resolve, 60));
      const first = await oauth.exchangeDeviceCode(code.deviceCode);
      const renewed = await oauth.refresh(first.refreshToken!);
      expect(renewed.token).toMatch(/^ghu_/);
      expect(renewed.refreshToken).toMatch(/^ghr_/);
      expect(github.oauth.isActive(renewed.token)).toBe(true);
      expect(github.oauth.isActive(first.token)).toBe(false);
      expect(await failureOf(oauth.refresh(first.refreshToken!))).toEqual({
        kind: "oauth",
        code: "bad_refresh_token",
        status: errorStatus,
      });
    });

    it("reads device_flow_disabled and an unknown app, without a secret in the error", async () => {
      const disabled = await failureOf(client(DEMO_APPS.noDeviceFlow.clientId).requestDeviceCode());
      expect(disabled).toMatchObject({ kind: "oauth", code: "device_flow_disabled" });
      const unknown = client("Ov23liUnknownApp0000");
      const error = (await unknown.requestDeviceCode().then(
        () => null,
        (caught: unknown) => caught,
      )) as GitHubOAuthError;
      expect(error.failure).toEqual({ kind: "oauth", code: "Not Found", status: 404 });
      expect(JSON.stringify(error)).not.toContain(DEMO_APPS.oauthApp.clientSecret);
      expect(error.message).not.toContain(DEMO_APPS.oauthApp.clientSecret);
    });
  });
}

describe("OAuth calls when GitHub does not answer", () => {
  let silent: Server;
  let url: string;
  beforeAll(async () => {
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  it("gives up at the deadline, and tells a stop from a timeout", async () => {
    const oauth = createGitHubOAuth({
      webUrl: url,
      apiUrl: url,
      clientId: "Ov23liX",
      clientSecret: undefined,
      userAgent: "RepoScout/test",
      timeoutMs: 150,
    });
    expect(await failureOf(oauth.requestDeviceCode())).toEqual({ kind: "unavailable", status: null });
    const controller = new AbortController();
    const pending = failureOf(oauth.exchangeDeviceCode("x", controller.signal));
    controller.abort();
    expect(await pending).toEqual({ kind: "aborted" });
    // Without the client secret a refresh is still sent (GitHub renews device-flow tokens so).
    expect(await failureOf(oauth.refresh("ghr_x"))).toEqual({ kind: "unavailable", status: null });
  });
});
