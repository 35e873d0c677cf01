import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  DEMO_APPS,
  DEMO_LOGIN,
  DEMO_REPOSITORIES,
  OTHER_LOGIN,
  startGitHubStandIn,
  type GitHubStandIn,
} from "../../../src/sandbox/github/index.js";

/**
 * GitHub's sign-in as the stand-in plays it (GITHUB-FACTS.md "Sign-in"), driven over HTTP as any
 * client would: the device flow, its errors, refresh, revocation and the device page.
 */

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
let offsetMs = 0;
/** Set: the stand-in's clock stands still there, so timing checks do not depend on the machine's load. */
let frozenAt: number | null = null;
const clock = (): number => frozenAt ?? Date.now() + offsetMs;
let github: GitHubStandIn;

beforeAll(async () => {
  // A poll interval of 50 ms and +50 ms per slow_down: the rules hold, the tests stay fast.
  github = await startGitHubStandIn({
    now: clock,
    deviceFlow: { intervalSeconds: 0.05, slowDownSeconds: 0.05, expiresInSeconds: 60 },
  });
});
afterAll(async () => {
  await github?.close();
});
beforeEach(() => {
  frozenAt = null;
});

async function post(
  path: string,
  params: Record<string, string>,
  options: { json?: boolean; accept?: string } = {},
): Promise<{ status: number; type: string; body: Record<string, unknown> }> {
  const response = await fetch(`${github.webUrl}${path}`, {
    method: "POST",
    headers: {
      ...(options.accept !== undefined ? { accept: options.accept } : { accept: "application/json" }),
      "content-type": options.json ? "application/json" : "application/x-www-form-urlencoded",
    },
    body: options.json ? JSON.stringify(params) : new URLSearchParams(params).toString(),
  });
  const type = response.headers.get("content-type") ?? "";
  const text = await response.text();
  const body = type.includes("json")
    ? (JSON.parse(text) as Record<string, unknown>)
    : Object.fromEntries(new URLSearchParams(text));
  return { status: response.status, type, body };
}

async function deviceCode(clientId: string = DEMO_APPS.oauthApp.clientId, scope = "repo") {
  const answer = await post("/login/device/code", { client_id: clientId, scope });
  expect(answer.status).toBe(200);
  return answer.body as { device_code: string; user_code: string; interval: number; expires_in: number };
}

function poll(code: string, clientId: string = DEMO_APPS.oauthApp.clientId) {
  return post("/login/oauth/access_token", {
    client_id: clientId,
    device_code: code,
    grant_type: DEVICE_GRANT,
  });
}

async function pollAfterInterval(code: { device_code: string; interval: number }, clientId?: string) {
  await new Promise((resolve) => setTimeout(resolve, code.interval * 1000 + 20));
  return poll(code.device_code, clientId);
}

async function viewerOf(token: string): Promise<{ status: number; login?: string }> {
  const response = await fetch(github.graphqlUrl, {
    method: "POST",
    headers: { authorization: `bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ query: "{ viewer { login } }" }),
  });
  const body = (await response.json()) as { data?: { viewer: { login: string } } };
  return { status: response.status, ...(body.data ? { login: body.data.viewer.login } : {}) };
}

async function canRead(token: string, nameWithOwner: string): Promise<boolean> {
  const [owner, name] = nameWithOwner.split("/");
  const response = await fetch(github.graphqlUrl, {
    method: "POST",
    headers: { authorization: `bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      query: "query($o: String!, $n: String!) { repository(owner: $o, name: $n) { name } }",
      variables: { o: owner, n: name },
    }),
  });
  const body = (await response.json()) as { data?: { repository: unknown } };
  return body.data?.repository != null;
}

