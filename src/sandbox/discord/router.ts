import type { DiscordState, UploadedFile } from "./state.js";

/** HTTP methods the stand-in's routes answer. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a route handler receives. */
export interface RouteContext {
  state: DiscordState;
  method: HttpMethod;
  /** Captured path parameters, percent-decoded (`:channel_id` -> `params.channel_id`). */
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body, or the parsed `payload_json` of a multipart body. */
  body: unknown;
  uploads: UploadedFile[];
  /** Ties this request to an interaction (for its record and its activity). */
  relate(interactionId: string | null | undefined): void;
}

/** What a route handler answers on success. */
export interface RouteResult {
  status: number;
  body?: unknown;
}

/** One REST route of the stand-in. */
export interface RouteDefinition {
  method: HttpMethod;
  /** Path after `/api/v10`, with `:name` parameters. */
  template: string;
  /** `bot`: needs `Authorization: Bot <token>`; `none`: webhook-token and public routes. */
  auth: "bot" | "none";
  /** The parameter that splits this route's rate-limit bucket (Discord's "major parameter"). */
  major?: string;
  handler(context: RouteContext): RouteResult | Promise<RouteResult>;
}

/** The outcome of matching a path against the route table. */
export type RouteMatch =
  | { kind: "found"; route: RouteDefinition; params: Record<string, string> }
  | { kind: "methodNotAllowed" }
  | { kind: "notFound" };

/** Each template's parts, split once (splitting on every request was a hot spot under load). */
const templateParts = new Map<string, string[]>();

function partsOf(template: string): string[] {
  let parts = templateParts.get(template);
  if (!parts) {
    parts = template.split("/").filter(Boolean);
    templateParts.set(template, parts);
  }
  return parts;
}

function matchTemplate(template: string, segments: readonly string[]): Record<string, string> | null {
  const parts = partsOf(template);
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    const segment = segments[index]!;
    if (part.startsWith(":")) {
      if (segment.length === 0) return null;
      params[part.slice(1)] = segment;
    } else if (part !== segment) return null;
  }
  return params;
}

/**
 * Finds the route for a method and a percent-decoded path. Literal routes win over parameter
 * routes of the same shape (so `/users/@me` is not taken for `/users/:user_id`).
 */
export function matchRoute(
  routes: readonly RouteDefinition[],
  method: string,
  segments: readonly string[],
): RouteMatch {
  let pathMatched = false;
  let best: { route: RouteDefinition; params: Record<string, string>; literals: number } | null = null;
  for (const route of routes) {
    const params = matchTemplate(route.template, segments);
    if (!params) continue;
    pathMatched = true;
    if (route.method !== method) continue;
    const literals = partsOf(route.template).filter((part) => !part.startsWith(":")).length;
    if (!best || literals > best.literals) best = { route, params, literals };
  }
  if (best) return { kind: "found", route: best.route, params: best.params };
  return pathMatched ? { kind: "methodNotAllowed" } : { kind: "notFound" };
}
