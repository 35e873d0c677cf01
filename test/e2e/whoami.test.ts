import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_LOGIN, DEMO_TOKEN, OTHER_LOGIN, OTHER_TOKEN } from "../../src/sandbox/github/index.js";
import type { SandboxWorld } from "../../src/sandbox/harness.js";
import { startWorld } from "./helpers.js";
import { transcriptOf } from "../../src/sandbox/transcript.js";

describe("/whoami end to end", () => {
  let world: SandboxWorld;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  it("names the default token's login, its origin and the budget left", async () => {
    const record = await world.run({ kind: "slash", name: "whoami" });
    const seen = transcriptOf(record);
    expect(record.errors).toEqual([]);
    expect(seen.isError).toBe(false);
    expect(seen.text).toContain(DEMO_LOGIN.replace("-", "\\-"));
    expect(seen.text).toMatch(/default token/i);
    expect(seen.text).toMatch(/4,99\d of 5,000/);
    expect(record.original?.allowedMentions).toEqual({ parse: [] });
  });

  it("sends the Viewer query with the token as `bearer <token>`, never logging it", async () => {
    world.github.clearRequests();
    await world.run({ kind: "slash", name: "whoami", channel: "dm" });
    const viewerCalls = world.github.requests.filter((entry) => entry.operationName === "Viewer");
    // Cached for the short lifetime: a second /whoami costs nothing upstream.
    expect(viewerCalls.length).toBeLessThanOrEqual(1);
    expect(JSON.stringify(world.github.requests)).not.toContain(DEMO_TOKEN);
  });

  it("answers with the server's own token once an admin sets it", async () => {
    world.github.addToken(OTHER_TOKEN, OTHER_LOGIN);
    const opened = await world.run({ kind: "slash", name: "token set", user: "admin" });
    expect(opened.modal?.custom_id).toMatch(/^token-set/);
    const submitted = await world.run({ kind: "modal", from: opened.id, fields: { token: OTHER_TOKEN } });
    expect(transcriptOf(submitted).text).toContain("other\\-user");
    const record = await world.run({ kind: "slash", name: "whoami" });
    const text = transcriptOf(record).text;
    expect(text).toContain("other\\-user");
    expect(text).toMatch(/this server's token/i);
    await world.run({ kind: "slash", name: "token clear", user: "admin" });
  });
});

describe("/whoami with no token at all", () => {
  let world: SandboxWorld;
  beforeAll(async () => {
    world = await startWorld({ defaultToken: null });
  });
  afterAll(async () => {
    await world?.close();
  });

  it("says the token is missing and how to set one, ephemerally, without calling GitHub", async () => {
    world.github.clearRequests();
    const record = await world.run({ kind: "slash", name: "whoami" });
    const seen = transcriptOf(record);
    expect(seen.isError).toBe(true);
    expect(seen.messages.every((message) => message.ephemeral)).toBe(true);
    expect(seen.text).toContain("/token set");
    expect(world.github.requests).toEqual([]);
  });
});

describe("/whoami with a token GitHub no longer accepts", () => {
  let world: SandboxWorld;
  beforeAll(async () => {
    world = await startWorld({ defaultToken: "ghp_revokedToken00000000000000000000000" });
  });
  afterAll(async () => {
    await world?.close();
  });

  it("answers 401 with 'missing or no longer valid' and the way out", async () => {
    const record = await world.run({ kind: "slash", name: "whoami" });
    const seen = transcriptOf(record);
    expect(seen.isError).toBe(true);
    expect(seen.text).toMatch(/missing or no longer valid/);
    expect(seen.text).toContain("/token set");
    expect(world.github.requests.at(-1)?.status).toBe(401);
  });
});
