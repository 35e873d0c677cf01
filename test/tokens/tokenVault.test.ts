import { randomBytes } from "node:crypto";
import { sentenceOf } from "../sentenceOf.js";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@keyv/redis";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStores, type Stores } from "../../src/cache/openStores.js";
import { silentLogger } from "../../src/logger.js";
import {
  TokenStoreUnavailableError,
  VaultKeyMissingError,
  VaultLockedError,
  createTokenVault,
} from "../../src/tokens/tokenVault.js";
import {
  REFUSING_REDIS_URL,
  capturingLogger,
  describeWithRedis,
  redisTestUrl,
  removeRedisKeys,
} from "../cache/helpers.js";

const TOKEN = "ghp_VaultTestToken0123456789abcdefghijKLMN";
const GUILD = "111111111111111111";
const OTHER_GUILD = "222222222222222222";
const ADMIN = "333333333333333333";
const KEY_A = randomBytes(32);
const KEY_B = randomBytes(32);
const SET_AT = new Date("2025-03-01T12:00:00.000Z");

type RawRecord = Record<string, string | number>;

function flipByte(base64: string, index = 0): string {
  const bytes = Buffer.from(base64, "base64");
  bytes[index % bytes.length]! ^= 0x01;
  return bytes.toString("base64");
}

