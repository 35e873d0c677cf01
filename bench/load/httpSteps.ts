/**
 * The steps of one interaction over HTTP (issue 23 item 4), in this process: each step of
 * `POST /interactions` alone (signature check, JSON parse, replay claim, encoding the reply), then
 * the whole endpoint through a real socket with a core that answers at once with a ready message,
 * beside a bare node:http handler answering the same message (no signature check) under the same
 * driver: the endpoint's own CPU per interaction, formatting and the answer path left out; then the
 * whole bot the same way, and its core back to back and after idle pauses (what waiting costs a
 * process on this machine). Alone: `npx tsx bench/load/httpSteps.ts [--quick]`.
 */
import {
  createServer,
  Agent,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import type { APIInteraction, APIInteractionResponse } from "discord-api-types/v10";
import type { REST } from "discord.js";
import pino from "pino";
import { createInteractionsEndpoint } from "../../src/bot/http/interactionsEndpoint.js";
import { encodeFirstResponse } from "../../src/bot/http/httpResponder.js";
import { createMemoryReplayGuard } from "../../src/bot/http/replayGuard.js";
import { createSignatureVerifier } from "../../src/bot/http/signature.js";
import type { InteractionCore } from "../../src/bot/core/interactionCore.js";
import type { CallbackRoute } from "../../src/bot/core/callbackRoute.js";
import type { DiscordRest } from "../../src/bot/core/responder.js";
import { InteractionSigner } from "../../src/sandbox/discord/interactionSigner.js";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.js";
import { createServices, type RunningServices } from "../../src/createServices.js";
import type { Logger } from "../../src/logger.js";
import { createInteractionCore } from "../../src/bot/core/interactionCore.js";
import { loadCommands } from "../../src/bot/loadCommands.js";
import { createBotMetrics, type BotMetrics } from "../../src/metrics/botMetrics.js";
import { DEMO_TOKEN, startGitHubStandIn } from "../../src/sandbox/github/index.js";
import { percentile } from "./rates.js";

/** A slash command as Discord sends it to a server member: some 1.5 KB. */
export function interactionBody(n: number): string {
  return JSON.stringify({
    app_permissions: "2248473465835073",
    application_id: "1100000000000000001",
    authorizing_integration_owners: { "0": "1200000000000000001" },
    channel: {
      flags: 0,
      guild_id: "1200000000000000001",
      id: "1300000000000000001",
      name: "general",
      type: 0,
    },
    channel_id: "1300000000000000001",
    context: 0,
    data: {
      id: "1400000000000000001",
      name: "blame",
      options: [
        { name: "repo", type: 3, value: "demo/widgets" },
        { name: "path", type: 3, value: "src/engine.ts" },
        { name: "lines", type: 3, value: "100-140" },
      ],
      type: 1,
    },
    entitlements: [],
    guild: { features: [], id: "1200000000000000001", locale: "en-US" },
    guild_id: "1200000000000000001",
    guild_locale: "en-US",
    id: String(1500000000000000000n + BigInt(n)),
    locale: "en-US",
    member: {
      avatar: null,
      deaf: false,
      flags: 0,
      joined_at: "2024-01-01T00:00:00.000000+00:00",
      mute: false,
      nick: null,
      pending: false,
      permissions: "2248473465835073",
      premium_since: null,
      roles: ["1600000000000000001", "1600000000000000002"],
      user: {
        avatar: null,
        discriminator: "0",
        global_name: "Member",
        id: "1700000000000000001",
        public_flags: 0,
        username: "member",
      },
    },
    token: `aW50ZXJhY3Rpb246${"x".repeat(160)}${n}`,
    type: 2,
    version: 1,
  });
}

/** A cached answer's message: an embed of 40 blame lines, some 3 KB. */
const MESSAGE: APIInteractionResponse = {
  type: 4,
  data: {
    embeds: [
      {
        title: "demo/widgets · src/engine.ts · lines 100–140",
        description: Array.from(
          { length: 40 },
          (_, i) =>
            `\`${String(100 + i).padStart(3)}\` const value${i} = compute(${i}); // [abc1234](https://github.com/demo/widgets/commit/abc1234)`,
        ).join("\n"),
        footer: { text: "main · cached 1 minute ago" },
      },
    ],
    allowed_mentions: { parse: [] },
  },
};

function perCallUs(count: number, step: (n: number) => unknown): number {
  for (let n = 0; n < Math.min(count, 2_000); n++) step(n);
  const started = process.cpuUsage();
  for (let n = 0; n < count; n++) step(n);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / count;
}

async function perCallUsAsync(count: number, step: (n: number) => Promise<unknown>): Promise<number> {
  for (let n = 0; n < Math.min(count, 2_000); n++) await step(n);
  const started = process.cpuUsage();
  for (let n = 0; n < count; n++) await step(n);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / count;
}

type Handler = (request: IncomingMessage, reply: ServerResponse) => void | Promise<void>;

/**
 * CPU of this process per request (server and driver), `concurrency` requests kept in flight over
 * keep-alive sockets: the driver's share is the same for both handlers, so the difference is theirs.
 */
export async function throughHttp(
  handler: Handler,
  count: number,
  signed: () => { body: string; headers: Record<string, string> },
): Promise<number> {
  const server = createServer((request, reply) => void handler(request, reply));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const requests = Array.from({ length: count + 500 }, () => signed());
  const one = (n: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const { body, headers } = requests[n]!;
      const outgoing = httpRequest(
        { agent, port, host: "127.0.0.1", method: "POST", path: "/interactions", headers },
        (response) => {
          if (response.statusCode !== 200) reject(new Error(`status ${response.statusCode}`));
          response.resume();
          response.on("end", resolve);
        },
      );
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  const run = async (from: number, total: number): Promise<void> => {
    let next = from;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < from + total) await one(next++);
      }),
    );
  };
  await run(0, 500);
  const started = process.cpuUsage();
  await run(500, count);
  const used = process.cpuUsage(started);
  agent.destroy();
  await new Promise((resolve) => server.close(resolve));
  return (used.user + used.system) / count;
}

