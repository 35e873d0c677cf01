import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { cloneJson, merged } from "../../../src/sandbox/discord/json.js";

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

describe("merged: the local Discord's { ...base, ...more }", () => {
  it("makes what the spread makes: the same fields, in the same order, later ones winning in place", () => {
    const base = { id: "1", kind: "slash", token: "t", nested: { a: 1 } };
    const more = { kind: "button", extra: undefined, data: [1] };
    const made = merged(base, more);
    expect(made).toStrictEqual({ ...base, ...more });
    expect(Object.keys(made)).toEqual(Object.keys({ ...base, ...more }));
    expect(made.nested).toBe(base.nested);
    expect(merged(base)).toStrictEqual({ ...base });
    expect(merged(base)).not.toBe(base);
  });

  it("keeps a '__proto__' field as a field, as a spread does, never as the prototype", () => {
    const parsed = JSON.parse('{"a":1,"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const made = merged(parsed, { b: 2 });
    expect(Object.getPrototypeOf(made)).toBe(Object.prototype);
    expect(Object.keys(made)).toEqual(["a", "__proto__", "b"]);
    expect((made as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("gives objects made alike one shape (V8's hidden class), which a leading spread did not in Node 20", () => {
    // In a process of its own: V8's %HaveSameMap needs --allow-natives-syntax.
    const script = `
      const { merged } = await import(${JSON.stringify(new URL("../../../src/sandbox/discord/json.ts", import.meta.url).href)});
      const same = new Function("a", "b", "return %HaveSameMap(a, b)");
      const made = [];
      for (let i = 0; i < 5000; i++) {
        const fields = { id: String(i), token: "t" + i, type: 2 };
        if (i % 2) fields.guild_id = "g";
        made.push(merged(fields, { data: { name: "blame" }, version: 1 }));
      }
      let shared = 0;
      for (let i = 2; i < made.length; i++) if (same(made[i], made[i - 2])) shared++;
      console.log(shared + "/" + (made.length - 2));
    `;
    const out = execFileSync(
      process.execPath,
      ["--allow-natives-syntax", "--import", "tsx", "--input-type=module", "-e", script],
      { encoding: "utf8" },
    );
    expect(out.trim()).toBe("4998/4998");
  });
});
