import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DurableStore } from "../../src/cache/guardedStore.js";
import { openStores, type Stores } from "../../src/cache/openStores.js";
import { silentLogger } from "../../src/logger.js";
import { createUserTokenVault, type UserSession } from "../../src/tokens/userTokenVault.js";
import { describeWithRedis, redisTestUrl } from "../cache/helpers.js";

/*
 * The user vault of a process that alone writes it (no Redis) keeps who holds a record, so that a
 * person who never signed in reads as such without a query of the store (issue 23). What matters
 * is that it never takes someone who signed in for someone who did not.
 */

const KEY = randomBytes(32);
const ALICE = "111111111111111111";
const BOB = "222222222222222222";

const session = (token: string): UserSession => ({
  token,
  refreshToken: null,
  expiresAt: null,
  refreshTokenExpiresAt: null,
  login: "octocat",
  signedInAt: new Date(Date.UTC(2026, 0, 1)).toISOString(),
  clientId: "Iv23liTest",
});

/** A store that counts its reads, whose listing and reads can be held back. */
function watched(store: DurableStore) {
  const counts = { get: 0, keys: 0 };
  let holdKeys: Promise<void> | null = null;
  let holdGet: Promise<void> | null = null;
  let failKeys = false;
  const gate = () => {
    let open!: () => void;
    const closed = new Promise<void>((resolve) => (open = resolve));
    return { closed, open };
  };
  const watchedStore: DurableStore = {
    async get(key) {
      counts.get++;
      // Read now, answered once released: the answer may be older than a write meanwhile.
      const value = await store.get(key);
      if (holdGet) await holdGet;
      return value;
    },
    set: (key, value, ttlMs) => store.set(key, value, ttlMs),
    delete: (key) => store.delete(key),
    async keys() {
      counts.keys++;
      if (holdKeys) await holdKeys;
      if (failKeys) throw new Error("listing refused");
      return store.keys();
    },
  };
  return {
    store: watchedStore,
    counts,
    holdKeys() {
      const { closed, open } = gate();
      holdKeys = closed;
      return open;
    },
    holdGet() {
      const { closed, open } = gate();
      holdGet = closed;
      return () => {
        holdGet = null;
        open();
      };
    },
    failKeys: (fail: boolean) => (failKeys = fail),
  };
}

/** Lets the listing (a promise chain on the store) settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("durable stores list their keys", () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "durable-keys-"));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  for (const kind of ["memory", "SQLite"] as const) {
    it(`${kind}: a namespace's keys only, without their prefix`, async () => {
      const stores = await openStores({
        dataDir,
        memory: kind === "memory",
        logger: silentLogger(),
        sweepIntervalMs: 0,
      });
      try {
        const users = stores.durable("user-tokens");
        const ids = Array.from({ length: 30 }, (_, n) => String(100_000_000_000_000_000n + BigInt(n)));
        for (const id of ids) await users.set(id, { v: 1 });
        await stores.durable("vault").set("999", { v: 1 });
        expect((await users.keys()).sort()).toEqual([...ids].sort());
      } finally {
        await stores.close();
      }
    });
  }
});

describeWithRedis("durable stores list their keys: Redis (the tests' Redis)", () => {
  it("a namespace's keys only, without their prefix", async () => {
    const stores = await openStores({
      dataDir: "unused",
      redisUrl: redisTestUrl(),
      prefix: `test-keys-${randomBytes(6).toString("hex")}`,
      logger: silentLogger(),
    });
    try {
      await stores.durable("user-tokens").set(ALICE, { v: 1 });
      await stores.durable("user-tokens").set(BOB, { v: 1 });
      await stores.durable("vault").set("999", { v: 1 });
      expect((await stores.durable("user-tokens").keys()).sort()).toEqual([ALICE, BOB]);
    } finally {
      await stores.close();
    }
  });
});

describe("the user vault of the only process that writes it", () => {
  let stores: Stores;
  beforeEach(async () => {
    stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
  });
  afterEach(async () => {
    await stores.close();
  });
  const vaultOver = (store: DurableStore, soleWriter = true) =>
    createUserTokenVault({ store, key: KEY, soleWriter, logger: silentLogger() });

  it("reads no store for a person who never signed in, and finds those who did, from before it started too", async () => {
    await vaultOver(stores.durable("user-tokens"), false).set(ALICE, session("ghu_AliceBeforeTheStart"));
    const store = watched(stores.durable("user-tokens"));
    const vault = vaultOver(store.store);
    await settle();
    expect(store.counts.keys).toBe(1);
    const reads = store.counts.get;
    expect(await vault.get(BOB)).toBeNull();
    expect(await vault.get(BOB)).toBeNull();
    expect(store.counts.get).toBe(reads);
    expect((await vault.get(ALICE))?.token).toBe("ghu_AliceBeforeTheStart");

    await vault.set(BOB, session("ghu_BobSignsIn"));
    expect((await vault.get(BOB))?.token).toBe("ghu_BobSignsIn");
    expect(await vault.delete(BOB)).toBe(true);
    const afterDelete = store.counts.get;
    expect(await vault.get(BOB)).toBeNull();
    expect(store.counts.get).toBe(afterDelete);
  });

  it("reads the store as before while the list is not read, and when it cannot be", async () => {
    const store = watched(stores.durable("user-tokens"));
    const release = store.holdKeys();
    const vault = vaultOver(store.store);
    expect(await vault.get(BOB)).toBeNull();
    expect(store.counts.get).toBe(1);
    store.failKeys(true);
    release();
    await settle();
    expect(await vault.get(BOB)).toBeNull();
    expect(store.counts.get).toBe(2);
    await vault.set(ALICE, session("ghu_AliceWhileUnlisted"));
    expect((await vault.get(ALICE))?.token).toBe("ghu_AliceWhileUnlisted");
  });

  it("does not forget a sign-in written while a read that found nothing was on its way", async () => {
    const store = watched(stores.durable("user-tokens"));
    await stores.durable("user-tokens").set(ALICE, { left: "over" });
    const vault = vaultOver(store.store);
    await settle();
    // Listed, but gone since (as a delete under way leaves it): her next read asks the store.
    await stores.durable("user-tokens").delete(ALICE);
    // That read finds nothing, but its answer is held back until after her sign-in landed.
    const releaseGet = store.holdGet();
    const read = vault.get(ALICE);
    await settle();
    await vault.set(ALICE, session("ghu_AliceMeanwhile"));
    releaseGet();
    expect(await read).toBeNull();
    expect((await vault.get(ALICE))?.token).toBe("ghu_AliceMeanwhile");
  });

  it("does not forget a sign-in written while a delete was on its way", async () => {
    const store = watched(stores.durable("user-tokens"));
    const vault = vaultOver(store.store);
    await settle();
    await vault.set(ALICE, session("ghu_AliceFirst"));
    const deleted = vault.delete(ALICE);
    const signedInAgain = vault.set(ALICE, session("ghu_AliceAgain"));
    await Promise.all([deleted, signedInAgain]);
    expect((await vault.get(ALICE))?.token).toBe("ghu_AliceAgain");
  });

  it("keeps no list when other processes may write the vault (Redis): every read asks the store", async () => {
    const store = watched(stores.durable("user-tokens"));
    const vault = vaultOver(store.store, false);
    await settle();
    expect(store.counts.keys).toBe(0);
    await vaultOver(stores.durable("user-tokens"), false).set(ALICE, session("ghu_AliceElsewhere"));
    expect((await vault.get(ALICE))?.token).toBe("ghu_AliceElsewhere");
  });
});
