import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { invokerOptions } from "../../src/sandbox/chatSession.js";
import {
  DEMO_APPS,
  DEMO_LOGIN,
  DEMO_REPOSITORIES,
  DEMO_TOKEN,
  OTHER_LOGIN,
  OTHER_TOKEN,
} from "../../src/sandbox/github/index.js";
import { userCodeOf } from "../../src/sandbox/harness.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";
import { errorText, linkUrl, relativeTimeIn, useWorld } from "./helpers.js";

/**
 * `/login` and `/logout` through the real discord.js client, against GitHub's device flow as the
 * stand-in plays it (an OAuth app whose tokens do not expire; the refresh of expiring GitHub App
 * tokens is in loginRefresh.test.ts).
 */

const logs: string[] = [];
const destination = new Writable({
  write(chunk, _encoding, callback) {
    logs.push(String(chunk));
    callback();
  },
});
/** The GitHub stand-in's clock: tests move it forward (a code's 15 minutes pass), never back. */
let offsetMs = 0;
const clock = (): number => Date.now() + offsetMs;

/** The first GraphQL call of a world loads GitHub's schema: slow on a busy machine. */
const WAIT = { timeoutMs: 15_000 };

/** As the stand-in's request log shows a token: the first 8 hex digits of its SHA-256. */
const logged = (token: string): string => createHash("sha256").update(token).digest("hex").slice(0, 8);

