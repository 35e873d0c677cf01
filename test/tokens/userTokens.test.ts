import { randomBytes } from "node:crypto";
import { sentenceOf } from "../sentenceOf.js";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStores, type Stores } from "../../src/cache/openStores.js";
import { silentLogger } from "../../src/logger.js";
import { tokenFingerprint } from "../../src/tokens/fingerprint.js";
import { createTokenResolver } from "../../src/tokens/tokenResolver.js";
import { TokenStoreUnavailableError, createTokenVault } from "../../src/tokens/tokenVault.js";
import {
  RenewalRefusedError,
  SignInEndedError,
  SignInRenewalUnavailableError,
  SignInReplacedError,
  createUserTokens,
  type RenewedToken,
} from "../../src/tokens/userTokens.js";
import { createUserTokenVault, type UserSession } from "../../src/tokens/userTokenVault.js";
import { capturingLogger, describeWithRedis, redisTestUrl } from "../cache/helpers.js";

const USER = "444444444444444444";
const OTHER_USER = "555555555555555555";
const KEY_A = randomBytes(32);
const KEY_B = randomBytes(32);
const FINGERPRINT_KEY = randomBytes(32);
const fingerprint = (token: string): string => tokenFingerprint(FINGERPRINT_KEY, token);
const HOUR = 3600_000;

function session(overrides: Partial<UserSession> = {}): UserSession {
  return {
    token: "ghu_UserTokenOne000000000000000000000001",
    refreshToken: "ghr_RefreshOne0000000000000000000000000000000000000000000000000000000000001",
    expiresAt: new Date(Date.UTC(2026, 0, 1, 8)).toISOString(),
    refreshTokenExpiresAt: new Date(Date.UTC(2026, 6, 1)).toISOString(),
    login: "octocat",
    signedInAt: new Date(Date.UTC(2026, 0, 1)).toISOString(),
    clientId: "Iv23liTest",
    ...overrides,
  };
}

describe("the user-token vault", () => {
  let stores: Stores;
  beforeEach(async () => {
    stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
  });
  afterEach(async () => {
    await stores.close();
  });
  const vaultWith = (key: Buffer | undefined, previousKey?: Buffer) =>
    createUserTokenVault({ store: stores.durable("user-tokens"), key, previousKey, logger: silentLogger() });
  const raw = async (userId = USER) =>
    (await stores.durable("user-tokens").get(userId)) as Record<string, unknown> | undefined;

  it("keeps a sign-in encrypted and gives it back whole", async () => {
    const vault = vaultWith(KEY_A);
    await vault.set(USER, session());
    expect(await vault.get(USER)).toEqual(session());
    const stored = JSON.stringify(await raw());
    expect(stored).not.toContain("ghu_");
    expect(stored).not.toContain("ghr_");
    expect(await vault.get(OTHER_USER)).toBeNull();
  });

  it("refuses a record moved to another user or whose login or expiry was edited", async () => {
    const vault = vaultWith(KEY_A);
    await vault.set(USER, session());
    const record = (await raw())!;
    await stores.durable("user-tokens").set(OTHER_USER, { ...record, userId: OTHER_USER });
    expect(await vault.get(OTHER_USER)).toBeNull();
    await stores.durable("user-tokens").set(USER, { ...record, login: "mallory" });
    expect(await vault.get(USER)).toBeNull();
    await stores.durable("user-tokens").set(USER, { ...record, expiresAt: "2099-01-01T00:00:00.000Z" });
    expect(await vault.get(USER)).toBeNull();
  });

  it("opens records of the previous key and seals them again with the current one", async () => {
    await vaultWith(KEY_A).set(USER, session());
    const before = (await raw())!.kid;
    const rotated = vaultWith(KEY_B, KEY_A);
    expect(await rotated.get(USER)).toEqual(session());
    expect((await raw())!.kid).not.toBe(before);
    expect(await vaultWith(KEY_B).get(USER)).toEqual(session());
    // A key the bot no longer has: the sign-in reads as absent (the person signs in again).
    expect(await vaultWith(randomBytes(32)).get(USER)).toBeNull();
  });

  it("says the user's sign-in cannot be read when the store fails", async () => {
    const vault = vaultWith(KEY_A);
    await stores.close();
    const error = await vault.get(USER).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TokenStoreUnavailableError);
    expect(sentenceOf(error)).toContain("your GitHub sign-in");
  });

  it("writes no token in clear into the SQLite vault file", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "user-vault-"));
    const sqlite = await openStores({ dataDir, logger: silentLogger(), sweepIntervalMs: 0 });
    try {
      const vault = createUserTokenVault({
        store: sqlite.durable("user-tokens"),
        key: KEY_A,
        logger: silentLogger(),
      });
      await vault.set(USER, session());
      expect((await vault.get(USER))?.token).toBe(session().token);
    } finally {
      await sqlite.close();
    }
    for (const file of await readdir(dataDir)) {
      const bytes = (await readFile(join(dataDir, file))).toString("latin1");
      expect(bytes).not.toContain("ghu_UserTokenOne");
      expect(bytes).not.toContain("ghr_RefreshOne");
    }
    await rm(dataDir, { recursive: true, force: true });
  });
});

