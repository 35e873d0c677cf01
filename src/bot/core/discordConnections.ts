import { REST } from "discord.js";
import { Agent, Pool } from "undici";
import { settleWithin } from "../../timeouts.js";

/**
 * Connections one agent keeps to Discord, at most. The bot has three agents: the callback route's
 * (first responses), the interactions' REST's (edits and follow-ups) and its own REST's (threads,
 * messages, its user, the gateway's address). Requests beyond these wait in undici's queue, which
 * costs nothing while they wait.
 *
 * Unbounded (undici's default, and discord.js REST's), a burst past what the process keeps up with
 * opened a connection for every request waiting, each a handshake (a TLS one at discord.com) for
 * the bot and for Discord, which slowed every answer further. At 1,600 interactions a second on a
 * cpu shared with another busy process, three runs opened 7,000-12,800 connections for 16,000
 * interactions and left 238, 3,347 and 9,489 of them late. Bounded (64, 128 or 256), 9 runs out of
 * 10 had none late, with 200-1,750 connections in all.
 *
 * Discord answers a callback in tens to a few hundred ms, so 128 connections carry 600 or more first
 * responses a second even at the slowest, more than one process can answer (the bench's knee).
 */
export const DISCORD_CONNECTIONS = 128;

/**
 * How long a close waits for the requests still in flight before it cuts their connections: a stop
 * comes after the core drained, so what is left is a request Discord is slow to answer (or never
 * answers), which would otherwise hold the stop for REST's 15 s timeout, past the process's own stop
 * deadline (10 s).
 */
export const CLOSE_GRACE_MS = 1_000;

/** An agent for Discord's API and its close. */
export interface DiscordConnections {
  /** For undici's `request` (`dispatcher`) or discord.js REST (`agent`). */
  readonly agent: Agent;
  /**
   * Closes the connections: the requests in flight get `graceMs` ({@link CLOSE_GRACE_MS}) to
   * finish, then their connections are cut (they fail with undici's `UND_ERR_DESTROYED`).
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Connections to Discord's API, at most {@link DISCORD_CONNECTIONS}; a connection not made within
 * 30 s fails (and is sent again). Rather than undici's global dispatcher, which discord.js REST uses
 * by default: that one is unbounded, shared with every `fetch` of the process (GitHub's calls
 * included), and kept its connections to Discord open past a stop.
 */
export function createDiscordConnections(): DiscordConnections {
  // The agent's pools, so that a close can cut them: undici's agent lets go of its pools as it
  // starts closing, and `agent.destroy()` after `agent.close()` reaches none of them (a request
  // Discord never answers then waits out its own timeout).
  const pools = new Set<Pool>();
  const agent = new Agent({
    connect: { timeout: 30_000 },
    connections: DISCORD_CONNECTIONS,
    factory: (origin, options) => {
      for (const pool of pools) if (pool.closed || pool.destroyed) pools.delete(pool);
      const pool = new Pool(origin, options);
      pools.add(pool);
      return pool;
    },
  });
  return {
    agent,
    async close(graceMs = CLOSE_GRACE_MS) {
      if (!(await settleWithin(agent.close(), graceMs)).timedOut) return;
      await Promise.all([...pools].map((pool) => pool.destroy()));
    },
  };
}

/**
 * How often the interactions' REST forgets the queues of webhooks it is done with. REST keeps a
 * queue per route and major parameter, and an interaction's webhook routes carry its token: each
 * interaction edited or followed up leaves one (its id naming the token), kept by default until an
 * hourly sweep. Under load that was 10,000 queues in 10 s of deferred answers, about 1 KB and a
 * live token each. Only idle queues go (none waiting, none rate limited); the next request to one
 * learns its bucket again from Discord's headers.
 */
export const INTERACTION_QUEUES_SWEEP_MS = 60_000;

/**
 * The REST that edits and follows up interactions (their webhook routes), on connections of its
 * own: a burst of deferred answers' edits must not open a connection each. Webhook routes are not
 * under the global rate limit.
 */
export function createInteractionsRest(options: {
  apiUrl: string;
  closeGraceMs?: number;
  /** Default {@link INTERACTION_QUEUES_SWEEP_MS}. */
  queuesSweepMs?: number;
}): {
  rest: REST;
  close(): Promise<void>;
} {
  const connections = createDiscordConnections();
  const rest = new REST({
    api: options.apiUrl,
    globalRequestsPerSecond: Number.POSITIVE_INFINITY,
    agent: connections.agent,
    handlerSweepInterval: options.queuesSweepMs ?? INTERACTION_QUEUES_SWEEP_MS,
  });
  return {
    rest,
    close() {
      rest.clearHandlerSweeper();
      rest.clearHashSweeper();
      return connections.close(options.closeGraceMs);
    },
  };
}
