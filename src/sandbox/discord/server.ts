import type { IncomingMessage, ServerResponse } from "node:http";
import { cloneJson, merged } from "./json.js";
import type { RateLimiter } from "./rateLimits.js";
import { DiscordRestError, restErrors } from "./restErrors.js";
import { parseBody, readBody } from "./requestBody.js";
import { matchRoute, type HttpMethod, type RouteDefinition } from "./router.js";
import type { DiscordState, RestRequestRecord, UploadedFile } from "./state.js";
import { LIMITS } from "./validation.js";

/** API versions the stand-in serves under `/api/v{n}` (both shapes are the same for our routes). */
const VERSIONS = new Set(["v9", "v10"]);
/** Discord's cap on a whole request (files and JSON) for a server without boosts, with room for form overhead. */
const REQUEST_LIMIT_BYTES = 25 * 1024 * 1024 + 1024 * 1024;

/** Splits a path into percent-decoded segments (`%40original` -> `@original`). */
function decodeSegments(pathname: string): string[] | null {
  try {
    return pathname
      .split("/")
      .filter(Boolean)
      .map((segment) => decodeURIComponent(segment));
  } catch {
    return null;
  }
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
): void {
  const payload = status === 204 || body === undefined ? "" : JSON.stringify(body);
  const length = String(Buffer.byteLength(payload));
  const sized: Record<string, string> = payload
    ? { "Content-Type": "application/json", "Content-Length": length }
    : { "Content-Length": length };
  response.writeHead(status, merged(headers, sized));
  response.end(payload);
}

function authOf(header: string | undefined, token: string): RestRequestRecord["auth"] {
  if (!header) return "none";
  return header === `Bot ${token}` ? "bot" : "invalid";
}

/** Serves an attachment's bytes at the URL given in its `url` (a local CDN). */
function serveAttachment(state: DiscordState, segments: string[], response: ServerResponse): void {
  const [, , attachmentId] = segments;
  for (const message of state.messages.values()) {
    const file = attachmentId ? message.files.get(attachmentId) : undefined;
    if (file) {
      response.writeHead(200, {
        "Content-Type": file.contentType,
        "Content-Length": String(file.bytes.length),
      });
      response.end(file.bytes);
      return;
    }
  }
  response.writeHead(404, { "Content-Type": "text/plain" });
  response.end("404: Not Found");
}

/**
 * Creates the HTTP handler of the stand-in's REST API: routing under `/api/v10`, bot
 * authentication, body parsing (JSON and multipart), per-route rate-limit buckets and injected
 * 429s, Discord's error bodies, and a record of every request in `state.requests`.
 */
export function createRestHandler(
  state: DiscordState,
  routes: readonly RouteDefinition[],
  rateLimiter: RateLimiter,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    void handle(state, routes, rateLimiter, request, response).catch((error: unknown) => {
      console.error("discord stand-in: unexpected error", error);
      if (!response.headersSent) send(response, 500, { message: "500: Internal Server Error", code: 0 }, {});
    });
  };
}

async function handle(
  state: DiscordState,
  routes: readonly RouteDefinition[],
  rateLimiter: RateLimiter,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? "/", "http://stand-in.invalid");
  const method = (request.method ?? "GET").toUpperCase();
  const segments = decodeSegments(url.pathname);
  if (segments && segments[0] === "attachments" && method === "GET") {
    serveAttachment(state, segments, response);
    return;
  }
  const record: RestRequestRecord = {
    at: Date.now(),
    method,
    path: "",
    route: null,
    query: Object.fromEntries(url.searchParams),
    status: 0,
    body: undefined,
    files: [],
    response: undefined,
    auth: authOf(request.headers.authorization, state.options.botToken),
    interactionId: null,
  };
  let headers: Record<string, string> = {};
  let status: number;
  let body: unknown;
  let parsedBody: unknown;
  try {
    if (!segments || segments[0] !== "api" || !VERSIONS.has(segments[1] ?? "")) throw restErrors.notFound();
    const routeSegments = segments.slice(2);
    record.path = `/${routeSegments.join("/")}`;
    const match = matchRoute(routes, method, routeSegments);
    if (match.kind === "notFound") throw restErrors.notFound();
    if (match.kind === "methodNotAllowed") throw restErrors.methodNotAllowed();
    const { route, params } = match;
    record.route = route.template;
    const raw = await readBody(request, REQUEST_LIMIT_BYTES);
    if (route.auth === "bot" && record.auth !== "bot") throw restErrors.unauthorized();
    const majorValue =
      route.major === "webhook"
        ? `${params.webhook_id ?? ""}/${params.webhook_token ?? ""}`
        : route.major
          ? (params[route.major] ?? null)
          : null;
    const verdict = rateLimiter.check(method, route.template, record.path, majorValue);
    headers = verdict.headers;
    if (verdict.limited) {
      status = 429;
      body = {
        message: "You are being rate limited.",
        retry_after: verdict.limited.retryAfter,
        global: verdict.limited.global,
      };
    } else {
      const parsed = await parseBody(raw, request.headers["content-type"]);
      parsedBody = parsed.body;
      // The record keeps a copy: handlers may keep the parsed body (a message's writes).
      if (state.requestLog === "full")
        record.body = parsed.body === undefined ? undefined : cloneJson(parsed.body);
      record.files = parsed.uploads.map((upload: UploadedFile) => ({
        field: upload.field,
        filename: upload.filename,
        contentType: upload.contentType,
        size: upload.bytes.length,
      }));
      if (parsed.uploads.some((upload) => upload.bytes.length > LIMITS.fileBytes))
        throw restErrors.requestTooLarge();
      const result = await route.handler({
        state,
        method: method as HttpMethod,
        params,
        query: url.searchParams,
        body: parsed.body,
        uploads: parsed.uploads,
        relate: (interactionId) => {
          if (interactionId) record.interactionId = interactionId;
        },
      });
      status = result.status;
      body = result.body;
    }
  } catch (error) {
    if (!(error instanceof DiscordRestError)) throw error;
    status = error.status;
    body = error.body;
    headers = merged(headers, error.headers);
  }
  record.status = status;
  const failed = status >= 400;
  if (state.requestLog === "full" || failed) {
    if (record.body === undefined && parsedBody !== undefined) record.body = cloneJson(parsedBody);
    record.response = body === undefined ? undefined : cloneJson(body);
  }
  state.logRequest(record);
  send(response, status, body, headers);
  state.touch(record.interactionId);
}
