// Over 300 lines: the REST routes the bot uses, each with GitHub's headers, errors and rate limits; one route table.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { execute, getIntrospectionQuery, parse, validate } from "graphql";
import { commitAnswer } from "./commitFiles.js";
import { contributorsAnswer, type RestAnswer } from "./contributors.js";
import { ensureDemoWorld } from "./demoWorld.js";
import { devicePage, submitDevicePage } from "./devicePage.js";
import { prepareQuery, runQuery } from "./executeGraphQL.js";
import { FaultController, type FaultKind, type PendingFault } from "./faults.js";
import type { GitOptions } from "./gitProcess.js";
import { OAuthController, oauthParams, type DeviceFlowOptions, type OAuthReply } from "./oauth.js";
import { GitRepository } from "./gitRepository.js";
import { somethingWentWrong } from "./githubErrors.js";
import { RateLimiter, rateLimitHeaders, type RateResource, type RateSnapshot } from "./rateLimit.js";
import type { ResolverContext } from "./resolvers.js";
import { ObservationLog, ResponseCache } from "./responseCache.js";
import { githubSchema, githubSchemaSdl } from "./schema.js";
import {
  GRAPHQL_DOCS,
  UNAUTHORIZED,
  isRefusedBody,
  parseAuthorization,
  parseGraphQLBody,
  restNotFound,
  type Authorization,
} from "./transport.js";
import { World, type WorldDefinition, type WorldRepository, type WorldUser } from "./world.js";

/** How to start the stand-in. */
export interface GitHubStandInOptions {
  /** 0 (default): any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Where the demo world is generated and reused (default: a temp folder per generator version). */
  dataDir?: string;
  /** Serve this world instead of the demo world. */
  world?: WorldDefinition;
  /** Delay added to every answer, in milliseconds. */
  latencyMs?: number;
  /** Points per hour of each token, for GraphQL and for REST (default 5,000). */
  rateLimit?: number;
  /** Base of the web URLs in answers (default https://github.com). */
  htmlUrl?: string;
  /** How git is run. */
  git?: GitOptions;
  /** The clock, in milliseconds (default Date.now): rate-limit windows, token and device-code expiry. */
  now?: () => number;
  /** Timing of the OAuth device flow (default GitHub's: codes live 900 s, polls 5 s apart). */
  deviceFlow?: DeviceFlowOptions;
}

/** One request the stand-in received. Never holds a token, only a short fingerprint of it. */
export interface RequestLogEntry {
  method: string;
  /** Path and query string. */
  path: string;
  /** `web`: the web host's sign-in endpoints and device page. */
  api: "graphql" | "rest" | "web" | "other";
  /** 0 while unanswered, and for a reset or hung connection. */
  status: number;
  /** The GraphQL operation (given, or the name of the document's only operation). */
  operationName: string | null;
  variables: Record<string, unknown> | null;
  /** First 8 hex digits of the SHA-256 of the token; null without a token. */
  tokenFingerprint: string | null;
  /** The injected fault this request met, if any. */
  fault: FaultKind | null;
  /** When it arrived (ISO). */
  at: string;
  durationMs: number;
}

