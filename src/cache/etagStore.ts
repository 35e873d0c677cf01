import { createHash } from "node:crypto";
import type { ConditionalEntry, ConditionalStore } from "../github/conditionalStore.js";
import type { CacheStore } from "./guardedStore.js";

/** ETags live a day: an entry only saves rate limit, and a week-old list is rarely still current. */
export const ETAG_TTL_MS = 24 * 60 * 60 * 1000;

const MAX_PLAIN_KEY_LENGTH = 200;

function asEntry(raw: unknown): ConditionalEntry | undefined {
  if (raw === null || typeof raw !== "object") return undefined;
  const entry = raw as Partial<ConditionalEntry>;
  if (typeof entry.etag !== "string" || entry.etag === "" || !("body" in entry)) return undefined;
  if (entry.link !== null && typeof entry.link !== "string") return undefined;
  return { etag: entry.etag, body: entry.body, link: entry.link };
}

/**
 * Creates the ETag store over a cache namespace (`stores.cache("etags")`). The caller's key must
 * hold the token fingerprint as well as the URL: GitHub varies answers by Authorization, and an
 * entry fetched with one server's token must not answer another's. Long keys are hashed.
 */
export function createEtagStore(store: CacheStore, options: { ttlMs?: number } = {}): ConditionalStore {
  const ttlMs = options.ttlMs ?? ETAG_TTL_MS;
  const storeKey = (key: string): string =>
    key.length <= MAX_PLAIN_KEY_LENGTH ? key : `#${createHash("sha256").update(key).digest("hex")}`;
  return {
    async get(key) {
      return asEntry(await store.get(storeKey(key)));
    },
    async set(key, value) {
      await store.set(storeKey(key), { etag: value.etag, body: value.body, link: value.link }, ttlMs);
    },
  };
}
