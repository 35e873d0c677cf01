import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BUTTON_STATE_TTL_MS, createButtonStateStore } from "../../src/bot/buttonState.js";
import type { DurableStore } from "../../src/cache/guardedStore.js";
import { silentLogger } from "../../src/logger.js";
import { tokenFingerprint } from "../../src/tokens/fingerprint.js";
import { REMEMBER_MS as SETTINGS_REMEMBER_MS, createGuildSettings } from "../../src/tokens/guildSettings.js";
import { createTokenResolver } from "../../src/tokens/tokenResolver.js";
import type { TokenVersions } from "../../src/tokens/tokenVersions.js";
import { createUserTokens } from "../../src/tokens/userTokens.js";
import {
  createUserTokenVault,
  type UserSession,
  type UserTokenVault,
} from "../../src/tokens/userTokenVault.js";

// Issue 23: what a cached answer needs of tokens, settings and buttons, told at once when this
// process holds it (so the core can answer without waiting), and exactly what the awaited reads
// give; undefined whenever they would ask a store.

const FINGERPRINT_KEY = randomBytes(32);
const fingerprint = (token: string): string => tokenFingerprint(FINGERPRINT_KEY, token);
const GUILD = "111111111111111111";
const USER = "222222222222222222";
const SERVER_TOKEN = "ghp_ServerToken0123456789abcdefghijklmnop";
const DEFAULT_TOKEN = "ghp_DefaultToken0123456789abcdefghijklmno";
const START = Date.UTC(2026, 0, 1, 6);

function session(expiresInMs: number): UserSession {
  return {
    token: "ghu_UserTokenOne000000000000000000000001",
    refreshToken: "ghr_RefreshOne0000000000000000000000000000000000000000000000000000000000001",
    expiresAt: new Date(START + expiresInMs).toISOString(),
    refreshTokenExpiresAt: new Date(START + 180 * 86_400_000).toISOString(),
    login: "octocat",
    signedInAt: new Date(START).toISOString(),
    clientId: "Iv23liTest",
  };
}

/** A user vault in memory that counts its reads. */
function userVault(): UserTokenVault & { reads: number; sessions: Map<string, UserSession> } {
  const sessions = new Map<string, UserSession>();
  const vault = {
    canStore: true,
    reads: 0,
    sessions,
    get: async (userId: string) => {
      vault.reads += 1;
      return sessions.get(userId) ?? null;
    },
    set: async (userId: string, value: UserSession) => {
      sessions.set(userId, value);
    },
    delete: async (userId: string) => sessions.delete(userId),
  };
  return vault as unknown as UserTokenVault & { reads: number; sessions: Map<string, UserSession> };
}

