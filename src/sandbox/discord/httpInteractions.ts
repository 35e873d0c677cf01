// Over 300 lines: Discord's side of HTTP interactions in one place: signing, endpoint choice (round robin), the reply read within 3 s, replays and the bad-signature probes Discord sends.
import { InteractionType } from "discord-api-types/v10";
import { Pool } from "undici";
import { merged, sortedJson } from "./json.js";
import { acceptFirstResponse } from "./interactionResponse.js";
import type { InteractionSigner } from "./interactionSigner.js";
import { parseBody } from "./requestBody.js";
import { DiscordRestError } from "./restErrors.js";
import type { DiscordState, InteractionState } from "./state.js";

/** Discord's limit on an interaction reply it reads (a reply with files is multipart). */
const REPLY_LIMIT_BYTES = 26 * 1024 * 1024;
const USER_AGENT = "Discord-Interactions/1.0 (+https://discord.com)";

/** A raw request to an interactions endpoint, for tests of its defences. */
export interface EndpointRequest {
  /** The endpoint (default: the first configured one). */
  url?: string;
  /** The body: an object is sent as JSON, a string as is (e.g. "not json"). Default: a PING. */
  body?: unknown;
  /** `X-Signature-Timestamp` in Unix seconds (default: now). A stale one is e.g. now - 3600. */
  timestamp?: number | string;
  /**
   * `valid` (default): signed with the application's key; `otherKey`: well-formed, by another
   * key; `tampered`: valid for the body before its last character changed; `none`: no
   * `X-Signature-Ed25519` header; or an exact header value.
   */
  signature?: "valid" | "otherKey" | "tampered" | "none" | (string & {});
  /** Leave `X-Signature-Timestamp` out. */
  omitTimestamp?: boolean;
  /** Extra or overriding headers (e.g. another Content-Type). */
  headers?: Record<string, string>;
}

/** What an endpoint answered. */
export interface EndpointAnswer {
  url: string;
  status: number;
  contentType: string;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** Counts per endpoint. */
export interface EndpointStats {
  delivered: number;
  /** Replies taken as the interaction's first response (or 202 then the callback route). */
  accepted: number;
  /** No answer before the deadline, a refused signature, an unusable reply. */
  failed: number;
}

interface Exchange {
  status: number;
  contentType: string;
  body: Buffer;
}

/** Thrown by `setInteractionsEndpoint` when an endpoint fails Discord's checks. */
export class EndpointVerificationError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`The specified interactions endpoint url could not be verified: ${url} ${reason}`);
    this.name = "EndpointVerificationError";
  }
}

/**
 * Interactions over HTTP, Discord's side (DISCORD-FACTS "Interactions over HTTP"): with endpoint
 * URLs set, every interaction is POSTed to one of them (round-robin, as a load balancer in front
 * of several bot processes would spread them) instead of INTERACTION_CREATE on the gateway, signed
 * with the application's Ed25519 key. The reply's body is the first response, under the callback
 * route's rules (3 s, types per interaction, one response); a 202 without a body leaves the first
 * response to the callback route, as Discord documents. Saving an endpoint sends Discord's
 * checks: a valid PING (200 `{"type":1}` with a JSON Content-Type) and PINGs with bad signatures
 * (401), and refuses the URL otherwise.
 */
export class HttpInteractions {
  private endpoints: string[] = [];
  private turn = 0;
  private readonly stats = new Map<string, EndpointStats>();
  private readonly state: DiscordState;
  private readonly signer: InteractionSigner;
  /** Kept-alive connections to each endpoint's origin, and each endpoint's origin and path. */
  private readonly pools = new Map<string, Pool>();
  private readonly targets = new Map<string, { origin: string; path: string }>();

  constructor(
    state: DiscordState,
    signer: InteractionSigner,
    /** Discord's clock (Unix ms), on which its requests' timestamps are signed. */
    private readonly discordNow: () => number = Date.now,
  ) {
    this.state = state;
    this.signer = signer;
  }

  /** True when interactions go over HTTP. */
  get active(): boolean {
    return this.endpoints.length > 0;
  }

  /** The configured endpoints. */
  urls(): string[] {
    return [...this.endpoints];
  }

  /** Delivery counts per endpoint. */
  endpointStats(): Record<string, EndpointStats> {
    return Object.fromEntries([...this.stats].map(([url, stats]) => [url, { ...stats }]));
  }

