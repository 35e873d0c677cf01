import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStores } from "../../src/cache/openStores.js";
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
import { tokenFingerprint } from "../../src/tokens/fingerprint.js";
import { createTokenVersions } from "../../src/tokens/tokenVersions.js";
import { RenewalRefusedError, createUserTokens, type TokenRenewer } from "../../src/tokens/userTokens.js";
import { createUserTokenVault, type UserSession } from "../../src/tokens/userTokenVault.js";
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

describe("a sign-in renewed in one process", () => {
  it("is taken by the other from the store at its next command, without a refresh GitHub would refuse", async () => {
    const stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    try {
      const fingerprintKey = randomBytes(32);
      let clock = Date.UTC(2026, 0, 1, 7, 58, 55);
      const first: UserSession = {
        token: "ghu_FirstToken000000000000000000000000001",
        refreshToken: "ghr_FirstRefresh0000000000000000000000000000000000000000000000000000001",
        expiresAt: new Date(Date.UTC(2026, 0, 1, 8)).toISOString(),
        refreshTokenExpiresAt: new Date(Date.UTC(2026, 6, 1)).toISOString(),
        login: OTHER_LOGIN,
        signedInAt: new Date(Date.UTC(2026, 0, 1)).toISOString(),
        clientId: "Iv23liTest",
      };
      /** GitHub's refresh grant: each refresh token is taken once (the refresh requests it sees). */
      const used = new Set<string>();
      const refreshes: string[] = [];
      const renew: TokenRenewer = async (refreshToken) => {
        refreshes.push(refreshToken);
        if (used.has(refreshToken)) throw new RenewalRefusedError("bad_refresh_token");
        used.add(refreshToken);
        return {
          token: "ghu_SecondToken00000000000000000000000002",
          refreshToken: "ghr_SecondRefresh000000000000000000000000000000000000000000000000000002",
          expiresAt: new Date(clock + 8 * 3_600_000).toISOString(),
          refreshTokenExpiresAt: first.refreshTokenExpiresAt,
        };
      };
      const aProcess = () =>
        createUserTokens({
          vault: createUserTokenVault({
            store: stores.durable("user-tokens"),
            key: KEY,
            logger: silentLogger(),
          }),
          renew,
          fingerprint: (token) => tokenFingerprint(fingerprintKey, token),
          versions: createTokenVersions(stores.durable("token-versions")),
          logger: silentLogger(),
          now: () => clock,
        });
      const [one, two] = [aProcess(), aProcess()];
      await one.store(USER, first);
      // The second process reads the sign-in a minute and five seconds before it ends.
      expect(await two.tokenFor(USER)).toBe(first.token);
      // Ten seconds later it is due: the first process renews it.
      clock += 10_000;
      expect(await one.tokenFor(USER)).toBe("ghu_SecondToken00000000000000000000000002");
      // The second process takes the renewed token, and GitHub saw one refresh, not a second one
      // with the refresh token already used.
      expect(await two.tokenFor(USER)).toBe("ghu_SecondToken00000000000000000000000002");
      expect(refreshes).toEqual([first.refreshToken]);
    } finally {
      await stores.close();
    }
  });
});
