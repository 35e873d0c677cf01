import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createServices, type RunningServices } from "../../src/createServices.js";
import { silentLogger } from "../../src/logger.js";
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

describe("/login with a GitHub App, without its client secret, and two bot processes on one store", () => {
  // No secret: GitHub renews a device-flow token with the client id and the refresh token alone.
  const world = useWorld({
    oauth: { clientId: DEMO_APPS.githubApp.clientId },
    memoryStores: false,
    github: { now: clock, deviceFlow: { intervalSeconds: 0.05 } },
    now: () => new Date(clock()),
  });
  /** A second process on the same stores (the SQLite files of the world's data folder), its clock 2 minutes behind. */
  let other: RunningServices | undefined;
  afterAll(async () => {
    await other?.close();
  });
  beforeEach(() => {
    offsetMs = 0;
  });

  it("a process still holding the token another renewed reads 401, takes the renewed one from the vault and answers", async () => {
    const signedIn = transcriptOf(await world().signIn({ user: "member", login: OTHER_LOGIN }));
    expect(signedIn.text).toContain("Signed in as **other\\-user**");
    other = await createServices(world().config, silentLogger(), {
      memoryStores: false,
      signInWebUrl: world().github.webUrl,
      now: () => new Date(clock() - 120_000),
    });
    const member = { guildId: null, userId: world().discord.users.member.id };
    const oauth = world().github.oauth;
    const refreshes = oauth.stats.refreshes;

    // A minute before the token's 8 hours end, by the first process's clock: not yet due for either.
    offsetMs += EIGHT_HOURS - 62_000;
    expect((await other.services.scout.viewer(member)).value.login).toBe(OTHER_LOGIN);
    // 5 s later it is due for the first process, which renews it; GitHub ends the old token at once.
    offsetMs += 5_000;
    const renewed = transcriptOf(await world().run({ kind: "slash", name: "whoami", user: "member" }));
    expect(renewed.isError, renewed.text).toBe(false);
    expect(oauth.stats.refreshes).toBe(refreshes + 1);

    // The second process still holds the old token (read 5 s ago): GitHub answers 401, and the
    // vault, not its memory, says the sign-in goes on.
    const answer = await other.services.scout.contents(member, {
      repo: { owner: OTHER_LOGIN, name: "diary" },
      path: "",
    });
    expect(answer.origin).toBe("user");
    expect(answer.privacy).toMatchObject({ nameWithOwner: "other-user/diary" });
    expect(oauth.stats.refreshes).toBe(refreshes + 1);
    const after = transcriptOf(await world().run({ kind: "slash", name: "whoami", user: "member" }));
    expect(after.text).toMatch(/other\\-user[\s\S]*`you`/);
  });
});
