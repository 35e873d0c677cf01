import { randomBytes } from "node:crypto";
import { withTimeout } from "../timeouts.js";

/**
 * Claims that every process sharing the stores agrees on (SPEC section 6): the first to claim a key
 * within its lifetime wins, the others see it taken. With Redis they are `SET key value NX PX ttl`,
 * so two processes behind one load balancer share them; without, they live in this process (one
 * process is the only one there is). Keys carry no secret: callers build them from token
 * fingerprints and cache keys, never from tokens.
 */
export interface Coordination {
  /** Shared with other processes (Redis), or this process's alone. */
  readonly shared: boolean;
  /**
   * True when this call took `key` for `ttlMs`; false when it is held (by any process).
   * @throws when the shared store cannot be asked: the caller decides what that means for it.
   */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Gives up a claim this process holds (another's is left alone). Never throws. */
  release(key: string): Promise<void>;
}

/** Claims in this process's memory, forgotten once expired. */
export function memoryCoordination(now: () => number = Date.now): Coordination {
  const held = new Map<string, number>();
  return {
    shared: false,
    async claim(key, ttlMs) {
      const time = now();
      const until = held.get(key);
      if (until !== undefined && until > time) return false;
      held.set(key, time + ttlMs);
      // Keep the map small: drop what expired whenever it grows.
      if (held.size > 10_000) for (const [k, t] of held) if (t <= time) held.delete(k);
      return true;
    },
    async release(key) {
      held.delete(key);
    },
  };
}

/** What `redisCoordination` needs of a node-redis client. */
export interface RedisCommands {
  set(
    key: string,
    value: string,
    options: { condition: "NX"; expiration: { type: "PX"; value: number } },
  ): Promise<string | null>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/**
 * Deletes the key only when it still holds this process's value: a claim that expired and was
 * taken again by another process stays theirs.
 */
const RELEASE_IF_OURS = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`;

/**
 * Claims in Redis, under `<prefix>:claims:<key>`, holding a value of this process's own so a
 * release never frees another's claim. Each call is bounded by `timeoutMs`.
 */
export function redisCoordination(client: RedisCommands, prefix: string, timeoutMs = 400): Coordination {
  const owner = randomBytes(8).toString("hex");
  const full = (key: string): string => `${prefix}:claims:${key}`;
  return {
    shared: true,
    async claim(key, ttlMs) {
      const reply = await withTimeout(
        client.set(full(key), owner, {
          condition: "NX",
          expiration: { type: "PX", value: Math.max(1, Math.ceil(ttlMs)) },
        }),
        timeoutMs,
        "Redis claim",
      );
      return reply === "OK";
    },
    async release(key) {
      try {
        await withTimeout(
          client.eval(RELEASE_IF_OURS, { keys: [full(key)], arguments: [owner] }),
          timeoutMs,
          "Redis release",
        );
      } catch {
        // The claim expires on its own.
      }
    },
  };
}
