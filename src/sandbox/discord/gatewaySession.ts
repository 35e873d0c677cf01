import type { WebSocket } from "ws";
import type { Deflate } from "node:zlib";

/** One WebSocket connection to the gateway. */
export interface Connection {
  socket: WebSocket;
  session: GatewaySession | null;
  zlibStream: Deflate | null;
  zlibChunks: Buffer[];
  identifyCompress: boolean;
  /** Dispatches handed to the socket whose write has not completed (the send window). */
  inflight: number;
}

/** One dispatch of a session's history: its data as JSON, or a builder of it (large, deterministic). */
interface HistoryEntry {
  s: number;
  t: string;
  json: string | null;
  build: (() => string) | null;
}

/**
 * A gateway session: its sequence numbers and the history of its dispatches, which is also its
 * send queue. A dispatch gets its `s` when it happens, whether or not a connection is there, so a
 * session that is disconnected keeps what it owes (interactions included) and hands it over on
 * RESUME in order, as Discord does. Entries already sent are dropped past `limit`; while
 * disconnected, the oldest are dropped past it (a later RESUME then fails: INVALID_SESSION).
 */
export class GatewaySession {
  readonly id: string;
  readonly intents: number;
  readonly shard: [number, number];
  /** The last sequence number given out. */
  sequence = 0;
  /** The last sequence number handed to the current connection. */
  sentUpTo = 0;
  connection: Connection | null;
  heartbeats = 0;
  resumes = 0;
  /** When the session lost its connection (for the resume timeout), or null while connected. */
  disconnectedAt: number | null = null;
  /** Dropped entries (before `head`) are cleared, so that they are freed before the compaction. */
  private entries: Array<HistoryEntry | undefined> = [];
  /** Index of the first live entry in `entries` (dropped ones before it are compacted away in bulk). */
  private head = 0;
  private readonly limit: number;

  constructor(input: {
    id: string;
    intents: number;
    shard: [number, number];
    connection: Connection;
    limit: number;
  }) {
    this.id = input.id;
    this.intents = input.intents;
    this.shard = input.shard;
    this.connection = input.connection;
    this.limit = input.limit;
  }

  /** The oldest sequence number still held (the next one when nothing is held). */
  oldestHeld(): number {
    return this.entries[this.head]?.s ?? this.sequence + 1;
  }

  /** How many dispatches the session holds. */
  held(): number {
    return this.entries.length - this.head;
  }

  /** Gives a dispatch the next sequence number and appends it (`json`: its data, serialized). */
  append(t: string, json: string): number {
    this.sequence++;
    this.entries.push({ s: this.sequence, t, json, build: null });
    this.prune();
    return this.sequence;
  }

  /** Appends a dispatch whose data is serialized when it is sent (and again if replayed). */
  appendBuilt(t: string, build: () => string): number {
    this.sequence++;
    this.entries.push({ s: this.sequence, t, json: null, build });
    this.prune();
    return this.sequence;
  }

  /** Where the next connection starts: dispatches after `s` are sent (a RESUME's `seq`). */
  rewindTo(s: number): void {
    this.sentUpTo = s;
  }

  /** The payload text of the next dispatch not yet sent on this connection, or null. */
  takeNext(): string | null {
    const first = this.entries[this.head];
    if (!first) return null;
    const entry = this.entries[this.head + Math.max(0, this.sentUpTo + 1 - first.s)];
    if (!entry) return null;
    this.sentUpTo = entry.s;
    const json = entry.json ?? entry.build!();
    return `{"op":0,"t":${JSON.stringify(entry.t)},"s":${entry.s},"d":${json}}`;
  }

  private prune(): void {
    let live = this.entries.length - this.head;
    while (live > this.limit) {
      const oldest = this.entries[this.head]!;
      // While connected, what is not sent yet stays: it is the send queue.
      if (this.connection !== null && oldest.s > this.sentUpTo) break;
      this.entries[this.head] = undefined;
      this.head++;
      live--;
    }
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}
