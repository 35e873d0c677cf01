/**
 * The stand-ins of the load figures, in the bench's process: the GitHub stand-in with the demo
 * world (its budget made large: the figures are about the bot, not GitHub's limit) and a local
 * Discord with generated servers of realistic size, RepoScout's commands registered, holding a
 * bounded number of interactions so that long runs do not grow its memory.
 */
import { commandDefinitions, loadCommands } from "../../src/bot/loadCommands.js";
import { startDiscordStandIn, type DiscordStandIn } from "../../src/sandbox/discord/index.js";
import { DEMO_TOKEN, startGitHubStandIn, type GitHubStandIn } from "../../src/sandbox/github/index.js";
import type { StandInAddresses } from "./processes.js";

export interface LoadStandIns {
  github: GitHubStandIn;
  discord: DiscordStandIn;
  at: StandInAddresses;
  close(): Promise<void>;
}

export async function startLoadStandIns(
  options: {
    guilds?: number;
    /** Members of each generated server (the local Discord's default when absent). */
    members?: number;
    github?: GitHubStandIn;
    maxInteractions?: number;
    /** Privileged intents the app has (Message Content, for the automatic previews' figures). */
    privilegedIntents?: number;
  } = {},
): Promise<LoadStandIns> {
  const github = options.github ?? (await startGitHubStandIn());
  github.setRateLimit(DEMO_TOKEN, { limit: 1_000_000_000, remaining: 1_000_000_000 });
  github.setRateLimit(DEMO_TOKEN, { limit: 1_000_000_000, remaining: 1_000_000_000, resource: "core" });
  const discord = await startDiscordStandIn({
    generatedGuilds: {
      count: options.guilds ?? 50,
      ...(options.members !== undefined ? { members: options.members } : {}),
    },
    identifyWindowMs: 0,
    requestLog: "counts",
    maxInteractions: options.maxInteractions ?? 4_000,
    ...(options.privilegedIntents !== undefined ? { privilegedIntents: options.privilegedIntents } : {}),
  });
  discord.registerCommands(commandDefinitions(await loadCommands()));
  return {
    github,
    discord,
    at: {
      discordApiUrl: discord.apiUrl,
      botToken: discord.botToken,
      publicKey: discord.publicKey,
      githubRestUrl: github.restUrl,
      githubGraphqlUrl: github.graphqlUrl,
      githubToken: DEMO_TOKEN,
    },
    async close() {
      await discord.close();
      if (!options.github) await github.close();
    },
  };
}
