import KeyvRedis, { createClient } from "@keyv/redis";
import { Keyv } from "keyv";
import type { Logger } from "../logger.js";
import { redisCoordination, type RedisCommands } from "./coordination.js";
import { warnAboutRedisPersistence, type ConfigReader } from "./redisPersistence.js";
import { createOutageReporter } from "./outageReporter.js";
import { redisCacheBookkeeping, type RedisScripting } from "./redisCacheBookkeeping.js";
import { NATIVE_JSON, waitAtMost, type Backend } from "./storeBackend.js";

/** Backoff of Redis reconnections: fast at first, then every 2 s, and never giving up. */
function redisReconnectDelay(retries: number): number {
  return Math.min(50 * 2 ** retries, 2_000) + Math.floor(Math.random() * 100);
}

/** The store family in one Redis, shared by every process that names it. */
export async function redisBackend(
  url: string,
  prefix: string,
  logger: Logger,
  windowMs: number,
  connectWaitMs: number,
): Promise<Backend> {
  const reporter = createOutageReporter({ logger, store: "redis", windowMs });
  const client = createClient({
    url,
    // Without this, a command sent while Redis is unreachable waits in a queue until it comes back,
    // which can be forever; with it, the command fails at once and reads as a miss.
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: redisReconnectDelay },
  });
  // One adapter per namespace shares this client; each adds its own listeners.
  client.setMaxListeners(0);
  // A client with no 'error' listener would crash the process on the first refused connection.
  client.on("error", (error: unknown) => reporter.failure("connect", error));
  client.on("ready", () => reporter.recovered());
  // connect() resolves only once Redis answers and keeps retrying meanwhile (never rejecting with
  // this strategy); the bot starts without waiting for it past `connectWaitMs`.
  const connecting = client.connect();
  await waitAtMost(connecting, connectWaitMs);
  if (!client.isReady) {
    logger.warn(
      { store: "redis", waitedMs: connectWaitMs },
      "Redis is not reachable yet: the cache reads as empty and server tokens cannot be read until it is",
    );
  } else {
    await warnAboutRedisPersistence(client as unknown as ConfigReader, logger);
  }
  const adapter = (namespace: string, nativeJson: boolean): Keyv<unknown> => {
    const full = `${prefix}:${namespace}`;
    // throwOnConnectError: if the client is ever closed, the adapter would otherwise reconnect on its own.
    const store = new KeyvRedis(client, { namespace: full, throwOnErrors: true, throwOnConnectError: true });
    // The adapter prefixes keys itself; Keyv must not add a second prefix.
    return new Keyv<unknown>(store, {
      namespace: full,
      useKeyPrefix: false,
      ...(nativeJson ? NATIVE_JSON : {}),
    });
  };
  return {
    backend: "redis",
    cacheKeyv: (namespace) => adapter(namespace, true),
    durableKeyv: (namespace) => adapter(namespace, false),
    async durableKeys(namespace) {
      // One adapter per namespace here, so Keyv's iterator lists this namespace (a SCAN).
      const keyv = adapter(namespace, false);
      const keys: string[] = [];
      if (keyv.iterator) for await (const [key] of keyv.iterator(undefined)) keys.push(String(key));
      return keys;
    },
    cacheGuard: { store: "redis", reporter },
    durableGuard: { store: "redis", reporter },
    // KeyvRedis writes `<namespace>::<key>`, the namespace being `<prefix>:<namespace>`.
    storedKey: (namespace, key) => `${prefix}:${namespace}::${key}`,
    books: redisCacheBookkeeping(client as unknown as RedisScripting, prefix),
    coordination: redisCoordination(client as unknown as RedisCommands, prefix),
    async sweep() {
      return 0;
    },
    async close() {
      if (!client.isOpen) return;
      // close() waits for commands in flight; a server that does not answer gets destroy() instead.
      await waitAtMost(
        client.close().catch(() => undefined),
        1_000,
      );
      if (client.isOpen) client.destroy();
    },
  };
}
