/**
 * The one timeout race of the bot: the interaction core bounds its deferral, autocomplete and
 * drain with it, and the stores bound each operation with it.
 */

/** What {@link settleWithin} saw: the promise's value, or that time ran out first. */
export type Bounded<T> = { timedOut: false; value: T } | { timedOut: true };

/**
 * Waits for `promise` at most `timeoutMs`. A rejection before the bound rejects; after it, the
 * abandoned promise keeps running and its late rejection is swallowed, so it can never become an
 * unhandled rejection. The timer is cleared either way.
 */
export async function settleWithin<T>(promise: Promise<T>, timeoutMs: number): Promise<Bounded<T>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ timedOut: true }>((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), timeoutMs);
  });
  promise.catch(() => undefined);
  try {
    return await Promise.race([promise.then((value) => ({ timedOut: false as const, value })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether `promise` settles (fulfilled or rejected) within `timeoutMs`. */
export async function settlesWithin(promise: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  const bounded = await settleWithin(
    promise.then(
      () => undefined,
      () => undefined,
    ),
    timeoutMs,
  );
  return !bounded.timedOut;
}

/** `promise`'s value, or an error naming `what` when it takes longer than `timeoutMs`. */
export async function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  const bounded = await settleWithin(promise, timeoutMs);
  if (bounded.timedOut) throw new Error(`${what} took longer than ${timeoutMs} ms`);
  return bounded.value;
}
