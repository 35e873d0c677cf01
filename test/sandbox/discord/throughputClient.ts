/*
 * The trivial bot of the throughput probe, run in its own process: it answers every interaction
 * with a type 4 message and nothing else, over the gateway (argv: gateway <gatewayUrl> <apiUrl>
 * <token>) or as an interactions endpoint (argv: http <port>). It prints "ready" when it is.
 */
import { createServer, Agent, request } from "node:http";
import { WebSocket } from "ws";

const [mode, ...rest] = process.argv.slice(2);
const REPLY = JSON.stringify({ type: 4, data: { content: "ok", allowed_mentions: { parse: [] } } });

if (mode === "gateway") {
  const [gatewayUrl, apiUrl, token] = rest as [string, string, string];
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const api = new URL(apiUrl);
  const socket = new WebSocket(`${gatewayUrl}?v=10&encoding=json`);
  socket.on("message", (data) => {
    const payload = JSON.parse(String(data)) as {
      op: number;
      t: string | null;
      d: { id: string; token: string };
    };
    if (payload.op === 10) {
      socket.send(
        JSON.stringify({
          op: 2,
          d: { token, intents: 1, properties: { os: "linux", browser: "probe", device: "probe" } },
        }),
      );
    } else if (payload.t === "READY") {
      process.stdout.write("ready\n");
    } else if (payload.t === "INTERACTION_CREATE") {
      const { id, token: interactionToken } = payload.d;
      const call = request(
        {
          host: api.hostname,
          port: api.port,
          method: "POST",
          path: `${api.pathname}/v10/interactions/${id}/${interactionToken}/callback`,
          agent,
          headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(REPLY) },
        },
        (response) => response.resume(),
      );
      call.on("error", () => undefined);
      call.end(REPLY);
    }
  });
} else if (mode === "http") {
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      // A trivial bot: no signature check (the probe measures the stand-in, not Ed25519 verification).
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type: number };
      const text = body.type === 1 ? '{"type":1}' : REPLY;
      response.writeHead(200, {
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(text),
      });
      response.end(text);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(Number(rest[0]), "127.0.0.1", () => process.stdout.write("ready\n"));
}
