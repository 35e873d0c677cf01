import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { REDACTED, createLogger, lazyChild, redactSecrets, scrubSecrets } from "../src/logger.js";

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  return { stream, text: () => chunks.join("") };
}

const TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

describe("logger redaction", () => {
  it("redacts Authorization headers and fields named like token, secret or key, at any depth", () => {
    const out = capture();
    const logger = createLogger({ level: "info", destination: out.stream, pretty: false });
    logger.info(
      {
        request: { headers: { Authorization: `bearer ${TOKEN}`, "user-agent": "RepoScout" } },
        serverToken: "s3cr3t-value-1",
        nested: { deeper: { clientSecret: "s3cr3t-value-2", encryptionKey: "s3cr3t-value-3" } },
        guildId: "123",
      },
      "request done",
    );
    const line = JSON.parse(out.text());
    expect(line.request.headers.Authorization).toBe(REDACTED);
    expect(line.request.headers["user-agent"]).toBe("RepoScout");
    expect(line.serverToken).toBe(REDACTED);
    expect(line.nested.deeper.clientSecret).toBe(REDACTED);
    expect(line.nested.deeper.encryptionKey).toBe(REDACTED);
    expect(line.guildId).toBe("123");
    expect(out.text()).not.toMatch(/s3cr3t|ghp_/);
  });

  it("keeps what describes a token (whose it was, when it expires), redacting only token values", () => {
    const out = capture();
    const logger = createLogger({ level: "info", destination: out.stream, pretty: false });
    const error = Object.assign(new Error("Not Found"), { tokenOrigin: "server" });
    logger.warn(
      { err: error, tokenOrigin: "default", refreshTokenExpiresAt: 1_700_000_000, tokenSource: TOKEN },
      "read failed",
    );
    const line = JSON.parse(out.text());
    expect(line.tokenOrigin).toBe("default");
    expect(line.err.tokenOrigin).toBe("server");
    expect(line.refreshTokenExpiresAt).toBe(1_700_000_000);
    // A token in a describing field by mistake is still a token.
    expect(line.tokenSource).toBe(REDACTED);
    expect(out.text()).not.toContain("ghp_");
  });

  it("scrubs tokens from error messages and free text", () => {
    const out = capture();
    const logger = createLogger({ level: "info", destination: out.stream, pretty: false });
    const error = Object.assign(new Error(`request failed with Authorization: bearer ${TOKEN}`), {
      request: { headers: { authorization: `token ${TOKEN}` } },
    });
    logger.error({ err: error, note: `saw ${TOKEN} in a URL` }, "upstream failed");
    expect(out.text()).not.toContain(TOKEN);
    expect(out.text()).toContain("upstream failed");
    expect(out.text()).toContain(REDACTED);
  });

  it("handles circular objects without throwing", () => {
    const a: Record<string, unknown> = { name: "a" };
    a.self = a;
    expect(redactSecrets(a)).toEqual({ name: "a", self: "[circular]" });
  });

  it("scrubs GitHub token formats and scheme credentials in text", () => {
    expect(scrubSecrets(`x ${TOKEN} y`)).toBe(`x ${REDACTED} y`);
    expect(scrubSecrets("Bot MTIzNDU2Nzg5.abc.defghijklmnop")).toBe(`Bot ${REDACTED}`);
    expect(scrubSecrets("github_pat_11ABCDEFG0123456789_abcdefghijkl")).toBe(REDACTED);
    expect(scrubSecrets("plain words stay")).toBe("plain words stay");
  });
});

describe("pretty lines (a terminal)", () => {
  it("writes a human-readable line, loading pino-pretty on demand, with secrets still redacted and scrubbed", () => {
    const out = capture();
    const logger = createLogger({ level: "info", destination: out.stream, pretty: true });
    logger.info({ serverToken: "s3cr3t-value-1", guildId: "123" }, `signed in with ${TOKEN}`);
    const text = out.text();
    expect(text).toContain("signed in with");
    expect(text).toContain("guildId");
    expect(() => JSON.parse(text)).toThrow();
    expect(text).not.toMatch(/s3cr3t|ghp_/);
  });
});

describe("lazyChild", () => {
  it("writes its bindings (redacted) on every line, and makes them only when a line is written", () => {
    const out = capture();
    const logger = createLogger({ level: "info", destination: out.stream, pretty: false });
    let made = 0;
    const child = lazyChild(logger, () => {
      made += 1;
      return { interactionId: "42", serverToken: TOKEN };
    });
    child.debug({ ms: 3 }, "below the level");
    expect(made).toBe(0);
    expect(out.text()).toBe("");
    child.info({ step: 1 }, "first");
    child.warn("second");
    expect(made).toBe(1);
    const lines = out
      .text()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.msg)).toEqual(["first", "second"]);
    for (const line of lines) {
      expect(line.interactionId).toBe("42");
      expect(line.serverToken).toBe(REDACTED);
    }
    expect(lines[0].step).toBe(1);
    expect(out.text()).not.toContain("ghp_");
  });

  it("hands its bindings to a grandchild and follows the parent's level", () => {
    const out = capture();
    const logger = createLogger({ level: "debug", destination: out.stream, pretty: false });
    const child = lazyChild(logger, () => ({ interactionId: "7" }));
    expect(child.isLevelEnabled("debug")).toBe(true);
    child.child({ component: "github" }).debug("deeper");
    const line = JSON.parse(out.text());
    expect(line).toMatchObject({ interactionId: "7", component: "github", msg: "deeper" });
  });
});
