import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { constants as zlibConstants, createDeflate, deflateSync, type Deflate } from "node:zlib";
import {
  GatewayCloseCodes,
  GatewayDispatchEvents,
  GatewayIntentBits,
  GatewayOpcodes,
  type ApplicationFlags,
  type GatewayReadyDispatchData,
} from "discord-api-types/v10";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { guildCreatePayload } from "./guildPayload.js";
import { isRecord } from "./json.js";
import { currentUser } from "./routes/userRoutes.js";
import type { DiscordState, DispatchRequest } from "./state.js";

/** Intents Discord treats as privileged (members, presences, message content). */
const PRIVILEGED_INTENTS =
  GatewayIntentBits.GuildMembers | GatewayIntentBits.GuildPresences | GatewayIntentBits.MessageContent;
/** Every intent bit Discord defines; others make the identify invalid (4013). */
const KNOWN_INTENTS = Object.values(GatewayIntentBits)
  .filter((value): value is number => typeof value === "number")
  .reduce((all, bit) => all | bit, 0);
/** How many dispatches a session keeps for replay on RESUME. */
const REPLAY_LIMIT = 1000;

/** What a test can see of a gateway session. */
export interface GatewaySessionInfo {
  sessionId: string;
  intents: number;
  shard: [number, number];
  sequence: number;
  connected: boolean;
  heartbeats: number;
  resumes: number;
}

interface Session {
  id: string;
  intents: number;
  shard: [number, number];
  sequence: number;
  history: Array<{ s: number; text: string }>;
  connection: Connection | null;
  heartbeats: number;
  resumes: number;
}

interface Connection {
  socket: WebSocket;
  session: Session | null;
  zlibStream: Deflate | null;
  zlibChunks: Buffer[];
  identifyCompress: boolean;
}

/** Options of the gateway. */
export interface GatewayOptions {
  /** `heartbeat_interval` in HELLO (Discord sends about 41,250 ms). */
  heartbeatIntervalMs: number;
  /** Privileged intents the application has enabled in its settings (default none). */
  privilegedIntents: number;
}

/**
 * The stand-in's gateway: HELLO, IDENTIFY (token and intents checked, with Discord's close codes)
 * then READY and one GUILD_CREATE, heartbeats and their ACKs, RESUME with replay of missed
 * dispatches then RESUMED, and dispatches from the state (INTERACTION_CREATE, THREAD_CREATE, ...)
 * to the sessions whose intents allow them. Tests can send RECONNECT, INVALID_SESSION or any
 * opcode, and close connections with a given code.
 */
