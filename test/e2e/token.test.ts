import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { OTHER_LOGIN, OTHER_TOKEN } from "../../src/sandbox/github/index.js";
import type { SandboxWorld } from "../../src/sandbox/harness.js";
import { startWorld } from "./helpers.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";

const logs: string[] = [];
const destination = new Writable({
  write(chunk, _encoding, callback) {
    logs.push(String(chunk));
    callback();
  },
});

describe("/token: the server's own GitHub token", () => {
  let world: SandboxWorld;
  beforeAll(async () => {
    world = await startWorld({ logger: createLogger({ level: "debug", destination, pretty: false }) });
    world.github.addToken(OTHER_TOKEN, OTHER_LOGIN);
  });
  afterAll(async () => {
    await world?.close();
  });

  async function setToken(token: string) {
    const opened = await world.run({ kind: "slash", name: "token set", user: "admin" });
    expect(opened.modal?.custom_id).toMatch(/^token-set/);
    expect(opened.modal?.components[0]).toMatchObject({ components: [{ custom_id: "token" }] });
    return world.run({ kind: "modal", from: opened.id, fields: { token } });
  }

  it("refuses a token GitHub rejects and stores nothing", async () => {
    const seen = transcriptOf(await setToken("ghp_notAValidToken0000000000000000000000"));
    expect(seen.isError).toBe(true);
    expect(seen.text).toMatch(/did not accept that token/);
    const status = await world.run({ kind: "slash", name: "token status", user: "admin" });
    expect(transcriptOf(status).text).toMatch(/has no GitHub token/i);
  });

  it("verifies, stores and reports a good token, never showing it", async () => {
    const set = transcriptOf(await setToken(OTHER_TOKEN));
    expect(set.isError).toBe(false);
    expect(set.messages.every((message) => message.ephemeral)).toBe(true);
    expect(set.text).toContain("other\\-user");

    const status = transcriptOf(await world.run({ kind: "slash", name: "token status", user: "admin" }));
    expect(status.text).toContain("other\\-user");
    expect(status.text).toContain(`<@${world.discord.users.admin.id}>`);
    expect(status.text).toMatch(/of 5,000/);

    const whoami = transcriptOf(await world.run({ kind: "slash", name: "whoami" }));
    expect(whoami.text).toContain("other\\-user");
  });

  it("clears it: commands go back to the default token", async () => {
    const cleared = transcriptOf(await world.run({ kind: "slash", name: "token clear", user: "admin" }));
    expect(cleared.text).toMatch(/removed/);
    const whoami = transcriptOf(await world.run({ kind: "slash", name: "whoami" }));
    expect(whoami.text).toContain("demo\\-user");
    const again = transcriptOf(await world.run({ kind: "slash", name: "token clear", user: "admin" }));
    expect(again.text).toMatch(/had no GitHub token/);
  });

  it("says so when the token vanished from its store (a Redis that forgot it), and logs it once", async () => {
    expect(transcriptOf(await setToken(OTHER_TOKEN)).isError).toBe(false);
    // Behind the bot's back, as a Redis restarted without persistence (or evicting) would.
    await world.running.stores.durable("vault").delete(world.discord.guildId);
    for (let i = 0; i < 2; i++) {
      const status = transcriptOf(await world.run({ kind: "slash", name: "token status", user: "admin" }));
      expect(status.text).toMatch(/token is missing/);
      expect(status.text).toMatch(/`\/token set` again/);
    }
    expect(logs.filter((line) => line.includes("missing from its store"))).toHaveLength(1);
    // Cleared on purpose: nothing is missing then.
    await world.run({ kind: "slash", name: "token clear", user: "admin" });
    const cleared = transcriptOf(await world.run({ kind: "slash", name: "token status", user: "admin" }));
    expect(cleared.text).toMatch(/has no GitHub token/i);
  });

  it("does not open the form for a member without Manage Server", async () => {
    const record = await world.run({ kind: "slash", name: "token set", user: "member" });
    expect(record.modal).toBeNull();
    expect(transcriptOf(record).text).toContain("Manage Server");
  });

  it("never lets the token reach a message, GitHub's request log or the bot's log", () => {
    const everything = [
      JSON.stringify(
        world.discord.requests.filter(
          (request) =>
            request.route !== "/interactions/:interaction_id/:interaction_token/callback" ||
            request.method !== "POST",
        ),
      ),
      JSON.stringify(world.github.requests),
      logs.join(""),
    ].join("\n");
    expect(logs.length).toBeGreaterThan(0);
    expect(everything).not.toContain(OTHER_TOKEN);
  });
});

describe("/token set on a bot with no encryption key", () => {
  let world: SandboxWorld;
  beforeAll(async () => {
    world = await startWorld({ encryptionKey: null });
  });
  afterAll(async () => {
    await world?.close();
  });

  it("says the operator must set TOKEN_ENCRYPTION_KEY instead of opening the form", async () => {
    const record = await world.run({ kind: "slash", name: "token set", user: "admin" });
    expect(record.modal).toBeNull();
    const seen = transcriptOf(record);
    expect(seen.isError).toBe(true);
    expect(seen.text).toContain("TOKEN_ENCRYPTION_KEY");
  });
});
