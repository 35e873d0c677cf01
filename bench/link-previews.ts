/**
 * Automatic link previews (SPEC section 7), as a person sees them: the time from posting a message
 * with a permalink to the bot's preview reply appearing, cached and not, beside the slash command
 * that answers the same lines (`/contents`, interaction to answer), in the same run and world; and
 * resident memory per 1,000 servers with the message intents on (and messages flowing) beside the
 * same bot with no intent. Alone: `npx tsx bench/link-previews.ts [--quick]`.
 */
import { GatewayIntentBits } from "discord-api-types/v10";
import { pathToFileURL } from "node:url";
import type { InteractionRequest } from "../src/sandbox/discord/index.js";
import { DEMO_PATHS, startGitHubStandIn } from "../src/sandbox/github/index.js";
import { startSandboxWorld, type SandboxWorld } from "../src/sandbox/harness.js";
import { transcriptOf } from "../src/sandbox/transcript.js";
import { engineCommits } from "./end-to-end.js";
import { rssMb, startRepoScout } from "./load/processes.js";
import { startLoadStandIns } from "./load/standIns.js";
import { perThousandServers } from "./load/memory.js";

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function p90(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.9 * sorted.length))] ?? Number.NaN;
}

const line = (label: string, samples: readonly number[], baseline?: readonly number[]): string => {
  const ratio = baseline ? `  ratio ${(median(samples) / median(baseline)).toFixed(2)}×` : "";
  return `${label.padEnd(62)} p50 ${median(samples).toFixed(1)} ms  p90 ${p90(samples).toFixed(1)} ms (n=${samples.length})${ratio}`;
};

async function slash(world: SandboxWorld, request: InteractionRequest): Promise<number> {
  const started = performance.now();
  const record = await world.run(request, { settleMs: 0, timeoutMs: 20_000 });
  const elapsed = performance.now() - started;
  if (transcriptOf(record).isError) throw new Error(`benchmark command failed: ${transcriptOf(record).text}`);
  return elapsed;
}

/** Posts `content` as a person in `channel` and waits for the bot's reply to it: the time it took. */
async function previewTime(
  world: SandboxWorld,
  channel: string,
  user: string,
  content: string,
): Promise<number> {
  const started = performance.now();
  const posted = world.discord.postAsUser({ content, channel, user });
  for (;;) {
    const reply = world.discord
      .messagesIn(channel)
      .some((view) => view.api.message_reference?.message_id === posted.id);
    if (reply) return performance.now() - started;
    if (performance.now() - started > 20_000) throw new Error(`no preview of ${content}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * The channels of generated servers where the bot may post (no overwrite), previews turned on by
 * each server's owner. Each sample gets a channel of its own: the 2-second gap and the 5-minute
 * repeat rule of a channel would otherwise hold a sample back.
 */
async function previewChannels(
  world: SandboxWorld,
  servers: number,
): Promise<Array<{ channel: string; user: string }>> {
  const places: Array<{ channel: string; user: string }> = [];
  for (let index = 0; index < servers; index += 1) {
    const ids = world.discord.generatedGuild(index);
    const owner = ids.memberIds[0]!;
    const open: string[] = [];
    for (const id of ids.textChannelIds) {
      const response = await fetch(`${world.discord.apiUrl}/v10/channels/${id}`, {
        headers: { Authorization: `Bot ${world.discord.botToken}` },
      });
      const body = (await response.json()) as { permission_overwrites?: unknown[] };
      if ((body.permission_overwrites ?? []).length === 0) open.push(id);
    }
    await slash(world, {
      kind: "slash",
      name: "settings link-previews",
      options: { enabled: true },
      user: owner,
      channel: open[0]!,
    });
    for (const channel of open) places.push({ channel, user: ids.memberIds[1]! });
  }
  return places;
}

/** Message to preview, cached and not, beside /contents of the same lines. */
export async function benchPreviewLatency(rounds = 20): Promise<string[]> {
  // About 15 of a generated server's 40 channels are text channels open to the bot.
  const servers = Math.ceil((rounds * 3 + 8) / 12);
  const world = await startSandboxWorld({
    messageContent: true,
    discord: { generatedGuilds: { count: servers, channels: 40 } },
  });
  try {
    const places = await previewChannels(world, servers);
    const take = () => {
      const place = places.shift();
      if (!place) throw new Error("out of channels");
      return place;
    };
    const engine = `https://github.com/demo/widgets/blob/main/${DEMO_PATHS.engine}`;
    const cachedLink = `${engine}#L10-L20`;
    const slashCached: InteractionRequest = {
      kind: "slash",
      name: "contents",
      options: { repo: cachedLink },
    };
    // Warm the bot, the caches and the stand-ins: the link is then cached for every later sample.
    await slash(world, slashCached);
    const warm = take();
    await previewTime(world, warm.channel, warm.user, `Look: ${cachedLink}`);

    const cached: number[] = [];
    const cachedSlash: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const place = take();
      cached.push(await previewTime(world, place.channel, place.user, `Look: ${cachedLink}`));
      cachedSlash.push(await slash(world, slashCached));
    }
    // Uncached: each link pinned to a commit nobody asked about yet, preview and slash alternating.
    const commits = engineCommits(world).slice(0, rounds * 2);
    const uncached: number[] = [];
    const uncachedSlash: number[] = [];
    for (let index = 0; index + 1 < commits.length; index += 2) {
      const atSlash = `https://github.com/demo/widgets/blob/${commits[index]}/${DEMO_PATHS.engine}#L1-L15`;
      const atPreview = `https://github.com/demo/widgets/blob/${commits[index + 1]}/${DEMO_PATHS.engine}#L1-L15`;
      uncachedSlash.push(await slash(world, { kind: "slash", name: "contents", options: { repo: atSlash } }));
      const place = take();
      uncached.push(await previewTime(world, place.channel, place.user, `Pinned: ${atPreview}`));
    }
    // Issues and pull requests: 10 in the demo world, so 5 uncached of each kind of read, then cached.
    const issueUrl = (number: number) => `https://github.com/demo/widgets/issues/${number}`;
    const slashIssue = (number: number): InteractionRequest => ({
      kind: "slash",
      name: "issue",
      options: { repo: issueUrl(number) },
    });
    const issueSlashCold: number[] = [];
    const issuePreviewCold: number[] = [];
    for (let number = 1; number + 1 <= 10; number += 2) {
      issueSlashCold.push(await slash(world, slashIssue(number)));
      const place = take();
      issuePreviewCold.push(
        await previewTime(world, place.channel, place.user, `See ${issueUrl(number + 1)}`),
      );
    }
    const issueSlashWarm: number[] = [];
    const issuePreviewWarm: number[] = [];
    for (let round = 0; round < Math.min(rounds, places.length); round += 1) {
      issueSlashWarm.push(await slash(world, slashIssue(5)));
      if (places.length === 0) break;
      const place = take();
      issuePreviewWarm.push(await previewTime(world, place.channel, place.user, `See ${issueUrl(5)}`));
    }
    return [
      line("cached /contents of a permalink (the baseline):", cachedSlash),
      line("cached: a message with that permalink to its preview:", cached, cachedSlash),
      line("uncached /contents, pinned to a new commit (the baseline):", uncachedSlash),
      line("uncached: a message with such a permalink to its preview:", uncached, uncachedSlash),
      line("cached /issue of a pull request (the baseline):", issueSlashWarm),
      line("cached: a message with that pull request to its preview:", issuePreviewWarm, issueSlashWarm),
      line("uncached /issue (the baseline):", issueSlashCold),
      line("uncached: a message with an issue link to its preview:", issuePreviewCold, issueSlashCold),
    ];
  } finally {
    await world.close();
  }
}