/**
 * The whole bot in this process, as `src/index.ts` wires it (services on memory stores, the
 * commands, the core with its metrics, the endpoint with its signature check), the GitHub
 * stand-in in this process for the first read: each interaction is a cached /blame from then on.
 * Also the message it answers with, for a bare handler to send the same bytes.
 */
/**
 * The bot's services for a bench in this process: the GitHub stand-in behind them (its rate limit
 * out of reach), a data folder of their own (SQLite stores unless `memoryStores`), `env` added to
 * the configuration. `close` stops them and removes the folder.
 */
export async function benchServices(
  env: Record<string, string>,
  options: { logger: Logger; metrics?: BotMetrics; memoryStores: boolean },
): Promise<{ running: RunningServices; close(): Promise<void> }> {
  const github = await startGitHubStandIn();
  github.setRateLimit(DEMO_TOKEN, { limit: 1_000_000_000, remaining: 1_000_000_000 });
  const dataDir = await mkdtemp(join(tmpdir(), "reposcout-bench-services-"));
  const config = loadConfig({
    DISCORD_TOKEN: "bench.token.value",
    GITHUB_API_URL: github.restUrl,
    GITHUB_GRAPHQL_URL: github.graphqlUrl,
    GITHUB_TOKEN: DEMO_TOKEN,
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    DATA_DIR: dataDir,
    DEFAULT_TOKEN_SHARE: "1",
    LOG_LEVEL: "warn",
    ...env,
  });
  const running = await createServices(config, options.logger, {
    ...(options.metrics ? { metrics: options.metrics } : {}),
    memoryStores: options.memoryStores,
  });
  return {
    running,
    async close() {
      await running.close();
      await github.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function wholeBot(
  signer: InteractionSigner,
  rest: Parameters<typeof createInteractionsEndpoint>[0]["rest"],
): Promise<{ handler: Handler; core: InteractionCore; message: string; close(): Promise<void> }> {
  const logger = pino({ level: "warn" });
  const metrics = createBotMetrics();
  const services = await benchServices(
    { DISCORD_PUBLIC_KEY: signer.publicKeyHex },
    { logger, metrics, memoryStores: true },
  );
  const { running } = services;
  const core = createInteractionCore({
    commands: await loadCommands(),
    services: running.services,
    logger,
    metrics,
  });
  // The first answer is fetched (and may defer, which would call Discord): asked of the core
  // directly, its message kept as the bare handler's.
  let message = "";
  await core.handle(
    JSON.parse(interactionBody(-1)) as APIInteraction,
    {
      respond: async (response: unknown) => {
        message = JSON.stringify(response);
        return null;
      },
      editOriginal: async (sent: unknown) => {
        message = JSON.stringify({ type: 4, data: sent });
        return null as never;
      },
    } as unknown as Parameters<InteractionCore["handle"]>[1],
  );
  const handler = createInteractionsEndpoint({
    verify: createSignatureVerifier(signer.publicKeyHex),
    core,
    rest,
    replayGuard: createMemoryReplayGuard(),
    logger,
  });
  return {
    handler,
    core,
    message,
    close: () => services.close(),
  };
}

/** The endpoint's steps, and the endpoint against a bare handler, both answering `MESSAGE`. */
export async function benchHttpSteps(quick = false): Promise<string[]> {
  const count = quick ? 5_000 : 20_000;
  const signer = new InteractionSigner();
  const verify = createSignatureVerifier(signer.publicKeyHex);
  const timestamp = () => String(Math.floor(Date.now() / 1000));
  const bodies = Array.from({ length: 256 }, (_, n) => interactionBody(n));
  const buffers = bodies.map((body) => Buffer.from(body));
  const stamp = timestamp();
  const signatures = bodies.map((body) => signer.sign(stamp, body));
  const lines: string[] = [];
  const verifyUs = perCallUs(count, (n) => verify(stamp, buffers[n % 256]!, signatures[n % 256]!));
  const parseUs = perCallUs(count, (n) => JSON.parse(buffers[n % 256]!.toString("utf8")));
  const guard = createMemoryReplayGuard();
  // One claim per interaction, on its id (as the endpoint does).
  const claimUs = await perCallUsAsync(count, (n) => guard.claim(`interaction:${n}`, 600_000, Date.now()));
  const encodeUs = await perCallUsAsync(count, () => encodeFirstResponse(MESSAGE, []));
  lines.push(
    `steps, µs CPU each (${bodies[0]!.length} B interaction, ${JSON.stringify(MESSAGE).length} B reply): signature check ${verifyUs.toFixed(1)}  JSON parse ${parseUs.toFixed(1)}  replay claim ${claimUs.toFixed(1)}  encoding the reply ${encodeUs.toFixed(1)}`,
  );

  const fail = (): never => {
    throw new Error("the bench's core never calls Discord's REST");
  };
  const rest: DiscordRest = {
    bot: fail as unknown as REST,
    interactions: fail as unknown as REST,
    callbacks: fail as unknown as CallbackRoute,
  };
  const core: InteractionCore = {
    async handle(_interaction: APIInteraction, responder) {
      await responder.respond(MESSAGE, []);
    },
    stop() {},
    drain: async () => true,
    inFlight: () => 0,
    abandonInFlight: async () => 0,
    settled: async () => undefined,
  };
  const endpoint = createInteractionsEndpoint({
    verify,
    core,
    rest,
    replayGuard: createMemoryReplayGuard(),
    logger: pino({ level: "warn" }),
  });
  const unchecked = createInteractionsEndpoint({
    verify: () => true,
    core,
    rest,
    replayGuard: createMemoryReplayGuard(),
    logger: pino({ level: "warn" }),
  });
  // A bare bot builds its message for each interaction, as a bot that answers does.
  const bare: Handler = (incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const text = JSON.stringify(MESSAGE);
      response.writeHead(200, {
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(text),
      });
      response.end(text);
    });
  };
  // Each interaction once (the replay guard refuses a second time), across every round.
  let sent = 0;
  const signed = () => {
    const body = interactionBody(sent++);
    const at = timestamp();
    return {
      body,
      headers: {
        "Content-Type": "application/json",
        "Content-Length": String(Buffer.byteLength(body)),
        "X-Signature-Ed25519": signer.sign(at, body),
        "X-Signature-Timestamp": at,
      },
    };
  };
  const rounds: Array<[number, number, number]> = [];
  for (let round = 0; round < 3; round++) {
    rounds.push([
      await throughHttp(endpoint, count / 2, signed),
      await throughHttp(bare, count / 2, signed),
      await throughHttp(unchecked, count / 2, signed),
    ]);
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[1]!;
  const ours = rounds.map(([a]) => a);
  const bares = rounds.map(([, b]) => b);
  const extra = rounds.map(([a, b]) => a - b);
  const uncheckedExtra = rounds.map(([, b, c]) => c - b);
  lines.push(
    `through a socket, µs CPU per interaction (server and driver in this process, 3 rounds min/median/max), a core that answers at once: endpoint ${Math.min(...ours).toFixed(0)}/${median(ours).toFixed(0)}/${Math.max(...ours).toFixed(0)}  bare handler ${Math.min(...bares).toFixed(0)}/${median(bares).toFixed(0)}/${Math.max(...bares).toFixed(0)}  the endpoint's own ${Math.min(...extra).toFixed(0)}/${median(extra).toFixed(0)}/${Math.max(...extra).toFixed(0)}  (of which the mandatory signature check ${verifyUs.toFixed(0)}; the endpoint's own without it ${Math.min(...uncheckedExtra).toFixed(0)}/${median(uncheckedExtra).toFixed(0)}/${Math.max(...uncheckedExtra).toFixed(0)})`,
  );
  lines.push(...(await wholeBotLines(count, signer, rest, signed)));
  return lines;
}

/** The whole bot answering a cached /blame, beside a bare handler sending its very message. */
async function wholeBotLines(
  count: number,
  signer: InteractionSigner,
  rest: Parameters<typeof createInteractionsEndpoint>[0]["rest"],
  signed: () => { body: string; headers: Record<string, string> },
): Promise<string[]> {
  const bot = await wholeBot(signer, rest);
  try {
    const sameMessage: Handler = (incoming, response) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        JSON.parse(Buffer.concat(chunks).toString("utf8"));
        // Built for each interaction, as a bot that answers does.
        const text = JSON.stringify(JSON.parse(bot.message));
        response.writeHead(200, {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(text),
        });
        response.end(text);
      });
    };
    const rounds: Array<[number, number]> = [];
    for (let round = 0; round < 3; round++) {
      rounds.push([
        await throughHttp(bot.handler, count / 4, signed),
        await throughHttp(sameMessage, count / 4, signed),
      ]);
    }
    const spread = (values: number[], digits = 0): string =>
      [...values]
        .sort((a, b) => a - b)
        .map((value) => value.toFixed(digits))
        .join("/");
    const ours = rounds.map(([a]) => a);
    const bares = rounds.map(([, b]) => b);
    const idle = await afterIdle(bot.core);
    return [
      `through a socket, µs CPU per interaction, the whole bot (services on memory stores, commands, core, endpoint) answering a cached /blame (${bot.message.length} B) beside a bare handler sending that very message, 3 rounds min/median/max: bot ${spread(ours)}  bare ${spread(bares)}  the bot's own ${spread(rounds.map(([a, b]) => a - b))}  ratio ${spread(
        rounds.map(([a, b]) => a / b),
        2,
      )}×`,
      `after idle, µs CPU (median) of the core answering a cached /blame (no socket, no signature) and of JSON.parse of the interaction beside it, one at a time: ${IDLE_GAPS_MS.map(
        (gap, index) =>
          `${gap === 0 ? "back to back" : `${gap} ms apart`} core ${idle[index]!.coreUs.toFixed(0)}, parse ${idle[index]!.parseUs.toFixed(1)}`,
      ).join(
        "  ",
      )}  (what the machine costs a process that waited: a round trip one at a time, and a bot at a low rate, pay the last figures)`,
    ];
  } finally {
    await bot.close();
  }
}