describe("token vault", () => {
  let stores: Stores;
  beforeEach(async () => {
    stores = await openStores({ dataDir: "unused", memory: true, logger: silentLogger() });
  });
  afterEach(async () => {
    await stores.close();
  });
  const vaultWith = (key: Buffer | undefined, previousKey?: Buffer, logger = silentLogger()) =>
    createTokenVault({ store: stores.durable("vault"), key, previousKey, logger, now: () => SET_AT });
  const rawRecord = async (guildId = GUILD): Promise<RawRecord> =>
    (await stores.durable("vault").get(guildId)) as RawRecord;

  it("stores a token and gives it back with who set it, when, and the login", async () => {
    const vault = vaultWith(KEY_A);
    expect(vault.canStore).toBe(true);
    expect(await vault.get(GUILD)).toBeNull();
    await vault.set(GUILD, { token: TOKEN, setBy: ADMIN, login: "octocat" });
    expect(await vault.get(GUILD)).toEqual({
      token: TOKEN,
      setBy: ADMIN,
      setAt: "2025-03-01T12:00:00.000Z",
      login: "octocat",
    });
    expect(await vault.status(GUILD)).toEqual({
      setBy: ADMIN,
      setAt: "2025-03-01T12:00:00.000Z",
      login: "octocat",
    });
    expect(await vault.get(OTHER_GUILD)).toBeNull();
    expect(await vault.clear(GUILD)).toBe(true);
    expect(await vault.get(GUILD)).toBeNull();
    expect(await vault.clear(GUILD)).toBe(false);
  });

  it("keeps only ciphertext in the record, with a fresh IV each time", async () => {
    const vault = vaultWith(KEY_A);
    await vault.set(GUILD, { token: TOKEN, setBy: ADMIN, login: "octocat" });
    const first = await rawRecord();
    await vault.set(GUILD, { token: TOKEN, setBy: ADMIN, login: "octocat" });
    const second = await rawRecord();
    expect(JSON.stringify(first)).not.toContain(TOKEN);
    expect(Buffer.from(String(first.iv), "base64")).toHaveLength(12);
    expect(second.iv).not.toBe(first.iv);
    expect(second.ciphertext).not.toBe(first.ciphertext);
    expect(first).toMatchObject({ guildId: GUILD, setBy: ADMIN, login: "octocat" });
  });

  it.each([
    ["ciphertext", (r: RawRecord) => ({ ...r, ciphertext: flipByte(String(r.ciphertext), 3) })],
    ["tag", (r: RawRecord) => ({ ...r, tag: flipByte(String(r.tag)) })],
    ["iv", (r: RawRecord) => ({ ...r, iv: flipByte(String(r.iv), 5) })],
    ["login", (r: RawRecord) => ({ ...r, login: "mallory" })],
    ["setBy", (r: RawRecord) => ({ ...r, setBy: "444444444444444444" })],
    ["shape", (r: RawRecord) => ({ ...r, v: 99 })],
  ])("treats a record with a changed %s as absent and logs an error", async (_field, tamper) => {
    const log = capturingLogger("debug");
    const vault = vaultWith(KEY_A, undefined, log.logger);
    await vault.set(GUILD, { token: TOKEN, setBy: ADMIN, login: "octocat" });
    await stores.durable("vault").set(GUILD, tamper(await rawRecord()));
    expect(await vault.get(GUILD)).toBeNull();
    expect(await vault.status(GUILD)).toBeNull();
    expect(log.lines().some((line) => line.level === 50 && line.guildId === GUILD)).toBe(true);
    expect(log.text()).not.toContain(TOKEN);
  });

  it("binds a record to its server: a copy in another server does not open", async () => {
    const vault = vaultWith(KEY_A);
    await vault.set(GUILD, { token: TOKEN, setBy: ADMIN, login: "octocat" });
    const record = await rawRecord();
    await stores.durable("vault").set(OTHER_GUILD, record);
    expect(await vault.get(OTHER_GUILD)).toBeNull();
    // Rewriting the guild id inside the copy does not help: it is part of the associated data.
    await stores.durable("vault").set(OTHER_GUILD, { ...record, guildId: OTHER_GUILD });
    expect(await vault.get(OTHER_GUILD)).toBeNull();
    expect((await vault.get(GUILD))?.token).toBe(TOKEN);
  });

  it("opens records of the previous key and re-encrypts them with the current one", async () => {
    await vaultWith(KEY_A).set(GUILD, { token: TOKEN, setBy: ADMIN, login: "octocat" });
    const before = await rawRecord();

    const rotated = vaultWith(KEY_B, KEY_A);
    expect(await rotated.get(GUILD)).toMatchObject({ token: TOKEN, login: "octocat", setBy: ADMIN });
    const after = await rawRecord();
    expect(after.kid).not.toBe(before.kid);
    expect(after.setAt).toBe(before.setAt);

    expect((await vaultWith(KEY_B).get(GUILD))?.token).toBe(TOKEN);
    await expect(vaultWith(KEY_A).get(GUILD)).rejects.toBeInstanceOf(VaultLockedError);
  });

  it("says the record is locked, rather than absent, when the key is gone", async () => {
    await vaultWith(KEY_A).set(GUILD, { token: TOKEN, setBy: ADMIN, login: "octocat" });
    const error = await vaultWith(undefined)
      .get(GUILD)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VaultLockedError);
    expect(sentenceOf(error)).toMatch(/TOKEN_ENCRYPTION_KEY/);
    expect(await vaultWith(undefined).clear(GUILD)).toBe(true);
  });

  it("refuses to store without a key, in a sentence the admin can act on", async () => {
    const vault = vaultWith(undefined);
    expect(vault.canStore).toBe(false);
    const error = await vault
      .set(GUILD, { token: TOKEN, setBy: ADMIN, login: "octocat" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultKeyMissingError);
    expect(sentenceOf(error)).toBe(
      "This bot has no TOKEN_ENCRYPTION_KEY, so it cannot store server tokens. Ask its operator to set one.",
    );
    expect(await stores.durable("vault").get(GUILD)).toBeUndefined();
  });

  it("never logs the token, on success or failure", async () => {
    const log = capturingLogger("debug");
    const vault = vaultWith(KEY_A, undefined, log.logger);
    await vault.set(GUILD, { token: TOKEN, setBy: ADMIN, login: "octocat" });
    await vault.get(GUILD);
    await vault.status(GUILD);
    await createTokenVault({
      store: stores.durable("vault"),
      key: KEY_B,
      previousKey: KEY_A,
      logger: log.logger,
    }).get(GUILD);
    await stores
      .durable("vault")
      .set(GUILD, { ...(await rawRecord()), tag: flipByte(String((await rawRecord()).tag)) });
    await vault.get(GUILD).catch(() => undefined);
    await vault.clear(GUILD);
    await stores.close();
    await vault.get(GUILD).catch(() => undefined);
    await vault.set(GUILD, { token: TOKEN, setBy: ADMIN, login: "octocat" }).catch(() => undefined);
    expect(log.lines().length).toBeGreaterThanOrEqual(5);
    expect(log.text()).not.toContain(TOKEN);
    expect(log.text()).not.toContain(Buffer.from(TOKEN).toString("base64"));
  });
});

