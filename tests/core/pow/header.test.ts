// The PoW answer header (core-upstream §6.4): exact on the pow.json header vectors.
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../../helpers/vectors";
import { powHeader, powHeaderJson } from "../../../src/core/pow/header";
import { powHeader as powHeaderViaChallenge, parseChallenge } from "../../../src/core/pow/challenge";

const v = loadVectors("pow.json");

describe("PoW header vectors", () => {
  for (const h of v.header_vectors) {
    test(`header: ${h.note}`, () => {
      const o = JSON.parse(h.header_json_compact_sorted_keys);
      const { answer, ...fields } = o;
      expect(powHeaderJson(fields, answer)).toBe(h.header_json_compact_sorted_keys);
      expect(powHeader(fields, answer)).toBe(h.header_value);
      expect(powHeaderViaChallenge(fields, answer)).toBe(h.header_value);
    });
  }
});

describe("PoW header shape", () => {
  test("keys are sorted, expire_at and difficulty are left out, the answer is a JSON integer", () => {
    const ch = parseChallenge(
      { target_path: "/p", signature: "s", salt: "x", expire_at: 5, difficulty: 10, challenge: "A".repeat(64), algorithm: "CoreHashV1" },
      "CoreHashV1",
    );
    expect(powHeaderJson(ch, 7)).toBe(`{"algorithm":"CoreHashV1","answer":7,"challenge":"${"A".repeat(64)}","salt":"x","signature":"s","target_path":"/p"}`);
  });

  test("a signature absent from the challenge is null in the header; the challenge keeps its case", () => {
    const ch = parseChallenge({ algorithm: "CoreHashV1", challenge: "aB".repeat(32), salt: "s", expire_at: 1, target_path: "/t" }, "CoreHashV1");
    const decoded = JSON.parse(Buffer.from(powHeader(ch, 0), "base64").toString("utf8"));
    expect(decoded).toEqual({ algorithm: "CoreHashV1", answer: 0, challenge: "aB".repeat(32), salt: "s", signature: null, target_path: "/t" });
  });

  test("non-ASCII values are UTF-8 inside standard Base64 with padding", () => {
    const value = powHeader({ algorithm: "CoreHashV1", challenge: "0".repeat(64), salt: "盐", signature: { k: [1] }, target_path: "/t" }, 3);
    expect(value).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(value.length % 4).toBe(0);
    expect(Buffer.from(value, "base64").toString("utf8")).toContain('"salt":"盐","signature":{"k":[1]}');
  });
});
