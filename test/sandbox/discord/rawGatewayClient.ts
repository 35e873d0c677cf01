import { WebSocket } from "ws";

/** One gateway payload as received. */
export interface GatewayPayload {
  op: number;
  d: unknown;
  s: number | null;
  t: string | null;
}

/** A bare gateway client for tests that look at the wire, without discord.js in between. */
export interface RawGatewayClient {
  socket: WebSocket;
  received: GatewayPayload[];
  send(payload: { op: number; d: unknown }): void;
  /** Resolves with the next payload (after those already awaited) that matches. */
  next(match: (payload: GatewayPayload) => boolean, timeoutMs?: number): Promise<GatewayPayload>;
  /** Resolves with the close code once the server closes the socket. */
  closed: Promise<number>;
  close(code?: number): Promise<void>;
}

/** Opens a raw connection to a gateway URL (with `?v=10&encoding=json` as discord.js adds). */
export async function openRawGateway(url: string, query = "?v=10&encoding=json"): Promise<RawGatewayClient> {
  const socket = new WebSocket(`${url}${query}`);
  const received: GatewayPayload[] = [];
  const waiters = new Set<() => void>();
  let cursor = 0;
  socket.on("message", (data) => {
    received.push(JSON.parse(String(data)) as GatewayPayload);
    for (const wake of waiters) wake();
  });
  const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  return {
    socket,
    received,
    send: (payload) => socket.send(JSON.stringify(payload)),
    next: (match, timeoutMs = 2000) =>
      new Promise((resolve, reject) => {
        const look = () => {
          for (let index = cursor; index < received.length; index++) {
            const payload = received[index]!;
            if (match(payload)) {
              cursor = index + 1;
              waiters.delete(look);
              clearTimeout(timer);
              resolve(payload);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(
            new Error(
              `no matching gateway payload within ${timeoutMs} ms; got ${JSON.stringify(received.map((p) => [p.op, p.t]))}`,
            ),
          );
        }, timeoutMs);
        waiters.add(look);
        look();
      }),
    closed,
    async close(code = 1000) {
      if (socket.readyState === socket.OPEN) socket.close(code);
      await closed;
    },
  };
}

/** Opens a connection and identifies with `token`; resolves once READY arrived. */
export async function identifiedRawGateway(
  url: string,
  token: string,
  intents = 1,
): Promise<{ client: RawGatewayClient; ready: GatewayPayload }> {
  const client = await openRawGateway(url);
  await client.next((payload) => payload.op === 10);
  client.send({ op: 2, d: { token, intents, properties: { os: "linux", browser: "test", device: "test" } } });
  const ready = await client.next((payload) => payload.t === "READY");
  return { client, ready };
}
