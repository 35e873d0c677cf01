import { describe, expect, it } from "vitest";
import { FormErrors } from "../../../src/sandbox/discord/restErrors.js";
import { RateLimiter } from "../../../src/sandbox/discord/rateLimits.js";
import {
  validateCommandList,
  validateMessageBody,
  validateModal,
} from "../../../src/sandbox/discord/validation.js";

function messageErrors(body: Record<string, unknown>, uploads = 0) {
  const errors = new FormErrors();
  validateMessageBody(errors, body, [], uploads);
  return errors.toTree();
}

const button = (customId: string) => ({ type: 2, style: 1, label: "Go", custom_id: customId });

describe("Discord's message limits in the stand-in", () => {
  it("accepts a message at every limit", () => {
    const errors = new FormErrors();
    validateMessageBody(
      errors,
      {
        content: "c".repeat(2000),
        embeds: [
          {
            title: "t".repeat(256),
            description: "d".repeat(1000),
            fields: Array.from({ length: 25 }, (_, index) => ({ name: `n${index}`, value: "v".repeat(100) })),
            footer: { text: "f".repeat(100) },
            author: { name: "a".repeat(256) },
          },
        ],
        components: Array.from({ length: 5 }, (_, row) => ({
          type: 1,
          components: Array.from({ length: 5 }, (_, column) => button(`b${row}-${column}`)),
        })),
      },
      [],
      10,
    );
    expect(errors.empty).toBe(true);
  });

  it("counts characters as code points, as Discord does", () => {
    expect(messageErrors({ content: "😀".repeat(2000) })).toEqual({});
    expect(messageErrors({ content: "😀".repeat(2001) }).content).toBeDefined();
  });

  it("refuses more than 6,000 characters over all embeds of a message", () => {
    const tree = messageErrors({
      embeds: [{ description: "a".repeat(4000) }, { description: "b".repeat(2001) }],
    });
    expect(tree).toEqual({
      embeds: {
        _errors: [{ code: "MAX_EMBED_SIZE_EXCEEDED", message: "Embed size exceeds maximum size of 6000" }],
      },
    });
  });

  it("reports each broken embed field at its path", () => {
    const tree = messageErrors({
      embeds: [
        {
          description: "d".repeat(4097),
          fields: [
            ...Array.from({ length: 25 }, () => ({ name: "n", value: "v" })),
            { name: "x".repeat(257), value: "v".repeat(1025) },
          ],
          footer: { text: "f".repeat(2049) },
          author: { name: "a".repeat(257) },
        },
      ],
    });
    const embed = (tree.embeds as Record<string, Record<string, unknown>>)["0"]!;
    expect(Object.keys(embed).sort()).toEqual(["author", "description", "fields", "footer"]);
    expect(embed.fields).toMatchObject({
      _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 25 or fewer in length." }],
      "25": {
        name: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH" }] },
        value: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH" }] },
      },
    });
  });

  it("refuses more than 10 embeds and more than 10 attachments", () => {
    expect(messageErrors({ embeds: Array.from({ length: 11 }, () => ({ title: "x" })) }).embeds).toEqual({
      _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 10 or fewer in length." }],
    });
    expect(messageErrors({ content: "files" }, 11).attachments).toEqual({
      _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 10 or fewer in length." }],
    });
  });

  it("checks rows, buttons, custom ids, labels and link buttons", () => {
    expect(
      messageErrors({
        components: Array.from({ length: 6 }, (_, index) => ({ type: 1, components: [button(`r${index}`)] })),
      }).components,
    ).toMatchObject({
      _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 5 or fewer in length." }],
    });
    const tree = messageErrors({
      components: [
        { type: 1, components: Array.from({ length: 6 }, (_, index) => button(`b${index}`)) },
        {
          type: 1,
          components: [
            { type: 2, style: 1, label: "L".repeat(81), custom_id: "c".repeat(101) },
            button("b0"),
            { type: 2, style: 5, label: "Docs", custom_id: "nope" },
          ],
        },
      ],
    });
    expect(tree).toMatchObject({
      components: {
        "0": {
          components: {
            _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 5 in length." }],
          },
        },
        "1": {
          components: {
            "0": {
              label: {
                _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 80 or fewer in length." }],
              },
              custom_id: {
                _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 100 in length." }],
              },
            },
            "1": { custom_id: { _errors: [{ code: "COMPONENT_CUSTOM_ID_DUPLICATED" }] } },
            "2": { url: { _errors: [{ code: "BASE_TYPE_REQUIRED" }] }, custom_id: expect.any(Object) },
          },
        },
      },
    });
  });

  it("refuses parse and an id list of the same kind in allowed_mentions", () => {
    expect(
      messageErrors({ content: "x", allowed_mentions: { parse: ["users"], users: ["1"] } }).allowed_mentions,
    ).toEqual({
      _errors: [
        {
          code: "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
          message: 'parse:["users"] and users: [ids] are mutually exclusive.',
        },
      ],
    });
  });
});

