import { describe, expect, it } from "vitest";
import { DEMO_PATHS, DEMO_REFS, DEMO_REPOSITORIES } from "../../src/sandbox/github/index.js";
import type { SlashInteraction } from "../../src/sandbox/discord/index.js";
import { answerOf, errorText, expectDeliveredWithoutPings, useWorld } from "./helpers.js";

/*
 * A folder or a submodule where the command needs a file or a folder of this repository, through the
 * real bot and both stand-ins. GitHub nulls the whole commit when `blame(path)` fails, and answers
 * `object(expression: "HEAD:<submodule>")` with null (the gitlink's commit lives in another
 * repository); the bot must still say what the path is, from the one request it sends, as an
 * ephemeral error that says what to do.
 */

const world = useWorld();
const WIDGETS = DEMO_REPOSITORIES.widgets;

/** Runs a command that must fail and returns what the user reads, with the GraphQL requests it sent. */
async function refusal(name: "blame" | "contents", options: Record<string, string>) {
  const before = world().github.requests.length;
  const request: SlashInteraction = { kind: "slash", name, options };
  const text = await errorText(world(), request);
  const sent = world()
    .github.requests.slice(before)
    .filter((entry) => entry.api === "graphql");
  return { text, sent };
}

describe("/blame of a folder", () => {
  it("says `docs` is a folder and suggests /contents, from ONE Blame request with the path in variables", async () => {
    const { text, sent } = await refusal("blame", { repo: WIDGETS, path: "docs" });
    expect(text).toContain(
      "`docs` in `demo/widgets` is a folder, and blame works on files. Use `/contents` to list it",
    );
    expect(text).not.toMatch(/not found/i);
    expect(sent.map((request) => request.operationName)).toEqual(["Blame"]);
    expect(sent[0]!.variables).toMatchObject({ owner: "demo", name: "widgets", path: "docs" });
  });

  it("says so for a nested folder given with slashes around it, and for `src` at the annotated tag", async () => {
    const nested = await refusal("blame", { repo: WIDGETS, path: `/${DEMO_PATHS.nestedFolder}/` });
    expect(nested.text).toContain(`\`${DEMO_PATHS.nestedFolder}\` in \`demo/widgets\` is a folder`);
    expect(nested.text).toContain("`/contents`");

    // An annotated tag is read through the Tag's target, in the same request, for `entry` too.
    const atTag = await refusal("blame", { repo: WIDGETS, path: "src", ref: DEMO_REFS.annotatedTag });
    expect(atTag.text).toContain("`src` in `demo/widgets` is a folder");
    expect(atTag.sent.map((request) => request.operationName)).toEqual(["Blame"]);
  });

  it("says so for the folder a tree URL names", async () => {
    const { text } = await refusal("blame", {
      repo: "https://github.com/demo/widgets/tree/main/docs/guide",
      path: "docs/guide",
    });
    expect(text).toContain("`docs/guide` in `demo/widgets` is a folder");
    expect(text).toContain("`/contents`");
  });

  it("the suggestion holds: /contents lists the same folder", async () => {
    const record = await world().run({
      kind: "slash",
      name: "contents",
      options: { repo: WIDGETS, path: "docs" },
    });
    expectDeliveredWithoutPings(record);
    const { embed } = answerOf(record);
    expect(embed.description).toContain("hostile.md");
  });
});

describe("a submodule", () => {
  it("/blame says `vendor/gearbox` is a submodule whose files live in another repository", async () => {
    const { text, sent } = await refusal("blame", { repo: WIDGETS, path: DEMO_PATHS.submodule });
    expect(text).toContain(
      "`vendor/gearbox` in `demo/widgets` is a submodule: its files live in another repository, which `/contents path:.gitmodules` names. Ask about that repository instead.",
    );
    expect(text).not.toMatch(/not found/i);
    expect(sent.map((request) => request.operationName)).toEqual(["Blame"]);
  });

  it("/contents says it is a submodule, from ONE Contents request with the path in variables", async () => {
    const { text, sent } = await refusal("contents", { repo: WIDGETS, path: DEMO_PATHS.submodule });
    expect(text).toContain(
      "`vendor/gearbox` in `demo/widgets` is a submodule: its files live in another repository, which `/contents path:.gitmodules` names. Ask about that repository instead.",
    );
    expect(text).not.toMatch(/not found/i);
    expect(sent.map((request) => request.operationName)).toEqual(["Contents"]);
    expect(sent[0]!.variables).toMatchObject({ path: DEMO_PATHS.submodule, hasPath: true });
  });

  it("/contents says so at the annotated tag and at a branch", async () => {
    for (const ref of [`tags/${DEMO_REFS.annotatedTag}`, DEMO_REFS.develop]) {
      const { text } = await refusal("contents", { repo: WIDGETS, path: DEMO_PATHS.submodule, ref });
      expect(text, ref).toContain("`vendor/gearbox` in `demo/widgets` is a submodule");
    }
  });

  it("/contents of its folder still lists it", async () => {
    const record = await world().run({
      kind: "slash",
      name: "contents",
      options: { repo: WIDGETS, path: "vendor" },
    });
    expectDeliveredWithoutPings(record);
    expect(answerOf(record).embed.description).toContain("gearbox");
  });
});

describe("/blame of a symbolic link", () => {
  it("says where `docs/latest.md` points and how to blame that, from ONE Blame request", async () => {
    const { text, sent } = await refusal("blame", { repo: WIDGETS, path: "docs/latest.md" });
    expect(text).toContain(
      "`docs/latest.md` in `demo/widgets` is a symbolic link to `guide/intro.md`: it has no lines of its own. Blame its target with `path:docs/guide/intro.md`.",
    );
    expect(sent.map((request) => request.operationName)).toEqual(["Blame"]);
  });

  it("the suggestion holds: /blame of the target answers", async () => {
    const record = await world().run({
      kind: "slash",
      name: "blame",
      options: { repo: WIDGETS, path: "docs/guide/intro.md" },
    });
    expect(answerOf(record).embed.title).toContain("docs/guide/intro.md");
  });
});

describe("a path that does not exist is still not found", () => {
  it("/blame names the path and `path`", async () => {
    const { text } = await refusal("blame", { repo: WIDGETS, path: "docs/no-such-file.md" });
    expect(text).toMatch(/Path `docs\/no-such-file\.md` was not found in `demo\/widgets`/);
    expect(text).toContain("`path`");
    expect(text).not.toMatch(/folder|submodule/);
  });

  it("/contents names the path, also inside the submodule's folder", async () => {
    for (const path of ["vendor/no-such-module", `${DEMO_PATHS.submodule}/README.md`]) {
      const { text } = await refusal("contents", { repo: WIDGETS, path });
      expect(text, path).toContain(`Path \`${path}\` was not found in \`demo/widgets\``);
      expect(text, path).not.toMatch(/submodule/);
    }
  });
});
