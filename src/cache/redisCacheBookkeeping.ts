import type { CacheBookkeeping } from "./cacheBound.js";

/**
 * The LRU books of the cache in Redis, kept by RepoScout itself rather than left to Redis's
 * `maxmemory-policy`: `CACHE_MAX_MB` bounds the cache whatever the instance's `maxmemory`, and the
 * token vault and settings, which share the instance, are never touched (they are never booked, so
 * eviction cannot reach them; they also carry no TTL, so a `volatile-*` policy cannot either).
 *
 * Three keys beside the cache, under the store prefix: a sorted set of last use per stored key
 * (`<prefix>:lru:ticks`, score = milliseconds), a hash of sizes (`<prefix>:lru:sizes`, what each
 * entry costs Redis, see {@link REDIS_ENTRY_OVERHEAD_BYTES}) and the running total
 * (`<prefix>:lru:total`). Each change is
 * one Lua script, atomic across processes sharing the instance. The scripts touch the cache keys
 * they find in the books, which a Redis Cluster would refuse (keys not declared): one instance,
 * or a cluster with all RepoScout keys in one hash slot, is what this supports.
 *
 * Reads cost nothing on the spot: they are flushed in batches (`ZADD XX`, see cacheBound.ts).
 * Entries that Redis expires leave their books behind until {@link CacheBookkeeping.reconcile}
 * (run with the store's sweep) or until eviction reaches them: the booked total can only be too
 * high, never too low, so the bound holds.
 */

/** The part of a node-redis client the books use. */
export interface RedisScripting {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/**
 * What one cache entry costs Redis beyond what `MEMORY USAGE` reports for its key: its member in
 * the sorted set of recency and its field in the hash of sizes (each the key's bytes again, booked
 * apart, plus about 97 and 53 bytes of nodes and dict entries), its expiry's dict entry and its
 * share of the dicts' tables (about 90 bytes): 240 measured on Redis 7.0 with jemalloc over
 * thousands of entries, rounded up so the books err high (bench/redis-memory.ts measures it again).
 * Booking only key and value bytes let Redis use 3.7 times `CACHE_MAX_MB` for entries of 50 bytes,
 * which anyone can create by asking.
 */
export const REDIS_ENTRY_OVERHEAD_BYTES = 256;

/**
 * Books an entry at what Redis holds for it: `MEMORY USAGE` of its key (key, value and their
 * allocations, as jemalloc rounds them), the key's bytes twice more (the books' own copies) and
 * ARGV[2] of overhead. A Redis that refuses `MEMORY USAGE` inside scripts gets a bound from above:
 * jemalloc's size classes are at most 25% apart, plus a key object's 64 bytes.
 */
const WRITTEN = `
local length = redis.call('STRLEN', KEYS[4])
local old = tonumber(redis.call('HGET', KEYS[2], KEYS[4]) or '0')
if length == 0 then
  if old > 0 then
    redis.call('HDEL', KEYS[2], KEYS[4])
    redis.call('ZREM', KEYS[1], KEYS[4])
    redis.call('DECRBY', KEYS[3], old)
  end
  return 0
end
local usage = redis.pcall('MEMORY', 'USAGE', KEYS[4], 'SAMPLES', '0')
if type(usage) ~= 'number' then
  usage = math.ceil((length + string.len(KEYS[4])) * 1.25) + 64
end
local size = usage + 2 * string.len(KEYS[4]) + tonumber(ARGV[2])
redis.call('HSET', KEYS[2], KEYS[4], size)
redis.call('ZADD', KEYS[1], ARGV[1], KEYS[4])
redis.call('INCRBY', KEYS[3], size - old)
return size`;

const READ = `return redis.call('ZADD', KEYS[1], 'XX', unpack(ARGV))`;

const REMOVED = `
local old = tonumber(redis.call('HGET', KEYS[2], KEYS[4]) or '0')
redis.call('HDEL', KEYS[2], KEYS[4])
redis.call('ZREM', KEYS[1], KEYS[4])
if old > 0 then redis.call('DECRBY', KEYS[3], old) end
return old`;

/** Evicts up to ARGV[2] entries, least recent first, while the total is over ARGV[1]. */
const EVICT = `
local total = tonumber(redis.call('GET', KEYS[3]) or '0')
local target = tonumber(ARGV[1])
local budget = tonumber(ARGV[2])
local evicted = 0
local popped = 0
while total > target and budget > 0 do
  local oldest = redis.call('ZPOPMIN', KEYS[1])
  if #oldest == 0 then
    redis.call('SET', KEYS[3], 0)
    total = 0
    break
  end
  local member = oldest[1]
  local size = tonumber(redis.call('HGET', KEYS[2], member) or '0')
  redis.call('HDEL', KEYS[2], member)
  evicted = evicted + redis.call('UNLINK', member)
  total = redis.call('DECRBY', KEYS[3], size)
  budget = budget - 1
  popped = popped + 1
end
return {evicted, total, popped}`;

/** Forgets the books of booked keys that no longer exist, one ZSCAN page at a time. */
const RECONCILE = `
local page = redis.call('ZSCAN', KEYS[1], ARGV[1], 'COUNT', 500)
for i = 1, #page[2], 2 do
  local member = page[2][i]
  if redis.call('EXISTS', member) == 0 then
    local size = tonumber(redis.call('HGET', KEYS[2], member) or '0')
    redis.call('HDEL', KEYS[2], member)
    redis.call('ZREM', KEYS[1], member)
    if size > 0 then redis.call('DECRBY', KEYS[3], size) end
  end
end
return page[1]`;

/** Entries evicted per script run: one run must not hold Redis for long. */
const EVICT_PER_RUN = 500;

/** The books of the cache under `prefix`, in the Redis behind `client`. */
export function redisCacheBookkeeping(
  client: RedisScripting,
  prefix: string,
  now: () => number = Date.now,
): CacheBookkeeping {
  const ticks = `${prefix}:lru:ticks`;
  const sizes = `${prefix}:lru:sizes`;
  const total = `${prefix}:lru:total`;
  const books = [ticks, sizes, total];
  let lastTick = 0;
  /** Milliseconds, strictly increasing within the process: one order even within a millisecond. */
  const tick = (): number => (lastTick = Math.max(now(), lastTick + 1));

  async function totalBytes(): Promise<number> {
    const value = await client.eval("return redis.call('GET', KEYS[1])", { keys: [total], arguments: [] });
    return Number(value ?? 0) || 0;
  }

  return {
    async flushReads(storedKeys) {
      const pairs = storedKeys.flatMap((key) => [String(tick()), key]);
      await client.eval(READ, { keys: [ticks], arguments: pairs });
    },
    async written(storedKey) {
      await client.eval(WRITTEN, {
        keys: [...books, storedKey],
        arguments: [String(tick()), String(REDIS_ENTRY_OVERHEAD_BYTES)],
      });
    },
    async removed(storedKey) {
      await client.eval(REMOVED, { keys: [...books, storedKey], arguments: [] });
    },
    totalBytes,
    async evict(targetBytes) {
      let evicted = 0;
      for (;;) {
        const [count, left, popped] = (await client.eval(EVICT, {
          keys: books,
          arguments: [String(targetBytes), String(EVICT_PER_RUN)],
        })) as [number, number, number];
        evicted += Number(count);
        if (Number(left) <= targetBytes || Number(popped) === 0) return evicted;
      }
    },
    async reconcile() {
      let cursor = "0";
      do {
        cursor = String(await client.eval(RECONCILE, { keys: books, arguments: [cursor] }));
      } while (cursor !== "0");
    },
  };
}