describeWithRedis("the user-token vault in Redis (the tests' Redis)", () => {
  it("keeps sign-ins in Redis too", async () => {
    const prefix = `test-user-vault-${randomBytes(6).toString("hex")}`;
    const redis = await openStores({
      dataDir: "unused",
      redisUrl: redisTestUrl(),
      prefix,
      logger: silentLogger(),
    });
    try {
      const vault = createUserTokenVault({
        store: redis.durable("user-tokens"),
        key: KEY_A,
        logger: silentLogger(),
      });
      await vault.set(USER, session());
      expect(await vault.get(USER)).toEqual(session());
      expect(await vault.delete(USER)).toBe(true);
      expect(await vault.get(USER)).toBeNull();
    } finally {
      await redis.close();
    }
  });
});

describe("user tokens: renewal and refusal", () => {
  let stores: Stores;
  let clock: number;
  beforeEach(async () => {
    stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    clock = Date.UTC(2026, 0, 1, 1);
  });
  afterEach(async () => {
    await stores.close();
  });
  const vault = () =>
    createUserTokenVault({ store: stores.durable("user-tokens"), key: KEY_A, logger: silentLogger() });

  let renewals = 0;
  function renewer(answer: (refreshToken: string) => Promise<RenewedToken>) {
    renewals = 0;
    return async (refreshToken: string) => {
      renewals += 1;
      return answer(refreshToken);
    };
  }
  const renewed = (n: number): RenewedToken => ({
    token: `ghu_Renewed${n}`.padEnd(40, "0"),
    refreshToken: `ghr_Renewed${n}`.padEnd(80, "0"),
    expiresAt: new Date(clock + 8 * HOUR).toISOString(),
    refreshTokenExpiresAt: new Date(clock + 4000 * HOUR).toISOString(),
  });

  it("hands out a token that is not due without renewing it, and nothing for a person not signed in", async () => {
    const tokens = createUserTokens({
      vault: vault(),
      renew: renewer(async () => renewed(1)),
      fingerprint,
      logger: silentLogger(),
      now: () => clock,
    });
    expect(await tokens.tokenFor(USER)).toBeNull();
    await tokens.store(USER, session());
    expect(await tokens.tokenFor(USER)).toBe(session().token);
    expect(renewals).toBe(0);
  });

  it("renews once when ten commands ask at expiry, and stores the new pair", async () => {
    const store = vault();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tokens = createUserTokens({
      vault: store,
      renew: renewer(async () => {
        await gate;
        return renewed(1);
      }),
      fingerprint,
      logger: silentLogger(),
      now: () => clock,
    });
    await tokens.store(USER, session());
    clock = Date.UTC(2026, 0, 1, 8) - 30_000; // within the minute before the end
    const asked = Array.from({ length: 10 }, () => tokens.tokenFor(USER));
    release();
    expect(new Set(await Promise.all(asked))).toEqual(new Set([renewed(1).token]));
    expect(renewals).toBe(1);
    expect(await store.get(USER)).toMatchObject({
      ...renewed(1),
      login: "octocat",
      signedInAt: session().signedInAt,
    });
  });

  it("drops the sign-in when GitHub refuses the renewal, and says so", async () => {
    const store = vault();
    const { logger, text } = capturingLogger();
    const tokens = createUserTokens({
      vault: store,
      renew: renewer(async () => {
        throw new RenewalRefusedError("bad_refresh_token");
      }),
      fingerprint,
      logger,
      now: () => clock,
    });
    await tokens.store(USER, session());
    clock += 8 * HOUR;
    const error = await tokens.tokenFor(USER).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SignInEndedError);
    expect(sentenceOf(error)).toContain("Run `/login` to sign in again.");
    expect(await store.get(USER)).toBeNull();
    expect(await tokens.tokenFor(USER)).toBeNull();
    expect(text()).toContain("renewal refused: bad_refresh_token");
    expect(text()).not.toContain("ghr_");
  });

  it("takes the pair another process renewed instead of dropping it when its own refresh token was already used", async () => {
    const store = vault();
    const tokens = createUserTokens({
      vault: store,
      renew: renewer(async () => {
        // Meanwhile, another shard renewed first and stored its pair.
        await store.set(USER, { ...session(), ...renewed(2) });
        throw new RenewalRefusedError("bad_refresh_token");
      }),
      fingerprint,
      logger: silentLogger(),
      now: () => clock,
    });
    await tokens.store(USER, session());
    clock += 8 * HOUR;
    expect(await tokens.tokenFor(USER)).toBe(renewed(2).token);
    expect((await store.get(USER))?.token).toBe(renewed(2).token);
  });

  it("ends an expiring sign-in with its lifetime when there is no client secret to renew it", async () => {
    const store = vault();
    const tokens = createUserTokens({ vault: store, fingerprint, logger: silentLogger(), now: () => clock });
    await tokens.store(USER, session());
    clock += 8 * HOUR;
    const error = await tokens.tokenFor(USER).catch((caught: unknown) => caught);
    expect((error as SignInEndedError).reason).toBe("expired");
    expect(await store.get(USER)).toBeNull();
  });

  it("keeps the sign-in when GitHub does not answer the renewal, and says to try again", async () => {
    const store = vault();
    const tokens = createUserTokens({
      vault: store,
      renew: renewer(async () => {
        throw new Error("ECONNRESET");
      }),
      fingerprint,
      logger: silentLogger(),
      now: () => clock,
    });
    await tokens.store(USER, session());
    clock += 8 * HOUR;
    await expect(tokens.tokenFor(USER)).rejects.toBeInstanceOf(SignInRenewalUnavailableError);
    expect((await store.get(USER))?.token).toBe(session().token);
  });

  it("drops a person's token GitHub answered 401 for, but not a token that was never theirs or was replaced", async () => {
    const store = vault();
    const tokens = createUserTokens({ vault: store, fingerprint, logger: silentLogger(), now: () => clock });
    const forever = session({ expiresAt: null, refreshToken: null, refreshTokenExpiresAt: null });
    await tokens.store(USER, forever);
    expect(await tokens.refused(fingerprint("ghp_someoneElse000000000000000000000000"))).toBeUndefined();
    const handed = await tokens.tokenFor(USER);
    // The person signed in again meanwhile: the old token's 401 must not end the new sign-in; the
    // command runs again with the new one.
    await tokens.store(USER, { ...forever, token: "gho_NewerToken0000000000000000000000000000" });
    expect(await tokens.refused(fingerprint(handed!))).toBeInstanceOf(SignInReplacedError);
    expect(await tokens.tokenFor(USER)).toBe("gho_NewerToken0000000000000000000000000000");
    const refused = await tokens.refused(fingerprint("gho_NewerToken0000000000000000000000000000"));
    expect(refused).toBeInstanceOf(SignInEndedError);
    expect(await store.get(USER)).toBeNull();
  });
});

