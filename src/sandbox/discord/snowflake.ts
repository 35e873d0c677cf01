/** Discord's epoch: the first second of 2015, in milliseconds since the Unix epoch. */
export const DISCORD_EPOCH = 1_420_070_400_000;

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
    const id = (BigInt(timestamp - DISCORD_EPOCH) << 22n) | (1n << 17n) | (1n << 12n) | BigInt(increment);
    return id.toString();
  };
}

/** The creation time (ms since the Unix epoch) encoded in a snowflake. */
export function snowflakeTimestamp(id: string): number {
  return Number(BigInt(id) >> 22n) + DISCORD_EPOCH;
}
