// Over 300 lines: one factory whose steps (the key, the hot tier, the stored forms, `keptAt` pointers to a shared copy, in-flight sharing) read and write the same closure state; split, each would take all of it as parameters.
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "../logger.js";
import type { Coordination } from "./coordination.js";
import type { CacheStore } from "./guardedStore.js";
import { createHotTier, type HotTier } from "./hotTier.js";
import { STORED_FORMS, type StoredForm } from "./storedForms.js";
import { withFields } from "../withFields.js";

/** What a cache key may be built from: flat, already-normalized arguments. */
export type CacheArgValue = string | number | boolean | null | undefined;
export type CacheArgs = Readonly<Record<string, CacheArgValue>>;

/**
 * How long an answer lives. `pinned`: the answer is fixed by a commit id and can never change.
 * `short`: it follows a branch, a list or an account (ref resolution, repositories, contributors,
 * viewer) and may change at any moment.
 */
export type TtlClass = "pinned" | "short";

export interface CacheRequest<T> {
  /** The kind of answer (`blame`, `contents`, `refs`...): also the store namespace. */
  kind: string;
  /**
   * The arguments that determine the answer, already normalized by the caller (owner and name
   * lowercased, defaults filled in): the cache only serializes them stably. Undefined is dropped.
   */
  args: CacheArgs;
  /** {@link tokenFingerprint} of the token in effect (never the token itself). */
  fingerprint: string;
  ttl: TtlClass;
  /** The upstream call, made only on a miss, once for all identical requests in flight. */
  fetch: () => Promise<T>;
  /** Bump when the shape of T changes, so entries of the old shape are never read. Default 1. */
  version?: number;
  /**
   * Where the answer is kept, when elsewhere: this key then holds only that place, a few bytes,
   * never a second copy (a public answer is kept once, in the shared scope; a blame by branch is
   * the blame at its commit). The caller stores the answer there first. Absent or undefined: here.
   */
  keptAt?: (value: T) => CacheKeyRequest | undefined;
}

/** What names an entry: a request without its fetch and lifetime. */
export type CacheKeyRequest = Pick<CacheRequest<unknown>, "kind" | "args" | "fingerprint" | "version">;

export interface CachedAnswer<T> {
  /** Shared by every caller of the same request: treat it as read-only. */
  value: T;
  /** When the value was fetched upstream (ISO), for the footer's "cached N min ago". */
  fetchedAt: string;
  /** True when read from the store; false when fetched by this call or the one it joined. */
  fromCache: boolean;
}

/**
 * The records a read (a few lookups in a row) was answered from, so that the same read can later be
 * told to give the same answer without doing it again ({@link AnswerCache.stillHeld}). Only a read
 * answered wholly from the in-process tier can: a miss there reads a store that another process
 * may have written since.
 */
export interface ReadTrail {
  /** Each lookup's kind, in order (counted again when the read is replayed, as a lookup would be). */
  readonly kinds: string[];
  /** Each record a lookup used, held weakly: the trail never keeps an answer the tier let go. */
  readonly records: { key: string; record: WeakRef<object> }[];
  /** Set when a lookup went past the in-process tier (the store, a fetch): the read cannot be replayed. */
  cold: boolean;
}

/** A trail to pass to the lookups of one read. */
export function newReadTrail(): ReadTrail {
  return { kinds: [], records: [], cold: false };
}

