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
  /**
   * Adds `amount` to each counter, each kept until `expiresAt`.
   * @throws when the shared store cannot be asked.
   */
  add(keys: readonly string[], amount: number, expiresAt: Date): Promise<void>;
  /** The counters' values, 0 for one never added to. @throws when the shared store cannot be asked. */
  counts(keys: readonly string[]): Promise<number[]>;
  /**
   * Takes one attempt under `key` when fewer than `max` were taken in the last `windowMs` (a sliding
   * window every process counts in). @returns null when taken, else when the next one will be
   * allowed (epoch ms; nothing taken). @throws when the shared store cannot be asked.
   */
  attempt(key: string, max: number, windowMs: number): Promise<number | null>;
}

/**
 * Drops a map's expired entries, but only once it has doubled since the last sweep (at least
 * 10,000 entries): each entry is looked at a bounded number of times, so a claim costs O(1)
 * amortized however many are live (a scan on every claim past 10,000 live ones made the HTTP
 * replay guard, two claims per interaction kept 10 minutes, cost 0.5 ms a claim at 600/s).
 */
function sweeper<V>(map: Map<string, V>, expiry: (value: V) => number): (time: number) => void {
  let sweepAt = 10_000;
  return (time) => {
    if (map.size < sweepAt) return;
    for (const [key, value] of map) if (expiry(value) <= time) map.delete(key);
    sweepAt = Math.max(10_000, map.size * 2);
  };
}

/** Claims in this process's memory, forgotten once expired. */
export function memoryCoordination(now: () => number = Date.now): Coordination {
  const held = new Map<string, number>();
  const counters = new Map<string, { value: number; until: number }>();
  const sweepHeld = sweeper(held, (until) => until);
  const sweepCounters = sweeper(counters, (counter) => counter.until);
  const attempts = new Map<string, number[]>();
  const sweepAttempts = sweeper(attempts, (times) => times.at(-1) ?? 0);
  return {
    shared: false,
    async claim(key, ttlMs) {
      const time = now();
      const until = held.get(key);
      if (until !== undefined && until > time) return false;
      held.set(key, time + ttlMs);
      sweepHeld(time);
      return true;
    },
    async release(key) {
      held.delete(key);
    },
    async add(keys, amount, expiresAt) {
      const time = now();
      sweepCounters(time);
      for (const key of keys) {
        const counter = counters.get(key);
        counters.set(key, { value: (counter?.value ?? 0) + amount, until: expiresAt.getTime() });
      }
    },
    async counts(keys) {
      const time = now();
      return keys.map((key) => {
        const counter = counters.get(key);
        return counter && counter.until > time ? counter.value : 0;
      });
    },
    async attempt(key, max, windowMs) {
      const time = now();
      sweepAttempts(time - windowMs);
      const recent = (attempts.get(key) ?? []).filter((at) => at > time - windowMs);
      if (recent.length >= max) {
        attempts.set(key, recent);
        return (recent[0] ?? time) + windowMs;
      }
      recent.push(time);
      attempts.set(key, recent);
      return null;
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

/** INCRBY and PEXPIREAT on every key, in one round trip. */
const ADD_ALL = `for i, key in ipairs(KEYS) do
  redis.call("INCRBY", key, ARGV[1])
  redis.call("PEXPIREAT", key, ARGV[2])
end
return 0`;

/** The values of every key, in one round trip. */
const GET_ALL = `return redis.call("MGET", unpack(KEYS))`;

/**
 * A sliding window in a sorted set of attempt times, on Redis's own clock (processes' clocks may
 * disagree; the server's is one). Returns -1 when the attempt is taken, else when the oldest
 * attempt leaves the window.
 */
const ATTEMPT = `local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", now - window)
if redis.call("ZCARD", KEYS[1]) >= tonumber(ARGV[1]) then
  local oldest = redis.call("ZRANGE", KEYS[1], 0, 0, "WITHSCORES")
  return tonumber(oldest[2]) + window
end
redis.call("ZADD", KEYS[1], now, now .. ":" .. ARGV[3])
redis.call("PEXPIRE", KEYS[1], window)
return -1`;

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
    async add(keys, amount, expiresAt) {
      if (keys.length === 0) return;
      await withTimeout(
        client.eval(ADD_ALL, {
          keys: keys.map(full),
          arguments: [String(Math.round(amount)), String(expiresAt.getTime())],
        }),
        timeoutMs,
        "Redis counters",
      );
    },
    async counts(keys) {
      if (keys.length === 0) return [];
      const values = (await withTimeout(
        client.eval(GET_ALL, { keys: keys.map(full), arguments: [] }),
        timeoutMs,
        "Redis counters",
      )) as Array<string | null>;
      return keys.map((_, index) => Number(values[index] ?? 0) || 0);
    },
    async attempt(key, max, windowMs) {
      const reply = await withTimeout(
        client.eval(ATTEMPT, {
          keys: [full(key)],
          arguments: [String(max), String(Math.ceil(windowMs)), randomBytes(6).toString("hex")],
        }),
        timeoutMs,
        "Redis attempt",
      );
      const retryAt = Number(reply);
      return retryAt < 0 ? null : retryAt;
    },
  };
}