  /**
   * Sets the endpoints (null or []: back to the gateway). With `verify` (default), each must pass
   * Discord's checks first; on failure nothing changes.
   * @throws EndpointVerificationError naming the endpoint and what it answered.
   */
  async set(urls: string | readonly string[] | null, options: { verify?: boolean } = {}): Promise<void> {
    const list = urls === null ? [] : typeof urls === "string" ? [urls] : [...urls];
    for (const url of list) {
      if (!/^https?:\/\//.test(url)) throw new EndpointVerificationError(url, "is not an http(s) URL");
    }
    if (options.verify !== false) for (const url of list) await this.verify(url);
    this.endpoints = list;
    this.turn = 0;
    for (const url of list)
      if (!this.stats.has(url)) this.stats.set(url, { delivered: 0, accepted: 0, failed: 0 });
  }

  /**
   * Sends Discord's checks to one endpoint: a valid PING, then a PING signed by another key and
   * one whose body changed after signing.
   * @throws EndpointVerificationError when a check fails.
   */
  async verify(url: string): Promise<void> {
    const fail = (reason: string): never => {
      throw new EndpointVerificationError(url, reason);
    };
    let pong: EndpointAnswer;
    try {
      pong = await this.send({ url });
    } catch (error) {
      return fail(`could not be reached (${(error as Error).message})`);
    }
    if (pong.status !== 200) fail(`answered ${pong.status} to a valid PING (it must answer 200 {"type":1})`);
    if (!/^application\/json/i.test(pong.contentType))
      fail(`answered a PING with Content-Type "${pong.contentType}" (it must be application/json)`);
    if ((pong.json as { type?: unknown } | undefined)?.type !== 1)
      fail(`answered a PING with ${JSON.stringify(pong.text.slice(0, 100))} (it must be {"type":1})`);
    for (const signature of ["otherKey", "tampered"] as const) {
      const answer = await this.send({ url, signature });
      if (answer.status !== 401)
        fail(`answered ${answer.status} to a PING with a bad signature (${signature}); it must answer 401`);
    }
  }

  /** Sends a raw, signed (or deliberately badly signed) request to an endpoint. */
  async send(request: EndpointRequest = {}): Promise<EndpointAnswer> {
    const url = request.url ?? this.endpoints[0];
    if (!url) throw new Error("no interactions endpoint is set; pass `url`");
    const body =
      request.body === undefined
        ? JSON.stringify(this.pingPayload())
        : typeof request.body === "string"
          ? request.body
          : JSON.stringify(request.body);
    const timestamp = String(request.timestamp ?? Math.floor(this.discordNow() / 1000));
    const headers: Record<string, string> = { "Content-Type": "application/json", "User-Agent": USER_AGENT };
    if (!request.omitTimestamp) headers["X-Signature-Timestamp"] = timestamp;
    const choice = request.signature ?? "valid";
    if (choice !== "none") {
      headers["X-Signature-Ed25519"] =
        choice === "valid"
          ? this.signer.sign(timestamp, body)
          : choice === "otherKey"
            ? this.signer.signWithOtherKey(timestamp, body)
            : choice === "tampered"
              ? this.signer.sign(timestamp, body)
              : choice;
    }
    // A tampered request carries the signature of the body as it was before a change (still JSON).
    const sent = choice === "tampered" ? `${body} ` : body;
    const exchange = await this.post(url, merged(headers, request.headers), sent, 10_000);
    return answerOf(url, exchange);
  }

  /**
   * Sends again the exact bytes and headers of an interaction's delivery (a replayed request,
   * which the bot must refuse: replay protection is its job).
   */
  async replay(interaction: InteractionState, url?: string): Promise<EndpointAnswer> {
    const signed = interaction.signedRequest;
    const target = url ?? interaction.delivery?.endpoint;
    if (!signed || !target) throw new Error(`interaction ${interaction.id} was not delivered over HTTP`);
    return this.send({
      url: target,
      body: signed.body,
      timestamp: signed.timestamp,
      signature: signed.signature,
    });
  }

  /**
   * POSTs an interaction to the next endpoint and takes the reply as its first response. Runs in
   * the background; the interaction's `delivery` and activity tell how it went.
   */
  deliver(interaction: InteractionState): void {
    const url = this.endpoints[this.turn++ % this.endpoints.length]!;
    const stats = this.stats.get(url)!;
    stats.delivered++;
    const body = JSON.stringify(interaction.payload);
    const timestamp = String(Math.floor(this.discordNow() / 1000));
    const signature = this.signer.sign(timestamp, body);
    interaction.signedRequest = { body, timestamp, signature };
    const delivery = { transport: "http" as const, endpoint: url, status: 0 };
    interaction.delivery = delivery;
    const headers = {
      "Content-Type": "application/json",
      "User-Agent": USER_AGENT,
      "X-Signature-Ed25519": signature,
      "X-Signature-Timestamp": timestamp,
    };
    const finish = (error: string | null, status: number) => {
      Object.assign(delivery, { status, answeredAt: Date.now() }, error ? { error } : {});
      if (error) stats.failed++;
      else stats.accepted++;
      this.state.touch(interaction.id);
    };
    // Discord waits for the reply until the response deadline, counted from the interaction's creation.
    const timeoutMs = Math.max(1, interaction.deadlineAt - Date.now());
    this.post(url, headers, body, timeoutMs).then(
      async (exchange) => finish(await this.takeReply(interaction, exchange), exchange.status),
      (error: unknown) => finish(`no usable answer before the deadline (${(error as Error).message})`, -1),
    );
  }

  /** Applies an endpoint's reply; returns why it was not taken, or null. */
  private async takeReply(interaction: InteractionState, exchange: Exchange): Promise<string | null> {
    const { status, contentType, body } = exchange;
    if (status === 401) return "the endpoint refused the request's signature (401)";
    if (status === 202 && body.length === 0) return null;
    if (status !== 200) return `the endpoint answered ${status}`;
    let parsed: { body: unknown; uploads: Awaited<ReturnType<typeof parseBody>>["uploads"] };
    try {
      if (/^application\/json/i.test(contentType)) {
        parsed = { body: JSON.parse(body.toString("utf8")) as unknown, uploads: [] };
      } else if (/^multipart\/form-data/i.test(contentType)) {
        parsed = await parseBody(body, contentType);
      } else {
        return `the reply's Content-Type "${contentType}" is neither application/json nor multipart/form-data`;
      }
    } catch {
      return "the reply's body is not valid JSON";
    }
    if (interaction.type === InteractionType.Ping) return null;
    try {
      acceptFirstResponse(
        this.state,
        interaction,
        merged(parsed, { withResponse: false, via: "http" as const }),
      );
      return null;
    } catch (error) {
      if (!(error instanceof DiscordRestError)) throw error;
      return `the reply was refused: ${error.status} ${JSON.stringify(error.body)}`;
    }
  }

  private pingPayload(): Record<string, unknown> {
    const id = this.state.nextId();
    return sortedJson({
      application_id: this.state.applicationId,
      entitlements: [],
      id,
      token: Buffer.from(`interaction:${id}:ping`).toString("base64url"),
      type: InteractionType.Ping,
      user: this.state.world.users.owner,
      version: 1,
    });
  }

  /**
   * POSTs `body` to `url` and reads the whole reply, or fails after `timeoutMs`. Through undici's
   * connection pool and its handler interface, not node:http's client: under the load figures'
   * 1,600 interactions a second, on the one cpu the local Discord shares with the load driver,
   * node:http's request objects, streams and agent bookkeeping cost 67-85 µs of cpu a request
   * against 37-38 here (a 1.3 KB POST and a 1.5 KB JSON reply over loopback, 64 in flight), some 6%
   * of the driver's cpu for each interaction it sends.
   */
  private post(
    url: string,
    headers: Record<string, string>,
    body: string,
    timeoutMs: number,
  ): Promise<Exchange> {
    const { origin, path } = this.targetOf(url);
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin);
      this.pools.set(origin, pool);
    }
    return new Promise((resolve, reject) => {
      let abort: ((error: Error) => void) | null = null;
      let stopped: Error | null = null;
      const stop = (error: Error) => {
        stopped = error;
        abort?.(error);
      };
      const timer = setTimeout(() => stop(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      const chunks: Buffer[] = [];
      let size = 0;
      let status = 0;
      let contentType = "";
      pool.dispatch(
        { origin, path, method: "POST", headers, body },
        {
          onConnect(abortRequest) {
            abort = abortRequest;
            if (stopped) abortRequest(stopped);
          },
          onHeaders(statusCode, rawHeaders) {
            status = statusCode;
            for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
              const name = rawHeaders[index]!;
              if (name.length === 12 && name.toString("latin1").toLowerCase() === "content-type")
                contentType = rawHeaders[index + 1]!.toString("latin1");
            }
            return true;
          },
          onData(chunk) {
            size += chunk.length;
            if (size > REPLY_LIMIT_BYTES) stop(new Error("reply too large"));
            else chunks.push(chunk);
            return true;
          },
          onComplete() {
            clearTimeout(timer);
            resolve({ status, contentType, body: Buffer.concat(chunks) });
          },
          onError(error) {
            clearTimeout(timer);
            reject(error);
          },
        },
      );
    });
  }

  private targetOf(url: string): { origin: string; path: string } {
    let target = this.targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
      this.targets.set(url, target);
    }
    return target;
  }

  /** Closes kept-alive sockets. */
  close(): void {
    for (const pool of this.pools.values()) pool.destroy().catch(() => undefined);
    this.pools.clear();
  }
}

function answerOf(url: string, exchange: Exchange): EndpointAnswer {
  const text = exchange.body.toString("utf8");
  let json: unknown;
  try {
    json = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    json = undefined;
  }
  return { url, status: exchange.status, contentType: exchange.contentType, text, json };
}