export interface AnswerCache {
  /**
   * The answer from the cache, or fetched and stored. Identical requests in flight share one
   * fetch, and its failure; a failure (or an undefined value) is never stored. With `trail`, the
   * lookup is noted in it.
   */
  getOrFetch<T>(request: CacheRequest<T>, trail?: ReadTrail): Promise<CachedAnswer<T>>;
  /** The stored answer, if any and not expired; never fetches. With `trail`, the lookup is noted in it. */
  peek<T>(
    request: Omit<CacheRequest<T>, "fetch" | "ttl">,
    trail?: ReadTrail,
  ): Promise<CachedAnswer<T> | undefined>;
  /**
   * Whether every record of `trail` is still what the in-process tier holds under its key, the same
   * object, unexpired: then each of its lookups would find what it found, and a read that depends on
   * nothing else would answer as it did. Its lookups are counted as hits when so. False for a
   * trail that went past the tier, and without a tier.
   */
  stillHeld(trail: ReadTrail): boolean;
  /**
   * Stores an answer fetched by other means (one upstream call that answers two questions, such
   * as a blame by branch that also tells the branch's commit). A failed write is ignored.
   */
  put<T>(request: Omit<CacheRequest<T>, "fetch">, value: T, fetchedAt?: string): Promise<void>;
  /** How many distinct requests are in flight right now. */
  inFlight(): number;
  /** What the in-process tier holds now (zeros without one). */
  hotTier(): { bytes: number; answers: number };
}

/** Answers pinned to a commit id live a week: they cannot change, the bound only limits the store's size. */
export const PINNED_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Keys longer than this hash their arguments: Redis and SQLite keys stay short and bounded. */
const MAX_PLAIN_KEY_LENGTH = 200;
const KIND = /^[a-z][a-z0-9-]{0,39}$/;
/** A fingerprint is lowercase hex; anything else (such as a raw token) is refused, not stored. */
const FINGERPRINT = /^[0-9a-f]{16,128}$/;

/**
 * Serializes arguments deterministically: keys sorted, undefined dropped, values as JSON (so the
 * string "1" and the number 1 differ). Non-finite numbers are refused: JSON would write them as
 * null and mix them up with null.
 */
export function stableArgs(args: CacheArgs): string {
  // Written by hand, in one pass (every interaction makes a key): the same text as
  // JSON.stringify of the sorted entries.
  let json = "";
  for (const name of Object.keys(args).sort()) {
    const value = args[name];
    if (value === undefined) continue;
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw new Error(`cache argument ${name} is not a finite number`);
    }
    json += `${json === "" ? "{" : ","}${JSON.stringify(name)}:${JSON.stringify(value)}`;
  }
  return json === "" ? "{}" : `${json}}`;
}

/**
 * The key of an answer: `<kind>:v<version>:<fingerprint>:<args as JSON>`, or `...:#<sha256>` when
 * that would be long. The fingerprint scopes answers to the token that fetched them (SPEC section
 * 4: one server never sees data fetched with another's token).
 */
export function answerCacheKey(kind: string, fingerprint: string, args: CacheArgs, version = 1): string {
  if (!KIND.test(kind)) throw new Error(`invalid cache kind ${JSON.stringify(kind)}`);
  if (!FINGERPRINT.test(fingerprint)) throw new Error("invalid token fingerprint: expected lowercase hex");
  if (!Number.isInteger(version) || version < 1) throw new Error("invalid cache version");
  const head = `${kind}:v${version}:${fingerprint}:`;
  const json = stableArgs(args);
  if (head.length + json.length <= MAX_PLAIN_KEY_LENGTH) return head + json;
  return `${head}#${createHash("sha256").update(json).digest("hex")}`;
}

/** What the store holds for one answer: the answer, or where it is kept (`at`, see `keptAt`). */
interface StoredAnswer {
  value?: unknown;
  at?: { kind: string; key: string };
  fetchedAt: string;
  /** Epoch ms, checked against the cache's clock (the store's own expiry uses the wall clock). */
  expiresAt: number;
}

/** A record that holds its answer. */
type HeldAnswer = StoredAnswer & { value: unknown };

/** A held answer as a caller gets it. */
function asHit<T>(held: HeldAnswer): CachedAnswer<T> {
  return { value: held.value as T, fetchedAt: held.fetchedAt, fromCache: true };
}