function setUp(options: { versions?: TokenVersions; serverToken?: string | null } = {}) {
  let clock = START;
  const now = () => clock;
  const users = userVault();
  const userTokens = createUserTokens({
    vault: users,
    fingerprint,
    logger: silentLogger(),
    now,
    ...(options.versions ? { versions: options.versions } : {}),
  });
  let serverReads = 0;
  const resolver = createTokenResolver({
    vault: {
      get: async () => {
        serverReads += 1;
        const token = options.serverToken === undefined ? SERVER_TOKEN : options.serverToken;
        return token ? { token, setBy: "1", setAt: "2026-01-01T00:00:00Z", login: "x" } : null;
      },
    },
    userTokens,
    defaultToken: DEFAULT_TOKEN,
    fingerprintKey: FINGERPRINT_KEY,
    now,
    ...(options.versions ? { versions: options.versions } : {}),
  });
  return {
    resolver,
    userTokens,
    users,
    serverReads: () => serverReads,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

const asker = { guildId: GUILD, userId: USER };

describe("the token in effect, told at once when held (issue 23)", () => {
  it("is what resolve gives once both reads are remembered, and nothing before", async () => {
    const { resolver, serverReads } = setUp();
    expect(resolver.resolveHeld!(asker)).toBeUndefined();
    const resolved = await resolver.resolve(asker);
    expect(resolved).toMatchObject({ token: SERVER_TOKEN, origin: "server" });
    expect(resolver.resolveHeld!(asker)).toEqual(resolved);
    expect(resolved.fingerprint).toBe(fingerprint(SERVER_TOKEN));
    expect(serverReads()).toBe(1);
    // A DM: the asker's sign-in (held: not signed in), then the default token.
    expect(resolver.resolveHeld!({ guildId: null, userId: USER })).toEqual(
      await resolver.resolve({ guildId: null, userId: USER }),
    );
  });

  it("asks again (undefined) once the remembered reads are too old, as resolve does", async () => {
    const { resolver, serverReads, advance } = setUp();
    await resolver.resolve(asker);
    advance(30_000);
    expect(resolver.resolveHeld!(asker)).toBeUndefined();
    await resolver.resolve(asker);
    expect(serverReads()).toBe(2);
    expect(resolver.resolveHeld!(asker)).toMatchObject({ origin: "server" });
  });

  it("gives the asker's own sign-in first, and not once it is due for renewal", async () => {
    const { resolver, users } = setUp();
    users.sessions.set(USER, session(3_600_000));
    const resolved = await resolver.resolve(asker);
    expect(resolved).toMatchObject({ origin: "user", token: session(0).token });
    expect(resolver.resolveHeld!(asker)).toEqual(resolved);
    // With the own sign-in passed over (automatic previews): the server's token, not read yet.
    expect(resolver.resolveHeld!({ ...asker, ownSignIn: false })).toBeUndefined();
    // A sign-in that expires in 89 s: due for renewal (a minute ahead) 29 s from now, while its
    // read is still remembered; `resolve` would renew it then, so nothing is told at once.
    const due = setUp();
    due.users.sessions.set(USER, session(89_000));
    await due.resolver.resolve(asker);
    due.advance(28_999);
    expect(due.resolver.resolveHeld!(asker)).toMatchObject({ origin: "user" });
    due.advance(1);
    expect(due.resolver.resolveHeld!(asker)).toBeUndefined();
  });

  it("tells nothing at once where tokens are versioned across processes: the version must be read", async () => {
    const versions: TokenVersions = { current: async () => "", bump: async () => "v" };
    const { resolver, userTokens } = setUp({ versions });
    const resolved = await resolver.resolve(asker);
    expect(resolved.origin).toBe("server");
    expect(resolver.resolveHeld!(asker)).toBeUndefined();
    expect(userTokens.heldTokenFor!(USER)).toBeUndefined();
  });

  it("tells nothing when there is no token at all (resolve says what is missing)", async () => {
    const resolver = createTokenResolver({
      vault: { get: async () => null },
      fingerprintKey: FINGERPRINT_KEY,
    });
    await expect(resolver.resolve(asker)).rejects.toThrow();
    expect(resolver.resolveHeld!(asker)).toBeUndefined();
  });
});

describe("a person not signed in, told at once by a vault this process alone writes (issue 23)", () => {
  it("gives no sign-in for someone the vault surely holds none of, and asks for someone it may", async () => {
    const records = new Map<string, unknown>();
    const store = {
      get: async (key: string) => records.get(key),
      set: async (key: string, value: unknown) => void records.set(key, value),
      delete: async (key: string) => records.delete(key),
      keys: async () => [...records.keys()],
    } as unknown as DurableStore;
    const vault = createUserTokenVault({
      store,
      key: randomBytes(32),
      soleWriter: true,
      logger: silentLogger(),
    });
    await vault.set("333333333333333333", session(3_600_000));
    // The listing of who holds a record is read in the background at creation.
    await expect.poll(() => vault.surelyWithout!(USER)).toBe(true);
    expect(vault.surelyWithout!("333333333333333333")).toBe(false);
    const userTokens = createUserTokens({ vault, fingerprint, logger: silentLogger() });
    expect(userTokens.heldTokenFor!(USER)).toBeNull();
    expect(await userTokens.tokenFor(USER)).toBeNull();
    // A holder: `tokenFor` reads the vault (and renews what is due), so nothing is told at once.
    expect(userTokens.heldTokenFor!("333333333333333333")).toBeUndefined();
    // A vault shared with other processes knows nobody's absence.
    const shared = createUserTokenVault({ store, key: randomBytes(32), logger: silentLogger() });
    expect(shared.surelyWithout!(USER)).toBe(false);
  });
});

describe("settings and button states, told at once when held (issue 23)", () => {
  it("gives the server's thread setting while its read is remembered", async () => {
    let clock = START;
    const records = new Map<string, unknown>([[GUILD, { threads: true }]]);
    const store = {
      get: async (key: string) => records.get(key),
      set: async (key: string, value: unknown) => void records.set(key, value),
      delete: async () => undefined,
    } as unknown as DurableStore;
    const settings = createGuildSettings(store, silentLogger(), () => clock);
    expect(settings.heldThreads(GUILD)).toBeUndefined();
    expect(await settings.getThreads(GUILD)).toBe(true);
    expect(settings.heldThreads(GUILD)).toBe(true);
    await settings.setThreads(GUILD, false);
    expect(settings.heldThreads(GUILD)).toBe(false);
    clock += SETTINGS_REMEMBER_MS;
    expect(settings.heldThreads(GUILD)).toBeUndefined();
  });

  it("gives a button state's key once this process stored that very state, and not before", async () => {
    const writes: string[] = [];
    const buttons = createButtonStateStore({
      get: async () => undefined,
      set: async (key: string) => void writes.push(key),
    });
    const state = { repo: { owner: "demo", name: "widgets" }, path: "src/a.ts", start: 21, end: 40 };
    expect(buttons.heldKey!(state)).toBeUndefined();
    const key = await buttons.put(state);
    expect(buttons.heldKey!({ ...state })).toBe(key);
    expect(buttons.heldKey!({ ...state, start: 22 })).toBeUndefined();
    expect(writes).toEqual([key]);
  });

  it("gives no key for a state the store refused (put writes it again)", async () => {
    const buttons = createButtonStateStore({
      get: async () => undefined,
      set: async () => {
        throw new Error("store down");
      },
    });
    const state = { path: "src/a.ts" };
    await buttons.put(state);
    expect(buttons.heldKey!(state)).toBeUndefined();
  });
});

describe("a pressed button's state held in process (issue 23)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A TTL store over a map, counting its reads. */
  function mapStore() {
    const records = new Map<string, unknown>();
    const store = {
      reads: 0,
      get: async (key: string) => {
        store.reads += 1;
        return records.get(key);
      },
      set: async (key: string, value: unknown) => void records.set(key, JSON.parse(JSON.stringify(value))),
      records,
    };
    return store;
  }

  it("gives a state this process stored, as the store gives it back, and nothing for another key", async () => {
    const store = mapStore();
    const buttons = createButtonStateStore(store);
    const state = {
      repo: { owner: "demo", name: "widgets" },
      path: "src/a.ts",
      start: 21,
      end: 40,
      ref: undefined,
    };
    const key = await buttons.put(state);
    expect(buttons.heldState!(key)).toEqual(await buttons.get(key));
    // The store's copy: no `ref: undefined`, and the caller's later change is not in it.
    state.start = 99;
    expect(buttons.heldState!(key)).toStrictEqual({
      repo: { owner: "demo", name: "widgets" },
      path: "src/a.ts",
      start: 21,
      end: 40,
    });
    expect(buttons.heldState!("AAAAAAAAAAAA")).toBeUndefined();
  });

  it("gives no state only read from the store (its expiry is not known), nor one stored before the rewrite window", async () => {
    vi.useFakeTimers({ now: START });
    const store = mapStore();
    store.records.set("fromelsewhere", { path: "src/b.ts" });
    const buttons = createButtonStateStore(store);
    expect(await buttons.get("fromelsewhere")).toEqual({ path: "src/b.ts" });
    expect(buttons.heldState!("fromelsewhere")).toBeUndefined();

    const key = await buttons.put({ path: "src/a.ts" });
    vi.setSystemTime(START + 10 * 60_000 - 1);
    expect(buttons.heldState!(key)).toEqual({ path: "src/a.ts" });
    vi.setSystemTime(START + 10 * 60_000);
    expect(buttons.heldState!(key)).toBeUndefined();
    expect(await buttons.get(key)).toEqual({ path: "src/a.ts" });
  });

  it("gives a state the store refused from the memory that keeps it, until it expires", async () => {
    vi.useFakeTimers({ now: START });
    const buttons = createButtonStateStore(
      {
        get: async () => undefined,
        set: async () => {
          throw new Error("store down");
        },
      },
      BUTTON_STATE_TTL_MS,
    );
    const key = await buttons.put({ path: "src/a.ts" });
    expect(buttons.heldState!(key)).toEqual({ path: "src/a.ts" });
    vi.setSystemTime(START + BUTTON_STATE_TTL_MS);
    expect(buttons.heldState!(key)).toBeUndefined();
    expect(await buttons.get(key)).toBeUndefined();
  });
});
