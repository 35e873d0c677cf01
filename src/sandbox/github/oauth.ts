// Over 300 lines: GitHub's sign-in endpoints with every error GITHUB-FACTS lists, each in GitHub's own encoding; one flow, kept together.
/**
 * GitHub's sign-in for apps, as the stand-in plays it: the OAuth device flow on the web host
 * (`POST /login/device/code`, `POST /login/oauth/access_token` with the device grant and the refresh
 * grant), the revocation of a token through the REST API (`DELETE /applications/{client_id}/token`),
 * and the state behind the device page where a person enters the code. Sources: GitHub's
 * "Authorizing OAuth apps" (device flow), "Refreshing user access tokens", the REST reference of
 * "OAuth authorizations", RFC 8628, and captures of GitHub's answers in public client projects
 * (GITHUB-FACTS.md "Sign-in"). What no source showed is marked "unconfirmed" where it is decided.
 */
import { createHash, randomBytes, randomInt } from "node:crypto";
import type { World, WorldApp, WorldUser } from "./world.js";

/** How the device flow is timed; tests shorten everything so a sign-in takes milliseconds. */
export interface DeviceFlowOptions {
  /** Lifetime of a device code and its user code, in seconds (GitHub: 900). */
  expiresInSeconds?: number;
  /** `interval`: the least time between two polls of one code, in seconds (GitHub: 5). */
  intervalSeconds?: number;
  /** What each `slow_down` adds to a code's interval, in seconds (GitHub: 5). */
  slowDownSeconds?: number;
  /**
   * HTTP status of the OAuth error answers. Most captures show 200 with the error in the body; one
   * shows 400 (GITHUB-FACTS.md). Default 200; a client must read the `error` field either way.
   */
  errorStatus?: 200 | 400;
}

/** One answer of the web host's OAuth endpoints. */
export interface OAuthReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A device code that has not been used up, as a test sees it (never the device code itself). */
export interface DeviceCodeView {
  userCode: string;
  clientId: string;
  appName: string;
  state: "pending" | "approved" | "denied" | "issued";
  /** Epoch ms. */
  expiresAt: number;
  /** The current least time between polls, in seconds. */
  intervalSeconds: number;
}

/** A token the stand-in issued, as a test sees it. */
export interface IssuedTokenView {
  login: string;
  clientId: string;
  kind: "gho" | "ghu";
  /** As in the request log: the first 8 hex digits of the token's SHA-256. */
  tokenFingerprint: string;
  /** Not revoked and not expired (the stand-in's clock). */
  active: boolean;
}

/** What the stand-in counted, for tests that must show what GitHub saw. */
export interface OAuthStats {
  /** Device codes handed out. */
  deviceCodes: number;
  /** Polls of the access-token endpoint with the device grant. */
  polls: number;
  /** Polls that came before the code's interval had passed since the previous one (each got `slow_down`). */
  tooEarlyPolls: number;
  /** User tokens issued by the device grant. */
  tokensIssued: number;
  /** Successful refresh grants. */
  refreshes: number;
  /** Refresh grants refused (`bad_refresh_token`). */
  refusedRefreshes: number;
  /** Tokens revoked through `DELETE /applications/{client_id}/token`. */
  revocations: number;
}

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const DEVICE_FLOW_DOCS =
  "https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow";
/** RFC 8628's recommended user-code alphabet: no vowels (no words), no look-alike characters. */
const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const JSON_TYPE = "application/json; charset=utf-8";
const FORM_TYPE = "application/x-www-form-urlencoded; charset=utf-8";

/** GitHub's error answers: `error`, `error_description`, `error_uri` (captured wordings). */
const OAUTH_ERRORS = {
  authorization_pending: ["The authorization request is still pending.", DEVICE_FLOW_DOCS],
  slow_down: ["Too many requests have been made in the same timeframe.", "https://docs.github.com"],
  expired_token: ["This 'device_code' has expired.", DEVICE_FLOW_DOCS],
  access_denied: ["The authorization request was denied.", DEVICE_FLOW_DOCS],
  // Wording unconfirmed: no capture showed it.
  unsupported_grant_type: [
    "The grant type must be urn:ietf:params:oauth:grant-type:device_code or refresh_token.",
    DEVICE_FLOW_DOCS,
  ],
  incorrect_client_credentials: [
    "The client_id and/or client_secret passed are incorrect.",
    "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#incorrect-client-credentials",
  ],
  incorrect_device_code: ["The device_code provided is not valid.", DEVICE_FLOW_DOCS],
  device_flow_disabled: ["Device Flow must be explicitly enabled for this App", "https://docs.github.com"],
  bad_refresh_token: ["The refresh token passed is incorrect or expired.", "https://docs.github.com/apps"],
} as const;

