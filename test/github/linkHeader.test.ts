import { describe, expect, it } from "vitest";
import { pageOfLink, parseLinkHeader } from "../../src/github/linkHeader.js";

describe("parseLinkHeader", () => {
  it("reads next and last as GitHub writes them", () => {
    const header =
      '<https://api.github.com/repositories/1300192/contributors?page=2>; rel="next", ' +
      '<https://api.github.com/repositories/1300192/contributors?page=5>; rel="last"';
    expect(parseLinkHeader(header)).toEqual({
      next: "https://api.github.com/repositories/1300192/contributors?page=2",
      last: "https://api.github.com/repositories/1300192/contributors?page=5",
    });
  });

  it("reads prev, next, last and first together", () => {
    const header = [
      '<https://api.github.com/repositories/1/contributors?page=2&per_page=30>; rel="prev"',
      '<https://api.github.com/repositories/1/contributors?page=4&per_page=30>; rel="next"',
      '<https://api.github.com/repositories/1/contributors?page=9&per_page=30>; rel="last"',
      '<https://api.github.com/repositories/1/contributors?page=1&per_page=30>; rel="first"',
    ].join(", ");
    const links = parseLinkHeader(header);
    expect(Object.keys(links).sort()).toEqual(["first", "last", "next", "prev"]);
    expect(pageOfLink(links["prev"])).toBe(2);
    expect(pageOfLink(links["next"])).toBe(4);
    expect(pageOfLink(links["last"])).toBe(9);
    expect(pageOfLink(links["first"])).toBe(1);
  });

  it("gives nothing for an absent or empty header", () => {
    expect(parseLinkHeader(null)).toEqual({});
    expect(parseLinkHeader(undefined)).toEqual({});
    expect(parseLinkHeader("")).toEqual({});
    expect(parseLinkHeader("   ")).toEqual({});
  });

  it("tolerates odd spacing, bare values, upper-case names and several relations in one rel", () => {
    const header =
      '  <https://x.test/a?page=2>;rel=next ,<https://x.test/a?page=7> ;  REL = "last  first"  ;title="a, b"';
    expect(parseLinkHeader(header)).toEqual({
      next: "https://x.test/a?page=2",
      last: "https://x.test/a?page=7",
      first: "https://x.test/a?page=7",
    });
  });

  it("keeps commas inside the target and inside quoted values, and skips links without rel", () => {
    const header =
      '<https://x.test/a?q=1,2&page=3>; title="x, y"; rel="next", <https://x.test/nope>; title="no rel"';
    expect(parseLinkHeader(header)).toEqual({ next: "https://x.test/a?q=1,2&page=3" });
  });

  it("keeps the first of a relation given twice, and survives junk", () => {
    expect(parseLinkHeader('<https://x.test/1>; rel="next", <https://x.test/2>; rel="next"')).toEqual({
      next: "https://x.test/1",
    });
    expect(parseLinkHeader('garbage, <https://x.test/3>; rel="last", <unterminated')).toEqual({
      last: "https://x.test/3",
    });
  });

  it("pageOfLink: page 1 when the target has no page, undefined for junk", () => {
    expect(pageOfLink("https://x.test/a")).toBe(1);
    expect(pageOfLink("not a url")).toBeUndefined();
    expect(pageOfLink("https://x.test/a?page=zero")).toBeUndefined();
    expect(pageOfLink(undefined)).toBeUndefined();
  });
});
