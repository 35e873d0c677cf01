import { LRUCache } from "lru-cache";
import { newReadTrail, type AnswerCache, type CachedAnswer, type ReadTrail } from "../cache/answerCache.js";
import type { AnswerPrivacy } from "../format/privacy.js";
import type { ResolvedToken, TokenOrigin } from "../tokens/tokenResolver.js";
import type { Fetched, RepositoriesArgs } from "./scout.js";

/**
 * Public reads remembered with the records they were answered from: a few hundred bytes each, the
 * answers themselves held weakly.
 */
const HELD_READS = 10_000;

/**
 * A public read (a blame, contents, a list of repositories, the token's identity) that was
 * answered wholly from the in-process tier: given again, as is, while each record it used is still
 * the one the tier holds (../cache/answerCache.ts, `stillHeld`). The answer is held weakly: the
 * tier's bound stays the only one on answers.
 */
interface HeldRead {
  trail: ReadTrail;
  value: WeakRef<object>;
  fetchedAt: string;
}

/** What a cached answer gives a command: its value, how fresh it is, whose token read it. */
export function fetchedFrom<T>(
  answer: CachedAnswer<T>,
  origin: TokenOrigin,
  privacy?: AnswerPrivacy,
): Fetched<T> {
  return {
    value: answer.value,
    freshness: { fetchedAt: answer.fetchedAt, fromCache: answer.fromCache },
    origin,
    ...(privacy ? { privacy } : {}),
  };
}

/**
 * The public reads lately answered from the in-process tier alone, by what they were asked (the
 * keys below: kind, token, and the read's own arguments). A repeat whose records are all still held
 * is the same read with the same records: it would take the same steps to the same answer, so it
 * is given without them (issue 23: the steps were a third of a cached answer's allocation).
 * Anything else (a record gone, replaced or expired; a private answer, whose access rule reads
 * more than records) takes the steps.
 */
export interface HeldReads {
  /** The read `key` names, given again when its records are all still held; else undefined. */
  again<T>(key: string, origin: TokenOrigin): Fetched<T> | undefined;
  /** Keeps a public read, to give again while held: only when answered wholly from the tier. */
  hold(key: string, trail: ReadTrail, answer: CachedAnswer<object>): void;
  /**
   * A read of one cached answer: given again while held, else read through the cache (`read`,
   * with the trail to note its lookups in) and held when public.
   */
  againOrRead<T extends object>(
    key: string,
    origin: TokenOrigin,
    read: (trail: ReadTrail) => Promise<CachedAnswer<T>>,
    privacyOf?: (value: T) => AnswerPrivacy | undefined,
  ): Promise<Fetched<T>>;
}

export function createHeldReads(cache: AnswerCache): HeldReads {
  const held = new LRUCache<string, HeldRead>({ max: HELD_READS });
  const reads: HeldReads = {
    again<T>(key: string, origin: TokenOrigin) {
      const read = held.get(key);
      if (!read) return undefined;
      const value = read.value.deref();
      if (value !== undefined && cache.stillHeld(read.trail)) {
        return { value: value as T, freshness: { fetchedAt: read.fetchedAt, fromCache: true }, origin };
      }
      held.delete(key);
      return undefined;
    },
    hold(key, trail, answer) {
      if (trail.cold) return;
      held.set(key, { trail, value: new WeakRef(answer.value), fetchedAt: answer.fetchedAt });
    },
    async againOrRead(key, origin, read, privacyOf = () => undefined) {
      const again = reads.again<Awaited<ReturnType<typeof read>>["value"]>(key, origin);
      if (again) return again;
      const trail = newReadTrail();
      const answer = await read(trail);
      const privacy = privacyOf(answer.value);
      if (!privacy) reads.hold(key, trail, answer);
      return fetchedFrom(answer, origin, privacy);
    },
  };
  return reads;
}

/** The keys of held reads: everything that decides a read's steps, the token first. */
export const heldReadKeys = {
  pinned(
    kind: "blame" | "contents",
    resolved: ResolvedToken,
    repo: { owner: string; name: string },
    args: { ref?: string; path: string },
  ): string {
    const at = [kind, resolved.fingerprint, resolved.origin, repo.owner, repo.name, args.ref ?? "HEAD"];
    return JSON.stringify(at.concat(args.path));
  },
  contributors: (
    resolved: ResolvedToken,
    args: { repo: { owner: string; name: string }; page: number },
  ): string =>
    JSON.stringify([
      "contributors",
      resolved.fingerprint,
      resolved.origin,
      args.repo.owner.toLowerCase(),
      args.repo.name.toLowerCase(),
      args.page,
    ]),
  viewer: (resolved: ResolvedToken): string =>
    JSON.stringify(["viewer", resolved.fingerprint, resolved.origin]),
  repositories: (resolved: ResolvedToken, args: RepositoriesArgs): string =>
    JSON.stringify([
      "repositories",
      resolved.fingerprint,
      resolved.origin,
      args.login.toLowerCase(),
      args.first,
      args.after ?? null,
      args.sort,
    ]),
};
