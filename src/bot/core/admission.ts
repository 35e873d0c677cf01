import { UserFacingError } from "../../errors.js";

/** The bot has more work than it takes on: the interaction is answered with this, not queued. */
export class BusyError extends UserFacingError {
  readonly code = "busy";
  /**
   * @param reason `full`: the queue was full when the interaction arrived; `waitedTooLong`: it
   *   waited in the queue until too little of its token's 15 minutes was left to answer.
   */
  constructor(readonly reason: "full" | "waitedTooLong") {
    super();
  }
}

/** Frees the slot an interaction's work held. */
export type Release = () => void;

/** What {@link Admission.enter} gives: a slot now, a place in the queue, or nothing (full). */
export type Entry = { kind: "now"; release: Release } | { kind: "queued"; slot: Promise<Release> } | null;

export interface AdmissionOptions {
  /** Interactions whose work runs at once (GitHub calls, formatting, delivery). */
  maxActive: number;
  /** Interactions waiting for a slot; past this, new ones are told the bot is busy. */
  maxQueued: number;
}

/**
 * Bounds the work in flight: at most `maxActive` interactions work at once, the next `maxQueued`
 * wait in arrival order, and the rest are refused at once. A burst then costs bounded memory and
 * CPU, and acknowledgements (sent before any of this work) are never late behind it.
 */
export class Admission {
  private active = 0;
  private readonly queue: Array<(release: Release) => void> = [];

  constructor(private readonly options: AdmissionOptions) {
    if (!(options.maxActive >= 1) || !(options.maxQueued >= 0)) throw new Error("invalid admission bounds");
  }

  /** Takes a slot when one is free, else a place in the queue, else null (busy). */
  enter(): Entry {
    if (this.active < this.options.maxActive) {
      this.active++;
      return { kind: "now", release: this.releaser() };
    }
    if (this.queue.length >= this.options.maxQueued) return null;
    return { kind: "queued", slot: new Promise<Release>((resolve) => this.queue.push(resolve)) };
  }

  /** Interactions working now. */
  activeCount(): number {
    return this.active;
  }

  /** Interactions waiting for a slot. */
  queuedCount(): number {
    return this.queue.length;
  }

  /** True once every slot is taken: the next interaction waits its turn, so acknowledge it at once. */
  underPressure(): boolean {
    return this.active >= this.options.maxActive;
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      // The slot passes straight to the next in line: `active` stays as it is.
      if (next) next(this.releaser());
      else this.active--;
    };
  }
}
