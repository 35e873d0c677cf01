import type { Logger } from "../logger.js";

/** Reports store failures to the log without flooding it. */
export interface OutageReporter {
  /** Records one failure; logs a warning unless one was logged less than a window ago. */
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
 * outage every command would otherwise log the same failure; this logs at most one warning per
 * `windowMs` and counts the failures it kept quiet, so the log still says how bad it was.
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
      failing = true;
      const at = now();
      if (lastWarnAt !== undefined && at - lastWarnAt < windowMs) {
        suppressed += 1;
        return;
      }
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
      // and the warning window is not reset, so flapping still logs once per window.
      const at = now();
      if (lastRecoveredAt !== undefined && at - lastRecoveredAt < windowMs) return;
      lastRecoveredAt = at;
      options.logger.info({ store: options.store, suppressed }, "store answers again");
    },
  };
}
