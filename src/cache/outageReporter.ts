import type { Logger } from "../logger.js";

/** Reports store failures to the log without flooding it. */
export interface OutageReporter {
  /** Records one failure; logs a warning when it begins an outage (and the store is not flapping). */
  failure(operation: string, error: unknown): void;
  /** Records a success: after an outage, logs once that the store answers again. */
  recovered(): void;
}

/** What a failure looks like in the log: the error's class and message, never a value or a key. */
export function describeStoreError(error: unknown): { name: string; message: string; code?: string } {
  if (error instanceof Error) {
    const code = (error as Error & { code?: unknown }).code;
    return {
      name: error.name,
      message: error.message,
      ...(typeof code === "string" ? { code } : {}),
    };
  }
  return { name: typeof error, message: String(error) };
}

/**
 * Creates the outage reporter of one store (one Redis connection, one SQLite file). During an
 * outage every command would otherwise log the same failure; this logs one warning when an outage
 * begins and one line when the store answers again, with the number of failures it kept quiet in
 * between. A flapping store (an outage beginning within `windowMs` of the last warning) adds no
 * new warning: its failures are counted into the next line.
 */
export function createOutageReporter(options: {
  logger: Logger;
  /** The store's name in the log (`redis`, `sqlite:cache`...). */
  store: string;
  windowMs?: number;
  now?: () => number;
}): OutageReporter {
  const windowMs = options.windowMs ?? 30_000;
  const now = options.now ?? Date.now;
  let lastWarnAt: number | undefined;
  let lastRecoveredAt: number | undefined;
  let suppressed = 0;
  let failing = false;
  return {
    failure(operation, error) {
      const at = now();
      const flapping = lastWarnAt !== undefined && at - lastWarnAt < windowMs;
      if (failing || flapping) {
        failing = true;
        suppressed += 1;
        return;
      }
      failing = true;
      options.logger.warn(
        { store: options.store, operation, cause: describeStoreError(error), suppressed },
        "store unavailable: reads count as misses until it answers again",
      );
      lastWarnAt = at;
      suppressed = 0;
    },
    recovered() {
      if (!failing) return;
      failing = false;
      // A flapping store alternates failures and successes: the recovery line is rate-limited too,
      // and what it kept quiet is counted into the next line.
      const at = now();
      if (lastRecoveredAt !== undefined && at - lastRecoveredAt < windowMs) return;
      lastRecoveredAt = at;
      options.logger.info({ store: options.store, suppressed }, "store answers again");
      suppressed = 0;
    },
  };
}
