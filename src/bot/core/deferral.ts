import { settlesWithin } from "../../timeouts.js";

/**
 * Discord refuses a first response after 3 s: answers not ready by this point are deferred, which
 * leaves the rest of the 3 s for the deferral itself to reach Discord whatever the network does.
 */
export const DEFER_AFTER_MS = 1_500;

/**
 * Runs `work`; when it is not done within `deferAfterMs`, sends `defer` first and then waits for
 * it. `deferred` says which happened; a failure of `work` is thrown either way.
 */
export async function withDeferral<T>(
  work: Promise<T>,
  defer: () => Promise<unknown>,
  deferAfterMs: number,
): Promise<{ value: T; deferred: boolean }> {
  if (await settlesWithin(work, deferAfterMs)) return { value: await work, deferred: false };
  await defer();
  return { value: await work, deferred: true };
}