function asStoredAnswer(raw: unknown): StoredAnswer | undefined {
  if (raw === null || typeof raw !== "object") return undefined;
  const record = raw as Partial<StoredAnswer>;
  if (typeof record.fetchedAt !== "string" || typeof record.expiresAt !== "number") return undefined;
  if (record.value !== undefined) return record as StoredAnswer;
  const at = record.at;
  if (at && typeof at === "object" && typeof at.kind === "string" && typeof at.key === "string") {
    return record as StoredAnswer;
  }
  return undefined;
}

export interface AnswerCacheOptions {
  /** The store of a namespace, usually `stores.cache` of {@link openStores}. */
  store: (namespace: string) => CacheStore;
  logger: Logger;
  /** Lifetime of `short` answers (config: CACHE_SHORT_TTL_SECONDS * 1000). */
  shortTtlMs: number;
  /** Lifetime of `pinned` answers. Default {@link PINNED_TTL_MS}. */
  pinnedTtlMs?: number;
  /** The clock (epoch ms); tests move it to expire entries. */
  now?: () => number;
  /**
   * Claims shared with other processes (`stores.coordination`): when `shared`, identical requests
   * in flight in several processes make one upstream call: the process that claims the fetch
   * makes it, the others wait for its answer in the store.
   */
  coordination?: Coordination;
  /** How long a process waits for another's fetch before making its own. Default 15 s. */
  peerWaitMs?: number;
  /**
   * Bytes of the in-process tier in front of the store (see ./hotTier.ts); 0 or absent: none,
   * every read goes to the store.
   */
  hotTierBytes?: number;
  /** Told of every lookup of `getOrFetch`: the kind of answer and whether it was held (metrics). */
  onLookup?: (kind: string, result: "hit" | "miss") => void;
  /** The compact form each kind of answer is stored in (./storedForms.ts). Default {@link STORED_FORMS}. */
  storedForms?: Readonly<Record<string, StoredForm>>;
}

/** How long a claim on a fetch lasts at most: a process that dies while fetching frees it then. */
const FETCH_CLAIM_MS = 15_000;

/**
 * One upstream call for a request in flight in several processes: the process that claims the
 * fetch makes it and frees the claim once its answer is in the store; the others poll the store
 * (25 ms, doubling to 200 ms) and claim the fetch again when it is free (its maker failed or died),
 * and fetch themselves past `waitMs`. A claim that cannot be asked (Redis down) means fetching here.
 */
async function fetchOnceAcrossProcesses<T>(
  coordination: Coordination,
  key: string,
  fetchHere: () => Promise<CachedAnswer<T>>,
  readStored: () => Promise<CachedAnswer<T> | undefined>,
  written: () => Promise<void> | undefined,
  waitMs = 15_000,
): Promise<CachedAnswer<T>> {
  const claimKey = `fetch:${key}`;
  const deadline = Date.now() + waitMs;
  let pause = 25;
  for (;;) {
    const mine = await coordination.claim(claimKey, FETCH_CLAIM_MS).catch(() => true);
    if (mine) {
      try {
        const answer = await fetchHere();
        void Promise.resolve(written())
          .catch(() => undefined)
          .finally(() => void coordination.release(claimKey));
        return answer;
      } catch (error) {
        void coordination.release(claimKey);
        throw error;
      }
    }
    if (Date.now() >= deadline) return fetchHere();
    await sleep(pause);
    pause = Math.min(pause * 2, 200);
    const stored = await readStored();
    if (stored) return stored;
  }
}

/**
 * Creates the answer cache: the TTL policy, the token-scoped keys and the sharing of identical
 * requests in flight, over any {@link CacheStore} (whose failures read as misses).
 */
