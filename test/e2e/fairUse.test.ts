import { afterEach, describe, expect, it } from "vitest";
import type { InteractionRecord, SlashInteraction } from "../../src/sandbox/discord/index.js";
import { DEMO_TOKEN } from "../../src/sandbox/github/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { errorText, relativeTimeIn, useWorld } from "./helpers.js";

const world = useWorld();

/**
 * The limit GitHub reports back to its default of 5,000 an hour (useWorld only refills `remaining`),
 * and one call that the bot sees it in, as it would on its next request after GitHub changed it.
 */
afterEach(async () => {
  world().github.setRateLimit(DEMO_TOKEN, { limit: 5000, remaining: 5000 });
  await world().running.github.viewer(DEMO_TOKEN);
});

/** How many requests reached GitHub while `work` ran. */
async function upstreamDuring<T>(work: () => Promise<T>): Promise<{ result: T; requests: number }> {
  const before = world().github.requests.length;
  const result = await work();
  return { result, requests: world().github.requests.length - before };
}

function contents(path: string, where: Partial<SlashInteraction> = {}): SlashInteraction {
  return { kind: "slash", name: "contents", options: { repo: "demo/widgets", path }, ...where };
}

async function answered(request: SlashInteraction): Promise<InteractionRecord> {
  const record = await world().run(request);
  const seen = transcriptOf(record);
  expect(seen.isError, seen.text).toBe(false);
  return record;
}

async function suggest(typed: string, where: { user?: string; channel?: string } = {}) {
  const record = await world().run({
    kind: "autocomplete",
    name: "blame",
    options: { repo: typed },
    focused: "repo",
    ...where,
  });
  expect(record.errors).toEqual([]);
  return (record.choices ?? []).map((choice) => String(choice.value));
}

describe("fair use of the shared default token (DEFAULT_TOKEN_SHARE 0.2)", () => {
  it("a user past their share reads when it comes back and how to avoid it; autocomplete counts and then asks nothing; cache hits stay free", async () => {
    // GitHub reports a budget of 10 points an hour: a share of 0.2 is 2 points per user and server.
    world().github.setRateLimit(DEMO_TOKEN, { limit: 10, remaining: 10 });
    const dm = { channel: "dm" };
    // Autocomplete spends from the same share: 1 point.
    const owner = await upstreamDuring(() => suggest("demo-user/", dm));
    expect(owner.result).toContain("demo-user/dotfiles");
    expect(owner.requests).toBe(1);
    await answered(contents("src", dm));

    const refused = await upstreamDuring(() => errorText(world(), contents("docs", dm)));
    expect(refused.requests).toBe(0);
    expect(refused.result).toMatch(/shared GitHub budget is used up for you until <t:\d+:t>/);
    expect(refused.result).toContain("/login");
    // Asked in a DM, where no server token applies: `/login` is the way out, not a server token.
    expect(refused.result).not.toContain("server token");
    // Until GitHub's window ends: the reset it reports, within the hour.
    const until = relativeTimeIn(refused.result)!;
    expect(until).toBeGreaterThan(Date.now() / 1000);
    expect(until).toBeLessThanOrEqual(Date.now() / 1000 + 3600 + 5);

    // Past the share, autocomplete answers without asking GitHub, and without an error.
    const quiet = await upstreamDuring(() => suggest("other-user/", dm));
    expect(quiet.requests).toBe(0);
    expect(quiet.result).toEqual([]);
    // An answer already in the cache costs nothing, so it is still served.
    const cached = await upstreamDuring(() => answered(contents("src", dm)));
    expect(cached.requests).toBe(0);
  });

  it("a server past its share is refused for everyone in it, while others keep theirs", async () => {
    world().github.setRateLimit(DEMO_TOKEN, { limit: 10, remaining: 10 });
    // The admin's reads count against the server (and the admin): 2 points.
    await answered(contents("assets", { user: "admin" }));
    await answered(contents("data", { user: "admin" }));
    // The owner has spent nothing, but this server has spent its share.
    const refused = await upstreamDuring(() => errorText(world(), contents("scripts", { user: "owner" })));
    expect(refused.requests).toBe(0);
    expect(refused.result).toMatch(/shared GitHub budget is used up for this server until/);
    expect(refused.result).toContain("20%");
  });
});

