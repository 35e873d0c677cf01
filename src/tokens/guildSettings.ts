import type { DurableStore } from "../cache/guardedStore.js";
import { UserFacingError } from "../errors.js";
import type { Logger } from "../logger.js";

/** Per-server settings (SPEC `/settings`); the shape of the bot's `GuildSettingsService`. */
export interface GuildSettings {
  /** Whether answers go into threads by default; false when unset or when the store fails. */
  getThreads(guildId: string): Promise<boolean>;
  /** @throws SettingsStoreUnavailableError when the store fails. */
  setThreads(guildId: string, enabled: boolean): Promise<void>;
}

/** `/settings` could not save. */
export class SettingsStoreUnavailableError extends UserFacingError {
  readonly code = "settings_store_unavailable";
  constructor(options?: { cause?: unknown }) {
    super("RepoScout cannot save this server's settings right now. Try again in a moment.", options);
  }
}

/** One record per server; fields not known here are kept, so a newer setting survives an older writer. */
type SettingsRecord = Record<string, unknown> & { threads?: boolean; updatedAt?: string };

function asRecord(raw: unknown): SettingsRecord {
  return raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as SettingsRecord) : {};
}

/**
 * Creates the server settings over the durable `settings` namespace (`stores.durable("settings")`).
 * A failed read gives the default (threads off): answering in place is always possible, so unlike
 * the vault, nothing is lost by it. The store's own outage reporter warns about the failure; this
 * adds a debug line per read.
 */
export function createGuildSettings(store: DurableStore, logger?: Logger): GuildSettings {
  return {
    async getThreads(guildId) {
      try {
        return asRecord(await store.get(guildId)).threads === true;
      } catch (error) {
        logger?.debug({ guildId, err: error }, "guild settings unreadable: threads off");
        return false;
      }
    },
    async setThreads(guildId, enabled) {
      try {
        const record = asRecord(await store.get(guildId));
        await store.set(guildId, { ...record, threads: enabled, updatedAt: new Date().toISOString() });
      } catch (error) {
        logger?.error({ guildId, err: error }, "guild settings: write failed");
        throw new SettingsStoreUnavailableError({ cause: error });
      }
      logger?.info({ guildId, threads: enabled }, "guild settings: threads changed");
    },
  };
}