export type OAuthErrorCode = keyof typeof OAUTH_ERRORS;

interface DeviceCode {
  deviceCode: string;
  userCode: string;
  app: WorldApp;
  scopes: string[];
  expiresAt: number;
  intervalMs: number;
  /** When the code was last polled (or issued): the interval runs from here. */
  lastPollAt: number;
  state: "pending" | "approved" | "denied" | "issued";
  /** Who approved it. */
  login: string | null;
}

interface RefreshGrant {
  app: WorldApp;
  login: string;
  expiresAt: number;
  /** The access token issued with it: revoking one kills the other (unconfirmed for GitHub). */
  accessToken: string;
}

interface IssuedToken {
  app: WorldApp;
  login: string;
  refreshToken: string | null;
  revoked: boolean;
}

function randomString(alphabet: string, length: number): string {
  let out = "";
  for (let index = 0; index < length; index += 1) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** `WDJBMJHT`, `wdjb-mjht`, ` WDJB MJHT ` all name the code `WDJB-MJHT`, as on github.com/login/device. */
export function normalizeUserCode(text: string): string {
  const letters = text.toUpperCase().replace(/[^A-Z0-9]/g, "");
  return letters.length === 8 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : letters;
}

/**
 * The device flow and token lifecycle of the stand-in. Holds the device codes, the refresh tokens
 * and the tokens it issued; registers issued tokens in the world so they authenticate GraphQL and
 * REST as the user who approved, with that user's visibility.
 */
export class OAuthController {
  readonly #world: World;
  readonly #now: () => number;
  readonly #expiresInSeconds: number;
  readonly #intervalSeconds: number;
  readonly #slowDownSeconds: number;
  readonly #errorStatus: number;
  readonly #codes = new Map<string, DeviceCode>();
  readonly #byUserCode = new Map<string, DeviceCode>();
  readonly #refreshTokens = new Map<string, RefreshGrant>();
  readonly #issued = new Map<string, IssuedToken>();
  /** Every secret handed out (tokens, refresh tokens, device codes), for tests that look for leaks. */
  readonly #secrets = new Set<string>();
  #slowDownsToInject = 0;
  readonly stats: OAuthStats = {
    deviceCodes: 0,
    polls: 0,
    tooEarlyPolls: 0,
    tokensIssued: 0,
    refreshes: 0,
    refusedRefreshes: 0,
    revocations: 0,
  };

  constructor(world: World, options: { now: () => number; deviceFlow?: DeviceFlowOptions }) {
    this.#world = world;
    this.#now = options.now;
    this.#expiresInSeconds = options.deviceFlow?.expiresInSeconds ?? 900;
    this.#intervalSeconds = options.deviceFlow?.intervalSeconds ?? 5;
    this.#slowDownSeconds = options.deviceFlow?.slowDownSeconds ?? 5;
    this.#errorStatus = options.deviceFlow?.errorStatus ?? 200;
  }

  // ---- what tests and the device page do -------------------------------------------------------

  /** Codes not yet used up or expired, oldest first. */
  pending(): DeviceCodeView[] {
    const now = this.#now();
    return [...this.#codes.values()]
      .filter((code) => code.expiresAt > now && code.state !== "issued")
      .map((code) => ({
        userCode: code.userCode,
        clientId: code.app.clientId,
        appName: code.app.name,
        state: code.state,
        expiresAt: code.expiresAt,
        intervalSeconds: code.intervalMs / 1000,
      }));
  }

  /** The live code behind a user code as a person types it; undefined when unknown or expired. */
  #live(userCode: string): DeviceCode | undefined {
    const code = this.#byUserCode.get(normalizeUserCode(userCode));
    return code && code.expiresAt > this.#now() ? code : undefined;
  }

  /** The app a user code signs in to, for the device page; undefined when unknown or expired. */
  appForUserCode(userCode: string): WorldApp | undefined {
    const code = this.#live(userCode);
    return code && code.state === "pending" ? code.app : undefined;
  }

  /**
   * A person authorizes the app for a user code, as `login`.
   * @throws when the code is unknown, expired or already answered, or the login is not a person.
   */
  approve(userCode: string, login: string): void {
    const code = this.#answerable(userCode);
    const user = this.#world.user(login);
    if (!user || user.type === "Bot") throw new Error(`no person ${login} in the world`);
    code.state = "approved";
    code.login = user.login;
  }

  /** A person presses Cancel for a user code. @throws like {@link OAuthController.approve}. */
  deny(userCode: string): void {
    this.#answerable(userCode).state = "denied";
  }

  #answerable(userCode: string): DeviceCode {
    const code = this.#live(userCode);
    if (!code) throw new Error(`no live device code ${userCode}`);
    if (code.state !== "pending") throw new Error(`device code ${userCode} was already answered`);
    return code;
  }

  /**
   * The next `times` polls of any code answer `slow_down` even when they came in time, as GitHub
   * may when its own rate limit is hit; each still raises the interval.
   */
  injectSlowDown(times = 1): void {
    this.#slowDownsToInject += times;
  }

  /** Whether a token the stand-in issued still authenticates (not revoked, not expired). */
  isActive(token: string): boolean {
    const issued = this.#issued.get(token);
    return (
      issued !== undefined && !issued.revoked && this.#world.userForToken(token, this.#now()) !== undefined
    );
  }

  /** Every user token issued so far, oldest first, without the tokens themselves. */
  issued(): IssuedTokenView[] {
    return [...this.#issued.entries()].map(([token, issued]) => ({
      login: issued.login,
      clientId: issued.app.clientId,
      kind: token.startsWith("ghu_") ? "ghu" : "gho",
      tokenFingerprint: createHash("sha256").update(token).digest("hex").slice(0, 8),
      active: this.isActive(token),
    }));
  }

  /**
   * Every secret the stand-in handed out (access and refresh tokens, device codes): what a test
   * checks never reaches a chat message or a log line.
   */
  secrets(): string[] {
    return [...this.#secrets];
  }

  /** Revokes every token of `login`, as the person would under Settings > Applications. @returns how many. */
  revokeAllOf(login: string): number {
    let count = 0;
    for (const [token, issued] of this.#issued) {
      if (issued.revoked || issued.login.toLowerCase() !== login.toLowerCase()) continue;
      this.#kill(token, issued);
      count += 1;
    }
    return count;
  }

  #kill(token: string, issued: IssuedToken): void {
    issued.revoked = true;
    this.#world.removeToken(token);
    if (issued.refreshToken) this.#refreshTokens.delete(issued.refreshToken);
  }

  /** People who can approve a code (accounts of type User), for the device page. */
  people(): WorldUser[] {
    return this.#world.definition.users.filter((user) => (user.type ?? "User") === "User");
  }

  // ---- the endpoints ---------------------------------------------------------------------------

  /** `POST {web}/login/device/code` with `client_id` (and `scope` for an OAuth app). */
  deviceCode(params: URLSearchParams, accept: string, baseUrl: string): OAuthReply {
    const app = this.#world.app(params.get("client_id") ?? "");
    // An unknown client id: 404 with {"error":"Not Found"}, as captured from an Enterprise Server.
    if (!app) return reply(404, { error: "Not Found" }, accept);
    if (app.deviceFlow === false) return this.#error("device_flow_disabled", accept);
    const now = this.#now();
    const code: DeviceCode = {
      deviceCode: randomBytes(20).toString("hex"),
      userCode: this.#newUserCode(),
      app,
      // GitHub Apps ignore scopes; their reach is the app's permissions.
      scopes: app.kind === "oauth-app" ? (params.get("scope") ?? "").split(/[\s,]+/).filter(Boolean) : [],
      expiresAt: now + this.#expiresInSeconds * 1000,
      intervalMs: this.#intervalSeconds * 1000,
      lastPollAt: now,
      state: "pending",
      login: null,
    };
    this.#codes.set(code.deviceCode, code);
    this.#byUserCode.set(code.userCode, code);
    this.#secrets.add(code.deviceCode);
    this.stats.deviceCodes += 1;
    this.#sweep(now);
    return reply(
      200,
      {
        device_code: code.deviceCode,
        user_code: code.userCode,
        verification_uri: `${baseUrl}/login/device`,
        expires_in: this.#expiresInSeconds,
        interval: this.#intervalSeconds,
      },
      accept,
    );
  }

  /** `POST {web}/login/oauth/access_token`: the device grant or the refresh grant. */
  accessToken(params: URLSearchParams, accept: string): OAuthReply {
    const grantType = params.get("grant_type");
    if (grantType === DEVICE_GRANT) return this.#deviceGrant(params, accept);
    if (grantType === "refresh_token") return this.#refreshGrant(params, accept);
    // The web flow's code exchange (no grant_type, a `code`) is not played by the stand-in.
    return this.#error("unsupported_grant_type", accept);
  }

  #deviceGrant(params: URLSearchParams, accept: string): OAuthReply {
    const app = this.#world.app(params.get("client_id") ?? "");
    if (!app) return this.#error("incorrect_client_credentials", accept);
    if (app.deviceFlow === false) return this.#error("device_flow_disabled", accept);
    const code = this.#codes.get(params.get("device_code") ?? "");
    if (!code || code.app.clientId !== app.clientId) return this.#error("incorrect_device_code", accept);
    this.stats.polls += 1;
    const now = this.#now();
    if (now >= code.expiresAt) return this.#error("expired_token", accept);
    const tooEarly = now - code.lastPollAt < code.intervalMs;
    code.lastPollAt = now;
    if (tooEarly || this.#slowDownsToInject > 0) {
      if (tooEarly) this.stats.tooEarlyPolls += 1;
      else this.#slowDownsToInject -= 1;
      code.intervalMs += this.#slowDownSeconds * 1000;
      return this.#error("slow_down", accept, { interval: code.intervalMs / 1000 });
    }
    switch (code.state) {
      case "pending":
        return this.#error("authorization_pending", accept);
      case "denied":
        return this.#error("access_denied", accept);
      case "issued":
        // A code already exchanged for a token: unconfirmed what GitHub answers; it is used up.
        return this.#error("incorrect_device_code", accept);
      case "approved":
        code.state = "issued";
        this.stats.tokensIssued += 1;
        return reply(200, this.#issue(code.app, code.login ?? "", code.scopes, now), accept);
    }
  }

  #refreshGrant(params: URLSearchParams, accept: string): OAuthReply {
    const app = this.#world.app(params.get("client_id") ?? "");
    // Every pair the stand-in issues came from the device flow (it plays no web flow): a public
    // client's, which GitHub renews with the client id and the refresh token alone (GITHUB-FACTS.md
    // "Sign-in", refresh). A secret that is sent must still be the app's.
    const secret = params.get("client_secret");
    if (!app || (secret !== null && secret !== app.clientSecret)) {
      return this.#error("incorrect_client_credentials", accept);
    }
    const presented = params.get("refresh_token") ?? "";
    const grant = this.#refreshTokens.get(presented);
    const now = this.#now();
    if (!grant || grant.app.clientId !== app.clientId || now >= grant.expiresAt) {
      this.stats.refusedRefreshes += 1;
      return this.#error("bad_refresh_token", accept);
    }
    // A refresh token works once, and "that refresh token and the old user access token will no
    // longer work" (GitHub's "Refreshing user access tokens"): the old token reads 401 from now on,
    // in every process that still holds it. The answer carries a new pair.
    this.#refreshTokens.delete(presented);
    const old = this.#issued.get(grant.accessToken);
    if (old && !old.revoked) this.#kill(grant.accessToken, old);
    this.stats.refreshes += 1;
    return reply(200, this.#issue(app, grant.login, [], now), accept);
  }

  /**
   * `DELETE {api}/applications/{client_id}/token` with HTTP Basic `client_id:client_secret` and
   * `{"access_token": "..."}`: 204, the token (and its refresh token) dead from then on.
   */
  revoke(clientId: string, basic: { login: string; password: string } | null, body: unknown): OAuthReply {
    const app = this.#world.app(clientId);
    const notFound = {
      message: "Not Found",
      documentation_url: "https://docs.github.com/rest/apps/oauth-applications#delete-an-app-token",
      status: "404",
    };
    // Wrong client credentials: GitHub hides the app behind a 404 (unconfirmed: 401 is possible).
    if (!app || !basic || basic.login !== app.clientId || basic.password !== app.clientSecret) {
      return jsonReply(404, notFound);
    }
    const token =
      typeof body === "object" && body !== null && "access_token" in body
        ? (body as { access_token: unknown }).access_token
        : undefined;
    if (typeof token !== "string" || token === "") {
      return jsonReply(422, {
        message: 'Invalid request.\n\n"access_token" wasn\'t supplied.',
        documentation_url: "https://docs.github.com/rest/apps/oauth-applications#delete-an-app-token",
        status: "422",
      });
    }
    const issued = this.#issued.get(token);
    if (!issued || issued.revoked || issued.app.clientId !== app.clientId) return jsonReply(404, notFound);
    this.#kill(token, issued);
    this.stats.revocations += 1;
    return { status: 204, headers: {}, body: "" };
  }

  // ---- helpers ---------------------------------------------------------------------------------

  #issue(app: WorldApp, login: string, scopes: string[], now: number): Record<string, string | number> {
    const expiring = app.kind === "github-app" && app.expiringTokens !== false;
    const token = `${app.kind === "github-app" ? "ghu_" : "gho_"}${randomString(BASE62, 36)}`;
    const lifetime = app.tokenLifetimeSeconds ?? 28_800;
    this.#world.addToken(token, login, { expiresAt: expiring ? now + lifetime * 1000 : null });
    this.#secrets.add(token);
    if (!expiring) {
      this.#issued.set(token, { app, login, refreshToken: null, revoked: false });
      // An OAuth app answers with its granted scopes, comma-separated; a GitHub App with "".
      return { access_token: token, token_type: "bearer", scope: scopes.join(",") };
    }
    const refreshToken = `ghr_${randomString(BASE62, 76)}`;
    const refreshLifetime = app.refreshTokenLifetimeSeconds ?? 15_811_200;
    this.#refreshTokens.set(refreshToken, {
      app,
      login,
      expiresAt: now + refreshLifetime * 1000,
      accessToken: token,
    });
    this.#issued.set(token, { app, login, refreshToken, revoked: false });
    this.#secrets.add(refreshToken);
    return {
      access_token: token,
      expires_in: lifetime,
      refresh_token: refreshToken,
      refresh_token_expires_in: refreshLifetime,
      scope: "",
      token_type: "bearer",
    };
  }

  #error(code: OAuthErrorCode, accept: string, extra: Record<string, number> = {}): OAuthReply {
    const [description, uri] = OAUTH_ERRORS[code];
    return reply(
      this.#errorStatus,
      { error: code, error_description: description, error_uri: uri, ...extra },
      accept,
    );
  }

  #newUserCode(): string {
    for (;;) {
      const code = `${randomString(USER_CODE_ALPHABET, 4)}-${randomString(USER_CODE_ALPHABET, 4)}`;
      if (!this.#byUserCode.has(code)) return code;
    }
  }

  /** Forgets codes expired for a while, so a long sandbox session does not grow without end. */
  #sweep(now: number): void {
    for (const [deviceCode, code] of this.#codes) {
      if (code.expiresAt + 60_000 < now) {
        this.#codes.delete(deviceCode);
        this.#byUserCode.delete(code.userCode);
      }
    }
  }
}

