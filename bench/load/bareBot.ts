/*
 * The baseline of the load figures: a bare discord.js bot in its own process, as most Discord bots
 * start: `new Client({ intents: [Guilds] })` with discord.js's default caches, replying to every
 * interaction and doing nothing else. argv: <apiUrl> <token> [http <port>] [--message <file>]; over
 * HTTP it is a bare node:http endpoint that answers each interaction with a type 4 message in the
 * HTTP reply (no signature check: the figure is the transport's cost, not Ed25519's). Its message is
 * "ok", or with `--message` the very message data in that JSON file (RepoScout's own cached answer,
 * so that the two send the same bytes), serialized for each interaction as a bot that builds its
 * reply does; over the gateway it goes to the callback route as is, through discord.js's REST.
 * Prints "ready" once it is.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { Client, Events, GatewayIntentBits, Routes } from "discord.js";

const args = process.argv.slice(2);
const messageAt = args.indexOf("--message");
const messageFile = messageAt >= 0 ? args.splice(messageAt, 2)[1] : undefined;
const [apiUrl, token, mode, port] = args as [string, string, string | undefined, string | undefined];
const message: unknown = messageFile
  ? JSON.parse(readFileSync(messageFile, "utf8"))
  : { content: "ok", allowed_mentions: { parse: [] } };

if (mode === "http") {
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type: number };
      const text = body.type === 1 ? '{"type":1}' : JSON.stringify({ type: 4, data: message });
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
    if (!interaction.isRepliable()) return;
    if (!messageFile) {
      void interaction.reply({ content: "ok" }).catch(() => undefined);
      return;
    }
    void client.rest
      .post(Routes.interactionCallback(interaction.id, interaction.token), {
        auth: false,
        body: { type: 4, data: message },
      })
      .catch(() => undefined);
  });
  client.once(Events.ClientReady, () => process.stdout.write("ready\n"));
  await client.login(token);
}