export class GatewayServer {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sessions = new Map<string, Session>();
  private readonly connections = new Set<Connection>();
  private readonly state: DiscordState;
  private readonly options: GatewayOptions;
  private readonly stopListening: () => void;

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
    return [...this.sessions.values()].map((session) => ({
      sessionId: session.id,
      intents: session.intents,
      shard: session.shard,
      sequence: session.sequence,
      connected: session.connection !== null,
      heartbeats: session.heartbeats,
      resumes: session.resumes,
    }));
  }

  /** How many sessions are connected and identified (able to receive an interaction now). */
  readySessionCount(): number {
    return [...this.sessions.values()].filter((session) => session.connection !== null).length;
  }

  /**
   * Sends an opcode to every connected client: RECONNECT (7), INVALID_SESSION (9, with `d` true
   * when resumable; a false one also forgets the sessions), HEARTBEAT (1, asks for a heartbeat now),
   * or any other payload.
   */
  sendOp(op: number, d: unknown = null): void {
    for (const connection of this.connections) {
      this.send(connection, { op, d, s: null, t: null });
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

  private onConnection(socket: WebSocket, request: IncomingMessage): void {
    const url = new URL(request.url ?? "/", "http://stand-in.invalid");
    const connection: Connection = {
      socket,
      session: null,
      zlibStream: null,
      zlibChunks: [],
      identifyCompress: false,
    };
    this.connections.add(connection);
    socket.on("close", (code: number) => {
      this.connections.delete(connection);
      connection.zlibStream?.close();
      const session = connection.session;
      if (session?.connection === connection) {
        session.connection = null;
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
    this.send(connection, {
      op: GatewayOpcodes.Hello,
      d: {
        heartbeat_interval: this.options.heartbeatIntervalMs,
        _trace: ['["gateway-stand-in",{"micros":0}]'],
      },
      s: null,
      t: null,
    });
  }

  private send(connection: Connection, payload: object): void {
    this.sendText(connection, JSON.stringify(payload));
  }

  private sendText(connection: Connection, text: string): void {
    const { socket } = connection;
    if (socket.readyState !== socket.OPEN) return;
    if (connection.zlibStream) {
      const stream = connection.zlibStream;
      stream.write(text);
      // Each payload ends with a sync flush (00 00 ff ff), which is how clients find its end.
      stream.flush(zlibConstants.Z_SYNC_FLUSH, () => {
        const out = Buffer.concat(connection.zlibChunks);
        connection.zlibChunks = [];
        if (socket.readyState === socket.OPEN) socket.send(out);
      });
    } else if (connection.identifyCompress) {
      socket.send(deflateSync(text));
    } else {
      socket.send(text);
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
        this.send(connection, { op: GatewayOpcodes.HeartbeatAck, d: null, s: null, t: null });
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

  private identify(connection: Connection, d: unknown): void {
    const { socket } = connection;
    if (connection.session) {
      socket.close(GatewayCloseCodes.AlreadyAuthenticated, "Already authenticated.");
      return;
    }
    if (
      !isRecord(d) ||
      typeof d.token !== "string" ||
      d.token.replace(/^Bot /, "") !== this.state.options.botToken
    ) {
      socket.close(GatewayCloseCodes.AuthenticationFailed, "Authentication failed.");
      return;
    }
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
      if (typeof id !== "number" || typeof count !== "number" || count < 1 || id < 0 || id >= count) {
        socket.close(GatewayCloseCodes.InvalidShard, "Invalid shard.");
        return;
      }
      shard = [id, count];
    }
    this.state.sessionStarts.used++;
    connection.identifyCompress = d.compress === true && !connection.zlibStream;
    const session: Session = {
      id: randomBytes(16).toString("hex"),
      intents: d.intents,
      shard,
      sequence: 0,
      history: [],
      connection,
      heartbeats: 0,
      resumes: 0,
    };
    this.sessions.set(session.id, session);
    connection.session = session;
    // A guild lives on shard (guild_id >> 22) % shard_count.
    const guildOnShard = Number((BigInt(this.state.guild.id) >> 22n) % BigInt(shard[1])) === shard[0];
    const ready: GatewayReadyDispatchData & Record<string, unknown> = {
      v: 10,
      user_settings: {},
      user: currentUser(this.state),
      guilds: guildOnShard ? [{ id: this.state.guild.id, unavailable: true }] : [],
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
      _trace: ['["gateway-stand-in",{"micros":0}]'],
    };
    this.dispatchTo(session, GatewayDispatchEvents.Ready, ready);
    // Send the guild at once: discord.js waits (15 s by default) for every guild READY lists.
    if (guildOnShard && (session.intents & GatewayIntentBits.Guilds) !== 0) {
      this.dispatchTo(session, GatewayDispatchEvents.GuildCreate, guildCreatePayload(this.state));
    }
  }

  private resume(connection: Connection, d: unknown): void {
    const { socket } = connection;
    if (connection.session) {
      socket.close(GatewayCloseCodes.AlreadyAuthenticated, "Already authenticated.");
      return;
    }
    if (
      !isRecord(d) ||
      typeof d.token !== "string" ||
      d.token.replace(/^Bot /, "") !== this.state.options.botToken
    ) {
      socket.close(GatewayCloseCodes.AuthenticationFailed, "Authentication failed.");
      return;
    }
    const session = typeof d.session_id === "string" ? this.sessions.get(d.session_id) : undefined;
    if (!session) {
      this.send(connection, { op: GatewayOpcodes.InvalidSession, d: false, s: null, t: null });
      return;
    }
    const seq = typeof d.seq === "number" ? d.seq : 0;
    if (seq > session.sequence) {
      socket.close(GatewayCloseCodes.InvalidSeq, "Invalid seq.");
      return;
    }
    const oldest = session.history[0]?.s ?? session.sequence + 1;
    if (seq + 1 < oldest) {
      // The events to replay are gone: the session cannot be resumed.
      this.sessions.delete(session.id);
      this.send(connection, { op: GatewayOpcodes.InvalidSession, d: false, s: null, t: null });
      return;
    }
    if (session.connection && session.connection !== connection)
      session.connection.socket.close(4000, "Session resumed elsewhere");
    session.connection = connection;
    session.resumes++;
    connection.session = session;
    for (const entry of session.history) if (entry.s > seq) this.sendText(connection, entry.text);
    this.dispatchTo(session, GatewayDispatchEvents.Resumed, {
      _trace: ['["gateway-stand-in",{"micros":0}]'],
    });
  }

  private dispatchTo(session: Session, t: string, d: unknown): void {
    session.sequence++;
    const text = JSON.stringify({ op: GatewayOpcodes.Dispatch, t, s: session.sequence, d });
    session.history.push({ s: session.sequence, text });
    if (session.history.length > REPLAY_LIMIT) session.history.shift();
    if (session.connection) this.sendText(session.connection, text);
  }

  private deliver(request: DispatchRequest): void {
    for (const session of this.sessions.values()) {
      if (request.intent !== null && (session.intents & request.intent) === 0) continue;
      this.dispatchTo(session, request.t, this.withoutContent(session, request));
    }
  }

  /**
   * Without the Message Content intent, messages by others arrive with empty content, embeds,
   * attachments and components (Discord's rule; the bot's own messages and DMs keep theirs).
   */
  private withoutContent(session: Session, request: DispatchRequest): unknown {
    if (!request.t.startsWith("MESSAGE_") || (session.intents & GatewayIntentBits.MessageContent) !== 0)
      return request.d;
    if (!isRecord(request.d) || !isRecord(request.d.author) || request.d.author.id === this.state.bot.id)
      return request.d;
    if (request.d.guild_id === undefined) return request.d;
    return { ...request.d, content: "", embeds: [], attachments: [], components: [] };
  }
}
