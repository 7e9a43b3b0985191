import { describe, expect, test } from "bun:test";
import { parseLinkHeader, parseLinks } from "../../src/release/link";

const base = "https://host.example/repos/owner/repo/events?page=1";

describe("Link header parsing (RFC 8288, D15.3)", () => {
  test("next and last in the code host's usual form", () => {
    const h = '<https://host.example/repos/owner/repo/events?page=2>; rel="next", <https://host.example/repos/owner/repo/events?page=5>; rel="last"';
    expect(parseLinks(h, base)).toEqual({
      next: "https://host.example/repos/owner/repo/events?page=2",
      last: "https://host.example/repos/owner/repo/events?page=5",
    });
  });

  test("unquoted rel and several rels in one link", () => {
    expect(parseLinks("<https://a.example/p3>; rel=next, <https://a.example/p9>; rel=\"last  LATEST\"", base)).toEqual({
      next: "https://a.example/p3",
      last: "https://a.example/p9",
      latest: "https://a.example/p9",
    });
  });

  test.each([
    ["?page=2", "https://host.example/repos/owner/repo/events?page=2"],
    ["/other/events?page=2", "https://host.example/other/events?page=2"],
    ["../x/events?page=2", "https://host.example/repos/owner/x/events?page=2"],
    ["page2", "https://host.example/repos/owner/repo/page2"],
    ["//cdn.example/e?page=2", "https://cdn.example/e?page=2"],
  ])("relative target %p resolves against the current URL", (target, expected) => {
    expect(parseLinks(`<${target}>; rel="next"`, base).next).toBe(expected);
  });

  test("relation types and parameter names are case-insensitive", () => {
    expect(parseLinks('<https://a.example/2>; REL="Next"', base)).toEqual({ next: "https://a.example/2" });
  });

  test("quoted parameter values may contain ; and , without splitting the link", () => {
    const h = '<https://a.example/2>; title="a; rel=\\"prev\\", b"; rel="next", <https://a.example/1>; rel=prev';
    expect(parseLinks(h, base)).toEqual({ next: "https://a.example/2", prev: "https://a.example/1" });
  });

  test("only the first rel parameter of a link counts", () => {
    expect(parseLinkHeader('<https://a.example/2>; rel=next; rel=last', base)).toEqual([{ url: "https://a.example/2", rels: ["next"] }]);
  });

  test("the first link carrying a rel wins", () => {
    expect(parseLinks("<https://a.example/2>; rel=next, <https://a.example/3>; rel=next", base).next).toBe("https://a.example/2");
  });

  test("malformed pieces are skipped without losing the good links", () => {
    const h = 'garbage; rel=next, <https://a.example/ok>;rel=next , <http://[bad>; rel=last, ,';
    expect(parseLinks(h, base)).toEqual({ next: "https://a.example/ok" });
  });

  test("a link without rel, an empty header and a missing header give no relations", () => {
    expect(parseLinks("<https://a.example/2>; title=x", base)).toEqual({});
    expect(parseLinks("", base)).toEqual({});
    expect(parseLinks(null, base)).toEqual({});
  });
});
