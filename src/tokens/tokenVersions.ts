import { randomBytes } from "node:crypto";
import type { DurableStore } from "../cache/guardedStore.js";

/**
 * A version per server token and per person's sign-in, in the store every process shares (Redis):
 * whoever sets, clears, renews or signs out changes it, and every process compares it with the
 * version it read its token under before using a token it remembers. A token cleared in one process
 * is then dropped by all of them at their next command, not after their memory of it runs out.
 *
 * A version is a random value rather than a counter: only "changed" matters, and a plain write of
 * the durable store (no expiry, so an eviction policy that spares keys without a TTL keeps it)
 * needs no atomic increment.
 */
export interface TokenVersions {
  /**
   * The version `scope` (`guild:<id>`, `user:<id>`) is at; "" for one never changed.
   * @throws when the shared store cannot be asked: then nobody can tell whether the token was
   *   cleared elsewhere, and a remembered token must not be used.
   */
  current(scope: string): Promise<string>;
  /** Changes the version of `scope`. @returns the new one. @throws when the store cannot take it. */
  bump(scope: string): Promise<string>;
}

/** Versions kept in a durable namespace of the shared stores (`token-versions`). */
export function createTokenVersions(store: DurableStore): TokenVersions {
  return {
    async current(scope) {
      const value = await store.get(scope);
      return typeof value === "string" ? value : "";
    },
    async bump(scope) {
      const version = randomBytes(8).toString("hex");
      await store.set(scope, version);
      return version;
    },
  };
}
