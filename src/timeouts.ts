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
export function settleWithin<T>(promise: Promise<T>, timeoutMs: number): Promise<Bounded<T>> {
  // One promise and one timer, no race of derived promises: every interaction goes through here.
  return new Promise<Bounded<T>>((resolve, reject) => {
    const timer = setTimeout(() => resolve({ timedOut: true }), timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve({ timedOut: false, value });
      },
      (error: unknown) => {
        clearTimeout(timer);
        // After the bound this settles nothing: the late rejection is handled, and dropped.
        reject(error);
      },
    );
  });
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