/** The gaps {@link afterIdle} leaves between answers. */
const IDLE_GAPS_MS = [0, 1, 20] as const;

/**
 * The core's CPU for a cached /blame, and JSON.parse's for the interaction, when each call follows
 * the one before at once and after a pause. On this machine (a virtual one) a process that waited a
 * few milliseconds runs its next few hundred microseconds many times slower (its caches cold, the
 * host's other work run meanwhile; no page faults: counted, none): the core took 28 µs back to
 * back, 125 after 1 ms idle and 394 after 20 ms, a parse of the 1.3 KB interaction 7, 20 and 78
 * µs (the core from the build, with plain node: 25, 65 and 307; this section runs the sources
 * through tsx, whose kept function names cost a little more). Every path pays it in proportion to
 * the code and data it touches, and the figures measured one interaction at a time (the cached
 * ratios) and at a low rate (HTTP CPU at 200/s) with it.
 */
async function afterIdle(core: InteractionCore): Promise<Array<{ coreUs: number; parseUs: number }>> {
  const responder = {
    respond: async () => null,
    editOriginal: async () => null,
  } as unknown as Parameters<InteractionCore["handle"]>[1];
  let n = 1_000_000;
  for (let warm = 0; warm < 2_000; warm++)
    await core.handle(JSON.parse(interactionBody(n++)) as APIInteraction, responder);
  const results: Array<{ coreUs: number; parseUs: number }> = [];
  for (const gap of IDLE_GAPS_MS) {
    const coreUs: number[] = [];
    const parseUs: number[] = [];
    for (let call = 0; call < (gap === 0 ? 2_000 : 200); call++) {
      const body = interactionBody(n++);
      if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap));
      let before = process.cpuUsage();
      const interaction = JSON.parse(body) as APIInteraction;
      let used = process.cpuUsage(before);
      parseUs.push(used.user + used.system);
      if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap));
      before = process.cpuUsage();
      await core.handle(interaction, responder);
      used = process.cpuUsage(before);
      coreUs.push(used.user + used.system);
    }
    results.push({ coreUs: percentile(coreUs, 50), parseUs: percentile(parseUs, 50) });
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchHttpSteps(process.argv.includes("--quick"))) console.log(line);
  process.exit(0);
}
