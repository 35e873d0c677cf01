import { beforeEach, describe, expect, it } from "vitest";
import { DEMO_APPS, DEMO_LOGIN, OTHER_LOGIN } from "../../src/sandbox/github/index.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { errorText, useWorld } from "./helpers.js";

/**
 * A GitHub App's expiring user tokens (8 hours, then renewed with the refresh token) through the
 * real discord.js client: one renewal however many commands race, and a sign-in GitHub will not
 * renew is dropped with a word to the person.
 */

/** Both clocks, the stand-in's and the bot's, so that 8 hours pass at once. */
let offsetMs = 0;
const clock = (): number => Date.now() + offsetMs;
const EIGHT_HOURS = 8 * 3600_000;

describe("/login with a GitHub App whose user tokens expire", () => {
  const world = useWorld({
    oauth: DEMO_APPS.githubApp,
    github: { now: clock, deviceFlow: { intervalSeconds: 0.05 } },
    now: () => new Date(clock()),
  });
  beforeEach(() => {
    offsetMs = 0;
  });

  it("renews the token once when ten commands of the person race at its expiry", async () => {
    const signedIn = transcriptOf(await world().signIn({ user: "member", login: OTHER_LOGIN }));
    expect(signedIn.text).toContain("Signed in as **other\\-user**");
    const oauth = world().github.oauth;
    expect(
      oauth
        .issued()
        .filter((entry) => entry.login === OTHER_LOGIN)
        .map((entry) => entry.kind),
    ).toEqual(["ghu"]);
    const refreshes = oauth.stats.refreshes;

    offsetMs += EIGHT_HOURS;
    const records = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        world().run({
          kind: "slash",
          name: index % 2 === 0 ? "whoami" : "contents",
          user: "member",
          options: index % 2 === 0 ? {} : { repo: "other-user/diary" },
        }),
      ),
    );
    for (const record of records) {
      const seen = transcriptOf(record);
      expect(seen.isError, seen.text).toBe(false);
    }
    expect(transcriptOf(records[0]!).text).toMatch(/other\\-user[\s\S]*`you`/);
    expect(oauth.stats.refreshes).toBe(refreshes + 1);
    // GitHub saw the new token only: the expired one was never sent once it was due.
    const tokens = oauth.issued().filter((entry) => entry.login === OTHER_LOGIN);
    expect(tokens.map((entry) => entry.active)).toEqual([false, true]);
    const readWith = new Set(
      world()
        .github.requests.filter((entry) => entry.at >= new Date(clock() - 60_000).toISOString())
        .map((entry) => entry.tokenFingerprint),
    );
    expect(readWith.has(tokens[0]!.tokenFingerprint)).toBe(false);
    expect(readWith.has(tokens[1]!.tokenFingerprint)).toBe(true);
  });

  it("drops a sign-in GitHub refuses to renew and tells the person to sign in again", async () => {
    await world().signIn({ user: "admin", login: DEMO_LOGIN });
    const oauth = world().github.oauth;
    // The person revoked the app on GitHub: the token and its refresh token are dead.
    oauth.revokeAllOf(DEMO_LOGIN);
    const refused = oauth.stats.refusedRefreshes;
    offsetMs += EIGHT_HOURS;
    const text = await errorText(world(), { kind: "slash", name: "whoami", user: "admin" });
    expect(text).toContain("GitHub no longer accepts your sign-in");
    expect(text).toContain("Run `/login` to sign in again.");
    expect(oauth.stats.refusedRefreshes).toBe(refused + 1);
    const after = transcriptOf(await world().run({ kind: "slash", name: "whoami", user: "admin" }));
    expect(after.text).toMatch(/`default`/);
  });
});
