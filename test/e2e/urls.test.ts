import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SlashInteraction } from "../../src/sandbox/discord/index.js";
import { DEMO_PATHS, DEMO_REFS } from "../../src/sandbox/github/index.js";
import type { SandboxWorld } from "../../src/sandbox/harness.js";
import { startWorld } from "./helpers.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";

let world: SandboxWorld;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

describe("GitHub URLs as `repo`", () => {
  const branchUrl = `https://github.com/demo/widgets/blob/${DEMO_REFS.featureBranch}/${DEMO_PATHS.merged}#L1-L3`;

  it("finds a branch whose name has a slash, as github.com does", async () => {
    const record = await world.run({ kind: "slash", name: "contents", options: { repo: branchUrl } });
    const seen = transcriptOf(record);
    expect(seen.isError).toBe(false);
    expect(seen.messages[0]!.message.embeds[0]!.title).toContain(DEMO_PATHS.merged);
  });

  it("blames at a branch with a slash taken from a URL", async () => {
    const record = await world.run({
      kind: "slash",
      name: "blame",
      options: { repo: branchUrl, path: DEMO_PATHS.merged },
    });
    expect(transcriptOf(record).isError).toBe(false);
  });

  it("names in the footer the branch the URL was read at, slash included", async () => {
    const requests: SlashInteraction[] = [
      { kind: "slash", name: "contents", options: { repo: branchUrl } },
      { kind: "slash", name: "blame", options: { repo: branchUrl, path: DEMO_PATHS.merged } },
    ];
    for (const request of requests) {
      const seen = transcriptOf(await world.run(request));
      expect(seen.isError, seen.text).toBe(false);
      expect(seen.messages[0]!.message.embeds[0]!.footer?.text).toMatch(
        new RegExp(` · ${DEMO_REFS.featureBranch} · pinned to [0-9a-f]{7}$`),
      );
    }
  });

  it("still names the ref when no split of the URL exists", async () => {
    const record = await world.run({
      kind: "slash",
      name: "contents",
      options: { repo: "https://github.com/demo/widgets/tree/no-such/branch/src" },
    });
    const seen = transcriptOf(record);
    expect(seen.isError).toBe(true);
    expect(seen.text).toMatch(/Revision `no-such` was not found/);
  });

  it("names the ref the user gave, not the cached commit id, when a path is missing", async () => {
    await world.run({
      kind: "slash",
      name: "blame",
      options: { repo: "demo/widgets", path: DEMO_PATHS.readme },
    });
    const record = await world.run({
      kind: "slash",
      name: "blame",
      options: { repo: "demo/widgets", path: "nope.ts" },
    });
    const text = transcriptOf(record).text;
    expect(text).toMatch(/at the default branch/);
    expect(text).not.toMatch(/[0-9a-f]{40}/);
  });
});
