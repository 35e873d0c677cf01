import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseWith } from "../../src/bot/commonOptions.js";
import { InvalidOptionError } from "../../src/errors.js";
import { sentenceOf } from "../sentenceOf.js";

describe("parseWith", () => {
  it("names the option a malformed payload got wrong, and says to run the command again", () => {
    const schema = z.object({ repo: z.string(), page: z.number().optional() });
    expect(parseWith(schema, { repo: "demo/widgets", page: 2 })).toEqual({ repo: "demo/widgets", page: 2 });
    let error: unknown;
    try {
      parseWith(schema, { repo: "demo/widgets", page: "two" });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as InvalidOptionError).option).toBe("page");
    expect(sentenceOf(error)).toMatch(
      /^The `page` option is not valid \(.+\)\. Run the command again and fill it in as Discord's form asks\.$/,
    );
  });
});