describe("POST /login/device/code", () => {
  it("answers form-encoded without Accept: application/json, and JSON with it", async () => {
    const form = await post(
      "/login/device/code",
      { client_id: DEMO_APPS.oauthApp.clientId, scope: "repo" },
      { accept: "" },
    );
    expect(form.type).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.keys(form.body).sort()).toEqual([
      "device_code",
      "expires_in",
      "interval",
      "user_code",
      "verification_uri",
    ]);
    const json = await deviceCode();
    expect(json.device_code).toMatch(/^[0-9a-f]{40}$/);
    expect(json.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(json).toMatchObject({
      verification_uri: `${github.webUrl}/login/device`,
      expires_in: 60,
      interval: 0.05,
    });
  });

  it("takes the parameters as JSON too (as @octokit/oauth-methods sends them)", async () => {
    const answer = await post(
      "/login/device/code",
      { client_id: DEMO_APPS.oauthApp.clientId },
      { json: true },
    );
    expect(answer.body.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
  });

  it("answers 404 {error: Not Found} for a client id it does not know", async () => {
    const answer = await post("/login/device/code", { client_id: "Ov23liNobodyKnowsThis" });
    expect(answer).toMatchObject({ status: 404, body: { error: "Not Found" } });
  });

  it("answers device_flow_disabled for an app whose device flow is off, on both endpoints", async () => {
    const answer = await post("/login/device/code", { client_id: DEMO_APPS.noDeviceFlow.clientId });
    expect(answer.body).toMatchObject({ error: "device_flow_disabled" });
    const polled = await poll("0".repeat(40), DEMO_APPS.noDeviceFlow.clientId);
    expect(polled.body.error).toBe("device_flow_disabled");
  });
});

describe("polling POST /login/oauth/access_token with the device grant", () => {
  it("answers authorization_pending, then a gho_ token with the granted scopes once approved", async () => {
    const code = await deviceCode();
    const pending = await pollAfterInterval(code);
    expect(pending).toMatchObject({
      status: 200,
      body: {
        error: "authorization_pending",
        error_description: "The authorization request is still pending.",
      },
    });
    github.oauth.approve(code.user_code, OTHER_LOGIN);
    const granted = await pollAfterInterval(code);
    expect(granted.body).toMatchObject({ token_type: "bearer", scope: "repo" });
    const token = String(granted.body.access_token);
    expect(token).toMatch(/^gho_[A-Za-z0-9]{36}$/);
    // The token reads as the person who approved, with that person's visibility.
    expect(await viewerOf(token)).toEqual({ status: 200, login: OTHER_LOGIN });
    expect(await canRead(token, DEMO_REPOSITORIES.diary)).toBe(true);
    expect(await canRead(token, DEMO_REPOSITORIES.secret)).toBe(false);
    expect(github.oauth.isActive(token)).toBe(true);
    // The code is used up.
    expect((await pollAfterInterval(code)).body.error).toBe("incorrect_device_code");
  });

  it("answers slow_down with the interval raised, counts the early poll, and stays on the new interval", async () => {
    frozenAt = Date.now();
    const code = await deviceCode();
    const before = github.oauth.stats.tooEarlyPolls;
    const early = await poll(code.device_code);
    expect(early.body).toMatchObject({ error: "slow_down", interval: 0.1 });
    expect(github.oauth.stats.tooEarlyPolls).toBe(before + 1);
    // At once again: too early for the new interval as well, which grows again.
    expect((await poll(code.device_code)).body).toMatchObject({ error: "slow_down", interval: 0.15 });
    // The stand-in's clock moves on past the new interval: the next poll is in time.
    frozenAt += 200;
    expect((await poll(code.device_code)).body.error).toBe("authorization_pending");
    expect(github.oauth.stats.tooEarlyPolls).toBe(before + 2);
  });

  it("answers access_denied after the person cancels, and expired_token once the code's time is over", async () => {
    const denied = await deviceCode();
    github.oauth.deny(denied.user_code);
    expect((await pollAfterInterval(denied)).body.error).toBe("access_denied");
    const expiring = await deviceCode();
    offsetMs += 61_000;
    try {
      expect((await pollAfterInterval(expiring)).body).toMatchObject({
        error: "expired_token",
        error_description: "This 'device_code' has expired.",
      });
      expect(() => github.oauth.approve(expiring.user_code, DEMO_LOGIN)).toThrow(/no live device code/);
    } finally {
      offsetMs -= 61_000;
    }
  });

  it("answers incorrect_device_code, incorrect_client_credentials and unsupported_grant_type", async () => {
    const code = await deviceCode();
    expect((await pollAfterInterval({ ...code, device_code: "f".repeat(40) })).body.error).toBe(
      "incorrect_device_code",
    );
    expect((await poll(code.device_code, "Ov23liNobodyKnowsThis")).body.error).toBe(
      "incorrect_client_credentials",
    );
    const wrongGrant = await post("/login/oauth/access_token", {
      client_id: DEMO_APPS.oauthApp.clientId,
      device_code: code.device_code,
      grant_type: "password",
    });
    expect(wrongGrant.body.error).toBe("unsupported_grant_type");
  });
});

describe("a GitHub App's expiring user tokens", () => {
  async function signIn(
    login: string,
  ): Promise<{ token: string; refresh: string; body: Record<string, unknown> }> {
    const code = await deviceCode(DEMO_APPS.githubApp.clientId);
    github.oauth.approve(code.user_code, login);
    const granted = await pollAfterInterval(code, DEMO_APPS.githubApp.clientId);
    return {
      token: String(granted.body.access_token),
      refresh: String(granted.body.refresh_token),
      body: granted.body,
    };
  }

  function refresh(refreshToken: string, secret: string | null = DEMO_APPS.githubApp.clientSecret) {
    return post("/login/oauth/access_token", {
      client_id: DEMO_APPS.githubApp.clientId,
      ...(secret === null ? {} : { client_secret: secret }),
      grant_type: "refresh_token",
      refresh_token: refreshToken,
    });
  }

  it("issues ghu_ with an 8-hour life and a ghr_ refresh token, and answers 401 once it expired", async () => {
    const { token, refresh: refreshToken, body } = await signIn(DEMO_LOGIN);
    expect(token).toMatch(/^ghu_[A-Za-z0-9]{36}$/);
    expect(refreshToken).toMatch(/^ghr_[A-Za-z0-9]{76}$/);
    expect(body).toMatchObject({ expires_in: 28_800, refresh_token_expires_in: 15_811_200, scope: "" });
    expect((await viewerOf(token)).login).toBe(DEMO_LOGIN);
    offsetMs += 28_800_000;
    try {
      expect((await viewerOf(token)).status).toBe(401);
    } finally {
      offsetMs -= 28_800_000;
    }
  });

  it("renews with the refresh token once: the answer is a new pair, the old refresh token is refused", async () => {
    const first = await signIn(DEMO_LOGIN);
    const before = github.oauth.stats.refreshes;
    const renewed = await refresh(first.refresh);
    expect(renewed.body).toMatchObject({ token_type: "bearer", expires_in: 28_800 });
    expect(renewed.body.access_token).not.toBe(first.token);
    expect(renewed.body.refresh_token).not.toBe(first.refresh);
    expect((await viewerOf(String(renewed.body.access_token))).login).toBe(DEMO_LOGIN);
    expect(github.oauth.stats.refreshes).toBe(before + 1);
    expect((await refresh(first.refresh)).body).toMatchObject({
      error: "bad_refresh_token",
      error_description: "The refresh token passed is incorrect or expired.",
    });
    expect((await refresh(String(renewed.body.refresh_token), "wrong")).body.error).toBe(
      "incorrect_client_credentials",
    );
  });
});

describe('a refresh, as GitHub\'s "Refreshing user access tokens" describes it', () => {
  async function signIn(): Promise<{ token: string; refresh: string }> {
    const code = await deviceCode(DEMO_APPS.githubApp.clientId);
    github.oauth.approve(code.user_code, DEMO_LOGIN);
    const granted = await pollAfterInterval(code, DEMO_APPS.githubApp.clientId);
    return { token: String(granted.body.access_token), refresh: String(granted.body.refresh_token) };
  }

  it("ends the old access token at once: it reads 401 from the moment of the refresh", async () => {
    const first = await signIn();
    expect((await viewerOf(first.token)).login).toBe(DEMO_LOGIN);
    const renewed = await post("/login/oauth/access_token", {
      client_id: DEMO_APPS.githubApp.clientId,
      client_secret: DEMO_APPS.githubApp.clientSecret,
      grant_type: "refresh_token",
      refresh_token: first.refresh,
    });
    expect((await viewerOf(String(renewed.body.access_token))).login).toBe(DEMO_LOGIN);
    expect((await viewerOf(first.token)).status).toBe(401);
    expect(github.oauth.isActive(first.token)).toBe(false);
  });

  it("renews a device-flow token with the client id and the refresh token alone, no client secret", async () => {
    const first = await signIn();
    const renewed = await post("/login/oauth/access_token", {
      client_id: DEMO_APPS.githubApp.clientId,
      grant_type: "refresh_token",
      refresh_token: first.refresh,
    });
    expect(renewed.body).toMatchObject({ token_type: "bearer", expires_in: 28_800 });
    expect((await viewerOf(String(renewed.body.access_token))).login).toBe(DEMO_LOGIN);
    // A secret that is sent must still be the app's.
    const wrong = await post("/login/oauth/access_token", {
      client_id: DEMO_APPS.githubApp.clientId,
      client_secret: "not-the-secret",
      grant_type: "refresh_token",
      refresh_token: String(renewed.body.refresh_token),
    });
    expect(wrong.body.error).toBe("incorrect_client_credentials");
  });
});

describe("DELETE /applications/{client_id}/token", () => {
  async function revoke(clientId: string, secret: string, body: unknown): Promise<number> {
    const response = await fetch(`${github.restUrl}/applications/${clientId}/token`, {
      method: "DELETE",
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`,
        "content-type": "application/json",
      },
      body: JSON.stringify(body),
    });
    return response.status;
  }

  it("answers 204 and the token is dead from then on; wrong client credentials get 404", async () => {
    const code = await deviceCode();
    github.oauth.approve(code.user_code, DEMO_LOGIN);
    const token = String((await pollAfterInterval(code)).body.access_token);
    const { clientId, clientSecret } = DEMO_APPS.oauthApp;
    expect(await revoke(clientId, "not-the-secret", { access_token: token })).toBe(404);
    expect(await revoke(clientId, clientSecret, {})).toBe(422);
    expect(github.oauth.isActive(token)).toBe(true);
    expect(await revoke(clientId, clientSecret, { access_token: token })).toBe(204);
    expect(github.oauth.isActive(token)).toBe(false);
    expect((await viewerOf(token)).status).toBe(401);
    expect(await revoke(clientId, clientSecret, { access_token: token })).toBe(404);
  });
});

describe("the device page", () => {
  it("shows a form with the code filled in and the world's people, and authorizes as the one picked", async () => {
    const code = await deviceCode();
    const form = await fetch(`${github.webUrl}/login/device?user_code=${code.user_code.toLowerCase()}`);
    const html = await form.text();
    expect(form.headers.get("content-type")).toMatch(/^text\/html/);
    expect(html).toContain(`value="${code.user_code}"`);
    expect(html).toContain(`<option value="${OTHER_LOGIN}">`);
    expect(html).not.toContain("dependabot[bot]");
    const submitted = await fetch(`${github.webUrl}/login/device`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        user_code: code.user_code.replace("-", ""),
        login: OTHER_LOGIN,
        action: "authorize",
      }),
    });
    expect(await submitted.text()).toContain(
      "RepoScout (sandbox)</strong> is now authorized as <strong>other-user",
    );
    expect(github.oauth.pending().find((view) => view.userCode === code.user_code)?.state).toBe("approved");
  });

  it("cancels, and says so for a code it does not know without echoing markup", async () => {
    const code = await deviceCode();
    const cancel = await fetch(`${github.webUrl}/login/device`, {
      method: "POST",
      body: new URLSearchParams({ user_code: code.user_code, login: DEMO_LOGIN, action: "cancel" }),
    });
    expect(await cancel.text()).toContain("You cancelled");
    expect((await pollAfterInterval(code)).body.error).toBe("access_denied");
    const unknown = await fetch(`${github.webUrl}/login/device`, {
      method: "POST",
      body: new URLSearchParams({ user_code: "<script>x</script>", action: "authorize" }),
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain("<script>");
  });
});

describe("OAuth errors with HTTP 400", () => {
  let strict: GitHubStandIn;
  beforeAll(async () => {
    strict = await startGitHubStandIn({ deviceFlow: { intervalSeconds: 0.05, errorStatus: 400 } });
  });
  afterAll(async () => {
    await strict?.close();
  });

  it("carries the same error body with status 400 when configured as in the one capture that showed it", async () => {
    const response = await fetch(`${strict.webUrl}/login/oauth/access_token`, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: DEMO_APPS.oauthApp.clientId,
        device_code: "x",
        grant_type: DEVICE_GRANT,
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "incorrect_device_code" });
  });
});
