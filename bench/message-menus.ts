/**
 * The message menus (`Show code`, `Blame lines`), menu to answer, through the real discord.js client
 * and both stand-ins: each beside the slash command that answers the same lines, measured in the
 * same run (cached, then uncached: every uncached link pinned to a commit never asked before).
 */
import { pathToFileURL } from "node:url";
import type { InteractionRequest } from "../src/sandbox/discord/index.js";
import { DEMO_PATHS } from "../src/sandbox/github/index.js";
import { startSandboxWorld, type SandboxWorld } from "../src/sandbox/harness.js";
import { engineCommits } from "./end-to-end.js";
import { timedRun, timingLine } from "./sandboxTiming.js";

const timed = async (world: SandboxWorld, request: InteractionRequest): Promise<number> =>
  (await timedRun(world, request)).ms;

/** Posts a message holding `content` in #code-links, as a person would. */
function post(world: SandboxWorld, content: string): string {
  return world.discord.postAsUser({ channel: "codeLinks", content }).id;
}

const line = (label: string, samples: readonly number[], baseline?: readonly number[]): string =>
  timingLine(label, 58, samples, baseline);

/** Runs the message menu benchmark; returns the lines to print. */
export async function benchMessageMenus(rounds = 30): Promise<string[]> {
  const world = await startSandboxWorld();
  try {
    const engineUrl = `https://github.com/demo/widgets/blob/main/${DEMO_PATHS.engine}`;
    const oneLink = post(world, `Look: ${engineUrl}#L10-L40`);
    const threeLinks = await post(
      world,
      `${engineUrl}#L10-L20 ${engineUrl}#L30-L40 https://github.com/demo/widgets/blob/main/README.md#L1-L3`,
    );
    const slashBlame: InteractionRequest = {
      kind: "slash",
      name: "blame",
      options: { repo: `${engineUrl}#L10-L40` },
    };
    const slashContents: InteractionRequest = {
      kind: "slash",
      name: "contents",
      options: { repo: `${engineUrl}#L10-L40` },
    };
    const menu = (name: string, message: string): InteractionRequest => ({ kind: "message", name, message });
    // Warm the bot, the caches and the stand-ins.
    for (const request of [
      slashBlame,
      slashContents,
      menu("Blame lines", oneLink),
      menu("Show code", oneLink),
      menu("Show code", threeLinks),
    ])
      await timed(world, request);

    const samples = {
      slashBlame: [] as number[],
      blameLines: [] as number[],
      slashContents: [] as number[],
      showCode: [] as number[],
      showCodeThree: [] as number[],
    };
    for (let round = 0; round < rounds; round += 1) {
      samples.slashBlame.push(await timed(world, slashBlame));
      samples.blameLines.push(await timed(world, menu("Blame lines", oneLink)));
      samples.slashContents.push(await timed(world, slashContents));
      samples.showCode.push(await timed(world, menu("Show code", oneLink)));
      samples.showCodeThree.push(await timed(world, menu("Show code", threeLinks)));
    }

    // Uncached: each question pinned to a commit nobody asked about yet, menu and slash alternating.
    const commits = engineCommits(world).slice(0, rounds * 2);
    const uncachedSlash: number[] = [];
    const uncachedMenu: number[] = [];
    for (let index = 0; index + 1 < commits.length; index += 2) {
      const atSlash = `https://github.com/demo/widgets/blob/${commits[index]}/${DEMO_PATHS.engine}#L1-L40`;
      const atMenu = `https://github.com/demo/widgets/blob/${commits[index + 1]}/${DEMO_PATHS.engine}#L1-L40`;
      const message = post(world, `Pinned: ${atMenu}`);
      uncachedSlash.push(await timed(world, { kind: "slash", name: "blame", options: { repo: atSlash } }));
      uncachedMenu.push(await timed(world, menu("Blame lines", message)));
    }
    return [
      line("cached /blame of a permalink (the baseline):", samples.slashBlame),
      line("cached Blame lines on a message with that permalink:", samples.blameLines, samples.slashBlame),
      line("cached /contents of a permalink (the baseline):", samples.slashContents),
      line("cached Show code on a message with that permalink:", samples.showCode, samples.slashContents),
      line(
        "cached Show code on a message with 3 links (one reply):",
        samples.showCodeThree,
        samples.slashContents,
      ),
      line("uncached /blame, pinned to a new commit (the baseline):", uncachedSlash),
      line("uncached Blame lines, pinned to a new commit:", uncachedMenu, uncachedSlash),
    ];
  } finally {
    await world.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const text of await benchMessageMenus()) console.log(text);
  process.exit(0);
}
