import { LRUCache } from "lru-cache";
import type { DurableStore } from "../cache/guardedStore.js";
import { UserFacingError } from "../errors.js";
import type { Logger } from "../logger.js";
import { withFields } from "../withFields.js";

/** Every setting of one server, as `/settings show` prints it. */
export interface GuildSettingsSnapshot {
  /** Answers go into a new thread unless a command says `thread:false` (`/settings threads`). */
  threads: boolean;
  /**
   * Answers drawn from private or internal repositories are posted in the channel, marked as
   * private, instead of only to the asker (`/settings private-answers in-channel:true`).
   */
  privateAnswersInChannel: boolean;
  /** Messages with GitHub links get an automatic preview (`/settings link-previews`, SPEC section 7). */
  linkPreviews: boolean;
  /** The repository a bare `#123` in a message refers to (`/settings repo`): `owner/name`. */
  defaultRepo: string | undefined;
  /** When an admin last changed a setting (ISO); undefined when never. */
  updatedAt: string | undefined;
}

/** Per-server settings (SPEC `/settings`); the shape of the bot's `GuildSettingsService`. */
export interface GuildSettings {
  /** Whether answers go into threads by default; false when unset or when the store fails. */
  getThreads(guildId: string): Promise<boolean>;
  /**
   * What {@link GuildSettings.getThreads} would give when this process read the server's settings
   * within the last {@link REMEMBER_MS}: at once. Undefined when the store must be asked.
   */
  heldThreads(guildId: string): boolean | undefined;
  /** @throws SettingsStoreUnavailableError when the store fails. */
  setThreads(guildId: string, enabled: boolean): Promise<void>;
  /**
   * Whether private answers may be posted in the server's channels; false when unset or when the
   * store fails, so an unreadable setting keeps private code to the asker (SPEC section 4).
   */
  getPrivateAnswersInChannel(guildId: string): Promise<boolean>;
  /** @throws SettingsStoreUnavailableError when the store fails. */
  setPrivateAnswersInChannel(guildId: string, inChannel: boolean): Promise<void>;
  /** Whether automatic link previews are on; false when unset or when the store fails. */
  getLinkPreviews(guildId: string): Promise<boolean>;
  /** @throws SettingsStoreUnavailableError when the store fails. */
  setLinkPreviews(guildId: string, enabled: boolean): Promise<void>;
  /** The server's default repository (`owner/name`); undefined when unset or when the store fails. */
  getDefaultRepo(guildId: string): Promise<string | undefined>;
  /** Sets (or, with undefined, clears) the default repository. @throws SettingsStoreUnavailableError */
  setDefaultRepo(guildId: string, repo: string | undefined): Promise<void>;
  /**
   * Every setting of the server, defaults filled in.
   * @throws SettingsStoreUnavailableError when the store fails: `/settings show` must not pass a
   *   default off as what the admins chose.
   */
  read(guildId: string): Promise<GuildSettingsSnapshot>;
  /**
   * Keeps beside the settings when the server's token was stored (undefined: cleared), so that a
   * token that vanished from its store (a Redis that forgot or evicted it) can be told from one
   * never set. A failure is logged, never thrown: the token itself is what matters.
   */
  markToken(guildId: string, storedAt: string | undefined): Promise<void>;
  /** When the server's token was last stored, as marked; undefined when never or cleared. */
  tokenStoredAt(guildId: string): Promise<string | undefined>;
}

/** `/settings` could not save, or `/settings show` could not read. */
export class SettingsStoreUnavailableError extends UserFacingError {
  readonly code = "settings_store_unavailable";
  readonly action: "save" | "read";
  constructor(options?: { cause?: unknown; action?: "save" | "read" }) {
    super(options?.cause === undefined ? undefined : { cause: options.cause });
    this.action = options?.action ?? "save";
  }
}

/** One record per server; fields not known here are kept, so a newer setting survives an older writer. */
type SettingsRecord = Record<string, unknown> & {
  threads?: boolean;
  privateAnswersInChannel?: boolean;
  linkPreviews?: boolean;
  defaultRepo?: string | null;
  updatedAt?: string;
};

function asRecord(raw: unknown): SettingsRecord {
  return raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as SettingsRecord) : {};
}

/** The settings a record holds, with the defaults (everything off) where it holds none. */
function snapshotOf(record: SettingsRecord): GuildSettingsSnapshot {
  return {
    threads: record.threads === true,
    privateAnswersInChannel: record.privateAnswersInChannel === true,
    linkPreviews: record.linkPreviews === true,
    defaultRepo: typeof record.defaultRepo === "string" ? record.defaultRepo : undefined,
    updatedAt: typeof record.updatedAt === "string" ? record.updatedAt : undefined,
  };
}