/** A running stand-in. */
export interface GitHubStandIn {
  /** `http://127.0.0.1:PORT`. */
  readonly baseUrl: string;
  /** `baseUrl + /graphql`. */
  readonly graphqlUrl: string;
  /** The REST base: `baseUrl` (as `https://api.github.com`). */
  readonly restUrl: string;
  /** Enterprise Server style: `baseUrl + /api/graphql`. */
  readonly enterpriseGraphqlUrl: string;
  /** Enterprise Server style: `baseUrl + /api/v3`. */
  readonly enterpriseRestUrl: string;
  /** The web host (sign-in endpoints, the device page): `baseUrl`, as `https://github.com`. */
  readonly webUrl: string;
  readonly world: World;
  /**
   * The OAuth device flow and the tokens it issued: `approve(userCode, login)`, `deny(userCode)`,
   * `pending()`, `injectSlowDown()`, `isActive(token)`, `stats` (too-early polls, refreshes...).
   */
  readonly oauth: OAuthController;
  /** Every request so far, oldest first. */
  readonly requests: ReadonlyArray<RequestLogEntry>;
  clearRequests(): void;
  readonly faults: FaultController;
  /** Sets the delay added to every answer. */
  setLatency(ms: number): void;
  /** Sets a token's budget: its limit and what remains of this hour (both resources unless given). */
  setRateLimit(token: string, budget: { limit?: number; remaining?: number; resource?: RateResource }): void;
  /** Makes `token` authenticate `login` (a user of the world). */
  addToken(token: string, login: string): void;
  /** Stops the server: ends hung and delayed requests, open connections and the git readers. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const JSON_TYPE = "application/json; charset=utf-8";

const SERVER_ERROR_PAGE = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Server Error &middot; GitHub</title></head>
<body>
<h1>Whoa there!</h1>
<p>We had issues producing the response to your request. Sorry about that. Please try refreshing and contact us if the problem persists.</p>
</body>
</html>
`;

type Route =
  | { api: "graphql" }
  | { api: "web"; endpoint: "deviceCode" | "accessToken" | "devicePage" }
  | { api: "rest"; prefix: string; revokeClientId: string }
  | {
      api: "rest";
      prefix: string;
      repository: { owner: string; name: string } | { id: number };
      /** Absent: the contributors list; else one commit (`/commits/{ref}`). */
      commitRef?: string;
    }
  | { api: "rest"; prefix: string; repository: null }
  | { api: "other" };

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Which API a path belongs to; REST also under `/api/v3`, GraphQL also at `/api/graphql`. */
function matchRoute(pathname: string): Route {
  if (pathname === "/graphql" || pathname === "/api/graphql") return { api: "graphql" };
  if (pathname === "/login/device/code") return { api: "web", endpoint: "deviceCode" };
  if (pathname === "/login/oauth/access_token") return { api: "web", endpoint: "accessToken" };
  if (pathname === "/login/device" || pathname === "/login/device/")
    return { api: "web", endpoint: "devicePage" };
  const prefix = pathname.startsWith("/api/v3/") || pathname === "/api/v3" ? "/api/v3" : "";
  const rest = pathname.slice(prefix.length);
  const revoke = /^\/applications\/([^/]+)\/token$/.exec(rest);
  if (revoke) return { api: "rest", prefix, revokeClientId: decode(revoke[1] ?? "") };
  let match = /^\/repos\/([^/]+)\/([^/]+)\/contributors\/?$/.exec(rest);
  if (match)
    return {
      api: "rest",
      prefix,
      repository: { owner: decode(match[1] ?? ""), name: decode(match[2] ?? "") },
    };
  match = /^\/repositories\/(\d+)\/contributors\/?$/.exec(rest);
  if (match) return { api: "rest", prefix, repository: { id: Number(match[1]) } };
  match = /^\/repos\/([^/]+)\/([^/]+)\/commits\/(.+?)\/?$/.exec(rest);
  if (match)
    return {
      api: "rest",
      prefix,
      repository: { owner: decode(match[1] ?? ""), name: decode(match[2] ?? "") },
      commitRef: decode(match[3] ?? ""),
    };
  match = /^\/repositories\/(\d+)\/commits\/(.+?)\/?$/.exec(rest);
  if (match)
    return { api: "rest", prefix, repository: { id: Number(match[1]) }, commitRef: decode(match[2] ?? "") };
  if (prefix !== "" || rest.startsWith("/repos/") || rest.startsWith("/repositories/")) {
    return { api: "rest", prefix, repository: null };
  }
  return { api: "other" };
}

