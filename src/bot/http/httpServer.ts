import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../../logger.js";

/**
 * How long a client may take to send a request's headers, and the whole request: Discord sends an
 * interaction in milliseconds, and a client that trickles bytes holds a socket and the part of the
 * body read so far (Node's defaults: 60 s for headers, 300 s for the request).
 */
export const REQUEST_TIMEOUT_MS = 10_000;
/** How often Node looks for requests past their timeout (its default, 30 s, would triple the bound). */
const TIMEOUT_CHECK_MS = 1_000;
/**
 * How long a connection may stay idle between requests before this side closes it: longer than
 * any load balancer in front keeps an idle connection to its backends (AWS's ALB 60 s by default,
 * nginx's upstream keep-alive 60 s, Google's load balancers 600 s, Cloudflare 900 s). Node's own 5 s
 * is shorter than all of them, and a balancer that sends a request on a connection just as this
 * side closes it answers Discord 502: an interaction failed. Only a connection that carried a
 * verified interaction is kept: every other answer closes its connection (see
 * {@link createBotHttpServer}), so nobody but Discord can hold a socket idle this long.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 905_000;
/**
 * Sockets open at once, kept-alive ones included: beyond it Node drops new connections, so that
 * slow clients cannot take file descriptors without bound.
 */
export const MAX_CONNECTIONS = 1_024;

/** A route's handler; it answers the request itself. */
export type RouteHandler = (request: IncomingMessage, reply: ServerResponse) => Promise<void> | void;

/** One of the bot's HTTP servers: the public `/interactions`, the operator's `/healthz`, `/readyz`, `/metrics`, or both. */
export interface BotHttpServer {
  /** Listens; resolves with the port taken (a free one for port 0). */
  listen(port: number, host?: string): Promise<number>;
  /** `http://host:port` once listening. */
  readonly url: string | null;
  /** Stops taking connections and closes those left (call after the core drained). */
  close(): Promise<void>;
}

/** Answers JSON and closes the connection: only a verified interaction keeps one open. */
function sendJson(reply: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  reply.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(text)),
    Connection: "close",
  });
  reply.end(text);
}

/**
 * Creates a server. Connections are kept alive for {@link KEEP_ALIVE_TIMEOUT_MS} after an answer
 * to `POST /interactions` that does not close (the endpoint closes on every refusal); every other
 * route's answer closes its connection, so that a stranger's request cannot hold one of the
 * {@link MAX_CONNECTIONS} sockets for long. `GET /healthz` answers 200 `{"status":"ok"}` while the process runs (a load
 * balancer's liveness check, SPEC section 5; unless `health` is false); `GET /readyz` says whether the bot can answer now
 * (its checks by name); `GET /metrics` is Prometheus's; `POST /interactions` goes to `interactions`
 * when given (HTTP mode); anything else is 404, or 405 for a known path with another method.
 */
export function createBotHttpServer(options: {
  interactions?: RouteHandler;
  logger: Logger;
  /** `GET /healthz` and `GET /readyz` (default true); false: a public port serving `/interactions` alone. */
  health?: boolean;
  /**
   * `GET /readyz`: each check's name and whether it holds (200 when all do, else 503); absent: no
   * such route.
   */
  readiness?: () => Promise<Record<string, boolean>>;
  /** `GET /metrics`: Prometheus's text exposition; absent: no such route. */
  metrics?: { contentType: string; metrics(): Promise<string> };
  /** The bound on headers and request time (default {@link REQUEST_TIMEOUT_MS}; tests shorten it). */
  requestTimeoutMs?: number;
  /** The bound on open sockets (default {@link MAX_CONNECTIONS}; tests lower it). */
  maxConnections?: number;
  /** How long a kept connection may idle (default {@link KEEP_ALIVE_TIMEOUT_MS}; tests shorten it). */
  keepAliveTimeoutMs?: number;
}): BotHttpServer {
  const { logger } = options;
  const requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const routes = new Map<string, { method: string; handle: RouteHandler }>();
  if (options.health !== false) {
    routes.set("/healthz", {
      method: "GET",
      handle: (_request, reply) => sendJson(reply, 200, { status: "ok" }),
    });
  }
  if (options.interactions) routes.set("/interactions", { method: "POST", handle: options.interactions });
  const { readiness, metrics } = options;
  if (readiness && options.health !== false) {
    routes.set("/readyz", {
      method: "GET",
      handle: async (_request, reply) => {
        const checks = await readiness();
        const ready = Object.values(checks).every(Boolean);
        sendJson(reply, ready ? 200 : 503, { status: ready ? "ready" : "not ready", checks });
      },
    });
  }
  if (metrics) {
    routes.set("/metrics", {
      method: "GET",
      handle: async (_request, reply) => {
        const text = await metrics.metrics();
        reply.writeHead(200, {
          "Content-Type": metrics.contentType,
          "Content-Length": String(Buffer.byteLength(text)),
          Connection: "close",
        });
        reply.end(text);
      },
    });
  }

  const server: Server = createServer(
    {
      headersTimeout: requestTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, requestTimeoutMs),
      keepAliveTimeout: options.keepAliveTimeoutMs ?? KEEP_ALIVE_TIMEOUT_MS,
    },
    (request, reply) => {
      // A route's own path as sent (the usual case) needs no URL parse; anything else is normalised.
      const target = request.url ?? "/";
      const end = target.search(/[?#]/);
      const plain = end < 0 ? target : target.slice(0, end);
      const path = routes.has(plain) ? plain : new URL(target, "http://bot.invalid").pathname;
      const route = routes.get(path);
      if (!route) return sendJson(reply, 404, { error: "not found" });
      if (request.method !== route.method) {
        reply.setHeader("Allow", route.method);
        return sendJson(reply, 405, { error: "method not allowed" });
      }
      Promise.resolve(route.handle(request, reply)).catch((error: unknown) => {
        logger.error({ err: error, path }, "HTTP request failed");
        if (!reply.headersSent) sendJson(reply, 500, { error: "internal error" });
        else reply.destroy();
      });
    },
  );
  server.maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  let url: string | null = null;

  return {
    // Made once per server, not per request: the rule against accessors in literals guards the latter.
    // eslint-disable-next-line no-restricted-syntax
    get url() {
      return url;
    },
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          const address = server.address() as AddressInfo;
          const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
          url = `http://${shown}:${address.port}`;
          resolve(address.port);
        });
      });
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