describe("/login and /logout with an OAuth app", () => {
  const world = useWorld({
    // Polls 50 ms apart, +100 ms per slow_down: GitHub's rules, at test speed.
    github: { now: clock, deviceFlow: { intervalSeconds: 0.05, slowDownSeconds: 0.1 } },
    logger: createLogger({ level: "debug", destination, pretty: false }),
  });

  /** The stand-in's request-log fingerprint of the newest live token issued to `login`. */
  function liveTokenOf(login: string): string {
    const issued = world()
      .github.oauth.issued()
      .filter((entry) => entry.login === login && entry.active);
    const last = issued.at(-1);
    if (!last) throw new Error(`no live token of ${login}`);
    return last.tokenFingerprint;
  }

  it("shows the code, a button to GitHub's device page and the expiry; keeps polling; then says who signed in", async () => {
    const handle = await world().send({ kind: "slash", name: "login", user: "member" });
    const shown = await handle.waitFor((record) => userCodeOf(record) !== null, WAIT);
    const code = userCodeOf(shown)!;
    const prompt = transcriptOf(shown);
    expect(shown.ephemeral).toBe(true);
    expect(prompt.text).toContain("Enter this code");
    expect(linkUrl(prompt.messages[0]!.message, /device page/)).toBe(`${world().github.webUrl}/login/device`);
    // GitHub's code lives 900 s; the reply can be edited for 15 minutes less a margin: the earlier shows.
    const expires = relativeTimeIn(prompt.text)!;
    expect(Math.abs(expires - (Date.now() / 1000 + 870))).toBeLessThan(10);
    expect(
      world()
        .github.oauth.pending()
        .find((entry) => entry.userCode === code)?.state,
    ).toBe("pending");

    // Nobody answers for a while: the bot keeps asking, as GitHub allows, and the message waits.
    const polls = world().github.oauth.stats.polls;
    await expect.poll(() => world().github.oauth.stats.polls, { timeout: 5_000 }).toBeGreaterThan(polls + 2);
    expect(userCodeOf(handle.record())).toBe(code);

    world().github.oauth.approve(code, OTHER_LOGIN);
    const done = await handle.waitFor((record) => userCodeOf(record) === null, WAIT);
    const outcome = transcriptOf(done);
    expect(outcome.isError).toBe(false);
    expect(outcome.text).toContain("Signed in as **other\\-user**");
    expect(done.errors).toEqual([]);

    const whoami = transcriptOf(await world().run({ kind: "slash", name: "whoami", user: "member" }));
    expect(whoami.text).toContain("other\\-user");
    expect(whoami.text).toMatch(/`you`: your own GitHub sign-in/);
    expect(world().github.oauth.stats.tooEarlyPolls).toBe(0);
  });

  it("reads with the asker's own token, the server's token or the default, person by person", async () => {
    // member signed in as other-user above; admin has not signed in.
    const github = world().github;
    github.addToken(OTHER_TOKEN, OTHER_LOGIN);
    github.clearRequests();
    const own = await world().run({
      kind: "slash",
      name: "contents",
      user: "member",
      options: { repo: DEMO_REPOSITORIES.diary },
    });
    expect(transcriptOf(own).text).toContain("DIARY.md");
    const notFound = await errorText(world(), {
      kind: "slash",
      name: "contents",
      user: "admin",
      options: { repo: DEMO_REPOSITORIES.diary },
    });
    expect(notFound).toMatch(/was not found/);
    const reads = github.requests.filter((entry) => entry.operationName === "Contents");
    expect(reads.map((entry) => entry.tokenFingerprint)).toEqual([
      liveTokenOf(OTHER_LOGIN),
      logged(DEMO_TOKEN),
    ]);

    // A server token comes second: the admin now reads with it, the member still as themselves.
    const opened = await world().run({ kind: "slash", name: "token set", user: "admin" });
    await world().run({ kind: "modal", from: opened.id, fields: { token: OTHER_TOKEN } });
    github.clearRequests();
    const admin = transcriptOf(await world().run({ kind: "slash", name: "whoami", user: "admin" }));
    const member = transcriptOf(await world().run({ kind: "slash", name: "whoami", user: "member" }));
    expect(admin.text).toMatch(/`server`/);
    expect(member.text).toMatch(/`you`/);
    await world().run({ kind: "slash", name: "token clear", user: "admin" });
    // In a DM there is no server token: the person's own sign-in still applies.
    const dm = transcriptOf(
      await world().run({ kind: "slash", name: "whoami", user: "member", channel: "dm" }),
    );
    expect(dm.text).toMatch(/`you`/);
  });

  it("honours slow_down: once GitHub raises the interval, no poll comes early", async () => {
    const oauth = world().github.oauth;
    oauth.injectSlowDown(1);
    const handle = await world().send({ kind: "slash", name: "login", user: "owner" });
    const code = userCodeOf(await handle.waitFor((record) => userCodeOf(record) !== null, WAIT))!;
    const view = () => oauth.pending().find((entry) => entry.userCode === code);
    // GitHub answered slow_down: the code's interval went from 0.05 s to 0.15 s.
    await expect.poll(() => view()?.intervalSeconds, { timeout: 5_000 }).toBeCloseTo(0.15);
    const polls = oauth.stats.polls;
    await expect.poll(() => oauth.stats.polls, { timeout: 5_000 }).toBeGreaterThan(polls + 1);
    oauth.approve(code, DEMO_LOGIN);
    const done = transcriptOf(await handle.waitFor((record) => userCodeOf(record) === null, WAIT));
    expect(done.text).toContain("Signed in as **demo\\-user**");
    expect(oauth.stats.tooEarlyPolls).toBe(0);
  });

  it("says so when the person declines on GitHub, and nothing changes", async () => {
    const record = await world().signIn({ user: "admin", login: OTHER_LOGIN, deny: true });
    const seen = transcriptOf(record);
    expect(seen.isError).toBe(true);
    expect(seen.text).toContain(
      "You declined on GitHub, so you are not signed in. Run `/login` to try again.",
    );
    const whoami = transcriptOf(await world().run({ kind: "slash", name: "whoami", user: "admin" }));
    expect(whoami.text).toMatch(/`default`/);
  });

  it("says the code expired when GitHub answers expired_token, and stops asking GitHub", async () => {
    const handle = await world().send({ kind: "slash", name: "login", user: "admin" });
    const code = userCodeOf(await handle.waitFor((record) => userCodeOf(record) !== null, WAIT))!;
    offsetMs += 901_000;
    const done = transcriptOf(await handle.waitFor((record) => userCodeOf(record) === null, WAIT));
    expect(done.text).toContain("The code expired before it was approved, so you are not signed in.");
    expect(() => world().github.oauth.approve(code, OTHER_LOGIN)).toThrow(/no live device code/);
    const polls = world().github.oauth.stats.polls;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(world().github.oauth.stats.polls).toBe(polls);
  });

  it("turns the message into the error line when reading who signed in fails after the approval", async () => {
    world().github.faults.inject({ kind: "badGateway", target: "graphql", times: 2 });
    const record = await world().signIn({ user: "owner", login: OTHER_LOGIN });
    const seen = transcriptOf(record);
    expect(seen.isError).toBe(true);
    expect(seen.text).toMatch(/GitHub did not answer in time/);
    expect(record.errors).toEqual([]);
  });

  it("says sign-in is unavailable when the app's device flow is turned off, and who can fix it", async () => {
    const app = world().github.world.app(DEMO_APPS.oauthApp.clientId)!;
    app.deviceFlow = false;
    try {
      const text = await errorText(world(), { kind: "slash", name: "login", user: "admin" });
      expect(text).toContain("the bot's GitHub app does not have device flow enabled");
      expect(text).toContain("operator");
    } finally {
      app.deviceFlow = true;
    }
  });

  it("drops a token GitHub no longer accepts and tells the person to sign in again", async () => {
    await world().signIn({ user: "admin", login: OTHER_LOGIN });
    expect(transcriptOf(await world().run({ kind: "slash", name: "whoami", user: "admin" })).text).toMatch(
      /`you`/,
    );
    // The person revokes RepoScout's access on GitHub; the next read meets 401.
    world().github.oauth.revokeAllOf(OTHER_LOGIN);
    const text = await errorText(world(), {
      kind: "slash",
      name: "contents",
      user: "admin",
      options: { repo: DEMO_REPOSITORIES.experiments },
    });
    expect(text).toContain("GitHub no longer accepts your sign-in");
    expect(text).toContain("Run `/login` to sign in again.");
    const after = transcriptOf(await world().run({ kind: "slash", name: "whoami", user: "admin" }));
    expect(after.text).toMatch(/`default`/);
  });

  it("keeps the sandbox chat's person and their sign-in through /as member, without Manage Server", async () => {
    await world().signIn({ ...invokerOptions("admin"), login: OTHER_LOGIN });
    const asMember = invokerOptions("member");
    const whoami = transcriptOf(await world().run({ kind: "slash", name: "whoami", ...asMember }));
    expect(whoami.text).toMatch(/other\\-user[\s\S]*`you`/);
    const status = await errorText(world(), { kind: "slash", name: "token status", ...asMember });
    expect(status).toContain("Manage Server");
    await world().run({ kind: "slash", name: "logout", ...invokerOptions("admin") });
  });

  it("/logout forgets the token and revokes it at GitHub; a second /logout changes nothing", async () => {
    await world().signIn({ user: "admin", login: OTHER_LOGIN });
    const token = liveTokenOf(OTHER_LOGIN);
    const before = world().github.oauth.stats.revocations;
    const out = transcriptOf(await world().run({ kind: "slash", name: "logout", user: "admin" }));
    expect(out.messages.every((message) => message.ephemeral)).toBe(true);
    expect(out.text).toContain(
      "Signed out: RepoScout forgot your token for **other\\-user**. GitHub has revoked the token too.",
    );
    expect(world().github.oauth.stats.revocations).toBe(before + 1);
    expect(
      world()
        .github.oauth.issued()
        .find((entry) => entry.tokenFingerprint === token)?.active,
    ).toBe(false);
    const whoami = transcriptOf(await world().run({ kind: "slash", name: "whoami", user: "admin" }));
    expect(whoami.text).toMatch(/`default`/);
    const again = transcriptOf(await world().run({ kind: "slash", name: "logout", user: "admin" }));
    expect(again.text).toContain("You were not signed in to GitHub here; nothing changed.");
  });

  it("never puts a token or a device code in a message, in GitHub's request log or in the bot's logs", async () => {
    const secrets = world().github.oauth.secrets();
    expect(secrets.length).toBeGreaterThan(5);
    const discordTraffic = JSON.stringify(world().discord.requests);
    const githubLog = JSON.stringify(world().github.requests);
    const botLogs = logs.join("");
    expect(botLogs).toMatch(/user signed in/);
    for (const secret of secrets) {
      expect(discordTraffic).not.toContain(secret);
      expect(githubLog).not.toContain(secret);
      expect(botLogs).not.toContain(secret);
    }
    expect(botLogs).not.toContain(DEMO_APPS.oauthApp.clientSecret);
  });

  it("tells a person still signing in when the bot stops that it restarted", async () => {
    const handle = await world().send({ kind: "slash", name: "login", user: "admin" });
    await handle.waitFor((record) => userCodeOf(record) !== null, WAIT);
    const stopping = world().bot.stop(5_000);
    const done = transcriptOf(await handle.waitFor((record) => userCodeOf(record) === null, WAIT));
    await stopping;
    expect(done.text).toContain("RepoScout restarted before you finished signing in. Run `/login` again.");
  });
});

describe("/login on a bot without GITHUB_OAUTH_CLIENT_ID", () => {
  const world = useWorld({ oauth: null });

  it("says sign-in is not set up, asking GitHub nothing", async () => {
    world().github.clearRequests();
    const text = await errorText(world(), { kind: "slash", name: "login" });
    expect(text).toContain("Sign-in is not set up on this bot");
    expect(text).toContain("GITHUB_OAUTH_CLIENT_ID");
    expect(world().github.requests).toEqual([]);
  });
});