function fingerprint(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function readBody(request: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on("end", () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

let introspectionJson: Promise<string> | null = null;

/** GitHub answers a GET on /graphql (with a good token) with the schema's introspection. */
function introspection(): Promise<string> {
  introspectionJson ??= (async () =>
    JSON.stringify(await execute({ schema: githubSchema(), document: parse(getIntrospectionQuery()) })))();
  return introspectionJson;
}

/** Who a request is, for the budgets and the resolvers. */
type Caller =
  | { kind: "user"; user: WorldUser; key: string }
  | { kind: "anonymous"; key: string }
  | { kind: "refused"; reason: "missing" | "malformed" | "bad" };

class StandInServer implements GitHubStandIn {
  readonly world: World;
  readonly oauth: OAuthController;
  readonly faults = new FaultController();
  readonly #server: Server;
  readonly #requests: RequestLogEntry[] = [];
  readonly #limiter: RateLimiter;
  readonly #git = new Map<string, GitRepository>();
  readonly #responses = new ResponseCache();
  readonly #gitOptions: GitOptions;
  readonly #htmlUrl: string;
  readonly #now: () => number;
  readonly #hung = new Set<ServerResponse>();
  readonly #sleepers = new Set<() => void>();
  #latencyMs: number;
  #sequence = 0;
  #closed = false;
  baseUrl = "";

  constructor(world: World, options: GitHubStandInOptions) {
    this.world = world;
    this.#now = options.now ?? Date.now;
    this.#limiter = new RateLimiter({ defaultLimit: options.rateLimit ?? 5000, now: this.#now });
    this.#gitOptions = options.git ?? {};
    this.#htmlUrl = (options.htmlUrl ?? "https://github.com").replace(/\/+$/, "");
    this.#latencyMs = options.latencyMs ?? 0;
    this.oauth = new OAuthController(world, {
      now: this.#now,
      ...(options.deviceFlow ? { deviceFlow: options.deviceFlow } : {}),
    });
    this.#server = createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        // After close(), requests cut short fail on purpose: not worth a word.
        if (!this.#closed) console.error("GitHub stand-in: unexpected failure", error);
        if (!response.headersSent) {
          response.writeHead(500, { "content-type": JSON_TYPE });
          response.end(JSON.stringify({ message: "Server Error" }));
        }
      });
    });
  }

  get graphqlUrl(): string {
    return `${this.baseUrl}/graphql`;
  }
  get restUrl(): string {
    return this.baseUrl;
  }
  get enterpriseGraphqlUrl(): string {
    return `${this.baseUrl}/api/graphql`;
  }
  get enterpriseRestUrl(): string {
    return `${this.baseUrl}/api/v3`;
  }
  get webUrl(): string {
    return this.baseUrl;
  }
  get requests(): ReadonlyArray<RequestLogEntry> {
    return this.#requests;
  }

  async listen(port: number, host: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(port, host, () => {
        this.#server.off("error", reject);
        resolve();
      });
    });
    const address = this.#server.address() as AddressInfo;
    const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
    this.baseUrl = `http://${shownHost}:${address.port}`;
  }

  clearRequests(): void {
    this.#requests.length = 0;
  }

  setLatency(ms: number): void {
    this.#latencyMs = Math.max(0, ms);
  }

  setRateLimit(token: string, budget: { limit?: number; remaining?: number; resource?: RateResource }): void {
    this.#limiter.set(`token:${fingerprint(token)}`, budget);
  }

  addToken(token: string, login: string): void {
    this.world.addToken(token, login);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const wake of this.#sleepers) wake();
    for (const response of this.#hung) response.socket?.destroy();
    this.#hung.clear();
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
    for (const git of this.#git.values()) git.close();
    this.#git.clear();
  }

  #gitOf(repository: WorldRepository): GitRepository {
    let git = this.#git.get(repository.gitDir);
    if (!git) {
      git = new GitRepository(repository.gitDir, this.#gitOptions);
      this.#git.set(repository.gitDir, git);
    }
    return git;
  }

  #sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.#sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#sleepers.add(wake);
    });
  }

  #requestId(): string {
    this.#sequence += 1;
    const port = Number(new URL(this.baseUrl || "http://127.0.0.1:0").port || 0);
    return `${port.toString(16).toUpperCase().padStart(4, "0")}:${this.#sequence.toString(16).toUpperCase().padStart(6, "0")}`;
  }

  #caller(auth: Authorization, anonymousKey: string): Caller {
    if (auth.kind === "missing") return { kind: "anonymous", key: anonymousKey };
    if (auth.kind === "malformed") return { kind: "refused", reason: "malformed" };
    const token = auth.kind === "token" ? auth.token : auth.password;
    const user = this.world.userForToken(token, this.#now());
    if (!user) return { kind: "refused", reason: "bad" };
    if (auth.kind === "basic" && auth.login.toLowerCase() !== user.login.toLowerCase()) {
      return { kind: "refused", reason: "bad" };
    }
    return { kind: "user", user, key: `token:${fingerprint(token)}` };
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const started = performance.now();
    const url = new URL(request.url ?? "/", "http://stand-in.invalid");
    const route = matchRoute(url.pathname);
    const method = request.method ?? "GET";
    const auth = parseAuthorization(request.headers.authorization);
    const token = auth.kind === "token" ? auth.token : auth.kind === "basic" ? auth.password : null;
    const log: RequestLogEntry = {
      method,
      path: url.pathname + url.search,
      api: route.api,
      status: 0,
      operationName: null,
      variables: null,
      tokenFingerprint: token === null ? null : fingerprint(token).slice(0, 8),
      fault: null,
      at: new Date(this.#now()).toISOString(),
      durationMs: 0,
    };
    this.#requests.push(log);
    const requestId = this.#requestId();
    const raw = await readBody(request);
    const anonymousKey = `anonymous:${request.socket.remoteAddress ?? "unknown"}`;
    const caller = this.#caller(auth, anonymousKey);
    const resource: RateResource = route.api === "graphql" ? "graphql" : "core";

    const send = (status: number, headers: Record<string, string>, body: string | null): void => {
      log.status = status;
      log.durationMs = performance.now() - started;
      if (response.destroyed) return;
      // Every API answer carries the budget; answers that did not charge it show it as it stands.
      // The web host's pages and sign-in endpoints are not the API: no budget there.
      const rate =
        "x-ratelimit-limit" in headers || route.api === "web"
          ? {}
          : rateLimitHeaders(
              this.#limiter.peek(caller.kind === "user" ? caller.key : anonymousKey, resource),
            );
      response.writeHead(status, {
        date: new Date(this.#now()).toUTCString(),
        "x-github-request-id": requestId,
        ...rate,
        ...headers,
      });
      response.end(body ?? undefined);
    };
    const sendJson = (status: number, payload: unknown, headers: Record<string, string> = {}): void =>
      send(status, { "content-type": JSON_TYPE, ...headers }, JSON.stringify(payload));

    const { latencyMs, failure } =
      route.api === "other" || route.api === "web"
        ? { latencyMs: 0, failure: null }
        : this.faults.take(route.api);
    await this.#sleep(this.#latencyMs + latencyMs);
    if (this.#closed) {
      response.socket?.destroy();
      return;
    }
    if (failure && route.api !== "other" && route.api !== "web") {
      log.fault = failure.kind;
      this.#fail(failure, route.api, request, response, log, sendJson, send, requestId);
      return;
    }
    if (raw === null) {
      sendJson(413, { message: "Payload too large", documentation_url: GRAPHQL_DOCS });
      return;
    }
    if (route.api === "web") this.#web(route.endpoint, method, url, request, raw, send);
    else if (route.api === "rest" && "revokeClientId" in route) {
      this.#revoke(route.revokeClientId, method, auth, raw, send);
    } else if (route.api === "graphql")
      await this.#graphql(method, request, raw, caller, anonymousKey, log, sendJson, send, requestId);
    else if (route.api === "rest")
      await this.#rest(method, route, url, request, caller, anonymousKey, sendJson, send, requestId);
    else sendJson(404, restNotFound());
  }

  /**
   * The web host's sign-in: the OAuth endpoints (POST only, answered without rate-limit headers, as
   * github.com's are) and the device page (GET shows the form, POST answers it).
   */
  #web(
    endpoint: Extract<Route, { api: "web" }>["endpoint"],
    method: string,
    url: URL,
    request: IncomingMessage,
    raw: Buffer,
    send: (status: number, headers: Record<string, string>, body: string | null) => void,
  ): void {
    const answer = (reply: OAuthReply): void => send(reply.status, reply.headers, reply.body);
    const contentType = request.headers["content-type"] ?? "";
    if (endpoint === "devicePage") {
      if (method === "GET") answer(devicePage(this.oauth, url.searchParams));
      else if (method === "POST")
        answer(submitDevicePage(this.oauth, oauthParams(new URLSearchParams(), contentType, raw)));
      else answer({ status: 404, headers: { "content-type": "text/plain" }, body: "Not Found" });
      return;
    }
    if (method !== "POST") {
      answer({ status: 404, headers: { "content-type": "text/plain" }, body: "Not Found" });
      return;
    }
    const params = oauthParams(url.searchParams, contentType, raw);
    const accept = request.headers.accept ?? "";
    answer(
      endpoint === "deviceCode"
        ? this.oauth.deviceCode(params, accept, this.baseUrl)
        : this.oauth.accessToken(params, accept),
    );
  }

  /** `DELETE {api}/applications/{client_id}/token`, with the app's client id and secret as HTTP Basic. */
  #revoke(
    clientId: string,
    method: string,
    auth: Authorization,
    raw: Buffer,
    send: (status: number, headers: Record<string, string>, body: string | null) => void,
  ): void {
    const restHeaders = { "x-github-media-type": "github.v3; format=json" };
    if (method !== "DELETE") {
      send(404, { "content-type": JSON_TYPE, ...restHeaders }, JSON.stringify(restNotFound()));
      return;
    }
    let body: unknown = null;
    try {
      body = raw.length > 0 ? JSON.parse(raw.toString("utf8")) : null;
    } catch {
      send(
        400,
        { "content-type": JSON_TYPE, ...restHeaders },
        JSON.stringify({
          message: "Problems parsing JSON",
          documentation_url: "https://docs.github.com/rest",
        }),
      );
      return;
    }
    const basic = auth.kind === "basic" ? { login: auth.login, password: auth.password } : null;
    const reply = this.oauth.revoke(clientId, basic, body);
    send(reply.status, { ...restHeaders, ...reply.headers }, reply.status === 204 ? null : reply.body);
  }

  #fail(
    failure: PendingFault,
    api: "graphql" | "rest",
    request: IncomingMessage,
    response: ServerResponse,
    log: RequestLogEntry,
    sendJson: (status: number, payload: unknown, headers?: Record<string, string>) => void,
    send: (status: number, headers: Record<string, string>, body: string | null) => void,
    requestId: string,
  ): void {
    const secondary = {
      message:
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out " +
        `to GitHub Support for help, please include the request ID ${requestId}.`,
      documentation_url:
        api === "graphql"
          ? "https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api#secondary-rate-limits"
          : "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
    };
    switch (failure.kind) {
      case "unauthorized":
        sendJson(
          401,
          api === "graphql" ? UNAUTHORIZED.graphqlBadCredentials : UNAUTHORIZED.restBadCredentials,
        );
        return;
      case "secondaryRateLimit":
        sendJson(403, secondary, { "retry-after": String(failure.retryAfterSeconds) });
        return;
      case "tooManyRequests":
        sendJson(429, secondary, { "retry-after": String(failure.retryAfterSeconds) });
        return;
      case "badGateway":
        sendJson(
          502,
          api === "graphql"
            ? { data: null, errors: [{ message: somethingWentWrong(requestId) }] }
            : { message: "Server Error" },
        );
        return;
      case "serverError":
        send(500, { "content-type": "text/html; charset=utf-8" }, SERVER_ERROR_PAGE);
        return;
      case "reset":
        log.durationMs = 0;
        request.socket.destroy();
        return;
      case "hang":
        // Never answered: the connection stays open until the stand-in closes.
        this.#hung.add(response);
        response.on("close", () => this.#hung.delete(response));
        return;
      case "latency":
        return;
    }
  }

  async #graphql(
    method: string,
    request: IncomingMessage,
    raw: Buffer,
    caller: Caller,
    anonymousKey: string,
    log: RequestLogEntry,
    sendJson: (status: number, payload: unknown, headers?: Record<string, string>) => void,
    send: (status: number, headers: Record<string, string>, body: string | null) => void,
    requestId: string,
  ): Promise<void> {
    const peekHeaders = (key: string): Record<string, string> =>
      rateLimitHeaders(this.#limiter.peek(key, "graphql"));
    if (method !== "POST" && method !== "GET") {
      sendJson(404, { message: "Not Found", documentation_url: GRAPHQL_DOCS }, peekHeaders(anonymousKey));
      return;
    }
    // GitHub reads the credentials before anything else, for GET and POST alike. A header it cannot
    // read (`bearer<token>`, two spaces, another scheme) counts as no credentials at all.
    if (caller.kind !== "user") {
      const body =
        caller.kind === "refused" && caller.reason === "bad"
          ? UNAUTHORIZED.graphqlBadCredentials
          : UNAUTHORIZED.graphqlRequiresAuthentication;
      sendJson(401, body, peekHeaders(anonymousKey));
      return;
    }
    if (method === "GET") {
      // With a good token GitHub answers a GET with the schema: the introspection result, or the
      // SDL as `{"data": "<idl>"}` when asked for `application/vnd.github.v4.idl`.
      const charged = this.#limiter.charge(caller.key, "graphql", 1);
      const headers = rateLimitHeaders(charged.snapshot);
      if (!charged.ok) {
        sendJson(200, graphqlRateLimited(caller.user), headers);
      } else if ((request.headers.accept ?? "").includes("application/vnd.github.v4.idl")) {
        sendJson(200, { data: githubSchemaSdl() }, headers);
      } else {
        send(200, { "content-type": JSON_TYPE, ...headers }, await introspection());
      }
      return;
    }
    const body = parseGraphQLBody(raw);
    if (isRefusedBody(body)) {
      sendJson(body.status, body.payload, peekHeaders(caller.key));
      return;
    }
    log.variables = body.variables;
    log.operationName = body.operationName;
    const schema = githubSchema();
    const prepared = prepareQuery(schema, body);
    if ("errors" in prepared) {
      sendJson(200, { errors: prepared.errors }, peekHeaders(caller.key));
      return;
    }
    log.operationName ??= prepared.operation.name?.value ?? null;
    // The same query from the same viewer, with every ref it read unchanged and nobody's access
    // changed (the world's revision), has the same answer.
    const cacheKey = JSON.stringify([
      body.query,
      body.operationName,
      body.variables,
      caller.user.login,
      this.world.revision,
    ]);
    const stored = await this.#responses.get(cacheKey);
    const charged = this.#limiter.charge(caller.key, "graphql", prepared.cost.cost);
    const headers = rateLimitHeaders(charged.snapshot);
    if (!charged.ok) {
      sendJson(200, graphqlRateLimited(caller.user), headers);
      return;
    }
    if (stored !== null) {
      send(200, { "content-type": JSON_TYPE, ...headers }, stored);
      return;
    }
    const observations = new ObservationLog();
    const context: ResolverContext = {
      world: this.world,
      viewer: caller.user,
      git: (repository) => this.#gitOf(repository),
      htmlUrl: this.#htmlUrl,
      rateLimit: { ...snapshotFigures(charged.snapshot), ...prepared.cost },
      observations,
    };
    const payload = await runQuery(schema, prepared, body, context, requestId);
    const json = JSON.stringify(payload);
    // Answers with errors are not kept: some carry a request id, and they are rare.
    if (observations.cacheable && !("errors" in payload))
      this.#responses.set(cacheKey, json, observations.entries);
    send(200, { "content-type": JSON_TYPE, ...headers }, json);
  }

  async #rest(
    method: string,
    route: Exclude<Extract<Route, { api: "rest" }>, { revokeClientId: string }>,
    url: URL,
    request: IncomingMessage,
    caller: Caller,
    anonymousKey: string,
    sendJson: (status: number, payload: unknown, headers?: Record<string, string>) => void,
    send: (status: number, headers: Record<string, string>, body: string | null) => void,
    requestId: string,
  ): Promise<void> {
    const restHeaders = { "x-github-media-type": "github.v3; format=json" };
    if (caller.kind === "refused") {
      // Unlike GraphQL, REST serves public data without a token; a header it cannot use is refused.
      sendJson(401, UNAUTHORIZED.restBadCredentials, {
        ...restHeaders,
        ...rateLimitHeaders(this.#limiter.peek(anonymousKey, "core")),
      });
      return;
    }
    const viewer = caller.kind === "user" ? caller.user.login : null;
    let answer: RestAnswer;
    const found =
      route.repository === null
        ? undefined
        : "id" in route.repository
          ? this.world.repositoryById(route.repository.id)
          : this.world.repository(route.repository.owner, route.repository.name);
    if (method !== "GET" || route.repository === null) {
      answer = { status: 404, headers: {}, body: restNotFound() };
    } else if (!found || !this.world.canSee(viewer, found)) {
      answer = {
        status: 404,
        headers: {},
        body: restNotFound(
          "commitRef" in route && route.commitRef !== undefined
            ? "https://docs.github.com/rest/commits/commits#get-a-commit"
            : "https://docs.github.com/rest/repos/repos#list-repository-contributors",
        ),
      };
    } else if ("commitRef" in route && route.commitRef !== undefined) {
      answer = await commitAnswer({
        world: this.world,
        repository: found,
        git: this.#gitOf(found),
        ref: route.commitRef,
        query: url.searchParams,
        linkBase: `${this.baseUrl}${route.prefix}`,
        htmlUrl: this.#htmlUrl,
      });
    } else {
      answer = await contributorsAnswer({
        world: this.world,
        repository: found,
        git: this.#gitOf(found),
        query: url.searchParams,
        linkBase: `${this.baseUrl}${route.prefix}`,
        htmlUrl: this.#htmlUrl,
      });
    }

    const json = answer.body === null ? null : JSON.stringify(answer.body);
    const etag =
      answer.status === 200 && json !== null
        ? `W/"${createHash("sha256").update(json).digest("hex")}"`
        : null;
    const cacheHeaders: Record<string, string> = etag
      ? {
          etag,
          "cache-control": "private, max-age=60, s-maxage=60",
          vary: "Accept, Authorization, Cookie, X-GitHub-OTP",
        }
      : {};
    if (etag && matchesEtag(request.headers["if-none-match"], etag)) {
      // A conditional request answered 304 costs nothing.
      send(
        304,
        { ...restHeaders, ...cacheHeaders, ...rateLimitHeaders(this.#limiter.peek(caller.key, "core")) },
        null,
      );
      return;
    }
    const charged = this.#limiter.charge(caller.key, "core", 1);
    const rateHeaders = rateLimitHeaders(charged.snapshot);
    if (!charged.ok) {
      const who =
        caller.kind === "user"
          ? `for user ID ${caller.user.id}. If you reach out to GitHub Support for help, please include the request ID ${requestId} and timestamp ${new Date(this.#now()).toISOString().replace("T", " ").slice(0, 19)} UTC.`
          : `for ${request.socket.remoteAddress ?? "your address"}. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)`;
      sendJson(
        403,
        {
          message: `API rate limit exceeded ${who}`,
          documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
          status: "403",
        },
        { ...restHeaders, ...rateHeaders },
      );
      return;
    }
    const headers = { ...restHeaders, ...answer.headers, ...cacheHeaders, ...rateHeaders };
    if (json === null) send(answer.status, headers, null);
    else send(answer.status, { "content-type": JSON_TYPE, ...headers }, json);
  }
}

function snapshotFigures(snapshot: RateSnapshot): {
  limit: number;
  remaining: number;
  used: number;
  resetAt: number;
} {
  return {
    limit: snapshot.limit,
    remaining: snapshot.remaining,
    used: snapshot.used,
    resetAt: snapshot.resetAt,
  };
}

/** GitHub's GraphQL answer once the primary budget is spent (HTTP 200). */
function graphqlRateLimited(user: WorldUser): Record<string, unknown> {
  return {
    errors: [
      {
        type: "RATE_LIMIT",
        code: "graphql_rate_limit",
        message: `API rate limit already exceeded for user ID ${user.id}.`,
      },
    ],
  };
}

/** `If-None-Match` holds the ETag (weak comparison, lists and `*` allowed). */
function matchesEtag(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const strip = (tag: string): string => tag.trim().replace(/^W\//, "");
  const wanted = strip(etag);
  return (Array.isArray(header) ? header : [header])
    .flatMap((value) => value.split(","))
    .some((candidate) => candidate.trim() === "*" || strip(candidate) === wanted);
}

/**
 * Starts the GitHub stand-in on 127.0.0.1: GraphQL at `/graphql` (and `/api/graphql`), REST
 * contributors at `/repos/{owner}/{repo}/contributors` and `/repositories/{id}/contributors` (also
 * under `/api/v3`). Without `world`, it serves the demo world, generated on first use.
 */
export async function startGitHubStandIn(options: GitHubStandInOptions = {}): Promise<GitHubStandIn> {
  const definition =
    options.world ??
    (
      await ensureDemoWorld({
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
        git: options.git ?? {},
      })
    ).definition;
  // GitHub's schema is large: building it and validating the first query against it block for
  // seconds on a busy machine. Paid here, before the first request, so that a bot in the same
  // process (the sandbox, the end-to-end tests) never stalls past Discord's 3 s on its first read.
  validate(githubSchema(), parse("query WarmUp { viewer { login } }"));
  const standIn = new StandInServer(new World(definition), options);
  await standIn.listen(options.port ?? 0, options.host ?? "127.0.0.1");
  return standIn;
}
