import { describe, expect, it } from "vitest";
import { cloneJson } from "../../../src/sandbox/discord/json.js";

describe("the local Discord's copy of a payload", () => {
  it("copies deeply what structuredClone copies, sharing nothing with the original", () => {
    const original = {
      content: "hi",
      embeds: [{ title: "t", fields: [{ name: "a", value: "b", inline: true }], color: null }],
      flags: 64,
      missing: undefined,
      nested: { list: [1, "two", [3]] },
    };
    const copy = cloneJson(original);
    expect(copy).toStrictEqual(structuredClone(original));
    expect(copy.embeds).not.toBe(original.embeds);
    expect(copy.embeds[0]!.fields[0]).not.toBe(original.embeds[0]!.fields[0]);
    copy.nested.list.push(4);
    expect(original.nested.list).toHaveLength(3);
    expect(Object.keys(copy)).toEqual(Object.keys(original));
  });

  it("keeps a '__proto__' field parsed from JSON as a field, not as the copy's prototype", () => {
    const parsed = JSON.parse('{"a":1,"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const copy = cloneJson(parsed);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["a", "__proto__"]);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toEqual({ polluted: true });
  });

  it("hands what is not plain data (an attachment's bytes, a date) to structuredClone", () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const when = new Date(0);
    const copy = cloneJson({ files: [{ name: "a.txt", data: bytes }], when });
    expect(copy.files[0]!.data).toEqual(bytes);
    expect(copy.files[0]!.data).not.toBe(bytes);
    expect(copy.when).toEqual(when);
    expect(copy.when).not.toBe(when);
  });
});
