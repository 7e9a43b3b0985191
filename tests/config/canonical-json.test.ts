import { describe, expect, test } from "bun:test";
import { canonicalJson } from "../../src/config/canonical-json";
import { configHash } from "../../src/config/hash";

describe("canonicalJson (D0.4)", () => {
  test("sorts keys at every depth, keeps array order, no whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  });

  test("orders keys by code point, not by UTF-16 unit", () => {
    // U+FF61 sorts before U+1F600 by code point, but after it by UTF-16 units (0xD83D < 0xFF61).
    const astral = "\u{1F600}";
    const bmp = "\uFF61";
    expect(canonicalJson({ [astral]: 1, [bmp]: 2 })).toBe(`{"${bmp}":2,"${astral}":1}`);
  });

  test("drops undefined members like JSON.stringify, escapes strings the same way", () => {
    expect(canonicalJson({ a: undefined, b: "q\"\n\u2028" })).toBe(`{"b":${JSON.stringify("q\"\n\u2028")}}`);
    expect(canonicalJson([undefined, 1])).toBe("[null,1]");
  });

  test("key order of the input does not change the output", () => {
    expect(canonicalJson({ x: 1, y: { b: 2, a: 1 } })).toBe(canonicalJson({ y: { a: 1, b: 2 }, x: 1 }));
  });
});

describe("configHash (D14.6)", () => {
  const base = {
    keys: ["k"],
    accounts: [{ email: "a@b.c", password: "p", token: "t1" }],
    runtime: { account_max_inflight: 3 },
  };

  test("stable: 64 hex, same for the same content in any key order", () => {
    const h = configHash(base);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(configHash({ runtime: { account_max_inflight: 3 }, accounts: [{ token: "t1", password: "p", email: "a@b.c" }], keys: ["k"] })).toBe(h);
  });

  test("ignores account tokens and the sync bookkeeping", () => {
    const h = configHash(base);
    expect(configHash({ ...base, accounts: [{ email: "a@b.c", password: "p", token: "t2" }] })).toBe(h);
    expect(configHash({ ...base, accounts: [{ email: "a@b.c", password: "p" }] })).toBe(h);
    expect(configHash({ ...base, _host_sync_hash: "x", _host_sync_time: 5 })).toBe(h);
  });

  test("changes when a setting changes", () => {
    expect(configHash({ ...base, runtime: { account_max_inflight: 4 } })).not.toBe(configHash(base));
  });

  test("does not modify the config", () => {
    const c = structuredClone(base);
    configHash(c);
    expect(c).toEqual(base);
  });
});
