/*
 * The baseline of the load figures: a bare discord.js bot in its own process, as most Discord bots
 * start: `new Client({ intents: [Guilds] })` with discord.js's default caches, replying "ok" to
 * every interaction and doing nothing else. argv: <apiUrl> <token> [http <port>]; over HTTP it is a
 * bare node:http endpoint that answers each interaction with a type 4 message in the HTTP reply (no
 * signature check: the figure is the transport's cost, not Ed25519's). Prints "ready" once it is.
 */
import { createServer } from "node:http";
import { Client, Events, GatewayIntentBits } from "discord.js";

const [apiUrl, token, mode, port] = process.argv.slice(2) as [
  string,
  string,
  string | undefined,
  string | undefined,
];

if (mode === "http") {
  const reply = JSON.stringify({ type: 4, data: { content: "ok", allowed_mentions: { parse: [] } } });
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type: number };
      const text = body.type === 1 ? '{"type":1}' : reply;
      response.writeHead(200, {
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(text),
      });
      response.end(text);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
} else {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], shards: "auto", rest: { api: apiUrl } });
  client.on(Events.InteractionCreate, (interaction) => {
    if (interaction.isRepliable()) void interaction.reply({ content: "ok" }).catch(() => undefined);
  });
  client.once(Events.ClientReady, () => process.stdout.write("ready\n"));
  await client.login(token);
}
