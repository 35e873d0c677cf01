import { describe, expect, it } from "vitest";
import { DEMO_REFS, DEMO_REPOSITORIES } from "../../src/sandbox/github/index.js";
import type { InteractionRecord } from "../../src/sandbox/discord/index.js";
import { useWorld } from "./helpers.js";

// The default token may read private repositories here (GITHUB_TOKEN_ALLOW_PRIVATE), as any token
// that sees them: choices go to the person typing alone, so private ones are offered, marked 🔒.
const world = useWorld({ allowPrivate: true });

/** Types into an option and returns the choices the bot offered; nothing else may happen. */
async function suggest(
  name: string,
  options: Record<string, string>,
  focused: string,
): Promise<{ values: string[]; names: string[]; record: InteractionRecord }> {
  const record = await world().run({ kind: "autocomplete", name, options, focused });
  // Discord accepted the answer (in time, at most 25 choices, names and values within limits)...
  expect(record.errors).toEqual([]);
  expect(record.callbacks.map((callback) => callback.type)).toEqual([8]);
  // ...and no message was sent: an error never surfaces in autocomplete.
  expect(record.original).toBeNull();
  expect(record.followups).toEqual([]);
  const choices = record.choices ?? [];
  expect(choices.length).toBeLessThanOrEqual(25);
  return {
    values: choices.map((choice) => String(choice.value)),
    names: choices.map((choice) => choice.name),
    record,
  };
}

describe("autocomplete of `repo`", () => {
  it("offers the typed owner's repositories that match what follows the slash, prefix matches first", async () => {
    const { values, names } = await suggest("blame", { repo: "demo/s" }, "repo");
    expect(values.slice(0, 2).sort()).toEqual(["demo/secret", "demo/sprockets"]);
    for (const value of values) expect(value).toMatch(/^demo\/\S*s/);
    expect(names).toContain("demo/secret 🔒");
  });

  it("offers all of an owner's repositories when only the owner is typed", async () => {
    const { values } = await suggest("contents", { repo: "demo-user" }, "repo");
    expect(values.sort()).toEqual([
      DEMO_REPOSITORIES.dotfiles,
      DEMO_REPOSITORIES.notes,
      DEMO_REPOSITORIES.playground,
    ]);
  });

  it("puts the repositories recently asked about in this server first, even when the rest is no owner", async () => {
    await world().run({ kind: "slash", name: "contents", options: { repo: DEMO_REPOSITORIES.sprockets } });
    const typedOwner = await suggest("contributors", { repo: "demo/" }, "repo");
    expect(typedOwner.values[0]).toBe(DEMO_REPOSITORIES.sprockets);
    expect(typedOwner.names[0]).toMatch(/recent/);
    expect(new Set(typedOwner.values).size).toBe(typedOwner.values.length);

    // "sprock" is no GitHub login: the lookup of that owner fails, the recent match stays.
    const typedName = await suggest("blame", { repo: "sprock" }, "repo");
    expect(typedName.values).toEqual([DEMO_REPOSITORIES.sprockets]);
  });

  it("offers nothing, without an error, for an owner that does not exist", async () => {
    const { values } = await suggest("blame", { repo: "no-such-owner-77/" }, "repo");
    expect(values).toEqual([]);
  });
});

describe("autocomplete of `path`", () => {
  it("offers the entries of the root, folders first, when nothing is typed yet", async () => {
    const { values } = await suggest("blame", { repo: DEMO_REPOSITORIES.widgets, path: "" }, "path");
    const firstFile = values.findIndex((value) => !value.endsWith("/"));
    expect(values.slice(0, firstFile)).toEqual(["assets/", "data/", "docs/", "scripts/", "src/", "vendor/"]);
    expect(values).toContain("README.md");
  });

  it("offers the entries of the folder typed so far that start with the rest", async () => {
    const { values } = await suggest("blame", { repo: DEMO_REPOSITORIES.widgets, path: "docs/g" }, "path");
    expect(values).toEqual(["docs/guide/"]);
    const nested = await suggest(
      "contents",
      { repo: DEMO_REPOSITORIES.widgets, path: "docs/guide/advanced/" },
      "path",
    );
    expect(nested.values).toEqual(["docs/guide/advanced/tuning.md"]);
  });

  it("follows the ref of a URL in `repo`, and the `ref` option over it", async () => {
    const atMain = await suggest("blame", { repo: DEMO_REPOSITORIES.widgets, path: "src/" }, "path");
    expect(atMain.values).toContain("src/gears.ts");
    const atTag = await suggest(
      "blame",
      { repo: `https://github.com/demo/widgets/tree/${DEMO_REFS.lightweightTag}`, path: "src/" },
      "path",
    );
    expect(atTag.values).toContain("src/engine.ts");
    expect(atTag.values).not.toContain("src/gears.ts");
    const byOption = await suggest(
      "contents",
      { repo: DEMO_REPOSITORIES.widgets, ref: DEMO_REFS.lightweightTag, path: "src/" },
      "path",
    );
    expect(byOption.values).not.toContain("src/gears.ts");
  });

  it("offers nothing, and asks GitHub nothing, while `repo` is not a repository yet", async () => {
    const before = world().github.requests.length;
    const { values } = await suggest("blame", { repo: "not a repo", path: "src/" }, "path");
    expect(values).toEqual([]);
    expect(world().github.requests.length).toBe(before);
  });

  it("offers nothing, without an error, when GitHub fails", async () => {
    world().github.faults.inject({ kind: "serverError", target: "graphql", times: 2 });
    const { values } = await suggest(
      "contents",
      { repo: DEMO_REPOSITORIES.widgets, path: "scripts/" },
      "path",
    );
    expect(values).toEqual([]);
    expect(world().github.requests.at(-1)?.status).toBe(500);
  });

  it("answers within Discord's 3 seconds, with nothing, when GitHub hangs", async () => {
    world().github.faults.inject({ kind: "hang", target: "graphql" });
    // The stand-in refuses an answer after 3 s (10062): an accepted answer came in time.
    const { values } = await suggest("blame", { repo: DEMO_REPOSITORIES.widgets, path: "assets/" }, "path");
    expect(values).toEqual([]);
  });
});

describe("autocomplete without any GitHub token", () => {
  const tokenless = useWorld({ defaultToken: null });

  it("offers nothing, without an error, and asks GitHub nothing", async () => {
    const record = await tokenless().run({
      kind: "autocomplete",
      name: "blame",
      options: { repo: "demo/w" },
      focused: "repo",
    });
    expect(record.errors).toEqual([]);
    expect(record.choices).toEqual([]);
    expect(tokenless().github.requests).toEqual([]);
  });
});