/**
 * Resident memory of RepoScout in its own process after READY and a burst of messages (two per
 * server, one with a permalink, in servers without previews on, as most are), with
 * DISCORD_MESSAGE_CONTENT=true, beside the same bot without it (which receives no message at all).
 */
export async function benchPreviewMemory(quick = false): Promise<string[]> {
  const counts = quick ? [1, 1_000] : [1, 1_000, 3_000];
  const github = await startGitHubStandIn();
  const results: Array<{ guilds: number; intents: number; none: number }> = [];
  const lines: string[] = [];
  try {
    for (const guilds of counts) {
      const stand = await startLoadStandIns({
        guilds: guilds - 1,
        github,
        privilegedIntents: GatewayIntentBits.MessageContent,
      });
      const { discord, at } = stand;
      const measure = async (env: Record<string, string>): Promise<number> => {
        const bot = await startRepoScout(at, {
          env,
          ready: () => discord.waitForGatewaySession({ timeoutMs: 60_000 }),
        });
        try {
          for (let index = 0; index < guilds - 1; index += 1) {
            const ids = discord.generatedGuild(index);
            const channel = ids.textChannelIds[1]!;
            const user = ids.memberIds[1]!;
            discord.postAsUser({ content: "Good morning, everyone!", channel, user });
            discord.postAsUser({
              content: `Have a look: https://github.com/demo/widgets/blob/main/${DEMO_PATHS.engine}#L${1 + (index % 50)}`,
              channel,
              user,
            });
            if (index % 200 === 199) await new Promise((resolve) => setImmediate(resolve));
          }
          await new Promise((resolve) => setTimeout(resolve, 2_000));
          return rssMb(bot.pid);
        } finally {
          await bot.stop();
        }
      };
      try {
        const intents = await measure({ DISCORD_MESSAGE_CONTENT: "true" });
        const none = await measure({});
        results.push({ guilds, intents, none });
        lines.push(
          `RSS after READY and ${String(2 * (guilds - 1)).padStart(5)} messages, ${String(guilds).padStart(5)} servers:  message intents ${intents.toFixed(0)} MB  no intent ${none.toFixed(0)} MB`,
        );
      } finally {
        await stand.close();
      }
    }
  } finally {
    await github.close();
  }
  const per1000 = (value: (r: (typeof results)[number]) => number) => perThousandServers(results, value);
  lines.push(
    `memory per 1,000 servers:  with the message intents ${per1000((r) => r.intents).toFixed(1)} MB  without ${per1000((r) => r.none).toFixed(1)} MB  (goal: under 5 MB)`,
  );
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const quick = process.argv.includes("--quick");
  for (const text of await benchPreviewLatency(quick ? 8 : 20)) console.log(text);
  for (const text of await benchPreviewMemory(quick)) console.log(text);
  process.exit(0);
}
