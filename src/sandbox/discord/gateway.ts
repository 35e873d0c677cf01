// Over 300 lines: the gateway protocol's state machine (hello, identify, heartbeat, resume, sharding, close codes) reads best as one.
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { constants as zlibConstants, createDeflate, deflateSync } from "node:zlib";
import {
  GatewayCloseCodes,
  GatewayDispatchEvents,
  GatewayIntentBits,
  GatewayOpcodes,
  type ApplicationFlags,
  type GatewayReadyDispatchData,
} from "discord-api-types/v10";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { GatewaySession, type Connection } from "./gatewaySession.js";
import { guildCreatePayload } from "./guildPayload.js";
import { isRecord, merged } from "./json.js";
import { currentUser } from "./routes/userRoutes.js";
import type { DiscordState, DispatchRequest } from "./state.js";

/** Intents Discord treats as privileged (members, presences, message content). */
const PRIVILEGED_INTENTS =
  GatewayIntentBits.GuildMembers | GatewayIntentBits.GuildPresences | GatewayIntentBits.MessageContent;
/** Every intent bit Discord defines; others make the identify invalid (4013). */
const KNOWN_INTENTS = Object.values(GatewayIntentBits)
  .filter((value): value is number => typeof value === "number")
  .reduce((all, bit) => all | bit, 0);
/** Dispatches handed to a socket at once; the next go when writes complete (backpressure). */
const SEND_WINDOW = 64;
const TRACE = ['["gateway-stand-in",{"micros":0}]'];

/** What a test can see of a gateway session. */
export interface GatewaySessionInfo {
  sessionId: string;
  intents: number;
  shard: [number, number];
  sequence: number;
  connected: boolean;
  heartbeats: number;
  resumes: number;
  /** Dispatches held for replay (and not yet sent, while streaming or disconnected). */
  held: number;
}

/** Where an INTERACTION_CREATE went. */
export interface GatewayDelivery {
  sessionId: string;
  shard: [number, number];
  /** The session was disconnected: the interaction waits in its queue for a RESUME. */
  queued: boolean;
}

/** Options of the gateway. */
export interface GatewayOptions {
  /** `heartbeat_interval` in HELLO (Discord sends about 41,250 ms). */
  heartbeatIntervalMs: number;
  /** Privileged intents the application has enabled in its settings (default none). */
  privilegedIntents: number;
  /** `max_concurrency`: IDENTIFYs allowed per window, one per bucket `shard_id % max_concurrency`. */
  maxConcurrency: number;
  /** The IDENTIFY window (Discord: 5,000 ms); 0 turns the limit off. */
  identifyWindowMs: number;
  /** Guilds one session may hold before IDENTIFY closes with 4011 Sharding required (Discord: 2,500). */
  maxGuildsPerShard: number;
  /** How long a disconnected session can still be resumed. */
  resumeTimeoutMs: number;
  /** Dispatches a session keeps for replay on RESUME. */
  replayLimit: number;
}

