import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createServices, type RunningServices } from "../../src/createServices.js";
import { silentLogger } from "../../src/logger.js";
import {
  DEMO_LOGIN,
  DEMO_TOKEN,
  OTHER_LOGIN,
  OTHER_TOKEN,
  startGitHubStandIn,
  type GitHubStandIn,
} from "../../src/sandbox/github/index.js";
import { createUserTokenVault } from "../../src/tokens/userTokenVault.js";
import { describeWithRedis, redisTestUrl, removeRedisKeys } from "../cache/helpers.js";

/*
 * Two bot processes on one Redis (each its own services and memory, as behind a load balancer):
 * a server token cleared, or a sign-in ended, through one stops being used by the other at its
 * very next command, and a store outage never brings it back (SPEC section 4).
 */

const KEY = randomBytes(32);
const USER = "222222222222222222";
/** A person's own token (after `/login`), authenticating as the demo world's other user. */
const OWN_TOKEN = "gho_ReposcoutOwnToken0000000000000000000";

describeWithRedis("a token cleared in one process", () => {
  const prefix = `reposcout-test-${randomBytes(6).toString("hex")}`;
  let github: GitHubStandIn;
  const opened: RunningServices[] = [];

  beforeAll(async () => {
    github = await startGitHubStandIn();
    github.addToken(OWN_TOKEN, OTHER_LOGIN);
  });
  afterAll(async () => {
    await Promise.all(opened.map((running) => running.close()));
    await github?.close();
    await removeRedisKeys(prefix);
  });

  /** Two processes on the same Redis. */
  async function twoProcesses(): Promise<[RunningServices, RunningServices]> {
    const config = () =>
      loadConfig({
        GITHUB_API_URL: github.restUrl,
        GITHUB_GRAPHQL_URL: github.graphqlUrl,
        GITHUB_TOKEN: DEMO_TOKEN,
        TOKEN_ENCRYPTION_KEY: KEY.toString("base64"),
        REDIS_URL: redisTestUrl(),
        DATA_DIR: "unused",
      });
    const pair = await Promise.all([
      createServices(config(), silentLogger(), { storePrefix: prefix }),
      createServices(config(), silentLogger(), { storePrefix: prefix }),
    ]);
    opened.push(...pair);
    return pair;
  }

  /** What `/whoami` tells the asker in a process: whose token, and where it comes from. */
  async function whoami(running: RunningServices, asker: { guildId: string; userId: string }) {
    const fetched = await running.services.scout.viewer(asker);
    return `${fetched.value.login} (${fetched.origin})`;
  }

  const newGuild = (): string =>
    `9${randomBytes(8).readBigUInt64BE().toString().slice(0, 17).padStart(17, "0")}`;

  it("/token clear in one process ends the server token's use in the other at its next command", async () => {
    const [first, second] = await twoProcesses();
    const asker = { guildId: newGuild(), userId: USER };
    await first.services.tokenAdmin.verifyAndStore(asker.guildId, OTHER_TOKEN, "1");
    expect(await whoami(second, asker)).toBe(`${OTHER_LOGIN} (server)`);
    await first.services.tokenAdmin.clear(asker.guildId);
    expect(await whoami(second, asker)).toBe(`${DEMO_LOGIN} (default)`);
    // And a token set again is taken at once too.
    await first.services.tokenAdmin.verifyAndStore(asker.guildId, OTHER_TOKEN, "1");
    expect(await whoami(second, asker)).toBe(`${OTHER_LOGIN} (server)`);
  });

  it("/logout in one process ends the person's token in the other at its next command", async () => {
    const [first, second] = await twoProcesses();
    const asker = { guildId: newGuild(), userId: USER };
    const vault = createUserTokenVault({
      store: first.stores.durable("user-tokens"),
      key: KEY,
      logger: silentLogger(),
    });
    await vault.set(USER, {
      token: OWN_TOKEN,
      refreshToken: null,
      expiresAt: null,
      refreshTokenExpiresAt: null,
      login: OTHER_LOGIN,
      signedInAt: new Date().toISOString(),
      clientId: "Ov23liReposcoutDemo0",
    });
    expect(await whoami(second, asker)).toBe(`${OTHER_LOGIN} (user)`);
    expect(await first.services.signIn.signOut(USER)).toMatchObject({ signedIn: true });
    expect(await whoami(second, asker)).toBe(`${DEMO_LOGIN} (default)`);
  });

  it("a store outage right after /token clear never brings the cleared token back", async () => {
    const [first, second] = await twoProcesses();
    const asker = { guildId: newGuild(), userId: USER };
    await first.services.tokenAdmin.verifyAndStore(asker.guildId, OTHER_TOKEN, "1");
    expect(await whoami(second, asker)).toBe(`${OTHER_LOGIN} (server)`);
    await first.services.tokenAdmin.clear(asker.guildId);
    // The second process loses its store before its next command (closed stores fail every
    // operation, as an unreachable Redis does): it cannot learn of the clear, so it must not
    // trust the token it remembers.
    await second.stores.close();
    expect(await whoami(second, asker)).toBe(`${DEMO_LOGIN} (default)`);
  });
});
