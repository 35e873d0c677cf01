import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN } from "../../src/sandbox/github/index.js";
import type { SandboxWorld } from "../../src/sandbox/harness.js";
import { startWorld } from "./helpers.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";

/**
 * What an operator reads on METRICS_PORT (SPEC section 5; in gateway mode HTTP_PORT by default): `/healthz` while the process lives,
 * `/readyz` while the bot can answer (its transport and its stores), `/metrics` for Prometheus:
 * counters and histograms that move with each command, and no secret or identity in any line.
 */
async function get(world: SandboxWorld, path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${world.bot.metricsUrl ?? world.bot.httpUrl}${path}`);
  return { status: response.status, text: await response.text() };
}

describe("health, readiness and metrics", () => {
  let world: SandboxWorld;
  beforeAll(async () => {
    world = await startWorld({ httpServer: true, metricsServer: true });
  });
  afterAll(async () => {
    await world?.close();
  });

  it("keeps /metrics, /healthz and /readyz on METRICS_PORT, off the public interactions port", async () => {
    expect(world.bot.metricsUrl).not.toBeNull();
    expect((await get(world, "/metrics")).status).toBe(200);
    if (world.bot.transport === "http") {
      expect(world.bot.httpUrl).not.toBe(world.bot.metricsUrl);
      for (const path of ["/metrics", "/healthz", "/readyz"]) {
        expect((await fetch(`${world.bot.httpUrl}${path}`)).status, path).toBe(404);
      }
      // Discord's requests still arrive on the public port, and nowhere else.
      expect((await world.run({ kind: "slash", name: "whoami" })).delivery?.status).toBe(200);
      expect((await fetch(`${world.bot.metricsUrl}/interactions`, { method: "POST" })).status).toBe(404);
    } else {
      expect(world.bot.httpUrl).toBe(world.bot.metricsUrl);
    }
  });

  it("is live and ready: transport and stores", async () => {
    expect((await get(world, "/healthz")).status).toBe(200);
    const ready = await get(world, "/readyz");
    expect(ready.status).toBe(200);
    const body = JSON.parse(ready.text) as { checks: Record<string, boolean> };
    expect(Object.values(body.checks).every(Boolean)).toBe(true);
    expect(body.checks.stores).toBe(true);
    expect(body.checks.gateway ?? body.checks.interactions).toBe(true);
  });

  it("counts commands by outcome, times them, counts cache lookups and GitHub calls, and names no secret or person", async () => {
    const blame = {
      kind: "slash",
      name: "blame",
      options: { repo: "demo/widgets", path: "README.md" },
    } as const;
    const first = await world.send(blame);
    await first.waitForAnswer();
    await world.run(blame);
    await world.run({
      kind: "slash",
      name: "blame",
      options: { repo: "demo/no-such-repository", path: "a" },
    });
    await world.run({ kind: "slash", name: "whoami" });
    const { status, text } = await get(world, "/metrics");
    expect(status).toBe(200);
    expect(text).toMatch(
      /reposcout_interactions_total\{[^}]*kind="command"[^}]*command="blame"[^}]*outcome="answered"[^}]*\} 2/,
    );
    // A repository that does not exist is the asker's to fix, not a failure of the bot's own.
    expect(text).toMatch(
      /reposcout_interactions_total\{[^}]*command="blame"[^}]*outcome="user_error"[^}]*\} 1/,
    );
    expect(text).not.toMatch(/reposcout_interactions_total\{[^}]*command="blame"[^}]*outcome="error"/);
    expect(text).toMatch(/reposcout_first_response_seconds_count\{[^}]*kind="command"[^}]*\} [4-9]/);
    expect(text).toMatch(
      /reposcout_final_answer_seconds_bucket\{[^}]*le="\+Inf"[^}]*command="blame"[^}]*\} 3/,
    );
    expect(text).toMatch(/reposcout_cache_lookups_total\{[^}]*result="hit"[^}]*\} [1-9]/);
    expect(text).toMatch(/reposcout_github_calls_total\{[^}]*operation="Blame"[^}]*status="ok"[^}]*\} 1/);
    expect(text).toMatch(
      /reposcout_github_calls_total\{[^}]*operation="Blame"[^}]*status="repository_not_found"[^}]*\} 1/,
    );
    expect(text).toMatch(
      /reposcout_github_budget_remaining\{[^}]*origin="default"[^}]*resource="graphql"[^}]*\} \d+/,
    );
    expect(text).toContain("process_resident_memory_bytes");
    // No token, fingerprint, interaction token or id of a person or a place.
    const secrets = [
      DEMO_TOKEN,
      world.running.fingerprint(DEMO_TOKEN),
      first.token,
      world.discord.users.member.id,
      world.discord.users.admin.id,
      world.discord.guildId,
      world.discord.channels.text,
    ];
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it("counts a failure of the bot's own as outcome error, apart from the asker's mistakes", async () => {
    const scout = world.running.services.scout;
    const original = { viewer: scout.viewer, heldViewer: scout.heldViewer };
    // Both ways the Scout gives the identity: read, and held in process (issue 23).
    scout.viewer = async () => {
      throw new Error("a bug deep inside");
    };
    scout.heldViewer = () => {
      throw new Error("a bug deep inside");
    };
    try {
      await world.run({ kind: "slash", name: "whoami" });
    } finally {
      Object.assign(scout, original);
    }
    const { text } = await get(world, "/metrics");
    expect(text).toMatch(/reposcout_interactions_total\{[^}]*command="whoami"[^}]*outcome="error"[^}]*\} 1/);
    expect(text).not.toMatch(/reposcout_interactions_total\{[^}]*command="whoami"[^}]*outcome="user_error"/);
  });

  it("names GitHub operations in one style, as their GraphQL operations are named", async () => {
    await world.run({ kind: "slash", name: "contributors", options: { repo: "demo/widgets" } });
    const { text } = await get(world, "/metrics");
    const operations = [...text.matchAll(/reposcout_github_calls_total\{[^}]*operation="([^"]+)"/g)].map(
      (match) => match[1]!,
    );
    expect(operations).toContain("Contributors");
    for (const operation of operations) expect(operation).toMatch(/^[A-Z][A-Za-z]+$/);
  });

  it("labels an interaction for a command nobody registered 'other', whatever its name", async () => {
    const forged = "ghp_ForgedNameThatLooksLikeAToken000000001";
    const real = await world.discord.interact({ kind: "slash", name: "whoami" });
    await real.waitForAnswer();
    await world.bot.core.handle(
      {
        ...real.payload,
        id: String((BigInt(Date.now() - 1_420_070_400_000) << 22n) | 5n),
        data: { id: "1", name: forged, type: 1 },
      } as never,
      {
        respond: async () => null,
        editOriginal: async () => ({}) as never,
        deleteOriginal: async () => undefined,
        original: async () => ({}) as never,
        followUp: async () => ({}) as never,
        startThread: async () => ({}) as never,
        sendToChannel: async () => ({}) as never,
      },
    );
    const { text } = await get(world, "/metrics");
    expect(text).not.toContain(forged);
    expect(text).toMatch(/reposcout_interactions_total\{[^}]*command="other"/);
  });

  it("is not ready once its stores stop answering", async () => {
    await world.running.stores.close();
    const ready = await get(world, "/readyz");
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toMatchObject({ status: "not ready", checks: { stores: false } });
    expect((await get(world, "/healthz")).status).toBe(200);
  });

  it("serves a cached /blame or /history from the cache alone: no store read for a 'not found' of a repository whose answer is held", async () => {
    const blame = {
      kind: "slash",
      name: "blame",
      options: { repo: "demo/widgets", path: "README.md", lines: "1-3" },
    } as const;
    await world.run(blame);
    const notFoundLookups = async (): Promise<number> => {
      const { text } = await get(world, "/metrics");
      return [...text.matchAll(/reposcout_cache_lookups_total\{[^}]*kind="access-missing"[^}]*\} (\d+)/g)]
        .map((match) => Number(match[1]))
        .reduce((total, count) => total + count, 0);
    };
    const history = {
      kind: "slash",
      name: "history",
      options: { repo: "demo/widgets", path: "README.md" },
    } as const;
    await world.run(history);
    const before = await notFoundLookups();
    for (let n = 0; n < 3; n++) {
      await world.run(blame);
      await world.run(history);
    }
    expect(await notFoundLookups()).toBe(before);
  });
});

describe("readiness of the gateway", () => {
  it("is not ready while the gateway is down", async ({ skip }) => {
    const world = await startWorld({ transport: "gateway", httpServer: true });
    try {
      skip(world.bot.transport !== "gateway", "gateway only");
      expect((await get(world, "/readyz")).status).toBe(200);
      // 4004 (authentication failed): discord.js does not reconnect, so the shard stays down.
      world.discord.closeGatewayConnections(4004);
      await expect
        .poll(async () => (await get(world, "/readyz")).status, { timeout: 5_000, interval: 20 })
        .toBe(503);
    } finally {
      await world.close();
    }
  });
});

describe("a stop", () => {
  it("leaves no connection open to Discord: REST's included, not only the gateway's", async () => {
    const world = await startWorld();
    try {
      // A deferred answer with a thread asks Discord's REST for a channel and a thread besides the
      // interaction's own routes; any answer reads the bot's user at start over HTTP.
      const record = await world.run({
        kind: "slash",
        name: "blame",
        options: { repo: "demo/widgets", path: "README.md", thread: true },
      });
      expect(transcriptOf(record).isError).toBe(false);
      expect(await world.discord.openConnections()).toBeGreaterThan(0);
      await world.bot.stop(2_000);
      // The connections are closed by the bot as it stops: Discord's side sees them end within the
      // few turns of its event loop it takes to read their end, not at a keep-alive timeout (3-5 s).
      await expect.poll(() => world.discord.openConnections(), { timeout: 1_000, interval: 10 }).toBe(0);
    } finally {
      await world.close();
    }
  });
});
