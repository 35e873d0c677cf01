import { UserFacingError } from "../errors.js";

/**
 * An `/owners` answer costs more GitHub points than the token has left (`token`), or than this
 * server's or user's share of the shared default token allows (`share`). Nothing was sent for it.
 */
export class OwnersBudgetError extends UserFacingError {
  readonly code = "owners_budget";
  constructor(
    readonly reason: "token" | "share",
    /** Points the answer would cost. */
    readonly cost: number,
    /** Files it would blame. */
    readonly files: number,
    /** When the budget refills. */
    readonly until: Date | null,
  ) {
    super();
  }
}
