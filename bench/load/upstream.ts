/**
 * The GitHub budget of a realistic mix (issue 12): 200 commands over three servers, two with their
 * own server token and one on the default token, questions repeated across servers as happens when
 * one link is pasted in several communities. Counts the upstream calls and the rate-limit points
 * (GraphQL queries cost 1 here; a REST 304 costs nothing). In-process (the bot's numbers, not its
 * speed). Alone: `npx tsx bench/load/upstream.ts`.
 */
import type { InteractionRequest } from "../../src/sandbox/discord/index.js";
import { DEMO_LOGIN, DEMO_PATHS } from "../../src/sandbox/github/index.js";
import { startSandboxWorld } from "../../src/sandbox/harness.js";

const QUESTIONS: InteractionRequest[] = [
  {
    kind: "slash",
    name: "blame",
    options: { repo: "demo/widgets", path: DEMO_PATHS.engine, lines: "100-140" },
  },
  { kind: "slash", name: "blame", options: { repo: "demo/widgets", path: DEMO_PATHS.engine, lines: "1-40" } },
  { kind: "slash", name: "blame", options: { repo: "demo/widgets", path: DEMO_PATHS.readme } },
  { kind: "slash", name: "contents", options: { repo: "demo/widgets" } },
  { kind: "slash", name: "contents", options: { repo: "demo/widgets", path: "src" } },
  { kind: "slash", name: "contents", options: { repo: "demo/widgets", path: DEMO_PATHS.readme } },
  { kind: "slash", name: "repos", options: { owner: "demo" } },
  { kind: "slash", name: "contributors", options: { repo: "demo/crowd" } },
  { kind: "slash", name: "whoami" },
];

export async function benchUpstream(): Promise<string[]> {
  const world = await startSandboxWorld({ discord: { generatedGuilds: { count: 2 } } });
  try {
    const servers = [
      { guildId: world.discord.guildId, channel: world.discord.channels.text },
      ...[0, 1].map((index) => {
        const ids = world.discord.generatedGuild(index);
        return { guildId: ids.guildId, channel: ids.textChannelIds[0]! };
      }),
    ];
    // Two servers with a token of their own (two GitHub accounts' tokens), the third on the default.
    const tokens = ["ghp_ReposcoutBenchServerA0000000000000001", "ghp_ReposcoutBenchServerB0000000000000002"];
    for (const [index, token] of tokens.entries()) {
      world.github.addToken(token, DEMO_LOGIN);
      await world.running.vault.set(servers[index]!.guildId, { token, setBy: "1", login: DEMO_LOGIN });
    }
    let seed = 7;
    const next = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    world.github.clearRequests();
    for (let n = 0; n < 200; n++) {
      const question = QUESTIONS[next() % QUESTIONS.length]!;
      const server = servers[next() % servers.length]!;
      await world.run({ ...question, channel: server.channel } as InteractionRequest, {
        settleMs: 0,
        timeoutMs: 20_000,
      });
    }
    const requests = world.github.requests;
    const points = requests.filter(
      (request) => request.api === "graphql" || (request.api === "rest" && request.status !== 304),
    ).length;
    return [
      `200 commands over 3 servers (2 with their own token, 1 on the default; ${QUESTIONS.length} questions, repeated): ${requests.length} upstream calls (${((requests.length / 200) * 100).toFixed(0)}% of one per command), ${points} rate-limit points  (before issue 12: 87–92 calls, 44%; goal ≤ 25%)`,
    ];
  } finally {
    await world.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchUpstream()) console.log(line);
  process.exit(0);
}
