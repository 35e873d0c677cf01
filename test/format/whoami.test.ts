import { describe, expect, it } from "vitest";
import { ZWSP } from "../../src/format/escape.js";
import { formatNotice, formatTokenStatus, formatWhoami } from "../../src/format/whoami.js";
import type { RateLimitSnapshot } from "../../src/github/types.js";
import { descriptionOf, expectValidMessage, renderedTexts } from "./checks.js";
import { CACHED, NOW } from "./fixtures.js";

const rateLimit: RateLimitSnapshot = {
  resource: "graphql",
  limit: 5000,
  remaining: 4321,
  used: 679,
  resetAt: "2025-06-01T12:30:00Z",
  observedAt: "2025-06-01T11:59:00Z",
};
const unix = (iso: string) => Date.parse(iso) / 1000;

describe("formatWhoami", () => {
  it("gives the login, the server token's origin and the budget left", () => {
    const message = formatWhoami(
      { login: "octo-bot", rateLimit },
      { origin: "server", now: NOW, freshness: CACHED },
    );
    expectValidMessage(message);
    expect(descriptionOf(message).split("\n")).toEqual([
      "Commands here use GitHub as **octo\\-bot**.",
      "Token: `server`: this server's token, set by an admin.",
      `Rate limit: 4,321 of 5,000 graphql points left, resets <t:${unix(rateLimit.resetAt)}:R> (as of <t:${unix(rateLimit.observedAt)}:R>).`,
    ]);
    expect(message.embeds[0]!.footer?.text).toBe("cached 11 min ago");
  });

  it("names the default token and an unknown budget", () => {
    const message = formatWhoami({ login: "@everyone", rateLimit: null }, { origin: "default", now: NOW });
    expectValidMessage(message);
    expect(descriptionOf(message)).toContain(`**@${ZWSP}everyone**`);
    expect(descriptionOf(message)).toContain("Token: `default`: the bot's default token.");
    expect(descriptionOf(message)).toContain("Rate limit: unknown");
    expect(message.embeds[0]!.footer).toBeUndefined();
  });

  it("says a budget whose reset time has passed is full again", () => {
    const message = formatWhoami(
      { login: "a", rateLimit: { ...rateLimit, resetAt: "2025-06-01T11:00:00Z" } },
      { origin: "default", now: NOW },
    );
    expect(descriptionOf(message)).toContain("full again since");
  });
});

describe("formatTokenStatus", () => {
  it("says who set the server's token, when, and its budget, and never a token", () => {
    const message = formatTokenStatus(
      { login: "octo-bot", setBy: "123456789012345678", setAt: "2025-05-01T08:00:00Z", rateLimit },
      { now: NOW },
    );
    expectValidMessage(message, { allowedUserMentions: ["123456789012345678"] });
    const text = descriptionOf(message);
    expect(text).toContain("authenticates as **octo\\-bot**");
    expect(text).toContain(`Set by <@123456789012345678> on <t:${unix("2025-05-01T08:00:00Z")}:f>`);
    expect(text).toContain("4,321 of 5,000");
    for (const rendered of renderedTexts(message)) expect(rendered).not.toMatch(/gh[po]_|github_pat_/);
  });

  it("does not turn an odd setBy into a mention", () => {
    const message = formatTokenStatus(
      { login: "x", setBy: "<@&1> @here", setAt: "not a date", rateLimit: null },
      { now: NOW },
    );
    expectValidMessage(message);
    expect(descriptionOf(message)).toContain("Rate limit: unknown");
  });

  it("says when the server has no token of its own", () => {
    const message = formatTokenStatus(null, { now: NOW });
    expectValidMessage(message);
    expect(descriptionOf(message)).toContain("no GitHub token of its own");
    expect(descriptionOf(message)).toContain("`/token set`");
  });
});

describe("formatNotice", () => {
  it("shows the bot's own text as it is, cut to the limits", () => {
    expect(descriptionOf(formatNotice("✅ Authenticated as **octo**."))).toBe(
      "✅ Authenticated as **octo**.",
    );
    const long = formatNotice("x".repeat(10_000));
    expectValidMessage(long);
    expect(descriptionOf(long).endsWith("…")).toBe(true);
  });
});
