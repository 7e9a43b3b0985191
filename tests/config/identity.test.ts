import { describe, expect, test } from "bun:test";
import { loadVectors } from "../helpers/vectors";
import { accountIdentifier, generatedProxyId, normaliseIdentifier, normaliseMobileForStorage } from "../../src/config/identity";
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

describe("generatedProxyId (D0.2)", () => {
  test("proxy_ + first 12 hex of sha256(type:host:port:username)", () => {
    expect(generatedProxyId({ type: "http", host: "h", port: 8080, username: "u" })).toBe(`proxy_${sha256Hex("http:h:8080:u").slice(0, 12)}`);
    expect(generatedProxyId({ type: "http", host: "h", port: 8080 })).toBe(`proxy_${sha256Hex("http:h:8080:").slice(0, 12)}`);
  });
});