/** How long a read of a server's settings is trusted before the store is asked again. */
export const REMEMBER_MS = 10_000;

/**
 * Creates the server settings over the durable `settings` namespace (`stores.durable("settings")`).
 * A failed read gives the defaults (threads off, private answers to the asker only): answering in
 * place and privately is always possible, so unlike the vault, nothing is lost or leaked by it. The
 * store's own outage reporter warns about the failure; this adds a debug line per read.
 */
export function createGuildSettings(
  store: DurableStore,
  logger?: Logger,
  now: () => number = Date.now,
): GuildSettings {
  // Every answer reads its server's thread setting: a read is trusted for a few seconds, so a burst
  // does not read the store once per interaction. A change made here is seen here at once; one made
  // by another process on the same store, within REMEMBER_MS. (Whether private answers may go in
  // the channel is read fresh each time: it is asked only for private answers, and widens who
  // reads private code.)
  const remembered = new LRUCache<string, { snapshot: GuildSettingsSnapshot; readAt: number }>({
    max: 10_000,
  });

  /** The settings read within {@link REMEMBER_MS}, if any. */
  function held(guildId: string): GuildSettingsSnapshot | undefined {
    const known = remembered.get(guildId);
    return known && now() - known.readAt < REMEMBER_MS ? known.snapshot : undefined;
  }

  async function readOrDefaults(guildId: string, what: string): Promise<GuildSettingsSnapshot> {
    const known = held(guildId);
    if (known) return known;
    try {
      const snapshot = snapshotOf(asRecord(await store.get(guildId)));
      remembered.set(guildId, { snapshot, readAt: now() });
      return snapshot;
    } catch (error) {
      logger?.debug({ guildId, err: error }, `guild settings unreadable: ${what}`);
      return snapshotOf({});
    }
  }

  async function change(guildId: string, fields: Partial<SettingsRecord>): Promise<void> {
    try {
      const record = asRecord(await store.get(guildId));
      const next = Object.assign({}, record, fields, { updatedAt: new Date().toISOString() });
      await store.set(guildId, next);
      remembered.set(guildId, { snapshot: snapshotOf(next), readAt: now() });
    } catch (error) {
      remembered.delete(guildId);
      logger?.error({ guildId, err: error }, "guild settings: write failed");
      throw new SettingsStoreUnavailableError({ cause: error });
    }
    logger?.info({ guildId, ...fields }, "guild settings changed");
  }

  return {
    async getThreads(guildId) {
      return (await readOrDefaults(guildId, "threads off")).threads;
    },
    heldThreads: (guildId) => held(guildId)?.threads,
    async setThreads(guildId, enabled) {
      await change(guildId, { threads: enabled });
    },
    async getPrivateAnswersInChannel(guildId) {
      // Asked only for a private answer, and it widens who reads private code: always read fresh.
      try {
        return snapshotOf(asRecord(await store.get(guildId))).privateAnswersInChannel;
      } catch (error) {
        logger?.debug(
          { guildId, err: error },
          "guild settings unreadable: private answers to the asker only",
        );
        return false;
      }
    },
    async setPrivateAnswersInChannel(guildId, inChannel) {
      await change(guildId, { privateAnswersInChannel: inChannel });
    },
    async getLinkPreviews(guildId) {
      // Asked for every message with a GitHub link: the remembered read spares the store a burst.
      return (await readOrDefaults(guildId, "link previews off")).linkPreviews;
    },
    async setLinkPreviews(guildId, enabled) {
      await change(guildId, { linkPreviews: enabled });
    },
    async getDefaultRepo(guildId) {
      return (await readOrDefaults(guildId, "no default repository")).defaultRepo;
    },
    async setDefaultRepo(guildId, repo) {
      await change(guildId, { defaultRepo: repo ?? null });
    },
    async markToken(guildId, storedAt) {
      try {
        const record = asRecord(await store.get(guildId));
        await store.set(guildId, withFields(record, { tokenStoredAt: storedAt ?? null }));
      } catch (error) {
        logger?.warn({ guildId, err: error }, "guild settings: the token marker could not be written");
      }
    },
    async tokenStoredAt(guildId) {
      try {
        const marked = asRecord(await store.get(guildId)).tokenStoredAt;
        return typeof marked === "string" ? marked : undefined;
      } catch {
        return undefined;
      }
    },
    async read(guildId) {
      try {
        return snapshotOf(asRecord(await store.get(guildId)));
      } catch (error) {
        logger?.warn({ guildId, err: error }, "guild settings: read failed");
        throw new SettingsStoreUnavailableError({ cause: error, action: "read" });
      }
    },
  };
}
