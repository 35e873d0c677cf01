import type { CommandModule } from "../commandModule.js";
import type { Services } from "../services.js";
import type { Admission } from "./admission.js";
import type { Continuations } from "./continuation.js";
import type { DiscordClock } from "./discordClock.js";

/** What every handler of the core shares: the commands, the services and the lifecycle's parts. */
export interface CoreContext {
  /** Commands by name. */
  commands: ReadonlyMap<string, CommandModule>;
  /** Commands by the custom id prefix of their buttons and modals. */
  byPrefix: ReadonlyMap<string, CommandModule>;
  services: Services;
  /** How long an answer may take before the first response defers it. */
  deferAfterMs: number;
  /** Discord's time, by which interactions' ages are read (./discordClock.ts). */
  clock: DiscordClock;
  continuations: Continuations;
  /** The bound on work in flight: slots, then a queue, then "busy". */
  admission: Admission;
}

/** Indexes commands by their custom id prefixes (the part of a custom id before the first `:`). */
export function commandsByPrefix(commands: ReadonlyMap<string, CommandModule>): Map<string, CommandModule> {
  const byPrefix = new Map<string, CommandModule>();
  for (const module of commands.values()) {
    for (const prefix of module.customIdPrefixes ?? []) byPrefix.set(prefix, module);
  }
  return byPrefix;
}