describe("token vault in SQLite", () => {
  it("writes no plaintext token, nor its base64 or hex, to the data dir", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "reposcout-vault-"));
    try {
      const stores = await openStores({ dataDir, logger: silentLogger() });
      const vault = createTokenVault({ store: stores.durable("vault"), key: KEY_A, logger: silentLogger() });
      await vault.set(GUILD, { token: TOKEN, setBy: ADMIN, login: "octocat" });
      expect((await vault.get(GUILD))?.token).toBe(TOKEN);
      await stores.close();

      const reopened = await openStores({ dataDir, logger: silentLogger() });
      const again = createTokenVault({
        store: reopened.durable("vault"),
        key: KEY_A,
        logger: silentLogger(),
      });
      expect((await again.get(GUILD))?.token).toBe(TOKEN);
      await reopened.close();

      const tokenBytes = Buffer.from(TOKEN, "utf8");
      // Base64 of the token at each of the three alignments it could start at inside a longer text.
      const base64Forms = [0, 1, 2].map((shift) =>
        Buffer.concat([Buffer.alloc(shift), tokenBytes])
          .toString("base64")
          .slice(4)
          .slice(0, 40),
      );
      const files = await readdir(dataDir);
      expect(files).toContain("vault.sqlite");
      for (const file of files) {
        const bytes = await readFile(join(dataDir, file));
        expect(bytes.includes(tokenBytes)).toBe(false);
        expect(bytes.includes(Buffer.from(tokenBytes.toString("hex")))).toBe(false);
        for (const form of base64Forms) expect(bytes.includes(Buffer.from(form))).toBe(false);
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("token vault over a store that fails", () => {
  it("throws the user-facing error instead of reading 'no token'", async () => {
    const stores = await openStores({
      dataDir: "unused",
      redisUrl: REFUSING_REDIS_URL,
      logger: silentLogger(),
      redisConnectWaitMs: 50,
    });
    try {
      const vault = createTokenVault({ store: stores.durable("vault"), key: KEY_A, logger: silentLogger() });
      const error = await vault.get(GUILD).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TokenStoreUnavailableError);
      expect(sentenceOf(error)).toBe(
        "RepoScout cannot read this server's token store right now. Try again in a moment.",
      );
      await expect(vault.status(GUILD)).rejects.toBeInstanceOf(TokenStoreUnavailableError);
      await expect(vault.set(GUILD, { token: TOKEN, setBy: ADMIN, login: "octocat" })).rejects.toBeInstanceOf(
        TokenStoreUnavailableError,
      );
      await expect(vault.clear(GUILD)).rejects.toBeInstanceOf(TokenStoreUnavailableError);
    } finally {
      await stores.close();
    }
  });
});

describeWithRedis("token vault in Redis (the tests' Redis)", () => {
  const prefix = `reposcout-test-${randomBytes(6).toString("hex")}`;
  afterAll(async () => {
    await removeRedisKeys(prefix);
  });

  it("round-trips a token and keeps only ciphertext in Redis", async () => {
    const stores = await openStores({
      dataDir: "unused",
      redisUrl: redisTestUrl(),
      logger: silentLogger(),
      prefix,
    });
    try {
      const vault = createTokenVault({ store: stores.durable("vault"), key: KEY_A, logger: silentLogger() });
      await vault.set(GUILD, { token: TOKEN, setBy: ADMIN, login: "octocat" });
      expect(await vault.get(GUILD)).toMatchObject({ token: TOKEN, login: "octocat" });

      const client = createClient({ url: redisTestUrl() });
      await client.connect();
      try {
        const raw = await client.get(`${prefix}:vault::${GUILD}`);
        expect(raw).toContain(GUILD);
        expect(raw).not.toContain(TOKEN);
      } finally {
        await client.close();
      }
      expect(await vault.clear(GUILD)).toBe(true);
      expect(await vault.get(GUILD)).toBeNull();
    } finally {
      await stores.close();
    }
  });
});
