import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openStores } from "../../src/cache/openStores.js";
import { warnAboutRedisPersistence, type ConfigReader } from "../../src/cache/redisPersistence.js";
import { capturingLogger, describeWithRedis, redisTestUrl, removeRedisKeys } from "./helpers.js";

function redisSaying(save: string, appendonly: string): ConfigReader {
  return {
    configGet: async (parameter): Promise<Record<string, string>> =>
      parameter === "save" ? { save } : { appendonly },
  };
}

describe("Redis that forgets", () => {
  it("warns when Redis persists nothing, more mildly with snapshots only, and not at all with the append-only file", async () => {
    const none = capturingLogger("warn");
    await warnAboutRedisPersistence(redisSaying("", "no"), none.logger);
    expect(none.text()).toContain("a restart of Redis empties the token vaults");
    const snapshots = capturingLogger("warn");
    await warnAboutRedisPersistence(redisSaying("3600 1 300 100", "no"), snapshots.logger);
    expect(snapshots.text()).toContain("only periodic snapshots");
    const appendOnly = capturingLogger("warn");
    await warnAboutRedisPersistence(redisSaying("", "yes"), appendOnly.logger);
    expect(appendOnly.lines()).toEqual([]);
  });

  it("says nothing when CONFIG is refused (a managed Redis)", async () => {
    const refused = capturingLogger("warn");
    const result = await warnAboutRedisPersistence(
      { configGet: async () => Promise.reject(new Error("ERR unknown command 'CONFIG'")) },
      refused.logger,
    );
    expect(result).toBeNull();
    expect(refused.lines()).toEqual([]);
  });
});

describeWithRedis("Redis that forgets (the tests' Redis, which persists nothing)", () => {
  it("is warned about at start, when the stores open", async () => {
    const prefix = `reposcout-test-${randomBytes(6).toString("hex")}`;
    const log = capturingLogger("warn");
    const stores = await openStores({
      dataDir: "unused",
      redisUrl: redisTestUrl(),
      logger: log.logger,
      prefix,
    });
    try {
      expect(log.text()).toContain("Redis keeps nothing across a restart");
    } finally {
      await stores.close();
      await removeRedisKeys(prefix);
    }
  });
});
