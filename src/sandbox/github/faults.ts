/**
 * Scripted failures: what GitHub (or the network in front of it) does on a bad day. A test or the
 * command line queues faults; each request takes the first fault that targets its API.
 */

export type FaultKind =
  /** Extra delay before the normal answer. */
  | "latency"
  /** 401 Bad credentials, whatever the token. */
  | "unauthorized"
  /** 403 secondary rate limit with `retry-after`. */
  | "secondaryRateLimit"
  /** 429 secondary rate limit with `retry-after`. */
  | "tooManyRequests"
  /** 502 with GitHub's timeout body. */
  | "badGateway"
  /** 500 with an HTML page. */
  | "serverError"
  /** The connection is destroyed without an answer. */
  | "reset"
  /** No answer at all, until the stand-in closes. */
  | "hang";

export type FaultTarget = "graphql" | "rest" | "both";

/** A fault to inject. */
export interface Fault {
  kind: FaultKind;
  /** Which API it hits; default both. */
  target?: FaultTarget;
  /** How many requests it hits; default 1. */
  times?: number;
  /** For `latency`: the delay in milliseconds. */
  latencyMs?: number;
  /** For `secondaryRateLimit` and `tooManyRequests`: the `retry-after` seconds (default 60). */
  retryAfterSeconds?: number;
}

/** A queued fault with what is left of it. */
export interface PendingFault extends Required<Omit<Fault, "latencyMs" | "retryAfterSeconds">> {
  latencyMs: number;
  retryAfterSeconds: number;
}

/** The faults one request meets: delay to add, and at most one failure instead of the answer. */
export interface FaultsForRequest {
  latencyMs: number;
  failure: PendingFault | null;
}

/** The queue of injected faults. */
export class FaultController {
  #queue: PendingFault[] = [];

  /** Queues a fault. */
  inject(fault: Fault): void {
    const times = fault.times ?? 1;
    if (!Number.isInteger(times) || times < 1)
      throw new Error(`fault times must be a positive integer: ${times}`);
    this.#queue.push({
      kind: fault.kind,
      target: fault.target ?? "both",
      times,
      latencyMs: fault.latencyMs ?? 0,
      retryAfterSeconds: fault.retryAfterSeconds ?? 60,
    });
  }

  /** Drops every queued fault. */
  clear(): void {
    this.#queue = [];
  }

  /** The faults still queued. */
  pending(): readonly PendingFault[] {
    return this.#queue.map((fault) => ({ ...fault }));
  }

  /**
   * Takes what applies to one request of `api`: every matching latency fault adds its delay, and
   * the first matching failure replaces the answer. Each use counts against the fault's `times`.
   */
  take(api: "graphql" | "rest"): FaultsForRequest {
    let latencyMs = 0;
    let failure: PendingFault | null = null;
    for (const fault of this.#queue) {
      if (fault.target !== "both" && fault.target !== api) continue;
      if (fault.kind === "latency") {
        latencyMs += fault.latencyMs;
        fault.times -= 1;
      } else if (!failure) {
        failure = { ...fault };
        fault.times -= 1;
      }
    }
    this.#queue = this.#queue.filter((fault) => fault.times > 0);
    return { latencyMs, failure };
  }
}

const KIND_ALIASES: Record<string, FaultKind> = {
  latency: "latency",
  "401": "unauthorized",
  unauthorized: "unauthorized",
  "403": "secondaryRateLimit",
  secondary: "secondaryRateLimit",
  secondaryratelimit: "secondaryRateLimit",
  "429": "tooManyRequests",
  toomanyrequests: "tooManyRequests",
  "502": "badGateway",
  badgateway: "badGateway",
  timeout: "badGateway",
  "500": "serverError",
  servererror: "serverError",
  reset: "reset",
  hang: "hang",
};

/**
 * Reads a fault from the command line: `KIND[:TARGET[:TIMES]]`, KIND one of 401, 403, 429, 502, 500,
 * reset, hang, latency=MS (or the {@link FaultKind} names), TARGET graphql|rest|both. Examples:
 * `502`, `502:graphql:3`, `latency=1500:rest`, `403:both:2`.
 */
export function parseFaultSpec(text: string): Fault {
  const [kindPart = "", target = "both", times = "1"] = text.split(":");
  const [kindName = "", value] = kindPart.split("=");
  const kind = KIND_ALIASES[kindName.toLowerCase()];
  if (!kind) throw new Error(`unknown fault kind "${kindName}" in "${text}"`);
  if (target !== "graphql" && target !== "rest" && target !== "both") {
    throw new Error(`fault target must be graphql, rest or both: "${text}"`);
  }
  const count = Number(times);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`fault times must be a positive integer: "${text}"`);
  const fault: Fault = { kind, target, times: count };
  if (kind === "latency") {
    const ms = Number(value);
    if (!Number.isFinite(ms) || ms < 0)
      throw new Error(`latency needs milliseconds: "latency=1500" in "${text}"`);
    fault.latencyMs = ms;
  } else if (value !== undefined) {
    const seconds = Number(value);
    if (!Number.isInteger(seconds) || seconds < 0)
      throw new Error(`retry-after must be whole seconds in "${text}"`);
    fault.retryAfterSeconds = seconds;
  }
  return fault;
}
