/**
 * RepoScout and the same-message bare bot side by side, for figures measured in alternation
 * (./perKind.ts, ./httpCpu.ts): each bot in its own process with a local Discord of its own (one
 * application each, one GitHub stand-in), both up through the whole measure, so that what the
 * machine does meanwhile falls on both alike rather than on whichever would have run second.
 */
import { KINDS, placed } from "./mix.js";
import { startBareBot, startRepoScout, type BotProcess } from "./processes.js";
import { startLoadStandIns, type LoadStandIns } from "./standIns.js";

/**
 * The message RepoScout answers a cached /blame with (its first response, type 4), if it does:
 * the bare bot sends the same (issue 23), so a ratio is the bot's overhead, not the message's size.
 */
export async function cachedBlameMessage(stand: LoadStandIns, guilds: number): Promise<unknown> {
  const make = placed(stand, guilds, () => KINDS["blame (cached)"]);
  const record = await (await stand.discord.interact(make(0))).waitForAnswer({ timeoutMs: 30_000 });
  const first = record.callbacks[0];
  return first?.type === 4 ? first.data : undefined;
}

export interface SideBySide {
  ours: { stand: LoadStandIns; bot: BotProcess };
  bare: { stand: LoadStandIns; bot: BotProcess };
  /** RepoScout's cached /blame message, which the bare bot sends (undefined: it sends "ok"). */
  message: unknown;
  /** Stops RepoScout early (a figure of the bare bot's taken without it); `close` knows. */
  stopOurs(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts RepoScout over `transport` (signature checked over HTTP), asks it a cached /blame, then
 * starts the bare bot sending that message (the bare HTTP endpoint checks no signature).
 */
export async function startSideBySide(options: {
  transport: "gateway" | "http";
  guilds: number;
  cpus: string | null;
  /** Node's own flags for RepoScout (such as `--cpu-prof`). */
  nodeArgs?: string[];
}): Promise<SideBySide> {
  const http = options.transport === "http";
  const ourStand = await startLoadStandIns({ guilds: options.guilds });
  let ours: BotProcess | null = null;
  let bareStand: LoadStandIns | null = null;
  let bare: BotProcess | null = null;
  const close = async (): Promise<void> => {
    await ours?.stop();
    ours = null;
    await bare?.stop();
    await bareStand?.close();
    await ourStand.close();
  };
  try {
    ours = await startRepoScout(ourStand.at, {
      http,
      cpus: options.cpus,
      // The fair-use share would turn a measure's answers into "budget used up" errors.
      env: { DEFAULT_TOKEN_SHARE: "1" },
      ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
      ...(http ? {} : { ready: () => ourStand.discord.waitForGatewaySession({ timeoutMs: 60_000 }) }),
    });
    if (http) await ourStand.discord.setInteractionsEndpoint(ours.url!, { verify: true });
    const message = await cachedBlameMessage(ourStand, options.guilds);
    bareStand = await startLoadStandIns({ guilds: options.guilds, github: ourStand.github });
    bare = await startBareBot(bareStand.at, { http, message, cpus: options.cpus });
    if (http) await bareStand.discord.setInteractionsEndpoint(bare.url!, { verify: false });
    const oursBot = ours;
    return {
      ours: { stand: ourStand, bot: oursBot },
      bare: { stand: bareStand, bot: bare },
      message,
      async stopOurs() {
        await ours?.stop();
        ours = null;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
