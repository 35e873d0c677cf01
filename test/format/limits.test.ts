import { ButtonStyle, ComponentType, type APIButtonComponent, type APIEmbed } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { codeBlock } from "../../src/format/escape.js";
import {
  assertWithinLimits,
  countFences,
  cutMarkdown,
  fitMessage,
  limitProblems,
  LIMITS,
  measureEmbeds,
} from "../../src/format/limits.js";
import { emptyMessage, type FormattedMessage } from "../../src/format/message.js";
import { expectValidMessage } from "./checks.js";

function withEmbed(embed: APIEmbed): FormattedMessage {
  const message = emptyMessage();
  message.embeds.push(embed);
  return message;
}

function button(id: string, label = "Go"): APIButtonComponent {
  return { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: id, label };
}

describe("limitProblems / assertWithinLimits", () => {
  it("accepts a small valid message", () => {
    expect(limitProblems(withEmbed({ title: "t", description: "d" }))).toEqual([]);
  });

  it("reports every embed limit", () => {
    const message = withEmbed({
      title: "t".repeat(257),
      description: "d".repeat(4097),
      fields: Array.from({ length: 26 }, () => ({ name: "n".repeat(257), value: "v".repeat(1025) })),
      footer: { text: "f".repeat(2049) },
      author: { name: "a".repeat(257) },
    });
    const problems = limitProblems(message).join("\n");
    for (const part of [
      "title",
      "description",
      "field count",
      "field 0 name",
      "field 0 value",
      "footer",
      "author",
      "embeds in total",
    ]) {
      expect(problems).toContain(part);
    }
    expect(() => assertWithinLimits(message)).toThrow(/Discord's limits/);
  });

  it("counts the 6,000 characters over all embeds of a message", () => {
    const message = emptyMessage();
    for (let index = 0; index < 2; index += 1) message.embeds.push({ description: "x".repeat(3001) });
    expect(measureEmbeds(message.embeds)).toBe(6002);
    expect(limitProblems(message).join()).toContain("embeds in total");
  });

  it("reports content, embed count, files and mentions", () => {
    const message = emptyMessage();
    message.content = "c".repeat(2001);
    for (let index = 0; index < 11; index += 1) message.embeds.push({ description: "x" });
    for (let index = 0; index < 11; index += 1)
      message.files.push({ name: `f${index}.txt`, data: Buffer.from("x") });
    message.files.push({ name: "f0.txt", data: Buffer.from("x") });
    const problems = limitProblems(message).join("\n");
    expect(problems).toContain("content");
    expect(problems).toContain("embed count");
    expect(problems).toContain("files");
    expect(problems).toContain("repeated");
  });

  it("reports every component limit", () => {
    const message = withEmbed({ description: "x" });
    for (let row = 0; row < 6; row += 1) {
      message.components.push({
        type: ComponentType.ActionRow,
        components: Array.from({ length: 6 }, (_, index) => button(`r${row}b${index}`)),
      });
    }
    message.components[0]!.components[0] = button("x".repeat(101), "l".repeat(81));
    message.components[0]!.components[1] = button("r1b1");
    message.components[0]!.components[2] = {
      type: ComponentType.Button,
      style: ButtonStyle.Link,
      label: "link",
      url: `https://example.com/${"p".repeat(600)}`,
    };
    const problems = limitProblems(message).join("\n");
    expect(problems).toContain("action rows");
    expect(problems).toContain("row 0 buttons");
    expect(problems).toContain("custom_id is 101");
    expect(problems).toContain("label is 81");
    expect(problems).toContain("repeats custom_id");
    expect(problems).toContain("url");
  });

  it("refuses an empty message", () => {
    expect(limitProblems(emptyMessage()).join()).toContain("no content");
  });
});

describe("cutMarkdown", () => {
  it("closes a code block it cuts through and marks the cut", () => {
    const text = `intro\n${codeBlock(Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n"), "ts")}\nafter`;
    const cut = cutMarkdown(text, 500);
    expect(cut.length).toBeLessThanOrEqual(500);
    expect(countFences(cut) % 2).toBe(0);
    expect(cut.endsWith("…")).toBe(true);
  });

  it("drops an opening fence it would keep with nothing after it", () => {
    const text = `${"a".repeat(95)}\n\`\`\`ts\n${"b".repeat(500)}`;
    const cut = cutMarkdown(text, 110);
    expect(countFences(cut)).toBe(0);
  });

  it("handles limits too small for a fence", () => {
    const cut = cutMarkdown("```ts\ncode\n```", 4);
    expect(cut.length).toBeLessThanOrEqual(4);
    expect(countFences(cut)).toBe(0);
  });
});

describe("fitMessage", () => {
  it("returns a message within every limit, whatever it is given", () => {
    const message = emptyMessage();
    message.content = `\`\`\`\n${"c".repeat(3000)}\n\`\`\``;
    for (let index = 0; index < 12; index += 1) {
      message.embeds.push({
        title: `title\nwith a break ${"t".repeat(300)}`,
        description: codeBlock("d\n".repeat(3000), "ts"),
        fields: Array.from({ length: 30 }, (_, field) => ({
          name: field % 2 ? "" : "n".repeat(300),
          value: "v".repeat(2000),
        })),
        footer: { text: "f".repeat(3000) },
        author: { name: "a".repeat(300) },
      });
    }
    for (let row = 0; row < 7; row += 1) {
      message.components.push({
        type: ComponentType.ActionRow,
        components: Array.from({ length: 7 }, (_, index) => button(`r${row}b${index}`, "l".repeat(100))),
      });
    }
    for (let index = 0; index < 12; index += 1)
      message.files.push({ name: "same/name.txt", data: Buffer.from("x") });
    const fitted = fitMessage(message);
    expectValidMessage(fitted);
    expect(fitted.embeds.length).toBeGreaterThanOrEqual(1);
    expect(fitted.embeds[0]!.title).toContain("…");
    expect(fitted.files).toHaveLength(LIMITS.files);
  });

  it("leaves a message that fits as it is", () => {
    const message = withEmbed({
      title: "t",
      description: codeBlock("x"),
      fields: [{ name: "n", value: "v" }],
    });
    expect(fitMessage(message)).toEqual(message);
  });

  it("drops a Link button whose URL Discord would refuse", () => {
    const message = withEmbed({ description: "x" });
    message.components.push({
      type: ComponentType.ActionRow,
      components: [
        button("a"),
        {
          type: ComponentType.Button,
          style: ButtonStyle.Link,
          label: "l",
          url: `https://x.example/${"p".repeat(600)}`,
        },
      ],
    });
    expect(fitMessage(message).components[0]!.components).toHaveLength(1);
  });
});
