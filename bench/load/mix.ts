/**
 * The interactions of the load figures: realistic ones (a member of a generated server with its
 * roles, in one of its text channels) asking a mix of RepoScout's questions, each kind alone too.
 */
import type { InteractionRequest } from "../../src/sandbox/discord/index.js";
import { DEMO_PATHS } from "../../src/sandbox/github/index.js";
import type { RequestMaker } from "./rates.js";
import type { LoadStandIns } from "./standIns.js";

/** The questions of the mix, by kind: each cached after its first time. */
export const KINDS = {
  "blame (cached)": {
    kind: "slash",
    name: "blame",
    options: { repo: "demo/widgets", path: DEMO_PATHS.engine, lines: "100-140" },
  },
  contents: { kind: "slash", name: "contents", options: { repo: "demo/widgets", path: "src" } },
  repos: { kind: "slash", name: "repos", options: { owner: "demo" } },
  contributors: { kind: "slash", name: "contributors", options: { repo: "demo/crowd" } },
  whoami: { kind: "slash", name: "whoami" },
} satisfies Record<string, InteractionRequest>;

const MIX: InteractionRequest[] = [
  KINDS["blame (cached)"],
  KINDS["blame (cached)"],
  { kind: "slash", name: "blame", options: { repo: "demo/widgets", path: DEMO_PATHS.readme } },
  KINDS.contents,
  { kind: "slash", name: "contents", options: { repo: "demo/widgets", path: DEMO_PATHS.readme } },
  KINDS.repos,
  KINDS.contributors,
  KINDS.whoami,
];

/**
 * Spreads interactions over the stand-in's generated servers, channels and members: server after
 * server, and within a server member after member (every member asks in turn, as in a server whose
 * people each ask now and then, never one person asking for the whole server).
 */
export function placed(
  stand: Pick<LoadStandIns, "discord">,
  guilds: number,
  request: (n: number) => InteractionRequest,
): RequestMaker {
  const places = Array.from({ length: guilds }, (_, index) => stand.discord.generatedGuild(index));
  return (n) => {
    const place = places[n % places.length]!;
    // The server's own turn: interaction n is its server's turn-th. Taken from n itself, every
    // server would hear from one member only (n and the server's index agree modulo the servers).
    const turn = Math.floor(n / places.length);
    const base = request(n) as InteractionRequest & { channel?: string; user?: string };
    return {
      ...base,
      channel: place.textChannelIds[turn % place.textChannelIds.length]!,
      user: place.memberIds[(turn * 7) % place.memberIds.length]!,
    } as InteractionRequest;
  };
}

/** The mixed questions, in a fixed rotation. */
export const mixed = (n: number): InteractionRequest => MIX[n % MIX.length]!;