/** The shard a guild's events go to: `(guild_id >> 22) % shard_count`. */
export function shardOf(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/**
 * The stand-in's gateway: HELLO, IDENTIFY (token, intents, shard and the identify rate checked,
 * with Discord's close codes) then READY and one GUILD_CREATE per guild of the session's shard,
 * streamed with backpressure; heartbeats and their ACKs; RESUME with replay of every dispatch the
 * session missed (interactions included) then RESUMED; dispatches from the state to the sessions
 * of the right shard whose intents allow them. Tests can send RECONNECT, INVALID_SESSION or any
 * opcode, and close connections with a given code.
 */
export class GatewayServer {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sessions = new Map<string, GatewaySession>();
  private readonly connections = new Set<Connection>();
  private readonly state: DiscordState;
  private readonly options: GatewayOptions;
  private readonly stopListening: () => void;
  /** Last IDENTIFY per rate-limit bucket (`shard_id % max_concurrency`). */
  private readonly identifiedAt = new Map<number, number>();
  private roundRobin = 0;

  constructor(state: DiscordState, options: GatewayOptions) {
    this.state = state;
    this.options = options;
    this.wss.on("connection", (socket: WebSocket, request: IncomingMessage) =>
      this.onConnection(socket, request),
    );
    this.stopListening = state.onDispatch((request) => this.deliver(request));
  }

  /** Takes over an HTTP upgrade request for the gateway path. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(request, socket, head, (client) => this.wss.emit("connection", client, request));
  }

  /** Sessions that are identified (connected or waiting to resume). */
  sessionInfo(): GatewaySessionInfo[] {
    this.expireSessions();
    return [...this.sessions.values()].map((session) => ({
      sessionId: session.id,
      intents: session.intents,
      shard: session.shard,
      sequence: session.sequence,
      connected: session.connection !== null,
      heartbeats: session.heartbeats,
      resumes: session.resumes,
      held: session.held(),
    }));
  }

  /** How many sessions are connected and identified (able to receive an interaction now). */
  readySessionCount(): number {
    let count = 0;
    for (const session of this.sessions.values()) if (session.connection !== null) count++;
    return count;
  }

  /**
   * Hands an INTERACTION_CREATE to one session of the shard its guild lives on (DMs: shard 0):
   * a connected one (round-robin when several share the shard), else the latest disconnected
   * session that can still resume, which queues it for its RESUME.
   * @returns where it went, or null when no session of that shard exists.
   */
  deliverInteraction(payload: unknown, guildId: string | null): GatewayDelivery | null {
    this.expireSessions();
    const candidates = [...this.sessions.values()].filter((session) => this.onShard(session, guildId));
    const connected = candidates.filter((session) => session.connection !== null);
    let chosen: GatewaySession | undefined;
    if (connected.length > 0) chosen = connected[this.roundRobin++ % connected.length];
    else chosen = candidates.sort((a, b) => (b.disconnectedAt ?? 0) - (a.disconnectedAt ?? 0))[0];
    if (!chosen) return null;
    this.dispatchTo(chosen, GatewayDispatchEvents.InteractionCreate, JSON.stringify(payload));
    return { sessionId: chosen.id, shard: chosen.shard, queued: chosen.connection === null };
  }

  /**
   * Sends an opcode to every connected client: RECONNECT (7), INVALID_SESSION (9, with `d` true
   * when resumable; a false one also forgets the sessions), HEARTBEAT (1, asks for a heartbeat now),
   * or any other payload.
   */
  sendOp(op: number, d: unknown = null): void {
    for (const connection of this.connections) {
      this.sendControl(connection, { op, d, s: null, t: null });
      if (op === GatewayOpcodes.InvalidSession && d !== true && connection.session) {
        this.sessions.delete(connection.session.id);
        connection.session = null;
      }
    }
  }

  /** Closes every connection with a close code (4000 and most others invite a RESUME). */
  closeConnections(code: number, reason = ""): void {
    for (const connection of this.connections) connection.socket.close(code, reason);
  }

  /** Closes every connection and stops the gateway. */
  async close(): Promise<void> {
    this.stopListening();
    for (const connection of this.connections) connection.socket.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private onShard(session: GatewaySession, guildId: string | null): boolean {
    const [id, count] = session.shard;
    return guildId === null ? id === 0 : shardOf(guildId, count) === id;
  }

  /** Forgets disconnected sessions past the resume timeout (Discord: "a few minutes"). */
  private expireSessions(): void {
    const now = Date.now();
    for (const session of this.sessions.values()) {
      if (session.disconnectedAt !== null && now - session.disconnectedAt > this.options.resumeTimeoutMs)
        this.sessions.delete(session.id);
    }
  }

  private onConnection(socket: WebSocket, request: IncomingMessage): void {
    const url = new URL(request.url ?? "/", "http://stand-in.invalid");
    const connection: Connection = {
      socket,
      session: null,
      zlibStream: null,
      zlibChunks: [],
      identifyCompress: false,
      inflight: 0,
    };
    this.connections.add(connection);
    socket.on("close", (code: number) => {
      this.connections.delete(connection);
      connection.zlibStream?.close();
      const session = connection.session;
      if (session?.connection === connection) {
        session.connection = null;
        session.disconnectedAt = Date.now();
        // A client closing with 1000 or 1001 ends its session: it cannot be resumed.
        if (code === 1000 || code === 1001) this.sessions.delete(session.id);
      }
    });
    socket.on("message", (data: RawData, isBinary: boolean) => this.onMessage(connection, data, isBinary));
    const version = url.searchParams.get("v") ?? "10";
    if (version !== "10" && version !== "9") {
      socket.close(GatewayCloseCodes.InvalidAPIVersion, "Invalid API version");
      return;
    }
    if ((url.searchParams.get("encoding") ?? "json") !== "json") {
      socket.close(GatewayCloseCodes.DecodeError, "Only JSON encoding is served here");
      return;
    }
    if (url.searchParams.get("compress") === "zlib-stream") {
      const stream = createDeflate();
      stream.on("data", (chunk: Buffer) => connection.zlibChunks.push(chunk));
      connection.zlibStream = stream;
    }
    this.sendControl(connection, {
      op: GatewayOpcodes.Hello,
      d: { heartbeat_interval: this.options.heartbeatIntervalMs, _trace: TRACE },
      s: null,
      t: null,
    });
  }

  /** Sends a payload outside the sequence (HELLO, ACK, RECONNECT, INVALID_SESSION). */
  private sendControl(connection: Connection, payload: object): void {
    this.sendText(connection, JSON.stringify(payload), () => undefined);
  }

  /** Writes one payload; `done` runs once the socket took it (or it was dropped). */
  private sendText(connection: Connection, text: string, done: () => void): void {
    const { socket } = connection;
    if (socket.readyState !== socket.OPEN) {
      done();
      return;
    }
    if (connection.zlibStream) {
      const stream = connection.zlibStream;
      stream.write(text);
      // Each payload ends with a sync flush (00 00 ff ff), which is how clients find its end.
      stream.flush(zlibConstants.Z_SYNC_FLUSH, () => {
        const out = Buffer.concat(connection.zlibChunks);
        connection.zlibChunks = [];
        if (socket.readyState === socket.OPEN) socket.send(out, () => done());
        else done();
      });
    } else if (connection.identifyCompress) {
      socket.send(deflateSync(text), () => done());
    } else {
      socket.send(text, () => done());
    }
  }

  /** Sends what the session owes its connection, keeping at most SEND_WINDOW writes pending. */
  private pump(session: GatewaySession): void {
    const connection = session.connection;
    if (!connection) return;
    while (connection.inflight < SEND_WINDOW) {
      const text = session.takeNext();
      if (text === null) return;
      connection.inflight++;
      this.sendText(connection, text, () => {
        connection.inflight--;
        if (session.connection === connection) this.pump(session);
      });
    }
  }

  private onMessage(connection: Connection, data: RawData, isBinary: boolean): void {
    let payload: unknown;
    try {
      const text = Array.isArray(data)
        ? Buffer.concat(data).toString("utf8")
        : Buffer.from(data as ArrayBuffer).toString("utf8");
      if (isBinary && text.length === 0) throw new Error("empty");
      payload = JSON.parse(text);
    } catch {
      connection.socket.close(GatewayCloseCodes.DecodeError, "Error while decoding payload.");
      return;
    }
    if (!isRecord(payload) || typeof payload.op !== "number") {
      connection.socket.close(GatewayCloseCodes.DecodeError, "Error while decoding payload.");
      return;
    }
    switch (payload.op) {
      case GatewayOpcodes.Heartbeat:
        if (connection.session) connection.session.heartbeats++;
        this.sendControl(connection, { op: GatewayOpcodes.HeartbeatAck, d: null, s: null, t: null });
        return;
      case GatewayOpcodes.Identify:
        this.identify(connection, payload.d);
        return;
      case GatewayOpcodes.Resume:
        this.resume(connection, payload.d);
        return;
      case GatewayOpcodes.PresenceUpdate:
      case GatewayOpcodes.VoiceStateUpdate:
      case GatewayOpcodes.RequestGuildMembers:
      case GatewayOpcodes.RequestSoundboardSounds:
        if (!connection.session)
          connection.socket.close(GatewayCloseCodes.NotAuthenticated, "Not authenticated.");
        return;
      default:
        connection.socket.close(GatewayCloseCodes.UnknownOpcode, "Unknown opcode.");
    }
  }

  private authenticated(connection: Connection, d: unknown): d is Record<string, unknown> {
    const { socket } = connection;
    if (connection.session) {
      socket.close(GatewayCloseCodes.AlreadyAuthenticated, "Already authenticated.");
      return false;
    }
    if (
      !isRecord(d) ||
      typeof d.token !== "string" ||
      d.token.replace(/^Bot /, "") !== this.state.options.botToken
    ) {
      socket.close(GatewayCloseCodes.AuthenticationFailed, "Authentication failed.");
      return false;
    }
    return true;
  }

  /**
   * Discord lets `max_concurrency` IDENTIFYs through per 5 seconds, one per bucket
   * `shard_id % max_concurrency`; past it the gateway answers INVALID_SESSION (d: false).
   */
  private identifyAllowed(shardId: number): boolean {
    if (this.options.identifyWindowMs <= 0) return true;
    const bucket = shardId % this.options.maxConcurrency;
    const now = Date.now();
    const last = this.identifiedAt.get(bucket);
    if (last !== undefined && now - last < this.options.identifyWindowMs) return false;
    this.identifiedAt.set(bucket, now);
    return true;
  }

  private identify(connection: Connection, d: unknown): void {
    const { socket } = connection;
    if (!this.authenticated(connection, d)) return;
    if (typeof d.intents !== "number" || !Number.isInteger(d.intents) || (d.intents & ~KNOWN_INTENTS) !== 0) {
      socket.close(GatewayCloseCodes.InvalidIntents, "Invalid intent(s).");
      return;
    }
    if ((d.intents & PRIVILEGED_INTENTS & ~this.options.privilegedIntents) !== 0) {
      socket.close(GatewayCloseCodes.DisallowedIntents, "Disallowed intent(s).");
      return;
    }
    let shard: [number, number] = [0, 1];
    if (d.shard !== undefined) {
      const [id, count] = Array.isArray(d.shard) ? d.shard : [];
      if (
        !Number.isInteger(id) ||
        !Number.isInteger(count) ||
        (count as number) < 1 ||
        (id as number) < 0 ||
        (id as number) >= (count as number)
      ) {
        socket.close(GatewayCloseCodes.InvalidShard, "Invalid shard.");
        return;
      }
      shard = [id as number, count as number];
    }
    const guildIds: string[] = [];
    for (const guildId of this.state.botGuildIds())
      if (shardOf(guildId, shard[1]) === shard[0]) guildIds.push(guildId);
    if (guildIds.length > this.options.maxGuildsPerShard) {
      socket.close(GatewayCloseCodes.ShardingRequired, "Sharding required.");
      return;
    }
    if (!this.identifyAllowed(shard[0])) {
      this.sendControl(connection, { op: GatewayOpcodes.InvalidSession, d: false, s: null, t: null });
      return;
    }
    this.state.sessionStarts.used++;
    connection.identifyCompress = d.compress === true && !connection.zlibStream;
    const session = new GatewaySession({
      id: randomBytes(16).toString("hex"),
      intents: d.intents,
      shard,
      connection,
      limit: this.options.replayLimit,
    });
    this.sessions.set(session.id, session);
    connection.session = session;
    const ready: GatewayReadyDispatchData & Record<string, unknown> = {
      v: 10,
      user_settings: {},
      user: currentUser(this.state),
      guilds: guildIds.map((id) => ({ id, unavailable: true })),
      guild_join_requests: [],
      relationships: [],
      private_channels: [],
      presences: [],
      session_id: session.id,
      session_type: "normal",
      resume_gateway_url: this.state.gatewayUrl,
      shard,
      application: { id: this.state.applicationId, flags: 0 as ApplicationFlags, flags_new: "0" },
      geo_ordered_rtc_regions: ["local"],
      auth: {},
      _trace: TRACE,
    };
    this.dispatchTo(session, GatewayDispatchEvents.Ready, JSON.stringify(ready));
    // Every guild at once, as GUILD_CREATEs built when their turn to be sent comes: discord.js
    // waits (15 s by default) for every guild READY lists, and thousands of generated guilds must
    // not sit in memory as text.
    if ((session.intents & GatewayIntentBits.Guilds) !== 0) {
      for (const guildId of guildIds) {
        session.appendBuilt(GatewayDispatchEvents.GuildCreate, () => {
          const guild = this.state.peekGuild(guildId);
          return JSON.stringify(
            guild ? guildCreatePayload(this.state, guild) : { id: guildId, unavailable: true },
          );
        });
      }
      this.pump(session);
    }
  }

  private resume(connection: Connection, d: unknown): void {
    const { socket } = connection;
    if (!this.authenticated(connection, d)) return;
    this.expireSessions();
    const session = typeof d.session_id === "string" ? this.sessions.get(d.session_id) : undefined;
    if (!session) {
      this.sendControl(connection, { op: GatewayOpcodes.InvalidSession, d: false, s: null, t: null });
      return;
    }
    const seq = typeof d.seq === "number" ? d.seq : 0;
    if (seq > session.sequence) {
      socket.close(GatewayCloseCodes.InvalidSeq, "Invalid seq.");
      return;
    }
    if (seq + 1 < session.oldestHeld()) {
      // The events to replay are gone: the session cannot be resumed.
      this.sessions.delete(session.id);
      this.sendControl(connection, { op: GatewayOpcodes.InvalidSession, d: false, s: null, t: null });
      return;
    }
    if (session.connection && session.connection !== connection)
      session.connection.socket.close(4000, "Session resumed elsewhere");
    session.connection = connection;
    session.disconnectedAt = null;
    session.resumes++;
    session.rewindTo(seq);
    connection.session = session;
    // Missed dispatches go first, in order and with their own `s`; RESUMED follows them.
    this.dispatchTo(session, GatewayDispatchEvents.Resumed, JSON.stringify({ _trace: TRACE }));
  }

  private dispatchTo(session: GatewaySession, t: string, json: string): void {
    session.append(t, json);
    this.pump(session);
  }

  private deliver(request: DispatchRequest): void {
    let json: string | null = null;
    let data: unknown;
    for (const session of this.sessions.values()) {
      if (request.intent !== null && (session.intents & request.intent) === 0) continue;
      if (!this.onShard(session, request.guildId)) continue;
      if (json === null) {
        data = typeof request.d === "function" ? (request.d as () => unknown)() : request.d;
        json = JSON.stringify(data);
      }
      const stripped = this.withoutContent(session, request.t, data);
      this.dispatchTo(session, request.t, stripped === data ? json : JSON.stringify(stripped));
    }
  }

  /**
   * Without the Message Content intent, messages by others arrive with empty content, embeds,
   * attachments and components (Discord's rule; the bot's own messages, DMs and messages that
   * mention the bot keep theirs).
   */
  private withoutContent(session: GatewaySession, t: string, d: unknown): unknown {
    if (!t.startsWith("MESSAGE_") || (session.intents & GatewayIntentBits.MessageContent) !== 0) return d;
    if (!isRecord(d) || !isRecord(d.author) || d.author.id === this.state.bot.id) return d;
    if (d.guild_id === undefined) return d;
    const botId = this.state.bot.id;
    if (Array.isArray(d.mentions) && d.mentions.some((user) => isRecord(user) && user.id === botId)) return d;
    return merged(d, { content: "", embeds: [], attachments: [], components: [] });
  }
}