export function createAnswerCache(options: AnswerCacheOptions): AnswerCache {
  const now = options.now ?? Date.now;
  const pinnedTtlMs = options.pinnedTtlMs ?? PINNED_TTL_MS;
  if (!(options.shortTtlMs > 0) || !(pinnedTtlMs > 0)) throw new Error("cache lifetimes must be positive");
  const inflight = new Map<string, Promise<CachedAnswer<unknown>>>();
  const logger = options.logger;
  const hot: HotTier | undefined = options.hotTierBytes ? createHotTier(options.hotTierBytes) : undefined;
  const forms = options.storedForms ?? STORED_FORMS;

  /**
   * The live record of `key` as kept: the hot tier's, else the store's, read back from its stored
   * form (then kept in the hot tier). A record in a form that does not read back is a miss.
   */
  async function readRecord(kind: string, key: string, trail?: ReadTrail): Promise<StoredAnswer | undefined> {
    const held = hot?.get(key, now());
    if (held) {
      noteHeld(trail, key, held);
      return held;
    }
    if (trail) trail.cold = true;
    const stored = asStoredAnswer(await options.store(kind).get(key));
    if (!stored || stored.expiresAt <= now()) return undefined;
    const form = forms[kind];
    if (form && stored.value !== undefined) {
      const value = form.decode(stored.value);
      if (value === undefined) return undefined;
      stored.value = value;
    }
    hot?.set(key, stored);
    return stored;
  }

  /** Notes in `trail` that `record` (held in the tier under `key`) answered a lookup. */
  function noteHeld(trail: ReadTrail | undefined, key: string, record: StoredAnswer): void {
    trail?.records.push({ key, record: new WeakRef(record) });
  }

  /**
   * The answer a record gives: its own, or when it points elsewhere the record `kept` there (one
   * step, never further), live no longer than the pointer.
   */
  function answerOf(
    record: StoredAnswer | undefined,
    kept: StoredAnswer | undefined,
  ): HeldAnswer | undefined {
    if (!record?.at) return record as HeldAnswer | undefined;
    if (!kept || kept.at) return undefined;
    return withFields(kept as HeldAnswer, { expiresAt: Math.min(record.expiresAt, kept.expiresAt) });
  }

  /**
   * The answer at `key` when the hot tier holds all of it (its record, and the one it points to),
   * else undefined (it may still be in the store: see {@link read}).
   */
  function readHot(key: string, trail?: ReadTrail): HeldAnswer | undefined {
    if (!hot) return undefined;
    const time = now();
    const record = hot.get(key, time);
    const kept = record?.at && hot.get(record.at.key, time);
    const answer = answerOf(record, kept);
    if (trail && answer) {
      noteHeld(trail, key, record!);
      if (kept) noteHeld(trail, record!.at!.key, kept);
    }
    return answer;
  }

  /** The answer at `key`, through the hot tier and the store (see {@link answerOf}). */
  async function read(kind: string, key: string, trail?: ReadTrail): Promise<HeldAnswer | undefined> {
    const record = await readRecord(kind, key, trail);
    return answerOf(record, record?.at && (await readRecord(record.at.kind, record.at.key, trail)));
  }

  /** A lookup of `getOrFetch` that found its answer: counted, logged, given. */
  function hit<T>(kind: string, held: HeldAnswer): CachedAnswer<T> {
    options.onLookup?.(kind, "hit");
    logger.debug({ kind, fromCache: true }, "cache hit");
    return asHit<T>(held);
  }

  /**
   * The record to keep for `value` at this request: the value itself, or where it is kept. Written
   * to the store in its kind's stored form, and to the hot tier as is (the store's write may fail).
   */
  function write(
    request: Omit<CacheRequest<unknown>, "fetch" | "ttl">,
    key: string,
    record: HeldAnswer,
    ttlMs: number,
  ): Promise<void> {
    const kept = request.keptAt?.(record.value);
    const own: StoredAnswer = kept
      ? {
          at: { kind: kept.kind, key: answerCacheKey(kept.kind, kept.fingerprint, kept.args, kept.version) },
          fetchedAt: record.fetchedAt,
          expiresAt: record.expiresAt,
        }
      : record;
    hot?.set(key, own);
    const form = forms[request.kind];
    const stored = form && !kept ? withFields(own, { value: form.encode(own.value) }) : own;
    return options.store(request.kind).set(key, stored, ttlMs);
  }

  return {
    getOrFetch<T>(request: CacheRequest<T>, trail?: ReadTrail): Promise<CachedAnswer<T>> {
      const key = answerCacheKey(request.kind, request.fingerprint, request.args, request.version);
      trail?.kinds.push(request.kind);
      const joined = inflight.get(key);
      if (joined) {
        if (trail) trail.cold = true;
        return joined as Promise<CachedAnswer<T>>;
      }
      // Held in this process's memory: answered at once, never entered in flight (an entry per
      // hit, set and deleted, rebuilt the map's table in V8's old generation every few hits).
      const held = readHot(key, trail);
      if (held) return Promise.resolve(hit<T>(request.kind, held));
      if (trail) trail.cold = true;

      const ttlMs = request.ttl === "pinned" ? pinnedTtlMs : options.shortTtlMs;
      let writing: Promise<void> | undefined;
      const run = (async (): Promise<CachedAnswer<T>> => {
        const stored = await read(request.kind, key);
        if (stored) return hit<T>(request.kind, stored);
        options.onLookup?.(request.kind, "miss");
        const fetchHere = async (): Promise<CachedAnswer<T>> => {
          const value = await request.fetch();
          const fetchedAtMs = now();
          const fetchedAt = new Date(fetchedAtMs).toISOString();
          if (value !== undefined) {
            const record: HeldAnswer = { value, fetchedAt, expiresAt: fetchedAtMs + ttlMs };
            writing = write(request as CacheRequest<unknown>, key, record, ttlMs);
          }
          logger.debug({ kind: request.kind, fromCache: false }, "cache miss: fetched");
          return { value, fetchedAt, fromCache: false };
        };
        const coordination = options.coordination;
        if (!coordination?.shared) return fetchHere();
        return fetchOnceAcrossProcesses(
          coordination,
          key,
          fetchHere,
          async () => {
            const found = await read(request.kind, key);
            return found ? asHit<T>(found) : undefined;
          },
          () => writing,
          options.peerWaitMs,
        );
      })();

      inflight.set(key, run);
      // The entry stays until the write lands, so a request arriving meanwhile joins instead of
      // missing the store and fetching again. A failure leaves at once: the next call retries.
      const release = (): void => {
        if (inflight.get(key) === run) inflight.delete(key);
      };
      run.then(() => (writing ? writing.then(release, release) : release()), release);
      return run;
    },
    async peek<T>(
      request: Omit<CacheRequest<T>, "fetch" | "ttl">,
      trail?: ReadTrail,
    ): Promise<CachedAnswer<T> | undefined> {
      const key = answerCacheKey(request.kind, request.fingerprint, request.args, request.version);
      trail?.kinds.push(request.kind);
      const stored = await read(request.kind, key, trail);
      options.onLookup?.(request.kind, stored ? "hit" : "miss");
      if (!stored) return undefined;
      return asHit<T>(stored);
    },
    async put<T>(request: Omit<CacheRequest<T>, "fetch">, value: T, fetchedAt?: string): Promise<void> {
      if (value === undefined) return;
      const key = answerCacheKey(request.kind, request.fingerprint, request.args, request.version);
      const ttlMs = request.ttl === "pinned" ? pinnedTtlMs : options.shortTtlMs;
      const fetchedAtMs = fetchedAt ? Date.parse(fetchedAt) : now();
      const record: HeldAnswer = {
        value,
        fetchedAt: new Date(fetchedAtMs).toISOString(),
        expiresAt: fetchedAtMs + ttlMs,
      };
      await write(request as Omit<CacheRequest<unknown>, "fetch">, key, record, ttlMs);
    },
    stillHeld(trail) {
      if (!hot || trail.cold) return false;
      const time = now();
      for (const { key, record } of trail.records) {
        const held = record.deref();
        if (held === undefined || hot.get(key, time) !== held) return false;
      }
      for (const kind of trail.kinds) options.onLookup?.(kind, "hit");
      return true;
    },
    inFlight: () => inflight.size,
    hotTier: () => ({ bytes: hot?.bytes() ?? 0, answers: hot?.size() ?? 0 }),
  };
}
