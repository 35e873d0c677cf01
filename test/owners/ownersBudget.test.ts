import { describe, expect, it } from "vitest";
import { OwnersBudgetError } from "../../src/owners/ownersBudgetError.js";
import { IN_SERVER, sentenceOf } from "../sentenceOf.js";

const until = new Date("2030-01-01T11:00:00Z");

describe("what a user reads when /owners costs more than is left", () => {
  it("names the cost, the files and when the token's budget refills", () => {
    expect(sentenceOf(new OwnersBudgetError("token", 11, 100, until))).toBe(
      "Reading the owners of these 100 files costs 11 GitHub points, more than the GitHub token in effect has left until <t:1893495600:R>, so nothing was sent. Ask for a smaller folder or a single file, or try again then.",
    );
  });

  it("points at a token of one's own when the shared token's fair share is what is short", () => {
    expect(sentenceOf(new OwnersBudgetError("share", 6, 50, until))).toBe(
      "Reading the owners of these 50 files costs 6 GitHub points, more than is left of this server's share of the bot's shared GitHub token until <t:1893495600:R>, so nothing was sent. Ask for a smaller folder or a single file. `/login` or a server token (`/token set`) avoids the shared budget.",
    );
    expect(
      sentenceOf(new OwnersBudgetError("share", 1, 1, null), {
        ...IN_SERVER,
        inServer: false,
        signIn: false,
      }),
    ).toBe(
      "Reading the owners of this file costs 1 GitHub point, more than is left of your share of the bot's shared GitHub token, so nothing was sent. Ask for a smaller folder or a single file.",
    );
  });
});
