/**
 * The keys a process has claimed, each until its expiry, bounded (past `max` the oldest claim goes
 * first), held in typed arrays: a claim leaves no object on the heap. Every HTTP interaction is
 * claimed once (the replay guard), so a map of strings kept one string, one map entry and the
 * map's growth per interaction for 10 minutes: each outlived V8's young collections and was copied
 * and promoted, about 15% of the HTTP bot's GC time at 1,600 interactions a second.
 *
 * A key is held as a 64-bit fingerprint (two independent 32-bit hashes of its UTF-16 units): two
 * keys with the same fingerprint count as one. With 100,000 claims held, a new key meets a held
 * fingerprint about once in 10^14 claims; the keys are interaction ids, which Discord chooses and
 * signs, so a collision cannot be arranged by whoever sends the request.
 */

/** The slots of the open-addressed table (linear probing), a power of two, grown as claims come. */
const FIRST_SLOTS = 1024;

/** The last key's fingerprint ({@link fingerprint} sets them: no array made per claim). */
let firstHash = 0;
let secondHash = 0;

/** FNV-1a and a multiply-xorshift hash over the key's UTF-16 units, each finished by murmur3's mix. */
function fingerprint(key: string): void {
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ key.length;
  for (let i = 0; i < key.length; i++) {
    const unit = key.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x5bd1e995);
    b ^= b >>> 15;
  }
  firstHash = mix(a);
  secondHash = mix(b);
}

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

export interface ClaimTable {
  /** True if `key` was not held (or its claim had expired): it is now held until `now + ttlMs`. */
  claim(key: string, ttlMs: number, now: number): boolean;
  /** How many keys are held, expired ones not yet dropped included (at most `max`). */
  size(): number;
}

export function createClaimTable(max: number): ClaimTable {
  if (!Number.isInteger(max) || max < 1)
    throw new RangeError(`a claim table holds at least one key, not ${max}`);
  // The table: fingerprint halves, expiry (0: an empty slot), and the claim's number.
  let mask = FIRST_SLOTS - 1;
  let first = new Int32Array(FIRST_SLOTS);
  let second = new Int32Array(FIRST_SLOTS);
  let expires = new Float64Array(FIRST_SLOTS);
  let numbers = new Float64Array(FIRST_SLOTS);
  // The claims in the order they were made (a ring), to drop the oldest past `max`: a key claimed
  // again after its expiry has two entries, and only the one with its current number drops it.
  let ringFirst = new Int32Array(Math.min(max, FIRST_SLOTS));
  let ringSecond = new Int32Array(ringFirst.length);
  let ringNumbers = new Float64Array(ringFirst.length);
  let head = 0;
  let held = 0;
  let claims = 0;
  let used = 0;

  const find = (a: number, b: number): number => {
    let slot = a & mask;
    while (expires[slot] !== 0) {
      if (first[slot] === a && second[slot] === b) return slot;
      slot = (slot + 1) & mask;
    }
    return ~slot;
  };

  const put = (slot: number, a: number, b: number, expiry: number, number: number): void => {
    first[slot] = a;
    second[slot] = b;
    expires[slot] = expiry;
    numbers[slot] = number;
  };

  /** Empties `slot`, moving later entries of its probe run back (no tombstones). */
  const remove = (slot: number): void => {
    let hole = slot;
    let next = slot;
    for (;;) {
      next = (next + 1) & mask;
      if (expires[next] === 0) break;
      const home = first[next]! & mask;
      const stays = hole <= next ? hole < home && home <= next : hole < home || home <= next;
      if (!stays) {
        put(hole, first[next]!, second[next]!, expires[next]!, numbers[next]!);
        hole = next;
      }
    }
    expires[hole] = 0;
    used -= 1;
  };

  const grow = (): void => {
    const old = { first, second, expires, numbers };
    const slots = old.expires.length * 2;
    mask = slots - 1;
    first = new Int32Array(slots);
    second = new Int32Array(slots);
    expires = new Float64Array(slots);
    numbers = new Float64Array(slots);
    for (let slot = 0; slot < old.expires.length; slot++) {
      if (old.expires[slot] === 0) continue;
      put(
        ~find(old.first[slot]!, old.second[slot]!),
        old.first[slot]!,
        old.second[slot]!,
        old.expires[slot]!,
        old.numbers[slot]!,
      );
    }
  };

  const dropOldest = (): void => {
    const a = ringFirst[head]!;
    const b = ringSecond[head]!;
    const number = ringNumbers[head]!;
    head = (head + 1) % ringFirst.length;
    held -= 1;
    const slot = find(a, b);
    if (slot >= 0 && numbers[slot] === number) remove(slot);
  };

  const remember = (a: number, b: number, number: number): void => {
    if (held === ringFirst.length && held < max) {
      // The ring grows (unrolled from its head) until it holds `max`.
      const length = Math.min(max, ringFirst.length * 2);
      const order = (array: Int32Array | Float64Array, into: Int32Array | Float64Array): void => {
        into.set(array.subarray(head));
        into.set(array.subarray(0, head), array.length - head);
      };
      const grown = [new Int32Array(length), new Int32Array(length), new Float64Array(length)] as const;
      order(ringFirst, grown[0]);
      order(ringSecond, grown[1]);
      order(ringNumbers, grown[2]);
      [ringFirst, ringSecond, ringNumbers] = grown;
      head = 0;
    }
    if (held === ringFirst.length) dropOldest();
    const tail = (head + held) % ringFirst.length;
    ringFirst[tail] = a;
    ringSecond[tail] = b;
    ringNumbers[tail] = number;
    held += 1;
  };

  return {
    claim(key, ttlMs, now) {
      fingerprint(key);
      const a = firstHash;
      const b = secondHash;
      // Never 0, which marks an empty slot.
      const expiry = Math.max(now + ttlMs, Number.MIN_VALUE);
      const found = find(a, b);
      if (found >= 0 && expires[found]! > now) return false;
      claims += 1;
      // Dropping the oldest claim may move entries, or drop this key's expired claim: the slot is
      // looked up after it.
      remember(a, b, claims);
      let slot = find(a, b);
      if (slot < 0) {
        if ((used + 1) * 2 > expires.length) grow();
        slot = ~find(a, b);
        used += 1;
      }
      put(slot, a, b, expiry, claims);
      return true;
    },
    size: () => used,
  };
}
