import { randomBytes } from "node:crypto";

/**
 * Button state behind a short key. A custom id holds at most 100 characters, and a repository
 * name, a path and a commit id do not fit; the state lives in a store and the button carries
 * `<command>:<key>`.
 */
export interface ButtonStateStore {
  /** Stores a state; returns the key to put in the custom id. */
  put(state: unknown): Promise<string>;
  /** The state of a key, or undefined when unknown or expired. */
  get(key: string): Promise<unknown>;
}

/** A key-value store with TTLs, such as a Keyv namespace. */
export interface TtlStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown, ttlMs: number): Promise<unknown>;
}

/** Buttons stay usable for a week; after that the core says the button has expired. */
export const BUTTON_STATE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Creates a button-state store over a TTL store. A failed write falls back to process memory, so a
 * store outage makes buttons shorter-lived, never breaks an answer.
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
  return {
    async put(state) {
      const key = randomBytes(9).toString("base64url");
      if (store) {
        try {
          await store.set(key, state, ttlMs);
          return key;
        } catch {
          // fall through to memory
        }
      }
      remember(key, state);
      return key;
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