describe("modals and commands in the stand-in", () => {
  it("limits a modal's title, rows and text input labels", () => {
    const errors = new FormErrors();
    const row = { type: 1, components: [{ type: 4, custom_id: "t", label: "x".repeat(46), style: 1 }] };
    validateModal(errors, { custom_id: "m", title: "T", components: Array.from({ length: 6 }, () => row) }, [
      "data",
    ]);
    expect(errors.toTree()).toMatchObject({
      data: {
        components: {
          _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 5 in length." }],
          "0": { components: { "0": { label: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH" }] } } } },
        },
      },
    });
  });

  it("checks command names, option order, nesting and choices", () => {
    const errors = new FormErrors();
    validateCommandList(errors, [
      {
        name: "blame",
        description: "b",
        options: [
          { type: 3, name: "ref", description: "r" },
          { type: 3, name: "repo", description: "r", required: true },
          {
            type: 3,
            name: "lang",
            description: "l",
            choices: Array.from({ length: 26 }, (_, index) => ({ name: `c${index}`, value: `v${index}` })),
          },
        ],
      },
      { name: "blame", description: "again" },
      { name: "x".repeat(33), description: "long" },
    ]);
    expect(errors.toTree()).toMatchObject({
      "0": {
        options: {
          "1": { required: { _errors: [{ code: "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID" }] } },
          "2": {
            choices: {
              _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 25 or fewer in length." }],
            },
          },
        },
      },
      "1": { name: { _errors: [{ code: "APPLICATION_COMMANDS_DUPLICATE_NAME" }] } },
      "2": {
        name: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 32 in length." }] },
      },
    });
  });
});

describe("rate-limit buckets in the stand-in", () => {
  it("forgets buckets whose window is over, as Discord does: one per interaction token would stay forever", async () => {
    const limiter = new RateLimiter({ limit: 5, windowMs: 1 });
    const webhook = (n: number) =>
      limiter.check("POST", "/webhooks/:webhook_id/:webhook_token", `/webhooks/1/token${n}`, `1/token${n}`);
    for (let n = 0; n < 1_000; n++) webhook(n);
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (let n = 1_000; n < 2_000; n++) webhook(n);
    expect(limiter.buckets()).toBeLessThan(1_100);
    // A bucket within its window still counts: the sixth request in it is limited.
    const busy = new RateLimiter({ limit: 5, windowMs: 60_000 });
    const verdicts = Array.from({ length: 6 }, () =>
      busy.check("POST", "/webhooks/:webhook_id/:webhook_token", "/webhooks/1/t", "1/t"),
    );
    expect(verdicts.at(-1)!.limited).not.toBeNull();
  });

  it("serves injected 429s only to matching requests, then lets them through", () => {
    const limiter = new RateLimiter({ limit: 10, windowMs: 1000 });
    limiter.inject({
      route: "/channels/:channel_id/messages",
      method: "POST",
      count: 2,
      retryAfterSeconds: 2,
      global: true,
    });
    expect(
      limiter.check("GET", "/channels/:channel_id/messages", "/channels/1/messages", "1").limited,
    ).toBeNull();
    const limited = limiter.check("POST", "/channels/:channel_id/messages", "/channels/1/messages", "1");
    expect(limited.limited).toEqual({ retryAfter: 2, global: true });
    expect(limited.headers).toMatchObject({
      "Retry-After": "2",
      "X-RateLimit-Global": "true",
      "X-RateLimit-Scope": "global",
    });
    expect(
      limiter.check("POST", "/channels/:channel_id/messages", "/channels/1/messages", "1").limited,
    ).not.toBeNull();
    expect(
      limiter.check("POST", "/channels/:channel_id/messages", "/channels/1/messages", "1").limited,
    ).toBeNull();
    expect(limiter.pendingInjections()).toBe(0);
  });
});