describe("fair use of the shared default token: every call it makes counts", () => {
  it("/contributors reads a repository's access within the share, and a name GitHub did not find is not asked again", async () => {
    // A share of 2 points (0.2 of 10), for a user who has spent nothing yet.
    world().github.setRateLimit(DEMO_TOKEN, { limit: 10, remaining: 10 });
    const dm = { channel: "dm", user: "stranger" };
    const contributors = (repo: string): SlashInteraction => ({
      kind: "slash",
      name: "contributors",
      options: { repo },
      ...dm,
    });

    // The token reads public repositories only: the access read goes first, alone (1 point).
    const first = await upstreamDuring(() => errorText(world(), contributors("nobody-here/made-up-1")));
    expect(first.requests).toBe(1);
    expect(first.result).toMatch(/`nobody-here\/made-up-1` was not found/);
    // Asked again within the short TTL: GitHub's "not found" is remembered.
    const again = await upstreamDuring(() => errorText(world(), contributors("nobody-here/made-up-1")));
    expect(again.requests).toBe(0);
    expect(again.result).toBe(first.result);

    await errorText(world(), contributors("nobody-here/made-up-2"));
    // The share is spent: the next made-up name reaches GitHub no more, access read included.
    const refused = await upstreamDuring(() => errorText(world(), contributors("nobody-here/made-up-3")));
    expect(refused.requests).toBe(0);
    expect(refused.result).toMatch(/shared GitHub budget is used up for you until <t:\d+:t>/);
  });
});

describe("autocomplete on every keystroke", () => {
  it("sends only the latest keystroke of a user upstream while a lookup is in flight", async () => {
    world().github.setLatency(600);
    try {
      const before = world().github.requests.length;
      const handles = [];
      for (const typed of ["d", "de", "dem", "demo"]) {
        handles.push(
          await world().send({
            kind: "autocomplete",
            name: "blame",
            options: { repo: typed },
            focused: "repo",
          }),
        );
      }
      const records = await Promise.all(
        handles.map((handle) => handle.waitFor((record) => record.choices !== null, { timeoutMs: 10_000 })),
      );
      expect(records.every((record) => record.errors.length === 0)).toBe(true);
      const lookups = world()
        .github.requests.slice(before)
        .filter((request) => request.operationName === "OwnerRepositories")
        .map((request) => request.variables?.login);
      // At most the lookup already under way when the next keystrokes came, then the latest one:
      // the keystrokes typed while it ran never went upstream.
      expect(lookups.at(-1)).toBe("demo");
      expect(lookups.length).toBeLessThanOrEqual(2);
      expect(records.at(-1)?.choices?.map((choice) => choice.value)).toContain("demo/widgets");
    } finally {
      world().github.setLatency(0);
    }
  });

  it("reuses the owner's repository list across keystrokes after the slash", async () => {
    await suggest("demo/");
    const later = await upstreamDuring(async () => [await suggest("demo/w"), await suggest("demo/wi")]);
    expect(later.requests).toBe(0);
    expect(later.result[1]).toContain("demo/widgets");
  });
});

describe("/token set verifications", () => {
  async function submitToken(token: string): Promise<string> {
    const opened = await world().run({ kind: "slash", name: "token set", user: "admin" });
    const submitted = await world().run({ kind: "modal", from: opened.id, fields: { token } });
    return transcriptOf(submitted).text;
  }

  it("checks at most 5 tokens per server in 10 minutes; the 6th is refused without asking GitHub", async () => {
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const text = await submitToken(`ghp_notAValidToken${String(attempt).padStart(22, "0")}`);
      expect(text).toMatch(/did not accept that token/);
    }
    const sixth = await upstreamDuring(() => submitToken("ghp_notAValidToken0000000000000000000006"));
    expect(sixth.requests).toBe(0);
    expect(sixth.result).toMatch(/already checked 5 tokens in the last 10 minutes/);
    expect(sixth.result).toMatch(/was not sent to GitHub/);
    const when = relativeTimeIn(sixth.result)!;
    // The first check leaves the window 10 minutes after it was made.
    expect(when).toBeGreaterThan(Date.now() / 1000 + 9 * 60 - 60);
    expect(when).toBeLessThanOrEqual(Date.now() / 1000 + 10 * 60 + 5);
  });
});
