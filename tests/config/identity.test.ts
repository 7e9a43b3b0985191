import { describe, expect, test } from "bun:test";
import { loadVectors } from "../helpers/vectors";
import { accountIdentifier, findAccount, generatedProxyId, normaliseIdentifier, normaliseMobileForStorage } from "../../src/config/identity";
import { sha256Hex } from "../../src/util/hash";

const accounts = loadVectors("accounts.json");

describe("normaliseMobileForStorage (accounts.json storage_mobile_normalisation)", () => {
  for (const v of accounts.storage_mobile_normalisation.vectors as { in: string; out: string }[]) {
    test(`${JSON.stringify(v.in)} → ${JSON.stringify(v.out)}`, () => expect(normaliseMobileForStorage(v.in)).toBe(v.out));
  }
});

describe("accountIdentifier (D8.1)", () => {
  test("the trimmed, lower-cased email wins over the mobile", () => {
    expect(accountIdentifier({ email: "  Alice@Example.COM ", mobile: "13800138000" })).toBe("alice@example.com");
  });

  test("else the stored-form mobile", () => {
    expect(accountIdentifier({ email: "", mobile: "138 0013 8000" })).toBe("+8613800138000");
    expect(accountIdentifier({ email: null, mobile: "+1 (415) 555-2671" })).toBe("+14155552671");
  });

  test("else token: + first 16 hex of sha256(token) (D0.2)", () => {
    const token = "abcdefghijklmnop";
    expect(accountIdentifier({ token })).toBe(`token:${sha256Hex(token).slice(0, 16)}`);
    expect(accountIdentifier({ mobile: "() --", token })).toMatch(/^token:[0-9a-f]{16}$/);
  });

  test("none of them → empty", () => {
    expect(accountIdentifier({})).toBe("");
  });
});

describe("normaliseIdentifier (path segments and X-Svc-Target-Account)", () => {
  test("matches accountIdentifier for each kind", () => {
    expect(normaliseIdentifier(" Bob@X.io")).toBe(accountIdentifier({ email: "bob@x.io" }));
    expect(normaliseIdentifier("13800138000")).toBe(accountIdentifier({ mobile: "+86 138-0013-8000" }));
    const id = accountIdentifier({ token: "secret-token-value" });
    expect(normaliseIdentifier(id.toUpperCase().replace("TOKEN:", "Token:"))).toBe(id);
  });
});

describe("findAccount", () => {
  const list = [{ email: "A@x.io" }, { mobile: "13800138000" }, { token: "tok-1" }, { email: "a@x.io", mobile: "1" }];
  test("finds by identifier as find would, the first of two alike, frozen (indexed) or not", () => {
    for (const l of [list, Object.freeze([...list])]) {
      expect(findAccount(l, "a@x.io")).toBe(list[0]!);
      expect(findAccount(l, "+8613800138000")).toBe(list[1]!);
      expect(findAccount(l, accountIdentifier({ token: "tok-1" }))).toBe(list[2]!);
      expect(findAccount(l, "nobody@x.io")).toBeUndefined();
      expect(findAccount(l, "")).toBeUndefined();
    }
  });

  test("a new frozen list (a config write) is indexed anew; a list that can change is searched each time", () => {
    const first = Object.freeze([{ email: "a@x.io" }]);
    expect(findAccount(first, "a@x.io")).toBe(first[0]!);
    const second = Object.freeze([{ email: "b@x.io" }]);
    expect(findAccount(second, "a@x.io")).toBeUndefined();
    expect(findAccount(second, "b@x.io")).toBe(second[0]!);
    const open: { email: string }[] = [];
    expect(findAccount(open, "c@x.io")).toBeUndefined();
    open.push({ email: "c@x.io" });
    expect(findAccount(open, "c@x.io")).toBe(open[0]!);
  });
});

describe("generatedProxyId (D0.2)", () => {
  test("proxy_ + first 12 hex of sha256(type:host:port:username)", () => {
    expect(generatedProxyId({ type: "http", host: "h", port: 8080, username: "u" })).toBe(`proxy_${sha256Hex("http:h:8080:u").slice(0, 12)}`);
    expect(generatedProxyId({ type: "http", host: "h", port: 8080 })).toBe(`proxy_${sha256Hex("http:h:8080:").slice(0, 12)}`);
  });
});
