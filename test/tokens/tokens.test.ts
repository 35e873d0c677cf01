import { randomBytes } from "node:crypto";
import { sentenceOf } from "../sentenceOf.js";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStores } from "../../src/cache/openStores.js";
import { silentLogger } from "../../src/logger.js";
import {
  fingerprintKeyFrom,
  loadFingerprintKey,
  memoizedFingerprint,
  tokenFingerprint,
} from "../../src/tokens/fingerprint.js";
import {
  REMEMBER_MS,
  SettingsStoreUnavailableError,
  createGuildSettings,
} from "../../src/tokens/guildSettings.js";
import { loadOrCreateSandboxKey } from "../../src/tokens/keyFile.js";
import { MissingTokenError, createTokenResolver } from "../../src/tokens/tokenResolver.js";
import { TokenStoreUnavailableError, createTokenVault } from "../../src/tokens/tokenVault.js";
import { REFUSING_REDIS_URL } from "../cache/helpers.js";

const SERVER_TOKEN = "ghp_ServerToken0123456789abcdefghijklmnop";
const DEFAULT_TOKEN = "ghp_DefaultToken0123456789abcdefghijklmno";
const GUILD = "111111111111111111";
/** Who asks: a member (who has not signed in) of the server, or of no server (a DM). */
const asker = (guildId: string | null) => ({ guildId, userId: "222222222222222222" });

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "reposcout-tokens-"));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe("token fingerprints", () => {
  const key = randomBytes(32);

  it("are 32 hex characters, stable for a key and a token, different across tokens and keys", () => {
    const fingerprint = tokenFingerprint(key, SERVER_TOKEN);
    expect(fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect(tokenFingerprint(key, SERVER_TOKEN)).toBe(fingerprint);
    expect(tokenFingerprint(key, DEFAULT_TOKEN)).not.toBe(fingerprint);
    expect(tokenFingerprint(randomBytes(32), SERVER_TOKEN)).not.toBe(fingerprint);
    expect(fingerprint).not.toContain(SERVER_TOKEN.slice(4, 12));
  });

  it("memoized, are the very fingerprints of their key, and refuse an empty token as it does", () => {
    const memo = memoizedFingerprint(key);
    for (const token of [SERVER_TOKEN, DEFAULT_TOKEN, SERVER_TOKEN]) {
      expect(memo(token)).toBe(tokenFingerprint(key, token));
    }
    expect(memoizedFingerprint(randomBytes(32))(SERVER_TOKEN)).not.toBe(memo(SERVER_TOKEN));
    expect(() => memo("")).toThrow(/empty/);
  });

  it("take their key from the encryption key, or from a fallback secret, never from nothing", () => {
    const encryptionKey = randomBytes(32);
    const derived = fingerprintKeyFrom({ encryptionKey });
    expect(derived).toHaveLength(32);
    expect(derived.equals(encryptionKey)).toBe(false);
    expect(fingerprintKeyFrom({ encryptionKey }).equals(derived)).toBe(true);
    const fallbackKey = randomBytes(32);
    expect(fingerprintKeyFrom({ encryptionKey: undefined, fallbackKey }).equals(derived)).toBe(false);
    expect(() => fingerprintKeyFrom({ encryptionKey: undefined })).toThrow(/secret/);
  });

  it("keep a fallback secret in the data dir, the same across restarts", async () => {
    const dir = join(dataDir, "fingerprint");
    const first = await loadFingerprintKey({ encryptionKey: undefined, dataDir: dir });
    const second = await loadFingerprintKey({ encryptionKey: undefined, dataDir: dir });
    expect(second.equals(first)).toBe(true);
    expect((await stat(join(dir, "fingerprint.key"))).mode & 0o777).toBe(0o600);
    const encryptionKey = randomBytes(32);
    expect(
      (await loadFingerprintKey({ encryptionKey, dataDir: dir })).equals(
        fingerprintKeyFrom({ encryptionKey }),
      ),
    ).toBe(true);
  });
});

describe("the sandbox key", () => {
  it("is created once (32 bytes, base64, mode 0600, folder made) and read back after", async () => {
    const dir = join(dataDir, "sandbox", "data");
    const created = await loadOrCreateSandboxKey(dir);
    expect(created).toHaveLength(32);
    const text = await readFile(join(dir, "token-encryption.key"), "utf8");
    expect(Buffer.from(text.trim(), "base64").equals(created)).toBe(true);
    expect((await stat(join(dir, "token-encryption.key"))).mode & 0o777).toBe(0o600);
    expect((await loadOrCreateSandboxKey(dir)).equals(created)).toBe(true);
  });

  it("gives the same key to two processes starting at once", async () => {
    const dir = join(dataDir, "race");
    const [a, b] = await Promise.all([loadOrCreateSandboxKey(dir), loadOrCreateSandboxKey(dir)]);
    expect(a.equals(b)).toBe(true);
  });

  it("refuses a file that does not hold a 32-byte key", async () => {
    const dir = join(dataDir, "bad");
    await loadOrCreateSandboxKey(dir);
    await writeFile(join(dir, "token-encryption.key"), "c2hvcnQ=\n");
    await expect(loadOrCreateSandboxKey(dir)).rejects.toThrow(/32-byte/);
  });
});

describe("token resolution", () => {
  const fingerprintKey = randomBytes(32);

  it("prefers the server's token, then the default one, and fingerprints each", async () => {
    const stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    try {
      const vault = createTokenVault({
        store: stores.durable("vault"),
        key: randomBytes(32),
        logger: silentLogger(),
      });
      await vault.set(GUILD, { token: SERVER_TOKEN, setBy: "1", login: "server-bot" });
      const resolver = createTokenResolver({ vault, defaultToken: DEFAULT_TOKEN, fingerprintKey });
      expect(await resolver.resolve(asker(GUILD))).toEqual({
        token: SERVER_TOKEN,
        origin: "server",
        fingerprint: tokenFingerprint(fingerprintKey, SERVER_TOKEN),
      });
      expect(await resolver.resolve(asker("999999999999999999"))).toEqual({
        token: DEFAULT_TOKEN,
        origin: "default",
        fingerprint: tokenFingerprint(fingerprintKey, DEFAULT_TOKEN),
      });
      expect((await resolver.resolve(asker(null))).origin).toBe("default");
    } finally {
      await stores.close();
    }
  });

  it("passes over the asker's own sign-in when told to (automatic previews), never asking for it", async () => {
    const asked: string[] = [];
    const resolver = createTokenResolver({
      vault: { get: async () => null },
      userTokens: {
        tokenFor: async (userId: string) => {
          asked.push(userId);
          return "gho_theirOwnSignIn000000000000000000000";
        },
      },
      defaultToken: DEFAULT_TOKEN,
      fingerprintKey,
    });
    expect((await resolver.resolve(asker(GUILD))).origin).toBe("user");
    expect(asked).toHaveLength(1);
    expect(await resolver.resolve({ ...asker(GUILD), ownSignIn: false })).toMatchObject({
      token: DEFAULT_TOKEN,
      origin: "default",
    });
    expect(asked).toHaveLength(1);
  });

  it("says what to do when there is no token at all", async () => {
    const resolver = createTokenResolver({ vault: { get: async () => null }, fingerprintKey });
    const error = await resolver.resolve(asker(GUILD)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MissingTokenError);
    expect(sentenceOf(error)).toBe(
      "This server has no GitHub token and the bot has no default one. An admin can run `/token set`, or sign in with `/login` to use your own GitHub account.",
    );
    await expect(resolver.resolve(asker(null))).rejects.toBeInstanceOf(MissingTokenError);
  });

  it("keeps answering through a vault outage: the server token read last, else the default one", async () => {
    let down = false;
    const serverToken = "ghp_serverTokenOfThisGuild000000000000";
    const vault = {
      async get(guildId: string) {
        if (down) throw new TokenStoreUnavailableError("read");
        return guildId === GUILD
          ? { token: serverToken, setBy: "1", setAt: "2026-01-01T00:00:00Z", login: "x" }
          : null;
      },
    };
    let clock = 0;
    const resolver = createTokenResolver({
      vault,
      defaultToken: DEFAULT_TOKEN,
      fingerprintKey,
      now: () => clock,
    });
    expect((await resolver.resolve(asker(GUILD))).token).toBe(serverToken);
    down = true;
    clock += 60_000;
    // The server keeps its own token: never silently moved to the default one while it is known.
    expect(await resolver.resolve(asker(GUILD))).toMatchObject({ token: serverToken, origin: "server" });
    // A server never read by this process answers with the default token until the store is back.
    expect(await resolver.resolve(asker("999999999999999999"))).toMatchObject({ origin: "default" });
  });

  it("lets a vault outage stand when there is no default token to fall back on", async () => {
    const stores = await openStores({
      dataDir: "unused",
      redisUrl: REFUSING_REDIS_URL,
      logger: silentLogger(),
      redisConnectWaitMs: 50,
    });
    try {
      const vault = createTokenVault({
        store: stores.durable("vault"),
        key: randomBytes(32),
        logger: silentLogger(),
      });
      const resolver = createTokenResolver({ vault, fingerprintKey });
      await expect(resolver.resolve(asker(GUILD))).rejects.toBeInstanceOf(TokenStoreUnavailableError);
    } finally {
      await stores.close();
    }
  });
});

describe("guild settings", () => {
  it("remember threads per server, off by default", async () => {
    const stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    try {
      const settings = createGuildSettings(stores.durable("settings"), silentLogger());
      expect(await settings.getThreads(GUILD)).toBe(false);
      await settings.setThreads(GUILD, true);
      expect(await settings.getThreads(GUILD)).toBe(true);
      expect(await settings.getThreads("999999999999999999")).toBe(false);
      await settings.setThreads(GUILD, false);
      expect(await settings.getThreads(GUILD)).toBe(false);
    } finally {
      await stores.close();
    }
  });

  it("remember whether private answers may be posted in the channels, to the asker only by default", async () => {
    const stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    try {
      const settings = createGuildSettings(stores.durable("settings"), silentLogger());
      expect(await settings.getPrivateAnswersInChannel(GUILD)).toBe(false);
      expect(await settings.read(GUILD)).toEqual({
        threads: false,
        privateAnswersInChannel: false,
        linkPreviews: false,
        updatedAt: undefined,
      });
      await settings.setThreads(GUILD, true);
      await settings.setPrivateAnswersInChannel(GUILD, true);
      expect(await settings.getPrivateAnswersInChannel(GUILD)).toBe(true);
      // One setting never overwrites another.
      expect(await settings.read(GUILD)).toMatchObject({ threads: true, privateAnswersInChannel: true });
      await settings.setThreads(GUILD, false);
      expect(await settings.read(GUILD)).toMatchObject({ threads: false, privateAnswersInChannel: true });
      expect(Date.parse((await settings.read(GUILD)).updatedAt ?? "")).toBeGreaterThan(Date.now() - 60_000);
      expect(await settings.getPrivateAnswersInChannel("999999999999999999")).toBe(false);
      // Automatic link previews: off until an admin turns them on, and kept beside the others.
      expect(await settings.getLinkPreviews(GUILD)).toBe(false);
      await settings.setLinkPreviews(GUILD, true);
      expect(await settings.getLinkPreviews(GUILD)).toBe(true);
      expect(await settings.read(GUILD)).toMatchObject({
        threads: false,
        privateAnswersInChannel: true,
        linkPreviews: true,
      });
    } finally {
      await stores.close();
    }
  });

  it("keep fields a newer version wrote when they change a setting", async () => {
    const stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    try {
      const store = stores.durable("settings");
      await store.set(GUILD, { threads: true, language: "fr" });
      const settings = createGuildSettings(store, silentLogger());
      await settings.setPrivateAnswersInChannel(GUILD, true);
      expect(await store.get(GUILD)).toMatchObject({
        threads: true,
        language: "fr",
        privateAnswersInChannel: true,
      });
    } finally {
      await stores.close();
    }
  });

  it("read as threads off when the store fails, and say so when saving fails", async () => {
    const stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    let clock = Date.now();
    const settings = createGuildSettings(stores.durable("settings"), silentLogger(), () => clock);
    await settings.setThreads(GUILD, true);
    await stores.close();
    // What was read or written last is trusted for REMEMBER_MS; past it, the failed store reads as off.
    expect(await settings.getThreads(GUILD)).toBe(true);
    clock += REMEMBER_MS;
    expect(await settings.getThreads(GUILD)).toBe(false);
    await expect(settings.setThreads(GUILD, true)).rejects.toBeInstanceOf(SettingsStoreUnavailableError);
  });

  it("keep private answers to the asker when the store fails, and say they cannot read for /settings show", async () => {
    const stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    const settings = createGuildSettings(stores.durable("settings"), silentLogger());
    await settings.setPrivateAnswersInChannel(GUILD, true);
    await stores.close();
    expect(await settings.getPrivateAnswersInChannel(GUILD)).toBe(false);
    const error = await settings.read(GUILD).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SettingsStoreUnavailableError);
    expect(sentenceOf(error)).toMatch(/cannot read this server's settings/);
    const saving = await settings.setPrivateAnswersInChannel(GUILD, false).catch((thrown: unknown) => thrown);
    expect(sentenceOf(saving)).toMatch(/cannot save this server's settings/);
  });
});

describe("guild settings under load", () => {
  it("read the thread setting from the store once per REMEMBER_MS, and see a change made here at once", async () => {
    const stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
    const durable = stores.durable("settings");
    let reads = 0;
    const counted = {
      ...durable,
      get: (key: string) => {
        reads++;
        return durable.get(key);
      },
    };
    let clock = Date.now();
    const settings = createGuildSettings(counted, silentLogger(), () => clock);
    try {
      for (let i = 0; i < 50; i++) expect(await settings.getThreads(GUILD)).toBe(false);
      expect(reads).toBe(1);
      await settings.setThreads(GUILD, true);
      expect(await settings.getThreads(GUILD)).toBe(true);
      clock += REMEMBER_MS;
      expect(await settings.getThreads(GUILD)).toBe(true);
      // The private-answers setting is read fresh every time.
      const before = reads;
      await settings.getPrivateAnswersInChannel(GUILD);
      await settings.getPrivateAnswersInChannel(GUILD);
      expect(reads).toBe(before + 2);
    } finally {
      await stores.close();
    }
  });
});