/**
 * GitHub answers the web host's OAuth endpoints form-encoded unless the request asks for JSON
 * (`Accept: application/json`). (`application/xml` is not played: it gets the form answer.)
 */
function reply(status: number, payload: Record<string, string | number>, accept: string): OAuthReply {
  if (/\bapplication\/json\b/i.test(accept)) return jsonReply(status, payload);
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(payload)) form.set(key, String(value));
  return { status, headers: { "content-type": FORM_TYPE }, body: form.toString() };
}

function jsonReply(status: number, payload: unknown): OAuthReply {
  return { status, headers: { "content-type": JSON_TYPE }, body: JSON.stringify(payload) };
}

/**
 * The parameters of a POST to the web host's OAuth endpoints: GitHub takes them from the query
 * string, a form-encoded body or a JSON body (`@octokit/oauth-methods` sends JSON).
 */
export function oauthParams(query: URLSearchParams, contentType: string, raw: Buffer): URLSearchParams {
  const params = new URLSearchParams(query);
  const text = raw.toString("utf8");
  if (text.trim() === "") return params;
  if (/\bjson\b/i.test(contentType)) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
        for (const [key, value] of Object.entries(parsed)) {
          if (typeof value === "string" || typeof value === "number") params.set(key, String(value));
        }
      }
    } catch {
      // A body that is not JSON brings no parameters: the endpoint answers as for missing ones.
    }
    return params;
  }
  for (const [key, value] of new URLSearchParams(text)) params.set(key, value);
  return params;
}
