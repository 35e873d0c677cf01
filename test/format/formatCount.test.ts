import { describe, expect, it } from "vitest";
import { formatCount } from "../../src/format/message.js";

describe("formatCount", () => {
  const intl = new Intl.NumberFormat("en-US");

  it("writes every whole number as en-US does, grouped by thousands", () => {
    const values = [0, 7, -7, 999, 1_000, -1_000, 65_536, -123_456, 2_029_000, Number.MAX_SAFE_INTEGER];
    for (let n = 1; n < 2_000_000_000; n = n * 3 + 1) values.push(n, -n);
    for (const value of values) expect(formatCount(value)).toBe(intl.format(value));
  });

  it("leaves fractions to Intl, and says '?' for what is not a number", () => {
    expect(formatCount(1234.5)).toBe("1,234.5");
    expect(formatCount(Number.NaN)).toBe("?");
    expect(formatCount(Number.POSITIVE_INFINITY)).toBe("?");
  });
});
