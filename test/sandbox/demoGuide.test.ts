import { describe, expect, it } from "vitest";
import { describeDemoWorld } from "../../src/sandbox/demoGuide.js";
import type { WorldDefinition } from "../../src/sandbox/github/index.js";

const definition: WorldDefinition = {
  users: [
    { login: "ann", id: 1, name: "Ann Example" },
    { login: "bob", id: 3 },
  ],
  organizations: [{ login: "acme", id: 2, name: "Acme", members: ["ann"] }],
  repositories: [
    { owner: "acme", name: "rockets", id: 10, gitDir: "/x", note: "goes up" },
    { owner: "acme", name: "vault", id: 11, gitDir: "/x", isPrivate: true, contributorsTooLarge: true },
    ...Array.from({ length: 14 }, (_, index) => ({
      owner: "ann",
      name: `r${index + 1}`,
      id: 100 + index,
      gitDir: "/x",
      note: `number ${index + 1}`,
    })),
    ...["a", "b", "c"].map((name, index) => ({
      owner: "bob",
      name,
      id: 200 + index,
      gitDir: "/x",
      note: "same",
    })),
  ],
  tokens: { "tok-ann": "ann" },
};

describe("/demo", () => {
  const text = describeDemoWorld(definition, { perPage: 10, defaultToken: "tok-ann" });

  it("lists each owner of the world with its kind and its repositories, and what each is for", () => {
    expect(text).toContain("acme (organization; members ann): 2 repositories");
    expect(text).toContain("  acme/rockets — goes up");
    expect(text).toContain("  acme/vault — 🔒 private; contributors: too large for GitHub to list");
  });

  it("points out an owner with more repositories than a page, and summarises past a dozen", () => {
    expect(text).toContain("ann (user Ann Example): 14 repositories, more than a page: try /repos owner:ann");
    expect(text).toContain("  … and 2 more lines, up to ann/r14");
    expect(text).not.toContain("ann/r13 —");
  });

  it("names a run of repositories that say the same in one line", () => {
    expect(text).toContain("bob (user): 3 repositories\n  bob/a … bob/c (3) — same");
  });

  it("names the tokens of the world and which one the bot uses", () => {
    expect(text).toContain("  ann: tok-ann (the bot's default token)");
  });
});
