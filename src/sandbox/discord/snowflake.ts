/** Discord's epoch: the first second of 2015, in milliseconds since the Unix epoch. */
export const DISCORD_EPOCH = 1_420_070_400_000;

/**
 * The snowflake of something made at `ms` (Unix ms), `increment` its 12 low bits (worker and
 * process 1, as this stand-in's). For a test that needs an id of a given age: a generator never
 * makes one older than the last it made.
 */
export function snowflakeAt(ms: number, increment = 0): string {
  return (
    (BigInt(ms - DISCORD_EPOCH) << 22n) |
    (1n << 17n) |
    (1n << 12n) |
    BigInt(increment & 0xfff)
  ).toString();
}

/** Makes snowflake ids. */
export type SnowflakeGenerator = () => string;

/**
 * Creates a generator of snowflakes shaped like Discord's: milliseconds since the Discord epoch
 * in the high bits, then worker, process and a per-millisecond increment. Ids from one generator
 * strictly increase, so they sort by creation like Discord's do (thread ids, message pagination).
 */
export function createSnowflakeGenerator(now: () => number = Date.now): SnowflakeGenerator {
  let lastTimestamp = 0;
  let increment = 0;
  return () => {
    let timestamp = Math.max(now(), lastTimestamp);
    if (timestamp === lastTimestamp) {
      increment++;
      // 12 bits of increment per millisecond; borrow the next millisecond when they run out.
      if (increment > 0xfff) {
        timestamp++;
        increment = 0;
      }
    } else {
      increment = 0;
    }
    lastTimestamp = timestamp;
    return snowflakeAt(timestamp, increment);
  };
}

/** The creation time (ms since the Unix epoch) encoded in a snowflake. */
export function snowflakeTimestamp(id: string): number {
  return Number(BigInt(id) >> 22n) + DISCORD_EPOCH;
}