describe("two processes sharing the user vault", () => {
  it("a process still holding a token the other renewed reads the vault on GitHub's 401, and goes on with the new one", async () => {
    const stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    try {
      const shared = () =>
        createUserTokenVault({ store: stores.durable("user-tokens"), key: KEY_A, logger: silentLogger() });
      let clock = Date.UTC(2026, 0, 1, 7, 58, 57);
      const renewals: string[] = [];
      const next: RenewedToken = {
        token: "ghu_RenewedByA0000000000000000000000000000",
        refreshToken: "ghr_RenewedByA".padEnd(80, "0"),
        expiresAt: new Date(Date.UTC(2026, 0, 1, 16)).toISOString(),
        refreshTokenExpiresAt: new Date(Date.UTC(2026, 6, 1)).toISOString(),
      };
      const processOf = (lagMs: number) =>
        createUserTokens({
          vault: shared(),
          renew: async (refreshToken) => {
            renewals.push(refreshToken);
            return next;
          },
          fingerprint,
          logger: silentLogger(),
          now: () => clock - lagMs,
        });
      // B's clock is two minutes behind A's: the token is due for A, not yet for B.
      const a = processOf(0);
      const b = processOf(120_000);
      await a.store(USER, session());
      const held = await b.tokenFor(USER);
      expect(held).toBe(session().token);

      clock += 5_000;
      expect(await a.tokenFor(USER)).toBe(next.token);
      // GitHub ended the old token at the refresh: B's next call with it reads 401.
      const refused = await b.refused(fingerprint(held!));
      expect(refused).toBeInstanceOf(SignInReplacedError);
      expect(await b.tokenFor(USER)).toBe(next.token);
      expect((await shared().get(USER))?.token).toBe(next.token);
      expect(renewals).toEqual([session().refreshToken]);
    } finally {
      await stores.close();
    }
  });
});

describe("token precedence", () => {
  it("takes the asker's own token, then the server's, then the default; a user-vault outage falls through", async () => {
    const stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    try {
      const serverVault = createTokenVault({
        store: stores.durable("vault"),
        key: KEY_A,
        logger: silentLogger(),
      });
      await serverVault.set("666666666666666666", {
        token: "ghp_ServerToken0000000000000000000000000",
        setBy: USER,
        login: "srv",
      });
      let outage = false;
      const resolver = createTokenResolver({
        vault: serverVault,
        userTokens: {
          async tokenFor(userId) {
            if (outage) throw new TokenStoreUnavailableError("read", undefined, "user");
            return userId === USER ? "gho_OwnToken000000000000000000000000000000" : null;
          },
        },
        defaultToken: "ghp_DefaultToken000000000000000000000000",
        fingerprintKey: FINGERPRINT_KEY,
        logger: silentLogger(),
      });
      const origin = async (guildId: string | null, userId: string) =>
        (await resolver.resolve({ guildId, userId })).origin;
      expect(await origin("666666666666666666", USER)).toBe("user");
      expect(await origin(null, USER)).toBe("user");
      expect(await origin("666666666666666666", OTHER_USER)).toBe("server");
      expect(await origin(null, OTHER_USER)).toBe("default");
      outage = true;
      expect(await origin("666666666666666666", USER)).toBe("server");
    } finally {
      await stores.close();
    }
  });
});
