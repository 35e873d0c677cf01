import { DiscordAPIError, HTTPError } from "discord.js";
import { describe, expect, it } from "vitest";
import { REDACTED, scrubSecrets, summariseBody } from "../src/logger.js";
import { capturingLogger } from "./cache/helpers.js";

const APP = "123456789012345678";
const INTERACTION = "234567890123456789";
/** The shape of a real interaction token: base64url of `interaction:<id>:<secret>`. */
const INTERACTION_TOKEN = Buffer.from(`interaction:${INTERACTION}:s3cretPartOfTheToken0123456789`).toString(
  "base64url",
);
/** A webhook token is opaque; this one has none of the interaction token's shape. */
const WEBHOOK_TOKEN = "Zq9xY_webhookSecret-4815162342abcdefABCDEF";
const PRIVATE_TEXT = "Only members see this: the launch code is 0000.";

function callbackError(): DiscordAPIError {
  return new DiscordAPIError(
    { code: 10062, message: "Unknown interaction" },
    10062,
    404,
    "POST",
    `https://discord.com/api/v10/interactions/${INTERACTION}/${INTERACTION_TOKEN}/callback?with_response=false`,
    {
      body: { type: 4, data: { embeds: [{ description: `\`\`\`md\n${PRIVATE_TEXT}\n\`\`\`` }] } },
      files: [{ name: "SECRET.md", data: Buffer.from(PRIVATE_TEXT) }],
    },
  );
}

function webhookError(): DiscordAPIError {
  return new DiscordAPIError(
    { code: 50027, message: "Invalid Webhook Token" },
    50027,
    401,
    "PATCH",
    `https://discord.com/api/v10/webhooks/${APP}/${WEBHOOK_TOKEN}/messages/@original`,
    { body: { content: PRIVATE_TEXT }, files: [{ name: "answer.txt", data: PRIVATE_TEXT }] },
  );
}

function expectNothingLeaked(text: string): void {
  expect(text).not.toContain(INTERACTION_TOKEN);
  expect(text).not.toContain(WEBHOOK_TOKEN);
  expect(text).not.toContain("s3cretPartOfTheToken");
  expect(text).not.toContain("launch code");
}

describe("no Discord token or private file content reaches the logs", () => {
  it("keeps the route, code and status of a DiscordAPIError, and drops its token and request body", () => {
    const { logger, text, lines } = capturingLogger("info");
    logger.error({ err: callbackError(), discordCode: 10062 }, "interaction failed");
    expectNothingLeaked(text());
    const err = lines()[0]!.err as Record<string, unknown>;
    expect(err.url).toBe(
      `https://discord.com/api/v10/interactions/${INTERACTION}/${REDACTED}/callback?with_response=false`,
    );
    expect(err.code).toBe(10062);
    expect(err.status).toBe(404);
    expect(err.requestBody).toBe("[request body omitted]");
  });

  it("holds however the error is logged: bare, under another key, as a cause, in bindings or the message", () => {
    const { logger, text } = capturingLogger("debug");
    const webhook = webhookError();
    logger.error(webhook);
    logger.error(webhook, "could not deliver the error reply");
    logger.warn({ error: webhook }, "could not answer in a thread; answering in place");
    logger.warn({ context: { attempts: [{ failure: callbackError() }] } }, "nested");
    logger.error({ err: new Error("delivery failed", { cause: webhook }) }, "wrapped");
    logger.child({ url: webhook.url, requestBody: webhook.requestBody }).info("child bindings");
    logger.info(`PATCH ${webhook.url} answered 401`);
    logger.info({ files: [{ name: "a.txt", data: PRIVATE_TEXT }] }, "files field");
    expectNothingLeaked(text());
    expect(text()).toContain(`/webhooks/${APP}/${REDACTED}/messages/@original`);
  });

  it("never serialises an HTTPError's request body either", () => {
    const { logger, text } = capturingLogger("info");
    const error = new HTTPError(
      500,
      "Internal Server Error",
      "POST",
      `https://discord.com/api/v10/webhooks/${APP}/${WEBHOOK_TOKEN}`,
      { body: { content: PRIVATE_TEXT } },
    );
    logger.error({ err: error }, "discord failed");
    expectNothingLeaked(text());
  });

  it("summarises a GitHub answer body to its errors, leaving the file's text out", () => {
    const body = JSON.stringify({
      data: { repository: { object: { text: PRIVATE_TEXT } } },
      errors: [{ type: "NOT_FOUND", message: "Could not resolve to a Blob." }],
    });
    const { logger, text, lines } = capturingLogger("info");
    logger.warn(
      { err: Object.assign(new Error("unreadable"), { response: { status: 200, body } }) },
      "failed",
    );
    expectNothingLeaked(text());
    const response = (lines()[0]!.err as { response: { body: string } }).response;
    expect(response.body).toContain("Could not resolve to a Blob.");
    expect(response.body).toMatch(/omitted.*data/);
    expect(summariseBody("<html><title>Unicorn!</title></html>")).toContain("Unicorn!");
  });
});

