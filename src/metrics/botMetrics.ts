import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * RepoScout's Prometheus metrics (SPEC section 5: `GET /metrics` on HTTP_PORT), in a registry of
 * the bot's own (several bots in one test process do not mix). No label ever holds a token, a
 * fingerprint, a user, a server or a repository: only command names, kinds, operations, outcomes,
 * statuses, token origins and shard ids, each from a small fixed set.
 */
export interface BotMetrics {
  readonly registry: Registry;
  /**
   * Interactions handled, by kind (command, component, autocomplete, modal), command and outcome:
   * `answered`, `user_error` (the asker's to fix: no such repository, a bad option), `error` (the
   * bot's own failure, with an error id in the log), `busy`, `expired` (Discord no longer took an
   * answer, or the interaction reached the bot after Discord's 3 s; over HTTP such a request is
   * refused before the core, as kind `unknown`).
   */
  readonly interactions: Counter<"kind" | "command" | "outcome">;
  /** From the interaction's creation (its snowflake) to the first response Discord took. */
  readonly firstResponse: Histogram<"kind">;
  /** From the interaction's creation to the end of its handling (answer, thread and follow-ups sent). */
  readonly finalAnswer: Histogram<"command">;
  /** Answer cache lookups, by kind of answer (`blame`, `refs`...) and result (`hit`, `miss`). */
  readonly cacheLookups: Counter<"kind" | "result">;
  /** Upstream GitHub calls, by operation (`Blame`, `Contributors`...) and status (`ok` or an error code). */
  readonly githubCalls: Counter<"operation" | "status">;
  /** Discord REST 429s seen by the bot, by whether the limit was global. */
  readonly discordRateLimited: Counter<"global">;
}

/** Seconds buckets from a few ms (an in-process hit) to Discord's 3 s and GitHub's 10 s timeout. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5, 10, 30];

/** What the gauges read when scraped: a token origin's budget left, the shards' state. */
export interface MetricsSources {
  /** Rate-limit points left of the default token, by resource (GraphQL, REST core), if known. */
  defaultBudget?: () => Array<{ resource: string; remaining: number; limit: number }>;
  /** Each gateway shard of this process: its id, whether it is ready, its heartbeat latency (ms, -1 unknown). */
  shards?: () => Array<{ id: number; ready: boolean; pingMs: number }>;
  /** How far this machine's clock is taken to run ahead of Discord's, ms (../bot/core/discordClock.ts). */
  clockAheadMs?: () => number;
}

export function createBotMetrics(
  sources: MetricsSources = {},
): BotMetrics & { setSources(next: MetricsSources): void } {
  const registry = new Registry();
  registry.setDefaultLabels({ app: "reposcout" });
  collectDefaultMetrics({ register: registry });
  let current = sources;
  const metrics = {
    registry,
    interactions: new Counter({
      name: "reposcout_interactions_total",
      help: "Interactions handled, by kind, command and outcome",
      labelNames: ["kind", "command", "outcome"] as const,
      registers: [registry],
    }),
    firstResponse: new Histogram({
      name: "reposcout_first_response_seconds",
      help: "Time from an interaction's creation to its first response",
      labelNames: ["kind"] as const,
      buckets: BUCKETS,
      registers: [registry],
    }),
    finalAnswer: new Histogram({
      name: "reposcout_final_answer_seconds",
      help: "Time from an interaction's creation to the end of its handling",
      labelNames: ["command"] as const,
      buckets: BUCKETS,
      registers: [registry],
    }),
    cacheLookups: new Counter({
      name: "reposcout_cache_lookups_total",
      help: "Answer cache lookups, by kind of answer and result",
      labelNames: ["kind", "result"] as const,
      registers: [registry],
    }),
    githubCalls: new Counter({
      name: "reposcout_github_calls_total",
      help: "Upstream GitHub calls, by operation and status",
      labelNames: ["operation", "status"] as const,
      registers: [registry],
    }),
    discordRateLimited: new Counter({
      name: "reposcout_discord_rate_limited_total",
      help: "Discord REST 429 answers the bot met, by whether the limit was global",
      labelNames: ["global"] as const,
      registers: [registry],
    }),
    setSources(next: MetricsSources) {
      current = next;
    },
  };
  new Gauge({
    name: "reposcout_github_budget_remaining",
    help: "Rate-limit points left of the default token, by resource (as GitHub last said)",
    labelNames: ["origin", "resource"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const budget of current.defaultBudget?.() ?? [])
        this.set({ origin: "default", resource: budget.resource }, budget.remaining);
    },
  });
  new Gauge({
    name: "reposcout_clock_ahead_seconds",
    help: "How far this machine's clock is taken to run ahead of Discord's, as the interactions show it (0: not)",
    registers: [registry],
    collect() {
      this.set((current.clockAheadMs?.() ?? 0) / 1000);
    },
  });
  new Gauge({
    name: "reposcout_gateway_shard_ready",
    help: "1 when the gateway shard is ready, 0 otherwise",
    labelNames: ["shard"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const shard of current.shards?.() ?? [])
        this.set({ shard: String(shard.id) }, shard.ready ? 1 : 0);
    },
  });
  new Gauge({
    name: "reposcout_gateway_shard_latency_seconds",
    help: "Heartbeat round trip of the gateway shard",
    labelNames: ["shard"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const shard of current.shards?.() ?? [])
        if (shard.pingMs >= 0) this.set({ shard: String(shard.id) }, shard.pingMs / 1000);
    },
  });
  return metrics;
}
