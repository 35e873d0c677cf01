import type { RecentRepositories } from "../answers/recentRepositories.js";
import type { Scout } from "../answers/scout.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { ButtonStateStore } from "./buttonState.js";

/** Per-server settings (SPEC `/settings`). */
export interface GuildSettingsService {
  /** Whether answers go into threads by default; false when unknown or unreadable. */
  getThreads(guildId: string): Promise<boolean>;
  setThreads(guildId: string, enabled: boolean): Promise<void>;
}

/** The server-token admin operations (SPEC `/token`). Never returns a token. */
export interface TokenAdminService {
  /** Whether a token can be stored at all (an encryption key is configured). */
  readonly canStore: boolean;
  /** Checks the token with a `viewer` query; stores it (encrypted) only if that succeeds. */
  verifyAndStore(guildId: string, token: string, setBy: string): Promise<{ login: string }>;
  /** @returns whether a token was stored. */
  clear(guildId: string): Promise<boolean>;
  status(guildId: string): Promise<{ login: string; setBy: string; setAt: string } | null>;
}

/**
 * Everything a command may use, handed to it as a parameter (STYLE.md habit 2): no command reaches
 * for a module-level client, cache or environment.
 */
export interface Services {
  config: Config;
  logger: Logger;
  scout: Scout;
  settings: GuildSettingsService;
  tokenAdmin: TokenAdminService;
  buttons: ButtonStateStore;
  recent: RecentRepositories;
  now(): Date;
}
