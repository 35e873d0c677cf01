import { describe, expect, it } from "vitest";
import { withFields } from "../src/withFields.js";

describe("withFields", () => {
  it("makes what { ...base, ...more } makes: the same keys in the same order, more's over base's", () => {
    const base = { kind: "refs", fingerprint: "abc", args: { owner: "demo", name: "widgets" } };
    const more = { kind: "refs-last", ttl: "pinned" };
    const made = withFields(base, more);
    expect(made).toEqual({ ...base, ...more });
    expect(Object.keys(made)).toEqual(Object.keys({ ...base, ...more }));
    // A button state's JSON is hashed into its key: the text must not change.
    expect(JSON.stringify(made)).toBe(JSON.stringify({ ...base, ...more }));
  });

  it("changes neither object and shares nested values as a spread does", () => {
    const base = { args: { owner: "demo" }, page: 1 };
    const more = { page: 2 };
    const made = withFields(base, more);
    expect(base).toEqual({ args: { owner: "demo" }, page: 1 });
    expect(more).toEqual({ page: 2 });
    expect(made).not.toBe(base);
    expect(made.args).toBe(base.args);
    expect(made.page).toBe(2);
  });
});
