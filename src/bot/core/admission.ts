import { UserFacingError } from "../../errors.js";

/** The bot has more work than it takes on: the interaction is answered with this, not queued. */
export class BusyError extends UserFacingError {
  readonly code = "busy";
  /**
   * @param reason `full`: the queue was full when the interaction arrived; `waitedTooLong`: it
   *   waited in the queue until too little of its token's 15 minutes was left to answer;
   *   `perUser` / `perServer`: the asker, or their server, already had as much running and waiting
   *   as one may.
   */
  constructor(readonly reason: "full" | "waitedTooLong" | "perUser" | "perServer") {
    super();
  }
}

/** Frees the slot an interaction's work held. */
export type Release = () => void;

/** What {@link Admission.enter} gives: a slot now, a place in the queue, or why not. */
export type Entry =
  | { kind: "now"; release: Release }
  | { kind: "queued"; slot: Promise<Release> }
  | { kind: "refused"; reason: "full" | "perUser" | "perServer" };

/** Whose work it is: the asker, and their server (null in a DM or a user install's reach). */
export interface Asking {
  userId: string;
  guildId: string | null;
}

export interface AdmissionOptions {
  /** Interactions whose work runs at once (GitHub calls, formatting, delivery). */
  maxActive: number;
  /** Interactions waiting for a slot; past this, new ones are told the bot is busy. */
  maxQueued: number;
  /** What one person may have running and waiting at once (default: no bound of its own). */
  maxPerUser?: number;
  /** What one server may have running and waiting at once (default: no bound of its own). */
  maxPerServer?: number;
}

/**
 * Zero counts kept before they are swept: a person or server that just finished usually asks again
 * soon, and their entry is then reused instead of deleted and added again.
 */
export const ZERO_COUNTS_KEPT = 1_024;

/**
 * A count per key (person, server). A key whose count falls to zero stays, at zero, until
 * {@link ZERO_COUNTS_KEPT} such keys are kept, and then all of them go at once: deleting each key the
 * moment it reaches zero would rebuild the map's table every few interactions, and a map that
 * outlives a few collections has its tables rebuilt in V8's old generation, as garbage for the full
 * collections (see ./inFlight.ts). Kept zeros cost at most some 100 KB.
 */
class Counts {
  private readonly counts = new Map<string, number>();
  private zeros = 0;

  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  add(key: string, delta: number): void {
    const before = this.counts.get(key);
    const next = Math.max(0, (before ?? 0) + delta);
    if (before === 0 && next > 0) this.zeros--;
    else if (before !== 0 && next === 0) this.zeros++;
    this.counts.set(key, next);
    if (this.zeros > ZERO_COUNTS_KEPT) {
      for (const [kept, count] of this.counts) if (count === 0) this.counts.delete(kept);
      this.zeros = 0;
    }
  }

  /** Keys held, zeros included (for tests). */
  get size(): number {
    return this.counts.size;
  }
}

/** Who asks when nobody is named (tests of the global bounds): one person, no server. */
const NOBODY: Asking = { userId: "", guildId: null };

/**
 * Waiting work served in turns: server by server, and within a server person by person, each
 * person's own in arrival order. One person's flood then delays another person by at most one
 * turn per person waiting, not by the whole flood. (A Map keeps insertion order: taking the first
 * key and putting it back at the end is the rotation.)
 */
class FairQueue<T> {
  private readonly servers = new Map<string, Map<string, T[]>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(server: string, user: string, item: T): void {
    let users = this.servers.get(server);
    if (!users) {
      users = new Map();
      this.servers.set(server, users);
    }
    const items = users.get(user);
    if (items) items.push(item);
    else users.set(user, [item]);
    this.count++;
  }

  /** The next item in turn, or undefined when nothing waits. */
  shift(): T | undefined {
    const next = this.servers.entries().next();
    if (next.done) return undefined;
    const [server, users] = next.value;
    const [user, items] = users.entries().next().value as [string, T[]];
    const item = items.shift() as T;
    this.count--;
    // Both go to the back of their line: the next server's turn, and this server's next person's.
    users.delete(user);
    if (items.length > 0) users.set(user, items);
    this.servers.delete(server);
    if (users.size > 0) this.servers.set(server, users);
    return item;
  }
}

/**
 * Bounds the work in flight: at most `maxActive` interactions work at once, the next `maxQueued`
 * wait, and the rest are refused at once. A burst then costs bounded memory and CPU, and
 * acknowledgements (sent before any of this work) are never late behind it.
 *
 * Fairness: one person may have at most `maxPerUser` running and waiting, one server
 * `maxPerServer`; what waits is served server by server and person by person ({@link FairQueue}),
 * so someone flooding the bot fills neither the slots nor the queue that others wait in.
 */
export class Admission {
  private active = 0;
  /** Waiting interactions, each a function that hands it the slot being passed on. */
  private readonly queue = new FairQueue<() => void>();
  /** Running and waiting interactions per person and per server (absent or zero: none). */
  private readonly perUser = new Counts();
  private readonly perServer = new Counts();

  constructor(private readonly options: AdmissionOptions) {
    if (!(options.maxActive >= 1) || !(options.maxQueued >= 0)) throw new Error("invalid admission bounds");
    if (!((options.maxPerUser ?? 1) >= 1) || !((options.maxPerServer ?? 1) >= 1)) {
      throw new Error("invalid admission bounds");
    }
  }

  /** Takes a slot when one is free, else a place in the queue, else says why not. */
  enter(asking: Asking = NOBODY): Entry {
    const user = asking.userId;
    // A DM has no server: the person is their own, so DMs never share one bound.
    const server = asking.guildId ?? `user:${asking.userId}`;
    if (this.perUser.get(user) >= (this.options.maxPerUser ?? Infinity)) {
      return { kind: "refused", reason: "perUser" };
    }
    if (this.perServer.get(server) >= (this.options.maxPerServer ?? Infinity)) {
      return { kind: "refused", reason: "perServer" };
    }
    if (this.active < this.options.maxActive) {
      this.active++;
      this.count(user, server, 1);
      return { kind: "now", release: this.releaser(user, server) };
    }
    if (this.queue.size >= this.options.maxQueued) return { kind: "refused", reason: "full" };
    this.count(user, server, 1);
    return {
      kind: "queued",
      slot: new Promise<Release>((resolve) =>
        this.queue.push(server, user, () => resolve(this.releaser(user, server))),
      ),
    };
  }

  /** Interactions working now. */
  activeCount(): number {
    return this.active;
  }

  /** Interactions waiting for a slot. */
  queuedCount(): number {
    return this.queue.size;
  }

  /** True once every slot is taken: the next interaction waits its turn in the queue. */
  underPressure(): boolean {
    return this.active >= this.options.maxActive;
  }

  private count(user: string, server: string, delta: number): void {
    this.perUser.add(user, delta);
    this.perServer.add(server, delta);
  }

  /** People and servers whose counts are held, zeros included (for tests). */
  countsHeld(): { users: number; servers: number } {
    return { users: this.perUser.size, servers: this.perServer.size };
  }

  /**
   * The release of one interaction's slot: it stops counting for its person and server, and the
   * slot passes straight to the next in turn (`active` stays as it is), else is freed.
   */
  private releaser(user: string, server: string): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.count(user, server, -1);
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    };
  }
}
