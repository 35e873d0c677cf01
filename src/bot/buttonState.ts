import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { z } from "zod";
import type { NavigationButtons } from "../format/message.js";

/**
 * Button state behind a short key. A custom id holds at most 100 characters, and a repository
 * name, a path and a commit id do not fit; the state lives in a store and the button carries
 * `<command>:<key>`.
 */
export interface ButtonStateStore {
  /** Stores a state; returns the key to put in the custom id. */
  put(state: unknown): Promise<string>;
  /**
   * The key `put` would return for `state` without writing, when this process stored that very
   * state lately (so `put` would not write it again): at once. Undefined when `put` must write.
   */
  heldKey?(state: unknown): string | undefined;
  /** The state of a key, or undefined when unknown or expired. */
  get(key: string): Promise<unknown>;
  /**
   * What `get` would give for `key`, at once, when this process stored that state lately (so it
   * has surely not expired); undefined when `get` must read the store. A key is its state's hash,
   * so what a key names never changes.
   */
  heldState?(key: string): unknown;
}

/** A key-value store with TTLs, such as a Keyv namespace. */
export interface TtlStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown, ttlMs: number): Promise<unknown>;
}

/** A state stored this recently is not stored again (the store may have evicted it since: not for long). */
const REWRITE_AFTER_MS = 10 * 60_000;

/** Buttons stay usable for a week; after that the core says the button has expired. */
export const BUTTON_STATE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The key of a state, from its JSON text: derived from its content (72 bits of its SHA-256), so
 * that the same answer asked again (a burst of people asking one question) has the same buttons and
 * costs no new write. A key says nothing a press could abuse: the state is what the buttons show,
 * and a press is answered with the presser's own token, as any command.
 */
function stateKeyOf(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 12);
}

/**
 * Creates a button-state store over a TTL store. A failed write falls back to process memory, so a
 * store outage makes buttons shorter-lived, never breaks an answer. A state this process stored
 * within the last ten minutes is not stored again.
 */
export function createButtonStateStore(
  store: TtlStore | null,
  ttlMs = BUTTON_STATE_TTL_MS,
): ButtonStateStore {
  const memory = new Map<string, { state: unknown; expires: number }>();
  const remember = (key: string, state: unknown): void => {
    if (memory.size >= 10_000) {
      const oldest = memory.keys().next().value;
      if (oldest !== undefined) memory.delete(oldest);
    }
    memory.set(key, { state, expires: Date.now() + ttlMs });
  };
  // The keys of states' JSON texts, for states written: a repeat (every cached answer with
  // buttons) costs a lookup, not a SHA-256 (the key is the text's hash, so the text finds it).
  const keys = new LRUCache<string, string>({ max: 10_000 });
  // The states this process wrote to the store, by key: when (a recent one is not written again),
  // and what, as the store gives it back (JSON's copy, whatever the caller does with its own), for
  // a press (`heldState`). Only states written here: their expiry is known, where one read from
  // the store may expire a moment later.
  const written = new LRUCache<string, { state: unknown; at: number }>({ max: 10_000 });
  /** Whether a state written at `at` is recent enough not to be written again. */
  const recent = (at: number): boolean => Date.now() - at < Math.min(ttlMs / 2, REWRITE_AFTER_MS);
  /** The key of the state of JSON text `text`, when this process wrote it lately. */
  const writtenLately = (text: string): string | undefined => {
    const key = keys.get(text);
    const entry = key === undefined ? undefined : written.get(key);
    return entry && recent(entry.at) ? key : undefined;
  };
  return {
    async put(state) {
      const text = JSON.stringify(state);
      const lately = writtenLately(text);
      if (lately !== undefined) return lately;
      const key = keys.get(text) ?? stateKeyOf(text);
      if (store) {
        try {
          await store.set(key, state, ttlMs);
          keys.set(text, key);
          written.set(key, { state: JSON.parse(text) as unknown, at: Date.now() });
          return key;
        } catch {
          // fall through to memory
        }
      }
      remember(key, state);
      return key;
    },
    heldKey: (state) => writtenLately(JSON.stringify(state)),
    heldState(key) {
      const local = memory.get(key);
      if (local) return local.expires > Date.now() ? local.state : undefined;
      const entry = written.get(key);
      return entry && recent(entry.at) ? entry.state : undefined;
    },
    async get(key) {
      const local = memory.get(key);
      if (local) {
        if (local.expires > Date.now()) return local.state;
        memory.delete(key);
      }
      if (!store) return undefined;
      try {
        return (await store.get(key)) ?? undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** The states behind an answer's Previous and Next buttons: none where there is no page to turn to. */
export interface ButtonPages<State> {
  previous?: State;
  next?: State;
}

/** The buttons' custom ids (`<prefix>:<key>`), each page's state stored. */
export async function storedButtons(
  prefix: string,
  pages: ButtonPages<unknown>,
  buttons: ButtonStateStore,
): Promise<NavigationButtons> {
  const ids: NavigationButtons = {};
  if (pages.previous !== undefined) ids.previous = `${prefix}:${await buttons.put(pages.previous)}`;
  if (pages.next !== undefined) ids.next = `${prefix}:${await buttons.put(pages.next)}`;
  return ids;
}

/**
 * {@link storedButtons} at once, when this process stored each page's state lately (so storing
 * would write nothing); undefined when a state must be stored first.
 */
export function heldButtons(
  prefix: string,
  pages: ButtonPages<unknown>,
  buttons: ButtonStateStore,
): NavigationButtons | undefined {
  const ids: NavigationButtons = {};
  for (const side of ["previous", "next"] as const) {
    const state = pages[side];
    if (state === undefined) continue;
    const key = buttons.heldKey?.(state);
    if (key === undefined) return undefined;
    ids[side] = `${prefix}:${key}`;
  }
  return ids;
}

/**
 * The state behind a pressed button (`<prefix>:<key>`) when this process holds it (see
 * `ButtonStateStore.heldState`) and it is of the shape `schema` reads; else undefined, and the
 * press takes the steps (which tell of a button expired).
 */
export function heldButtonState<State>(
  buttons: ButtonStateStore,
  customId: string,
  prefix: string,
  schema: z.ZodType<State>,
): State | undefined {
  const held = buttons.heldState?.(customId.slice(prefix.length + 1));
  if (held === undefined) return undefined;
  const state = schema.safeParse(held);
  return state.success ? state.data : undefined;
}
