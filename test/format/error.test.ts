import { describe, expect, it } from "vitest";
import { formatError, formatThreadSummary, threadName } from "../../src/format/error.js";
import { ZWSP } from "../../src/format/escape.js";
import { COLORS } from "../../src/format/message.js";
import { descriptionOf, expectValidMessage } from "./checks.js";

describe("formatError", () => {
  it("is a red embed holding the sentence", () => {
    const message = formatError("The repository `octo/nope` was not found. Check the owner and name.");
    expectValidMessage(message);
    expect(message.embeds[0]!.color).toBe(COLORS.error);
    expect(descriptionOf(message)).toBe(
      "⚠️ The repository `octo/nope` was not found. Check the owner and name.",
    );
    expect(message.components).toEqual([]);
  });

  it("stays valid for an empty or huge sentence", () => {
    expectValidMessage(formatError(""));
    expectValidMessage(formatError("x".repeat(50_000)));
  });
});

describe("formatThreadSummary", () => {
  it("is one line naming the question", () => {
    expect(formatThreadSummary("blame", "demo/widgets src/app.ts")).toBe(
      "🧵 **/blame** demo/widgets src/app.ts — answer in the thread",
    );
  });

  it("escapes what the user typed", () => {
    const summary = formatThreadSummary("contents", ["octo/x", "@everyone <@1> **x**\nsecond line"]);
    expect(summary).toContain(`@${ZWSP}everyone <${ZWSP}@1\\> \\*\\*x\\*\\* second line`);
    expect(summary).not.toContain("\n");
    expect(formatThreadSummary("blame", "p".repeat(5000)).length).toBeLessThanOrEqual(2000);
  });
});

describe("threadName", () => {
  it("names the thread after the question", () => {
    expect(threadName("blame", "octo/widgets src/app.ts")).toBe("blame octo/widgets src/app.ts");
    expect(threadName("repos", ["octo"])).toBe("repos octo");
  });

  it("is one line of 1..100 characters, cut visibly", () => {
    const name = threadName("blame", `octo/widgets ${"very/long/".repeat(30)}\nfile.ts`);
    expect(name.length).toBe(100);
    expect(name.endsWith("…")).toBe(true);
    expect(name).not.toMatch(/\n/);
    expect(threadName("", "")).toBe("answer");
  });
});