describe("the scrubber finds GitHub tokens however they are glued to the text", () => {
  const body = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (const prefix of ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]) {
    it(`redacts ${prefix} tokens after a word character, in URLs and JSON, and before one`, () => {
      const token = `${prefix}${body}`;
      for (const text of [
        `x_${token}`,
        `a1${token}`,
        `${token}_tail`,
        `https://example.com/?access_token=${token}&x=1`,
        JSON.stringify({ note: token }),
        `Authorization: token ${token}`,
      ]) {
        const scrubbed = scrubSecrets(text);
        expect(scrubbed, text).not.toContain(body);
        expect(scrubbed).toContain(REDACTED);
      }
    });
  }

  it("redacts an OAuth device code, as a field and in a form body", () => {
    const { logger, text } = capturingLogger("info");
    logger.info(
      { deviceCode: "3584d83530557fdd1f46af8289938c8ef79f9dc5", user_code: "WDJB-MJHT" },
      "polling",
    );
    logger.info("POST device_code=3584d83530557fdd1f46af8289938c8ef79f9dc5&client_id=Iv1.abc");
    expect(text()).not.toContain("3584d835");
    expect(text()).toContain("WDJB-MJHT");
  });

  it("redacts fine-grained tokens glued to a word", () => {
    expect(scrubSecrets("x_github_pat_11ABCDEFG0123456789_abcdefghijkl")).toBe(`x_${REDACTED}`);
  });

  it("redacts a 40-hex legacy token in free text, after token, bearer or an assignment", () => {
    const legacy = "0123456789abcdef0123456789abcdef01234567";
    for (const text of [
      `Authorization: token ${legacy}`,
      `bearer ${legacy}`,
      `token=${legacy}`,
      `{"password":"${legacy}"}`,
      `https://x-access-token:${legacy}@github.com/o/r.git`,
      `saw ${legacy} somewhere`,
    ]) {
      expect(scrubSecrets(text), text).not.toContain(legacy);
    }
    // A SHA-256 digest is no token: longer hex runs stay whole.
    const digest = "a".repeat(64);
    expect(scrubSecrets(`#${digest}`)).toBe(`#${digest}`);
  });

  it("keeps a commit id in a field named like one, and redacts the same value anywhere else", () => {
    const oid = "0123456789abcdef0123456789abcdef01234567";
    const { logger, lines } = capturingLogger("info");
    logger.info({ oid, commit: oid, sha: oid, note: oid, token: oid, ref: oid }, "pinned");
    const line = lines()[0]!;
    expect(line.oid).toBe(oid);
    expect(line.commit).toBe(oid);
    expect(line.sha).toBe(oid);
    expect(line.note).toBe(REDACTED);
    expect(line.token).toBe(REDACTED);
    expect(line.ref).toBe(REDACTED);
  });
});
