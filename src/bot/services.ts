import type { LatestOnly } from "../answers/latestOnly.js";
import type { Scout } from "../answers/scout.js";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import type { SignInService } from "../signin/signInService.js";
import type { GuildSettingsSnapshot } from "../tokens/guildSettings.js";
import type { Coordination } from "../cache/coordination.js";
import type { DurableStore } from "../cache/guardedStore.js";
import type { ButtonStateStore } from "./buttonState.js";
import type { RenderedAnswers } from "./renderedAnswers.js";

/** Per-server settings (SPEC `/settings`). */
export interface GuildSettingsService {
  /** Whether answers go into threads by default; false when unknown or unreadable. */
  getThreads(guildId: string): Promise<boolean>;
  /** What `getThreads` would give, when this process holds it (read within seconds); else undefined. */
  heldThreads?(guildId: string): boolean | undefined;
  setThreads(guildId: string, enabled: boolean): Promise<void>;
  /** Whether private answers may be posted in the channels; false when unknown or unreadable. */
  getPrivateAnswersInChannel(guildId: string): Promise<boolean>;
  setPrivateAnswersInChannel(guildId: string, inChannel: boolean): Promise<void>;
  /** Whether messages with GitHub links get automatic previews; false when unknown or unreadable. */
  getLinkPreviews(guildId: string): Promise<boolean>;
  setLinkPreviews(guildId: string, enabled: boolean): Promise<void>;
  /** The repository a bare `#123` refers to (`owner/name`); undefined when unset or unreadable. */
  getDefaultRepo(guildId: string): Promise<string | undefined>;
  setDefaultRepo(guildId: string, repo: string | undefined): Promise<void>;
  /** Every setting of the server (`/settings show`); throws when the store cannot be read. */
  read(guildId: string): Promise<GuildSettingsSnapshot>;
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
  /**
   * When the server's token was stored, if it is missing from its store although it was never
   * cleared (the store lost it); undefined otherwise. Logged once per server.
   */
  lostAt(guildId: string): Promise<string | undefined>;
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
  /** People's own GitHub sign-in (`/login`, `/logout`). */
  signIn: SignInService;
  buttons: ButtonStateStore;
  /**
   * What automatic link previews share with every process on the same stores (SPEC sections 6
   * and 7): claims for the per-channel rules, and which preview answers which message.
   */
  previews: { claims: Coordination; replies: DurableStore };
  /** Autocomplete's upstream lookups, per user: only the latest keystroke goes upstream. */
  lookups: LatestOnly;
  /** Rendered answers kept in process: a repeat of a cached answer is not formatted again. */
  rendered: RenderedAnswers;
  now(): Date;
}
